package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building catalogist: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

func catalogist(t *testing.T, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=")
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
		for _, env := range [][]string{{"GITHUB_ACTIONS=true"}, nil} {
			args := []string{"lint", badFixture}
			if env == nil {
				args = []string{"lint", "--format", "github", badFixture}
			}
			r := catalogist(t, env, args...)
			first := strings.SplitN(r.stdout, "\n", 2)[0]
			if !strings.HasPrefix(first, "::error ") || !strings.Contains(first, "file=") || !strings.Contains(first, "line=") || !strings.Contains(first, "::option ") {
				t.Errorf("not workflow commands (env %v):\n%s", env, r.stdout)
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

// TestCorpus lints a public catalog of the reference platform that this
// project did not write: no crash, and the known true findings are there.
func TestCorpus(t *testing.T) {
	dir := "../../../shared/corpus/interactive-services/charts"
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the public corpus is expected beside the repository: %v", err)
	}
	r := catalogist(t, nil, "lint", "--format", "json", "--extension-key", "x-onyxia", dir)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the corpus has true errors)\n%s", r.code, r.stderr)
	}
	var out struct {
		Findings []struct{ Rule, File, Message string }
		Charts   int
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{}
	for _, f := range out.Findings {
		rules[f.Rule]++
	}
	if out.Charts != 22 {
		t.Errorf("linted %d charts, want 22", out.Charts)
	}
	// Known defects of the corpus: a {path, value} condition inside x-onyxia
	// (3 in rstudio-sparkr), references to paths the platform dropped.
	if rules["ext-boolean"] != 3 || rules["context-path"] == 0 {
		t.Errorf("unexpected findings by rule: %v", rules)
	}
	// Without the right key, the linter says so instead of finding nothing.
	r = catalogist(t, nil, "lint", dir+"/jupyter-python")
	if !strings.Contains(r.stdout, "--extension-key x-onyxia") {
		t.Errorf("no hint about the extension key:\n%s", r.stdout)
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

// TestLaunchCLI launches from a built and served example catalog without a
// cluster (--dry-run); the launcher's tests cover the cluster.
func TestLaunchCLI(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	if r := catalogist(t, nil, "build", "../../examples/ide", "--out", out); r.code != 0 {
		t.Fatalf("build: %s%s", r.stdout, r.stderr)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	cats := filepath.Join(dir, "catalogs.yaml")
	if err := os.WriteFile(cats, []byte(fmt.Sprintf("catalogs:\n  - {id: ide, name: IDEs, location: %q, highlightedCharts: [vscode-python]}\n", srv.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "KUBECONFIG=" + filepath.Join(dir, "none")}
	common := []string{"--catalogs", cats, "--profile", "../../examples/profile.yaml", "--region", "../../examples/region.yaml"}

	r := catalogist(t, env, "catalogs", "--catalogs", cats)
	if r.code != 0 || !strings.Contains(r.stdout, "* vscode-python") || !strings.Contains(r.stdout, "jupyter-pytorch-gpu") {
		t.Fatalf("catalogs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = catalogist(t, env, append([]string{"launch", "ide/vscode-python", "--dry-run", "--show-values", "--name", "code"}, common...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "kind: Deployment") || !strings.Contains(r.stdout, "password: '********'") ||
		strings.Contains(r.stdout, "password: example") || !strings.Contains(r.stderr, "sha256:") {
		t.Fatalf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
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
		})
	}
}

// migrate prints a diff and writes nothing, writes with --write, and then
// finds nothing to change; bad input is a usage error.
func TestMigrateCLI(t *testing.T) {
	dir := t.TempDir()
	values := filepath.Join(dir, "values.yaml")
	src, err := os.ReadFile("../../migrate/testdata/values/values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(values, src, 0o644); err != nil {
		t.Fatal(err)
	}
	index := "../../migrate/testdata/repo/index.yaml"
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
