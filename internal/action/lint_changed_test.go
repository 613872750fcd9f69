package action

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/syncbuf"
)

// A pull request's check, as the example workflow runs it: only the
// charts changed since main and those depending on them are linted, and a
// change under a published version fails until the version is bumped.
func TestLintChangedAndPublished(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	chart := func(name, version, extra string) string {
		return "apiVersion: v2\nname: " + name + "\nversion: " + version + "\ndescription: A chart.\nicon: https://example.org/i.svg\n" + extra
	}
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n"
	dep := "dependencies:\n  - {name: lib, version: ^1.0.0, repository: file://../lib}\n"
	cat := filepath.Join(repo, "catalog")
	filetree.Write(t, cat, map[string]string{
		"catalog.yaml":                  "name: c\n",
		"charts/lib/Chart.yaml":         chart("lib", "1.0.0", "type: library\n"),
		"charts/lib/templates/_lib.tpl": `{{- define "lib.name" -}}lib{{- end -}}`,
		"charts/app/Chart.yaml":         chart("app", "2.0.0", dep),
		"charts/app/templates/cm.yaml":  cm,
		"charts/solo/Chart.yaml":        chart("solo", "0.1.0", ""),
		"charts/solo/templates/cm.yaml": cm,
	})
	git("init", "--quiet", "--initial-branch=main")
	git("add", "-A")
	git("commit", "--quiet", "-m", "start")
	git("checkout", "--quiet", "-b", "change")
	published := filepath.Join(t.TempDir(), "site")
	var buildLog syncbuf.Buffer
	if _, err := (&Build{Options: builder.Options{Catalog: cat, Out: published}, Stdout: &buildLog, Stderr: &buildLog}).Run(t.Context()); err != nil {
		t.Fatalf("build: %v\n%s", err, buildLog.String())
	}

	r := lintRun(t, Lint{ChangedSince: "main", Published: published, Paths: []string{cat}})
	if r.code != 0 || !strings.Contains(r.stdout, "no chart changed since main") {
		t.Errorf("nothing changed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// The library's template changes under its version.
	filetree.Write(t, cat, map[string]string{"charts/lib/templates/_lib.tpl": `{{- define "lib.name" -}}library{{- end -}}`})
	r = lintRun(t, Lint{ChangedSince: "main", Published: published, Format: "json", Paths: []string{cat}})
	var report struct {
		Findings []struct{ Rule, File, Chart, Message string }
		Charts   int
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	bumps := map[string]string{}
	for _, f := range report.Findings {
		if f.Rule == "version-bump" {
			bumps[f.Chart] = f.Message
		}
	}
	if r.code != 1 || report.Charts != 2 || len(bumps) != 2 || !strings.Contains(bumps["app"], "version 2.0.0 of app is already published (file://"+filepath.ToSlash(published)+"/app-2.0.0.tgz) with other content: charts/lib/templates/_lib.tpl differs") {
		t.Errorf("lib changed: exit %d, %d charts linted (want lib and app), version-bump %v\n%s", r.code, report.Charts, bumps, r.stderr)
	}

	filetree.Write(t, cat, map[string]string{
		"charts/lib/Chart.yaml": chart("lib", "1.0.1", "type: library\n"),
		"charts/app/Chart.yaml": chart("app", "2.0.1", dep),
	})
	r = lintRun(t, Lint{ChangedSince: "main", Published: published, Paths: []string{cat}})
	if r.code != 0 || !strings.Contains(r.stdout, "2 charts, 0 errors") {
		t.Errorf("bumped: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = lintRun(t, Lint{ChangedSince: "origin/main", Paths: []string{cat}})
	if r.code != 2 || !strings.Contains(r.stderr, `unknown git ref "origin/main"`) || !strings.Contains(r.stderr, "fetch-depth: 0") {
		t.Errorf("unknown ref: exit %d\n%s", r.code, r.stderr)
	}
}

type lintResult struct {
	stdout, stderr string
	code           int
}

// lintRun lints as the command line does, text by default, and gives what
// it printed and its exit code; an error's message ends the error output,
// as the command prints it.
func lintRun(t *testing.T, l Lint) lintResult {
	t.Helper()
	var out, errb syncbuf.Buffer
	if l.Format == "" {
		l.Format = "text"
	}
	l.Stdout, l.Stderr = &out, &errb
	err := l.Run(t.Context())
	if err != nil && err.Error() != "" {
		errb.Write([]byte(err.Error() + "\n"))
	}
	return lintResult{out.String(), errb.String(), ExitCode(err)}
}
