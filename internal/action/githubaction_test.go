package action

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/githubtest"
	"github.com/catalogist/catalogist/internal/testkit/syncbuf"
	"sigs.k8s.io/yaml"
)

// The Go side reads exactly the inputs action.yml declares.
func TestActionReadsDeclaredInputs(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var act struct {
		Inputs map[string]any
	}
	if err := yaml.Unmarshal(data, &act); err != nil {
		t.Fatal(err)
	}
	var read []string
	if _, err := readActionInputs(func(name string) string {
		read = append(read, name)
		return map[string]string{"command": "lint"}[name]
	}); err != nil {
		t.Fatal(err)
	}
	var declared []string
	for name := range act.Inputs {
		declared = append(declared, name)
	}
	slices.Sort(read)
	slices.Sort(declared)
	if !slices.Equal(read, declared) {
		t.Errorf("catalogist action reads the inputs %v; action.yml declares %v", read, declared)
	}
}

// The inputs a workflow gives: defaults, lists, and refusals that name
// the input and what it may be.
func TestActionInputs(t *testing.T) {
	inputs := func(m map[string]string) func(string) string {
		return func(name string) string { return strings.TrimSpace(m[name]) }
	}
	env := map[string]string{
		"GITHUB_REPOSITORY": "owner/catalog", "GITHUB_API_URL": "https://ghe.example/api/v3", "GITHUB_TOKEN": "from-env",
		"GITHUB_SHA": "abc123", "CATALOGIST_ACTION_REF": "v1.2.3",
	}
	a := &GitHubAction{Getenv: func(k string) string { return env[k] }}
	in, err := readActionInputs(inputs(map[string]string{"command": "lint", "schema_registry": "schemas\n  more/schemas other", "fail_on": "warning", "base_url": "https://o.github.io/r/", "changed_since": "origin/main"}))
	if err != nil {
		t.Fatal(err)
	}
	l := a.lint(in)
	if l.Format != "github" || !l.Strict || l.SARIF != DefaultSARIF || l.Published != "https://o.github.io/r/" || l.ChangedSince != "origin/main" ||
		!slices.Equal(l.Registries, []string{"schemas", "more/schemas", "other"}) || l.ToolVersion != "v1.2.3" || !slices.Equal(l.Paths, []string{"."}) {
		t.Errorf("lint %+v", l)
	}
	in, err = readActionInputs(inputs(map[string]string{"command": "build", "base_url": "https://o.github.io/r/", "region": "r.yaml", "platform": "onyxia"}))
	if err != nil {
		t.Fatal(err)
	}
	b := in.buildOptions()
	if b.Catalog != "." || b.Out != DefaultSite || b.Merge != "https://o.github.io/r/" || b.MergeOptional || b.BaseURL != b.Merge || b.RegionFile != "r.yaml" || b.Platform != "onyxia" || b.LintFormat != "github" {
		t.Errorf("build options %+v", b)
	}
	in, err = readActionInputs(inputs(map[string]string{"command": "publish", "token": "t0k", "out": "site"}))
	if err != nil {
		t.Fatal(err)
	}
	if p := a.publish(in); p.Token != "t0k" || p.Repo != "owner/catalog" || p.APIURL != "https://ghe.example/api/v3" || p.Target != "abc123" ||
		p.Build.Out != "site" || p.Build.Merge != "" || p.Build.MergeOptional || !p.FirstFromReleases || p.Build.LintFormat != "github" {
		t.Errorf("publish %+v", p)
	}
	in.token = ""
	if p := a.publish(in); p.Token != "from-env" {
		t.Errorf("publish token %q without the token input, want GITHUB_TOKEN's", p.Token)
	}

	// The inputs of every command, and those of one.
	in, err = readActionInputs(inputs(map[string]string{"command": "lint", "region": "regions.json", "region_id": "paris", "extension_key": "x-onyxia", "baseline": "b.json"}))
	if err != nil {
		t.Fatal(err)
	}
	if l := a.lint(in); l.RegionID != "paris" || l.ExtensionKey != "x-onyxia" || l.Baseline != "b.json" || !slices.Equal(l.Regions, []string{"regions.json"}) {
		t.Errorf("lint %+v", l)
	}
	in, err = readActionInputs(inputs(map[string]string{"command": "publish", "pages_branch": "gh-pages", "make_latest": "true", "base_url": "https://o.github.io/r/", "extension_key": "x-onyxia"}))
	if err != nil {
		t.Fatal(err)
	}
	if p := a.publish(in); p.PagesBranch != "gh-pages" || !p.MakeLatest || p.Build.Merge != "" || !p.FirstFromReleases || p.Build.ExtensionKey != "x-onyxia" {
		t.Errorf("publish to a branch %+v", p)
	}

	for _, c := range []struct {
		inputs map[string]string
		want   string
	}{
		{map[string]string{}, "input command is empty: set it to lint, build, publish"},
		{map[string]string{"command": "deploy"}, `input command is "deploy": it must be one of lint, build, publish`},
		{map[string]string{"command": "lint", "fail_on": "warnings"}, `input fail_on is "warnings": it must be one of error, warning`},
		{map[string]string{"command": "publish", "fail_on": "warning"}, "input fail_on is warning, which publish cannot honour"},
		{map[string]string{"command": "build", "changed_since": "origin/main"}, "input changed_since is set, but it applies to command lint only"},
		{map[string]string{"command": "lint", "platform": "kubeflow"}, "input platform: "},
		{map[string]string{"command": "build", "baseline": "b.json"}, "input baseline is set, but it applies to command lint only"},
		{map[string]string{"command": "build", "pages_branch": "gh-pages"}, "input pages_branch is set, but it applies to command publish only"},
		{map[string]string{"command": "publish", "make_latest": "yes"}, `input make_latest is "yes": it must be one of true, false`},
		{map[string]string{"command": "lint", "extension_key": "onyxia"}, `input extension_key is "onyxia": it must start with x-`},
	} {
		if _, err := readActionInputs(inputs(c.inputs)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("inputs %v: error %v, want %q", c.inputs, err, c.want)
		}
	}
}

