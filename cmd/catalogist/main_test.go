package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	repo "helm.sh/helm/v4/pkg/repo/v1"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/testkit/corpustest"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

// The CLI is tested as users run it: the real binary, its output and its
// exit status.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "catalogist-cli")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "catalogist")
	// Linking takes a quarter of a minute: the tests that build catalogist
	// themselves (the version's stamping, the action's build step) reuse
	// this binary, which go build finds up to date.
	treeDirty[0] = gitDirty()
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Env = append(os.Environ(), "GOFLAGS="+binaryGoFlags)
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building catalogist: %v\n%s", err, out)
		os.Exit(2)
	}
	treeDirty[1] = gitDirty()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// binaryGoFlags are the flags binary is built with: version control
// stamping, which go build applies by default in a git tree but not when
// run from a test.
const binaryGoFlags = "-buildvcs=true"

// treeDirty tells whether git status showed changes just before and just
// after binary was built.
var treeDirty [2]bool

// gitDirty reports whether git status shows changes in the work tree.
func gitDirty() bool {
	out, err := exec.Command("git", "status", "--porcelain").Output()
	return err == nil && len(out) > 0
}

// copyFile copies the file src to dst, keeping its mode.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

type result struct {
	stdout, stderr string
	code           int
}

func catalogist(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return catalogistIn(t, "", env, args...)
}

// catalogistIn runs catalogist in dir ("" for the test's own).
func catalogistIn(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=", "CI=")
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running catalogist: %v", err)
	}
	if strings.Contains(errb.String(), "panic") || strings.Contains(errb.String(), "goroutine ") {
		t.Fatalf("catalogist panicked:\n%s", errb.String())
	}
	return result{out.String(), errb.String(), code}
}

func examples(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob("../../examples/*")
	if err != nil || len(m) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return m
}

