package installtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// testPreCommitHook: a catalog repository names the hook of src in its
// .pre-commit-config.yaml, as the README shows; Debian's pre-commit builds
// catalogist with go install and runs it on each commit's files. A commit
// breaking a schema is refused with the finding's file and line; clean
// commits, and one changing the region file alone, pass after the region's
// catalog is linted with it; a broken region file is refused. pre-commit
// keeps its environments in preCommitHome; testPreCommitHook returns the
// catalogist it built there.
func testPreCommitHook(t *testing.T, hookRepo, rev, preCommitHome string) string {
	precommit := tooltest.Tool(t, "CATALOGIST_PRECOMMIT", "pre-commit")
	repo := t.TempDir()
	home := []string{"PRE_COMMIT_HOME=" + preCommitHome}

	// The catalog: the example ide catalog at the repository's root, and
	// the example region beside it.
	examples := filepath.Join(hookRepo, "examples")
	for _, f := range []string{"ide/catalog.yaml", "ide/charts", "ide/icons"} {
		filetree.Copy(t, filepath.Join(examples, f), filepath.Join(repo, strings.TrimPrefix(f, "ide/")))
	}
	filetree.Copy(t, filepath.Join(examples, "region.yaml"), filepath.Join(repo, "region.yaml"))
	// verbose shows lint's summary of passing runs too.
	config := "repos:\n  - repo: " + hookRepo + "\n    rev: " + rev + "\n    hooks:\n      - id: catalogist-lint\n        verbose: true\n      - id: catalogist-docs\n"
	if err := os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, repo, "init", "-q", "-b", "main")
	if out, code := run(repo, home, precommit, "install"); code != 0 {
		t.Fatalf("pre-commit install: exit %d\n%s", code, out)
	}

	commit := func(msg string) (string, int) {
		t.Helper()
		mustGit(t, repo, "add", "-A")
		return run(repo, home, "git", "commit", "-m", msg)
	}

	begin := time.Now()
	out, code := commit("a catalog")
	t.Logf("first commit, with pre-commit's go install of the hook: %v", time.Since(begin).Round(time.Millisecond))
	if code != 0 || !regexp.MustCompile(`catalogist lint\.+Passed`).MatchString(out) || !strings.Contains(out, "2 charts, 0 errors, 0 warnings") {
		t.Fatalf("a clean catalog's commit: exit %d, want 0 with both charts linted\n%s", code, out)
	}

	// A property without a type, on the line after the first "properties".
	schema := filepath.Join(repo, "charts", "vscode-python", "values.schema.json")
	data, err := os.ReadFile(schema)
	if err != nil {
		t.Fatal(err)
	}
	before, after, ok := strings.Cut(string(data), `"properties": {`)
	if !ok {
		t.Fatalf("%s has no properties", schema)
	}
	line := strings.Count(before, "\n") + 2
	broken := before + `"properties": {` + "\n    \"port\": {\"title\": \"Port\", \"default\": 80}," + after
	if err := os.WriteFile(schema, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	begin = time.Now()
	out, code = commit("a broken schema")
	t.Logf("refused commit: %v", time.Since(begin).Round(time.Millisecond))
	finding := regexp.MustCompile(`(?m)^charts/vscode-python/values\.schema\.json:` + strconv.Itoa(line) + `:\d+: error: .*"port".*\[option-type\]$`)
	if code == 0 || !regexp.MustCompile(`catalogist lint\.+Failed`).MatchString(out) || !finding.MatchString(out) {
		t.Fatalf("a broken schema's commit: exit %d, want it refused with the finding at line %d\n%s", code, line, out)
	}
	if n := strings.TrimSpace(mustGit(t, repo, "rev-list", "--count", "HEAD")); n != "1" {
		t.Errorf("%s commits after the refused one, want 1", n)
	}

	// Repaired, then the region file alone: the hook lints the region's
	// catalog, the one whose catalog.yaml is beside it, with it. The docs
	// hook rewrote the README for the broken schema: the repair undoes that
	// too.
	if err := os.WriteFile(schema, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, repo, "checkout", "--", "charts/vscode-python/README.md")
	region := filepath.Join(repo, "region.yaml")
	regionData, err := os.ReadFile(region)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(region, append(regionData, "# reviewed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, repo, "add", "-A")
	if staged := mustGit(t, repo, "diff", "--cached", "--name-only"); staged != "region.yaml\n" {
		t.Fatalf("staged %q, want the region file alone", staged)
	}
	out, code = commit("the region file alone")
	if code != 0 || !strings.Contains(out, "2 charts, 0 errors, 0 warnings") {
		t.Errorf("the region file's commit: exit %d, want 0 with the catalog's 2 charts linted\n%s", code, out)
	}

	// A schema whose option changed, without its README: catalogist-docs
	// rewrites the README's options section and pre-commit fails the
	// commit, as helm-docs' hook does; with the README staged, it passes.
	if err := os.WriteFile(schema, []byte(strings.Replace(string(data), `"title": "Repository"`, `"title": "Image repository"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	readme := filepath.Join(repo, "charts", "vscode-python", "README.md")
	readmeBefore, _ := os.ReadFile(readme)
	out, code = commit("a schema without its README")
	if code == 0 || !regexp.MustCompile(`catalogist docs\.+Failed`).MatchString(out) || !strings.Contains(out, "files were modified by this hook") {
		t.Fatalf("a schema changed without its README: exit %d, want the README rewritten and the commit refused\n%s", code, out)
	}
	if after, _ := os.ReadFile(readme); string(after) == string(readmeBefore) || !strings.Contains(string(after), "Image repository") {
		t.Fatalf("the hook did not rewrite the README:\n%s", after)
	}
	out, code = commit("a schema with its README")
	if code != 0 || !regexp.MustCompile(`catalogist docs\.+Passed`).MatchString(out) {
		t.Fatalf("a schema with its README as the hook wrote it: exit %d, want 0\n%s", code, out)
	}

	// helm-docs' way: a README.md.gotmpl makes the README helm-docs
	// renders, badges included, which a Chart.yaml change alone makes
	// stale; the hook rewrites it and fails the commit, as helm-docs' hook
	// does.
	chartDir := filepath.Join(repo, "charts", "vscode-python")
	tmpl := "{{ template \"chart.header\" . }}\n{{ template \"chart.badgesSection\" . }}\n\n{{ template \"chart.valuesSection\" . }}\n"
	if err := os.WriteFile(filepath.Join(chartDir, "README.md.gotmpl"), []byte(tmpl), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = commit("a README template without its README")
	if code == 0 || !regexp.MustCompile(`catalogist docs\.+Failed`).MatchString(out) || !strings.Contains(out, "files were modified by this hook") {
		t.Fatalf("a README template without its README: exit %d, want the README rewritten and the commit refused\n%s", code, out)
	}
	if out, code = commit("a README template with its README"); code != 0 {
		t.Fatalf("a README template with its README: exit %d, want 0\n%s", code, out)
	}
	chartYAML := filepath.Join(chartDir, "Chart.yaml")
	chartData, err := os.ReadFile(chartYAML)
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`(?m)^version: .*$`)
	if !version.Match(chartData) {
		t.Fatalf("%s has no version line", chartYAML)
	}
	if err := os.WriteFile(chartYAML, version.ReplaceAll(chartData, []byte("version: 9.9.9")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = commit("a new version without its README")
	if code == 0 || !regexp.MustCompile(`catalogist docs\.+Failed`).MatchString(out) {
		t.Fatalf("a Chart.yaml change without its README: exit %d, want the README rewritten and the commit refused\n%s", code, out)
	}
	if after, _ := os.ReadFile(readme); !strings.Contains(string(after), "![Version: 9.9.9](https://img.shields.io/badge/Version-9.9.9-informational?style=flat-square)") {
		t.Fatalf("the hook did not rewrite the README's badge:\n%s", after)
	}
	if out, code = commit("a new version with its README"); code != 0 {
		t.Fatalf("a new version with its README: exit %d, want 0\n%s", code, out)
	}

	// Tracked files whose names read as flags: pre-commit appends them to
	// the hook's entry, which ends with --, so that each is a path. As
	// flags, the first would make lint write SARIF over a chart's
	// values.yaml, the second one level above the repository.
	values := filepath.Join(chartDir, "values.yaml")
	valuesBefore, err := os.ReadFile(values)
	if err != nil {
		t.Fatal(err)
	}
	above := filepath.Join(filepath.Dir(repo), "values.yaml")
	flags := []string{"--sarif=charts/vscode-python/values.yaml", "--sarif=../values.yaml"}
	for _, f := range flags {
		filetree.Copy(t, values, filepath.Join(repo, f))
	}
	out, code = commit("files named as flags")
	if code != 0 || !regexp.MustCompile(`catalogist lint\.+Passed`).MatchString(out) || !regexp.MustCompile(`catalogist docs\.+Passed`).MatchString(out) {
		t.Errorf("files named as flags: exit %d, want 0 with both hooks passing\n%s", code, out)
	}
	for _, f := range flags {
		// lint names each file it was given, as a path belonging to no
		// chart.
		if !regexp.MustCompile(`no chart to lint: .*` + regexp.QuoteMeta(f) + `.* belong to no chart`).MatchString(out) {
			t.Errorf("lint did not read %s as a path:\n%s", f, out)
		}
	}
	if after, _ := os.ReadFile(values); string(after) != string(valuesBefore) {
		t.Errorf("%s was overwritten:\n%s", values, after)
	}
	if _, err := os.Stat(above); err == nil {
		t.Errorf("%s was written, outside the repository", above)
	}
	if status := mustGit(t, repo, "status", "--porcelain"); status != "" {
		t.Errorf("the hooks changed the work tree:\n%s", status)
	}

	// A hook's flags go in its entry:, before the --, as the docs say;
	// in args:, which pre-commit puts after the entry, a flag is refused
	// as a file that does not exist. An option key holding a pipe is an
	// option-key warning, which --strict refuses.
	configFile := filepath.Join(repo, ".pre-commit-config.yaml")
	withLint := func(extra string) {
		t.Helper()
		c := strings.Replace(config, "      - id: catalogist-lint\n", "      - id: catalogist-lint\n"+extra, 1)
		if err := os.WriteFile(configFile, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	withLint("        entry: catalogist lint --strict --\n")
	if err := os.WriteFile(schema, []byte(strings.Replace(string(data), `"properties": {`, `"properties": {"a|b": {"type": "string", "default": ""},`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = commit("a flag in the hook's entry")
	if code == 0 || !regexp.MustCompile(`catalogist lint\.+Failed`).MatchString(out) || !strings.Contains(out, `warning: option key "a|b" holds the markup character "|"`) {
		t.Errorf("a warning with --strict in the hook's entry: exit %d, want it refused for the warning\n%s", code, out)
	}
	withLint("        args: [--strict]\n")
	out, code = commit("a flag in the hook's args")
	if code == 0 || !strings.Contains(out, "catalogist: --strict: no such file; every argument after -- is a path: put flags before --") {
		t.Errorf("a flag in the hook's args: exit %d, want it refused as no file\n%s", code, out)
	}
	if err := os.WriteFile(configFile, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(schema, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// The second commit staged the README the docs hook rewrote.
	mustGit(t, repo, "checkout", "HEAD", "--", "charts/vscode-python/README.md")

	built := builtBy(t, preCommitHome)

	// A region file with a mistake: the commit is refused at its position.
	if err := os.WriteFile(region, []byte(strings.Replace(string(regionData), "sliderStep: 100,", "sliderStep: x,", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = commit("a broken region")
	line = 1 + strings.Count(string(regionData[:strings.Index(string(regionData), "sliderStep: 100,")]), "\n")
	if code == 0 || !regexp.MustCompile(fmt.Sprintf(`(?m)region\.yaml:%d:\d+: `, line)).MatchString(out) {
		t.Errorf("a broken region file's commit: exit %d, want it refused at region.yaml:%d\n%s", code, line, out)
	}

	return built
}

// builtBy returns the catalogist pre-commit built in its golang environment
// (repo*/golangenv-<version>/bin with pre-commit 3).
func builtBy(t *testing.T, preCommitHome string) string {
	t.Helper()
	built, err := filepath.Glob(filepath.Join(preCommitHome, "repo*", "golangenv-*", "bin", "catalogist"))
	if err != nil || len(built) != 1 {
		t.Fatalf("the catalogist pre-commit built: %v %q", err, built)
	}
	return built[0]
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git(dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