// The Action's build merges the index published at base_url; a missing one
// is a first publication only while the repository has released no chart
// of the catalog, as for publish: a mistyped address must not build an
// index without the versions released before.
func TestActionBuildFirstPublication(t *testing.T) {
	const token = "ghs_buildFIRSTtoken7"
	nothing := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(nothing.Close)
	run := func(gh *githubtest.Server) (string, string, error) {
		dir := t.TempDir()
		out := filepath.Join(dir, "site")
		for k, v := range map[string]string{
			"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
			"INPUT_COMMAND": "build", "INPUT_PATH": "../../examples/ide", "INPUT_OUT": out, "INPUT_BASE_URL": nothing.URL + "/", "INPUT_TOKEN": token,
		} {
			t.Setenv(k, v)
		}
		env := map[string]string{"GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": gh.URL}
		var log syncbuf.Buffer
		a := &GitHubAction{Getenv: func(k string) string { return env[k] }, Stdout: &log, Stderr: &log}
		return out, log.String(), a.Run(t.Context())
	}

	gh := githubtest.Serve(t, "o", "r", token)
	out, log, err := run(gh)
	if err != nil {
		t.Fatalf("a first publication: %v\n%s", err, log)
	}
	if _, err := os.Stat(filepath.Join(out, "index.yaml")); err != nil {
		t.Errorf("the first build wrote no index: %v", err)
	}
	if got := gh.Requests(); !slices.Equal(got, []string{"GET /api/v3/repos/o/r/releases?per_page=100"}) {
		t.Errorf("the build sent %q, want the releases listed only", got)
	}

	gh = githubtest.Serve(t, "o", "r", token)
	gh.AddRelease("vscode-python-1.1.0", map[string][]byte{"vscode-python-1.1.0.tgz": []byte("an older package")})
	out, log, err = run(gh)
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "nothing is published at "+nothing.URL) || !strings.Contains(err.Error(), "o/r has released vscode-python-1.1.0 before") {
		t.Fatalf("an index missing after releases: exit %d (%v)\n%s", ExitCode(err), err, log)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("something was built: %v", err)
	}
}