// TestExamplesLintClean is the README's main job: the bundled catalogs
// report nothing, with and without the example region.
func TestExamplesLintClean(t *testing.T) {
	for _, withRegion := range []bool{false, true} {
		args := []string{"lint"}
		if withRegion {
			args = append(args, "--region", "../../examples/region.yaml")
		}
		r := catalogist(t, nil, append(args, examples(t)...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "0 errors, 0 warnings") {
			t.Fatalf("lint of the examples (region %v): exit %d\n%s%s", withRegion, r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "6 charts") || r.stderr != "" {
			t.Errorf("expected the 6 example charts to be linted quietly:\n%s%s", r.stdout, r.stderr)
		}
	}
}

func TestListRules(t *testing.T) {
	r := catalogist(t, nil, "lint", "--rules")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, id := range []string{"json-syntax", "context-path", "slider-pair", "hidden-path", "region-default", "chart-metadata"} {
		if !strings.Contains(r.stdout, id) {
			t.Errorf("rule %s missing from --rules:\n%s", id, r.stdout)
		}
	}
}

const badFixture = "../../testdata/rules/option-type/bad"

func TestFormats(t *testing.T) {
	t.Run("text", func(t *testing.T) {
		r := catalogist(t, nil, "lint", badFixture)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1: %s%s", r.code, r.stdout, r.stderr)
		}
		first := strings.SplitN(r.stdout, "\n", 2)[0]
		if !strings.Contains(first, "values.schema.json:") || !strings.Contains(first, ": error: ") || !strings.HasSuffix(first, "]") {
			t.Errorf("text line not in file:line:col: severity: message [rule] form: %q", first)
		}
	})
	t.Run("json", func(t *testing.T) {
		r := catalogist(t, nil, "lint", "--format", "json", badFixture)
		var out struct {
			Findings []struct {
				Rule, Severity, File, Pointer, Message string
				Line, Column                           int
			}
			Charts int
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r.stdout)
		}
		if r.code != 1 || out.Charts == 0 || len(out.Findings) == 0 {
			t.Fatalf("exit %d, %d charts, %d findings", r.code, out.Charts, len(out.Findings))
		}
		for _, f := range out.Findings {
			if f.Severity != "error" && f.Severity != "warning" || f.Line < 1 || f.Column < 1 || f.Rule == "" {
				t.Errorf("bad finding %+v", f)
			}
		}
	})
	t.Run("sarif", func(t *testing.T) {
		r := catalogist(t, nil, "lint", "--format", "sarif", badFixture)
		var out struct {
			Version string
			Runs    []struct {
				Tool struct {
					Driver struct {
						Name  string
						Rules []struct{ ID string }
					}
				}
				Results []struct {
					RuleID    string
					Level     string
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           struct{ StartLine, StartColumn int }
						}
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		if out.Version != "2.1.0" || len(out.Runs) != 1 || len(out.Runs[0].Results) == 0 || len(out.Runs[0].Tool.Driver.Rules) == 0 {
			t.Fatalf("unexpected SARIF: %s", r.stdout)
		}
		loc := out.Runs[0].Results[0].Locations[0].PhysicalLocation
		if loc.Region.StartLine < 1 || !strings.HasSuffix(loc.ArtifactLocation.URI, ".json") {
			t.Errorf("bad location %+v", loc)
		}
	})
	t.Run("github", func(t *testing.T) {
		// The step's files: without them, a run inside a job would write
		// into that job's.
		dir := t.TempDir()
		step := []string{"GITHUB_ACTIONS=true", "GITHUB_OUTPUT=" + filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY=" + filepath.Join(dir, "summary")}
		for _, env := range [][]string{step, nil} {
			args := []string{"lint", badFixture}
			if env == nil {
				args = []string{"lint", "--format", "github", badFixture}
			}
			r := catalogist(t, env, args...)
			var annotation string
			for line := range strings.Lines(r.stdout) {
				if strings.HasPrefix(line, "::error ") {
					annotation = line
					break
				}
			}
			// The log groups the findings by chart, then annotates them.
			if r.code != 1 || !strings.HasPrefix(r.stdout, "::group::demo (") || !strings.Contains(annotation, "file=") || !strings.Contains(annotation, "line=") || !strings.Contains(annotation, "::option ") {
				t.Errorf("not workflow commands (env %v), exit %d:\n%s%s", env, r.code, r.stdout, r.stderr)
			}
		}
	})
}

func TestStrict(t *testing.T) {
	// duplicate-key findings are warnings only.
	dir := "../../testdata/rules/duplicate-key/bad"
	if r := catalogist(t, nil, "lint", dir); r.code != 0 {
		t.Fatalf("warnings alone must exit 0, got %d\n%s", r.code, r.stdout)
	}
	if r := catalogist(t, nil, "lint", "--strict", dir); r.code != 1 {
		t.Fatalf("--strict with warnings must exit 1, got %d", r.code)
	}
}

// TestBadInput: every kind of bad input gets a message naming the file and
// exit status 2, never a panic.
func TestBadInput(t *testing.T) {
	tmp := t.TempDir()
	write := func(rel, content string) string {
		p := filepath.Join(tmp, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	chart := func(name, schema string) string {
		write(name+"/Chart.yaml", "apiVersion: v2\nname: "+name+"\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n")
		return write(name+"/values.schema.json", schema)
	}
	binSchema := chart("binary", "{\"a\":\x00\x01\x02}")
	deep := chart("deep", strings.Repeat("[", 10000)+strings.Repeat("]", 10000))
	empty := filepath.Join(tmp, "empty")
	os.MkdirAll(empty, 0o755)
	unreadable := chart("unreadable", `{"type":"object"}`)
	os.Chmod(unreadable, 0)
	huge := filepath.Join(tmp, "huge", "values.schema.json")
	os.MkdirAll(filepath.Dir(huge), 0o755)
	if f, err := os.Create(huge); err == nil {
		f.Truncate(17 << 20)
		f.Close()
	}
	badRegion := write("region.yaml", "sliders:\n  cpu: {sliderMin: x, sliderMax: 2, sliderStep: 1, sliderUnit: m}\n")

	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing path", []string{"lint", filepath.Join(tmp, "nope")}, "nope"},
		{"directory without charts", []string{"lint", empty}, "no chart found"},
		{"binary schema", []string{"lint", filepath.Dir(binSchema)}, "binary"},
		{"deep nesting", []string{"lint", filepath.Dir(deep)}, "nesting deeper"},
		{"huge file", []string{"lint", huge}, "bytes accepted"},
		{"unknown format", []string{"lint", "--format", "xml", badFixture}, "unknown format"},
		{"bad flag", []string{"lint", "--nope"}, "unknown flag"},
		{"bad region", []string{"lint", "--region", badRegion, badFixture}, "region.yaml:2:"},
		{"region id without region", []string{"lint", "--region-id", "x", badFixture}, "--region-id needs --region"},
		{"bad extension key", []string{"lint", "--extension-key", "onyxia", badFixture}, "must start with x-"},
		{"a file that is no schema", []string{"lint", badRegion}, "is not a catalog"},
	}
	if os.Geteuid() != 0 { // root reads files whatever their mode
		cases = append(cases, struct {
			name string
			args []string
			want string
		}{"unreadable", []string{"lint", filepath.Dir(unreadable)}, "permission denied"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := catalogist(t, nil, tc.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q does not mention %q", r.stderr, tc.want)
			}
		})
	}
}

func TestBuild(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	r := catalogist(t, nil, "build", "../../examples/ide", "--out", out, "--region", "../../examples/region.yaml")
	if r.code != 0 || !strings.Contains(r.stdout, "built 2 chart(s)") || !strings.Contains(r.stdout, "2 packaged") {
		t.Fatalf("build of the ide example: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, f := range []string{"index.yaml", "index.html", "vscode-python-1.2.0.tgz", "charts/vscode-python/index.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("build output lacks %s: %v", f, err)
		}
	}
	r = catalogist(t, nil, "build", "../../examples/ide", "--out", out, "--base-url", "https://example.org/ide/")
	if r.code != 0 || !strings.Contains(r.stdout, "0 packaged, 2 unchanged") {
		t.Fatalf("rebuild: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.yaml"))
	if !strings.Contains(string(index), "- https://example.org/ide/vscode-python-1.2.0.tgz") {
		t.Errorf("--base-url did not make the URLs absolute:\n%s", index)
	}
}

func TestBuildRefusals(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no out", []string{"build", "../../examples/ide"}, 2, "--out is required"},
		{"prune alone", []string{"build", "../../examples/ide", "--out", out, "--prune"}, 2, "--prune needs --merge"},
		{"bad index format", []string{"build", "../../examples/ide", "--out", out, "--index-format", "xml"}, 2, "index format"},
		{"missing catalog", []string{"build", "no/such/dir", "--out", out}, 2, "no/such/dir"},
		{"lint errors", []string{"build", badFixture, "--out", out}, 1, "lint found"},
		{"missing published index", []string{"build", "../../examples/ide", "--out", out, "--merge", "no/such/index.yaml"}, 2, "no/such/index.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := catalogist(t, nil, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d (want %d), stderr should contain %q:\n%s%s", r.code, tc.code, tc.want, r.stdout, r.stderr)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused build wrote its output: %v", err)
	}
}

// servedIDE builds examples/ide, serves it on loopback and writes a
// catalogs file naming it (id ide). It returns the test's directory and
// the catalogs file.
func servedIDE(t *testing.T) (dir, cats string) {
	t.Helper()
	dir = t.TempDir()
	out := filepath.Join(dir, "site")
	if r := catalogist(t, nil, "build", "../../examples/ide", "--out", out); r.code != 0 {
		t.Fatalf("build: %s%s", r.stdout, r.stderr)
	}
	srv := repotest.Serve(t, out)
	cats = filepath.Join(dir, "catalogs.yaml")
	if err := os.WriteFile(cats, []byte(fmt.Sprintf("catalogs:\n  - {id: ide, name: IDEs, location: %q, highlightedCharts: [vscode-python]}\n", srv.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, cats
}

// TestLaunchCLI launches from a built and served example catalog without a
// cluster (--dry-run); the launcher's tests cover the cluster.
func TestLaunchCLI(t *testing.T) {
	dir, cats := servedIDE(t)
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "KUBECONFIG=" + filepath.Join(dir, "none")}
	common := []string{"--catalogs", cats, "--profile", "../../examples/profile.yaml", "--region", "../../examples/region.yaml"}
	gpuValues := filepath.Join(dir, "gpu.yaml")
	if err := os.WriteFile(gpuValues, []byte("resources: {limits: {nvidia.com/gpu: \"9\"}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const gpuBound = `resources.limits.nvidia\.com/gpu: "9": "9" is outside the slider range 0 to 2 (allowed 0 to 2 in steps of 1, region bound "gpu" from ../../examples/region.yaml)`

	r := catalogist(t, env, "catalogs", "--catalogs", cats)
	if r.code != 0 || !strings.Contains(r.stdout, "* vscode-python") || !strings.Contains(r.stdout, "jupyter-pytorch-gpu") {
		t.Fatalf("catalogs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = catalogist(t, env, append([]string{"launch", "ide/vscode-python", "--dry-run", "--show-values", "--name", "code"}, common...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "kind: Deployment") || !strings.Contains(r.stdout, "password: '********'") ||
		strings.Contains(r.stdout, "Tr0ub4dor-3x") || !strings.Contains(r.stderr, "sha256:") {
		t.Fatalf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// list and uninstall are configured for the cluster as launch is.
	for _, args := range [][]string{{"list"}, {"uninstall", "code"}} {
		if r := catalogist(t, env, args...); r.code != 1 || !strings.Contains(r.stderr, "no kubeconfig found; set KUBECONFIG or pass --kubeconfig") {
			t.Errorf("%s without a cluster: exit %d\n%s%s", args[0], r.code, r.stdout, r.stderr)
		}
	}

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"out of bounds", []string{"launch", "ide/vscode-python", "--dry-run", "--set", "resources.limits.cpu=9000m"}, 1, `resources.limits.cpu: "9000m": "9000m" is outside the slider range 100m to 8000m`},
		{"unknown chart", []string{"launch", "ide/vscode", "--dry-run"}, 1, `has no chart "vscode"`},
		{"bad ref", []string{"launch", "vscode-python"}, 2, "write CATALOG/CHART"},
		{"unknown catalog", []string{"launch", "db/postgresql"}, 2, `no catalog "db"`},
		{"no cluster", []string{"launch", "ide/vscode-python"}, 1, "no cluster to launch into"},
		{"missing profile", []string{"launch", "ide/vscode-python", "--profile", "nope.yaml"}, 2, "nope.yaml"},
		{"gpu values file", []string{"launch", "ide/vscode-python", "--dry-run", "-f", gpuValues}, 1, gpuBound},
		{"gpu set-string", []string{"launch", "ide/vscode-python", "--dry-run", "--set-string", `resources.limits.nvidia\.com/gpu=9`}, 1, gpuBound},
		{"gpu set-json", []string{"launch", "ide/vscode-python", "--dry-run", "--set-json", `resources.limits={"nvidia.com/gpu": "9"}`}, 1, gpuBound},
		{"gpu set number", []string{"launch", "ide/vscode-python", "--dry-run", "--set", `resources.limits.nvidia\.com/gpu=2`}, 1, `resources.limits.nvidia\.com/gpu: 2: got number, want string (--set-string sets a string)`},
		{"gpu within the region", []string{"launch", "ide/vscode-python", "--dry-run", "-f", gpuValues, "--set-string", `resources.limits.nvidia\.com/gpu=2`}, 0, "dry run: vscode-python would be installed"},
		{"gpu under onyxia", []string{"launch", "ide/vscode-python", "--dry-run", "--platform", "onyxia", "--set-string", `resources.limits.nvidia\.com/gpu=3`}, 0, "the onyxia platform has no region resources or slider configurations"},
		{"unknown platform", []string{"launch", "ide/vscode-python", "--dry-run", "--platform", "onyxa"}, 2, `--platform: unknown platform "onyxa"`},
		{"missing registry", []string{"launch", "ide/vscode-python", "--dry-run", "--schema-registry", "no/such/dir"}, 2, "no/such/dir"},
		{"set-json secret", []string{"launch", "ide/vscode-python", "--dry-run", "--set-json", "git.token=hunter2"}, 1, "--set-json git.token: the value is not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{}, tc.args...), "--catalogs", cats)
			if !slices.Contains(tc.args, "--profile") {
				args = append(args, common[2:]...)
			}
			r := catalogist(t, env, args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d (want %d), stderr should contain %q:\n%s%s", r.code, tc.code, tc.want, r.stdout, r.stderr)
			}
			if strings.Contains(r.stdout+r.stderr, "hunter2") {
				t.Errorf("a secret was printed:\n%s%s", r.stdout, r.stderr)
			}
		})
	}
}

// TestLaunchUnopenableForm launches a chart whose form the platform would
// not open, published by Helm alone (catalogist build would refuse it): the
// launch is refused with each reason at its position, for the platform the
// catalogs entry names. A platform the entry misspells is an input error.
func TestLaunchUnopenableForm(t *testing.T) {
	dir := t.TempDir()
	chartDir := filepath.Join(dir, "vscode-python")
	if err := os.CopyFS(chartDir, os.DirFS("../../examples/ide/charts/vscode-python")); err != nil {
		t.Fatal(err)
	}
	schemaPath := filepath.Join(chartDir, "values.schema.json")
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `"render": "textArea"`, `"render": "textarea"`, 1)
	if err := os.WriteFile(schemaPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	i := strings.Index(text, `"textarea"`)
	pos := fmt.Sprintf("%d:%d", strings.Count(text[:i], "\n")+1, i-strings.LastIndex(text[:i], "\n"))
	ch, err := loader.Load(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	repoDir := filepath.Join(dir, "repo")
	if _, err := chartutil.Save(ch, repoDir); err != nil {
		t.Fatal(err)
	}
	idx, err := repo.IndexDirectory(repoDir, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(filepath.Join(repoDir, "index.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := repotest.Serve(t, repoDir)
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "KUBECONFIG=" + filepath.Join(dir, "none")}
	cats := filepath.Join(dir, "catalogs.yaml")
	for _, tc := range []struct {
		platform string
		code     int
		want     string
	}{
		{"onyxia", 1, "vscode-python 1.2.0: the onyxia platform's form would not open for this chart, so the platform would not let a user launch it either; nothing was installed:\n  values.schema.json:" + pos + `: render "textarea" of option "init/script" is not one of slider, textArea, password, list`},
		{"catalogist", 1, "the catalogist platform's form would not open"},
		{"onyxa", 2, cats + `:1:` + fmt.Sprint(len("- {id: ide, location: \"")+len(srv.URL)+len("\", platform: ")+1) + `: platform "onyxa" is not one of catalogist, onyxia; did you mean "onyxia"?`},
	} {
		if err := os.WriteFile(cats, []byte(fmt.Sprintf("- {id: ide, location: %q, platform: %s}\n", srv.URL, tc.platform)), 0o644); err != nil {
			t.Fatal(err)
		}
		r := catalogist(t, env, "launch", "ide/vscode-python", "--dry-run", "--show-values", "--catalogs", cats, "--profile", "../../examples/profile.yaml")
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stdout, "kind: Deployment") {
			t.Errorf("platform %s: exit %d (want %d), stderr should contain %q:\n%s%s", tc.platform, r.code, tc.code, tc.want, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, "Tr0ub4dor-3x") {
			t.Errorf("platform %s: the project password was printed:\n%s", tc.platform, r.stdout)
		}
	}
}

// migrate prints a diff and writes nothing, writes with --write, and then
// finds nothing to change; bad input is a usage error.
func TestMigrateCLI(t *testing.T) {
	dir := t.TempDir()
	values := filepath.Join(dir, "values.yaml")
	src, err := os.ReadFile("../../internal/target/migrate/testdata/values/values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(values, src, 0o644); err != nil {
		t.Fatal(err)
	}
	index := "../../internal/target/migrate/testdata/repo/index.yaml"
	r := catalogist(t, nil, "migrate", "--values", values, "--repo-index", index)
	if r.code != 0 || !strings.Contains(r.stdout, "-    tag: v2.29.4") || !strings.Contains(r.stderr, "run again with --write") {
		t.Fatalf("dry run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if data, _ := os.ReadFile(values); !bytes.Equal(data, src) {
		t.Fatal("the file was written without --write")
	}
	for _, want := range []string{"api.image.tag removed (was v2.29.4)", "helm repo add onyxia https://inseefrlab.github.io/onyxia", "helm upgrade --install onyxia onyxia/onyxia --version 4.1.4 -f " + values} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	r = catalogist(t, nil, "migrate", "--values", values, "--repo-index", index, "--write")
	if r.code != 0 || !strings.Contains(r.stderr, "wrote 1 file(s) for onyxia 4.1.4") {
		t.Fatalf("--write: exit %d\n%s", r.code, r.stderr)
	}
	r = catalogist(t, nil, "migrate", "--values", values, "--repo-index", index)
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "nothing to change") {
		t.Fatalf("second run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if r := catalogist(t, nil, "migrate"); r.code != 2 || !strings.Contains(r.stderr, "nothing to migrate") {
		t.Errorf("no input: exit %d\n%s", r.code, r.stderr)
	}
	if r := catalogist(t, nil, "migrate", "--values", filepath.Join(dir, "none.yaml")); r.code != 2 || !strings.Contains(r.stderr, "none.yaml") {
		t.Errorf("missing file: exit %d\n%s", r.code, r.stderr)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("web: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := catalogist(t, nil, "migrate", "--values", bad, "--repo-index", index); r.code != 2 || !strings.Contains(r.stderr, "bad.yaml") || !strings.Contains(r.stderr, "line") {
		t.Errorf("bad YAML: exit %d\n%s", r.code, r.stderr)
	}
	if r := catalogist(t, nil, "migrate", "--values", values, "--repo-index", filepath.Join(dir, "no-index.yaml")); r.code != 1 || !strings.Contains(r.stderr, "--repo-index") {
		t.Errorf("unreadable index: exit %d\n%s", r.code, r.stderr)
	}
}

// lintCatalog writes a catalog whose charts each have an option without a
// type (one option-type error), with catalogYAML as its catalog.yaml when
// not empty.
func lintCatalog(t *testing.T, catalogYAML string, charts ...string) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if catalogYAML != "" {
		write("catalog.yaml", catalogYAML)
	}
	for _, c := range charts {
		write("charts/"+c+"/Chart.yaml", "apiVersion: v2\nname: "+c+"\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n")
		write("charts/"+c+"/values.schema.json", `{"type": "object", "properties": {"nickname": {"title": "Nickname", "default": "x"}}}`)
	}
	return dir
}

// A baseline recorded once keeps the known findings quiet; only new ones
// are reported and fail the run.
func TestLintBaseline(t *testing.T) {
	dir := lintCatalog(t, "", "jupyter", "rstudio")
	base := filepath.Join(t.TempDir(), "lint-baseline.json")

	r := catalogist(t, nil, "lint", "--baseline", base, dir)
	if r.code != 2 || !strings.Contains(r.stderr, "baseline "+base+" does not exist") || !strings.Contains(r.stderr, "--baseline "+base+" --write-baseline") {
		t.Errorf("missing baseline: exit %d\n%s", r.code, r.stderr)
	}
	r = catalogist(t, nil, "lint", "--write-baseline", dir)
	if r.code != 2 || !strings.Contains(r.stderr, "--write-baseline needs --baseline FILE") {
		t.Errorf("--write-baseline alone: exit %d\n%s", r.code, r.stderr)
	}

	r = catalogist(t, nil, "lint", "--baseline", base, "--write-baseline", dir)
	if r.code != 0 || r.stdout != "recorded 2 finding(s) in "+base+"\n" {
		t.Fatalf("--write-baseline: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(base)
	if err != nil || strings.Count(string(data), `"rule":"option-type"`) != 2 {
		t.Fatalf("baseline file (%v):\n%s", err, data)
	}

	r = catalogist(t, nil, "lint", "--baseline", base, dir)
	if r.code != 0 || r.stdout != "2 charts, 0 errors, 0 warnings (and 2 in the baseline)\n" {
		t.Errorf("with the baseline: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A new flaw, below lines that moved: only it is reported.
	schema := filepath.Join(dir, "charts", "rstudio", "values.schema.json")
	if err := os.WriteFile(schema, []byte("\n\n"+`{"type": "object", "properties": {"nickname": {"title": "Nickname", "default": "x"}, "port": {"default": 80}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = catalogist(t, nil, "lint", "--baseline", base, dir)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 1 || len(lines) != 2 || !strings.Contains(lines[0], `option "port"`) || lines[1] != "2 charts, 1 error, 0 warnings (and 2 in the baseline)" {
		t.Errorf("a new finding: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A fixed finding leaves its baseline entry stale, which is said.
	if err := os.WriteFile(schema, []byte(`{"type": "object", "properties": {"nickname": {"title": "Nickname", "type": "string", "default": "x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = catalogist(t, nil, "lint", "--baseline", base, dir)
	if r.code != 0 || !strings.Contains(r.stderr, "1 finding(s) of "+base+" no longer occur") {
		t.Errorf("stale entry: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	if err := os.WriteFile(base, []byte("{\n  \"version\": 1,\n  \"findings\": [\n    {\"rule\": \"option-type\"}\n  ]\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = catalogist(t, nil, "lint", "--baseline", base, dir)
	if r.code != 2 || !strings.Contains(r.stderr, base+":4:5: ") {
		t.Errorf("malformed baseline: exit %d\n%s", r.code, r.stderr)
	}
}

// catalog.yaml's lint: section changes what a lint run reports and how it
// exits; a mistake in it is an input error at its position.
func TestLintCatalogConfig(t *testing.T) {
	dir := lintCatalog(t, "lint:\n  rules:\n    option-type: warning\n", "jupyter", "jupyter-gpu", "rstudio")
	r := catalogist(t, nil, "lint", dir)
	if r.code != 0 || !strings.Contains(r.stdout, ": warning: option \"nickname\"") || !strings.Contains(r.stdout, "\n  also in 2 charts: jupyter, rstudio\n") ||
		!strings.HasSuffix(r.stdout, "3 charts, 0 errors, 3 warnings\n") {
		t.Errorf("option-type as a warning: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := catalogist(t, nil, "lint", "--strict", dir); r.code != 1 {
		t.Errorf("--strict with the lowered findings: exit %d, want 1", r.code)
	}

	dir = lintCatalog(t, "lint:\n  ignore:\n    - {rule: option-type, charts: [\"jupyter*\"], option: nickname}\n", "jupyter", "jupyter-gpu", "rstudio")
	r = catalogist(t, nil, "lint", "--format", "json", dir)
	var out struct {
		Findings []struct{ Rule, Chart, Option string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if r.code != 1 || len(out.Findings) != 1 || out.Findings[0].Chart != "rstudio" || out.Findings[0].Option != "nickname" {
		t.Errorf("ignore entry: exit %d, findings %+v", r.code, out.Findings)
	}

	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"unknown rule", "lint:\n  rules:\n    option-typo: off\n", `catalog.yaml:3:5: unknown rule "option-typo" in lint.rules; did you mean "option-type"?`},
		{"bad level", "lint:\n  rules:\n    option-type: quiet\n", `catalog.yaml:3:18: lint.rules.option-type is "quiet": write off, warning or error`},
		{"bad platform", "platform: onyxa\n", `catalog.yaml:1:11: unknown platform "onyxa"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := catalogist(t, nil, "lint", lintCatalog(t, tc.yaml, "jupyter"))
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d (want 2), stderr should contain %q:\n%s", r.code, tc.want, r.stderr)
			}
		})
	}
}

// build reads schemas as the platform's API serves them: --schema-registry
// replaces the properties that name a registry schema, --platform picks
// the platform whose form the pages describe; a mistaken setting is a usage
// error before anything is built.
func TestBuildSchemaFlags(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("catalog/catalog.yaml", "name: ide\nextensionKey: x-onyxia\n")
	write("catalog/charts/jupyter/Chart.yaml", "apiVersion: v2\nname: jupyter\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n")
	write("catalog/charts/jupyter/values.schema.json", `{"type": "object", "properties": {"git": {"type": "object", "x-onyxia": {"overwriteSchemaWith": "ide/git.json"},
  "properties": {"inlineName": {"type": "string", "default": "x"}}}}}`)
	write("registry/ide/git.json", `{"type": "object", "properties": {"registryName": {"type": "string", "default": "2m",
  "render": "slider", "sliderMin": 1, "sliderMax": 9, "sliderStep": 1, "sliderUnit": "m", "x-onyxia": {"useRegionSliderConfig": "cpu"}}}}`)
	cat, reg := filepath.Join(dir, "catalog"), filepath.Join(dir, "registry")
	out := filepath.Join(dir, "site")
	page := func() string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(out, "charts", "jupyter", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}

	r := catalogist(t, nil, "build", cat, "--out", out, "--schema-registry", reg)
	if r.code != 0 {
		t.Fatalf("build with --schema-registry: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if p := page(); !strings.Contains(p, `<code class="path">git/<wbr>registryName</code>`) || strings.Contains(p, "inlineName") ||
		!strings.Contains(p, "on the onyxia platform useRegionSliderConfig is ignored") {
		t.Errorf("the page does not show the registry's option as the onyxia platform does:\n%s", p)
	}
	r = catalogist(t, nil, "build", cat, "--out", out, "--schema-registry", reg, "--platform", "catalogist")
	if r.code != 0 {
		t.Fatalf("build with --platform catalogist: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if p := page(); !strings.Contains(p, "What the catalogist platform's configuration form shows") || strings.Contains(p, "is ignored") {
		t.Errorf("--platform catalogist did not change the page:\n%s", p)
	}
	r = catalogist(t, nil, "build", cat, "--out", out)
	if r.code != 0 {
		t.Fatalf("build without a registry: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if p := page(); !strings.Contains(p, `<code class="path">git/<wbr>inlineName</code>`) || strings.Contains(p, "registryName") {
		t.Errorf("without --schema-registry the page does not show the inline option:\n%s", p)
	}

	before, _ := os.ReadFile(filepath.Join(out, "index.yaml"))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown platform", []string{"--platform", "onyxa"}, `--platform: unknown platform "onyxa"`},
		{"missing registry", []string{"--schema-registry", filepath.Join(dir, "no-such-dir")}, "reading schema registry"},
		{"bad extension key", []string{"--extension-key", "onyxia"}, "must start with x-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := catalogist(t, nil, append([]string{"build", cat, "--out", out}, tc.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d (want 2), stderr should contain %q:\n%s%s", r.code, tc.want, r.stdout, r.stderr)
			}
		})
	}
	if after, _ := os.ReadFile(filepath.Join(out, "index.yaml")); !bytes.Equal(before, after) {
		t.Error("a refused build changed the output")
	}
	if r := catalogist(t, nil, "build", "--help"); !strings.Contains(r.stdout, "--schema-registry") || !strings.Contains(r.stdout, "--platform") {
		t.Errorf("build --help does not list the schema flags:\n%s", r.stdout)
	}
}

const formCatalog = "testdata/formcatalog"

// formJSON runs catalogist form with --format json and decodes its output.
func formJSON(t *testing.T, args ...string) (map[string]any, result) {
	t.Helper()
	r := catalogist(t, nil, append([]string{"form", "--format", "json"}, args...)...)
	var out map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("form %v: exit %d, output is not JSON (%v):\n%s%s", args, r.code, err, r.stdout, r.stderr)
	}
	return out, r
}

// formOption returns the option of a description with the key segments.
func formOption(t *testing.T, d map[string]any, key ...string) map[string]any {
	t.Helper()
	want, _ := json.Marshal(key)
	for _, o := range d["options"].([]any) {
		got, _ := json.Marshal(o.(map[string]any)["key"])
		if string(got) == string(want) {
			return o.(map[string]any)
		}
	}
	t.Fatalf("no option %s in %v", want, d["options"])
	return nil
}

func TestFormCLI(t *testing.T) {
	chart := filepath.Join(formCatalog, "charts", "analytics")
	profile := filepath.Join(formCatalog, "profile.yaml")

	t.Run("text", func(t *testing.T) {
		r := catalogist(t, nil, "form", chart, "--profile", profile)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
		for _, want := range []string{
			"platform onyxia (extension x-onyxia), in the launch context " + profile + "\n",
			"\ngit (Git):\n  enabled: checkbox = true (default)\n  name (User name): text = \"Ada Lovelace\" (context git.name)\n",
			"\n  token (Token): password = ******** (context git.token)\n",
			"\nresources:\n  limits:\n    nvidia.com/gpu (GPU): slider = \"1\" (default), 0–4 step 1 (chart)\n",
			"\n  port: number = 8888 (default) [read-only]\n",
			"\n    choices: \"lab\", \"notebook\"\n",
			"\nflag: text = \"yes\" (values.yaml)\n",
			"\nvalues:\n  flag: \"yes\"\n",
			"\nthe form opens\n",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("text output lacks %q:\n%s", want, r.stdout)
			}
		}
		for _, secret := range []string{"ghp_secret123", "hvs.secret456"} {
			if strings.Contains(r.stdout, secret) {
				t.Errorf("text output shows the secret %s:\n%s", secret, r.stdout)
			}
		}
	})

	t.Run("json", func(t *testing.T) {
		d, r := formJSON(t, chart, "--profile", profile)
		if r.code != 0 || d["opens"] != true || d["platform"] != "onyxia" || d["extensionKey"] != "x-onyxia" {
			t.Fatalf("exit %d, opens %v, platform %v, key %v", r.code, d["opens"], d["platform"], d["extensionKey"])
		}
		gpu := formOption(t, d, "resources", "limits", "nvidia.com/gpu")
		if gpu["widget"] != "slider" || gpu["value"] != "1" || gpu["slider"].(map[string]any)["origin"] != "chart" {
			t.Errorf("gpu option = %v", gpu)
		}
		values := d["values"].(map[string]any)
		// values.yaml is read as YAML 1.2: yes stays a string.
		if values["flag"] != "yes" || values["image"] != "jupyter/lab:4" {
			t.Errorf("values = %v", values)
		}
		if git := values["git"].(map[string]any); git["token"] != "********" || git["name"] != "Ada Lovelace" || values["vault"] != "********" {
			t.Errorf("secrets not masked in JSON: %v", values)
		}
		if failures := d["failures"].([]any); len(failures) != 0 {
			t.Errorf("failures = %v", failures)
		}

		d, _ = formJSON(t, chart, "--profile", profile, "--show-secrets")
		if git := d["values"].(map[string]any)["git"].(map[string]any); git["token"] != "ghp_secret123" {
			t.Errorf("--show-secrets masked the token: %v", git)
		}
	})

	t.Run("yaml", func(t *testing.T) {
		r := catalogist(t, nil, "form", chart, "--format", "yaml")
		var d map[string]any
		if err := yaml.Unmarshal([]byte(r.stdout), &d); err != nil || r.code != 0 || d["opens"] != true {
			t.Fatalf("exit %d, YAML %v (%v):\n%s", r.code, d["opens"], err, r.stdout)
		}
	})

	t.Run("schema file and package", func(t *testing.T) {
		d, r := formJSON(t, filepath.Join(chart, "values.schema.json"))
		if r.code != 0 || d["values"].(map[string]any)["flag"] != "yes" {
			t.Errorf("schema file: exit %d, values %v; want values.yaml beside it read", r.code, d["values"])
		}
		hc, err := loader.LoadDir(chart)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := chartutil.Save(hc, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		d, r = formJSON(t, pkg, "--profile", profile)
		// A package carries no catalog.yaml: its schema's x-onyxia is found.
		if r.code != 0 || d["extensionKey"] != "x-onyxia" || d["file"] != filepath.Join(pkg, "analytics", "values.schema.json") {
			t.Errorf("package: exit %d, key %v, file %v", r.code, d["extensionKey"], d["file"])
		}
		if name := formOption(t, d, "git", "name"); name["value"] != "Ada Lovelace" || d["values"].(map[string]any)["flag"] != "yes" {
			t.Errorf("package: git name %v, values %v", name["value"], d["values"])
		}
	})

	t.Run("does not open", func(t *testing.T) {
		broken := filepath.Join(formCatalog, "charts", "broken")
		r := catalogist(t, nil, "form", broken)
		if r.code != 1 || !strings.Contains(r.stdout, filepath.Join(broken, "values.schema.json")+":4:22: slider \"cpus\" has type integer") ||
			!strings.HasSuffix(r.stdout, "\nthe form does not open: 1 failure(s), 0 shape problem(s)\n") {
			t.Errorf("exit %d, want 1 with the failure at 4:22:\n%s%s", r.code, r.stdout, r.stderr)
		}
		d, r := formJSON(t, broken)
		f := d["failures"].([]any)
		if r.code != 1 || d["opens"] != false || len(f) != 1 {
			t.Fatalf("exit %d, opens %v, failures %v", r.code, d["opens"], f)
		}
		if fl := f[0].(map[string]any); fl["line"] != 4.0 || fl["column"] != 22.0 || fmt.Sprint(fl["key"]) != "[cpus]" || fl["kind"] != "slider" {
			t.Errorf("failure = %v", fl)
		}
		// Everything else is still computed and printed.
		if d["values"].(map[string]any)["name"] != "n" {
			t.Errorf("values = %v", d["values"])
		}
	})

	t.Run("usage errors", func(t *testing.T) {
		dir := t.TempDir()
		write := func(name, data string) string {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
		schemaOK := `{"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}`
		write("badvalues/Chart.yaml", "apiVersion: v2\nname: badvalues\nversion: 1.0.0\n")
		write("badvalues/values.schema.json", schemaOK)
		write("badvalues/values.yaml", "a: [1\n")
		badJSON := write("badjson/values.schema.json", "{\n  \"type\": \"object\",,\n}\n")
		okSchema := write("ok/values.schema.json", schemaOK)
		badProfile := write("profile.yaml", "- not a mapping\n")
		for _, tc := range []struct {
			name string
			args []string
			want string
		}{
			{"missing chart", []string{"form", filepath.Join(dir, "nothing")}, "nothing"},
			{"unknown format", []string{"form", chart, "--format", "xml"}, `unknown format "xml"`},
			{"a catalog", []string{"form", formCatalog}, "name one chart"},
			{"bad values.yaml", []string{"form", filepath.Join(dir, "badvalues")}, filepath.Join(dir, "badvalues", "values.yaml") + ":1:1: did not find"},
			{"bad schema", []string{"form", badJSON}, badJSON + ":2:"},
			{"bad profile", []string{"form", okSchema, "--profile", badProfile}, badProfile + ":1:1: a launch context is a mapping"},
			{"region id alone", []string{"form", okSchema, "--region-id", "r"}, "--region-id needs --region"},
			{"unknown platform", []string{"form", okSchema, "--platform", "other"}, "--platform"},
			{"two charts", []string{"form", okSchema, okSchema}, "accepts 1 arg"},
		} {
			r := catalogist(t, nil, tc.args...)
			if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2, nothing written and %q", tc.name, r.code, r.stdout, r.stderr, tc.want)
			}
		}
	})
}

// TestFormVectorsCLI runs every form vector through the command: the form
// opens, the exit status and the values agree with want.json.
func TestFormVectorsCLI(t *testing.T) { formVectorsCLI(t, "../../testdata/form") }

func formVectorsCLI(t *testing.T, vectors string) {
	dirs, err := filepath.Glob(filepath.Join(vectors, "*", "want.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// schema's TestFormVectors judges every vector's computation; through the
	// command, one vector of each combination of inputs (platform, context,
	// region, registry) and outcome checks the wiring, since every run
	// starts the binary.
	seen := map[string]bool{}
	for _, w := range dirs {
		dir := filepath.Dir(w)
		var c struct {
			Platform, ExtensionKey, Schema string
		}
		data, err := os.ReadFile(filepath.Join(dir, "case.yaml"))
		if err != nil || yaml.Unmarshal(data, &c) != nil {
			t.Fatalf("%s: case.yaml: %v", dir, err)
		}
		wantData, err := os.ReadFile(w)
		if err != nil {
			t.Fatal(err)
		}
		kind := fmt.Sprint(c.Platform, c.ExtensionKey, c.Schema != "", exists(filepath.Join(dir, "context.yaml")), exists(filepath.Join(dir, "region.yaml")),
			exists(filepath.Join(dir, "registry")), strings.Contains(string(wantData), `"opens": true`))
		if seen[kind] {
			continue
		}
		seen[kind] = true
		t.Run(filepath.Base(dir), func(t *testing.T) {
			// A vector without context.yaml is computed in an empty context.
			profile := filepath.Join(dir, "context.yaml")
			if !exists(profile) {
				profile = empty
			}
			schemaFile := filepath.Join(dir, "values.schema.json")
			if c.Schema != "" {
				// A chart of the corpus, read in place.
				schemaFile = filepath.Join(corpustest.Catalog(t), filepath.FromSlash(c.Schema))
			}
			args := []string{schemaFile, "--show-secrets", "--extension-key", cmp.Or(c.ExtensionKey, "x-onyxia"), "--profile", profile}
			if c.Platform != "" {
				args = append(args, "--platform", c.Platform)
			}
			for flag, file := range map[string]string{"--region": "region.yaml", "--schema-registry": "registry"} {
				if p := filepath.Join(dir, file); exists(p) {
					args = append(args, flag, p)
				}
			}
			d, r := formJSON(t, args...)
			var want struct {
				Opens  bool
				Values any
			}
			if err := json.Unmarshal(wantData, &want); err != nil {
				t.Fatalf("want.json: %v", err)
			}
			if code := map[bool]int{true: 0, false: 1}[want.Opens]; r.code != code || d["opens"] != want.Opens {
				t.Errorf("exit %d, opens %v; want exit %d", r.code, d["opens"], code)
			}
			got, _ := json.Marshal(d["values"])
			if wantValues, _ := json.Marshal(want.Values); want.Values != nil && string(got) != string(wantValues) {
				t.Errorf("values = %s, want %s", got, wantValues)
			}
		})
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
