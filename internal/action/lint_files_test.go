package action

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/syncbuf"
)

// filesRepo writes a repository as a commit hook sees it: a region file
// beside two catalogs (as examples/region.yaml is), a chart with a flaw, a
// subchart, a region file inside a catalog, and files of no chart.
func filesRepo(t *testing.T) {
	t.Helper()
	top := t.TempDir()
	chart := func(name, schema string) map[string]string {
		return map[string]string{
			name + "/Chart.yaml":         "apiVersion: v2\nname: " + name[strings.LastIndex(name, "/")+1:] + "\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
			name + "/values.schema.json": schema,
			name + "/values.yaml":        "nickname: x\n",
		}
	}
	good := `{"type": "object", "properties": {"nickname": {"title": "Nickname", "type": "string", "default": "x"}}}`
	// The flaw (option-type) is on line 3.
	bad := "{\"type\": \"object\", \"properties\": {\n  \"nickname\": {\"title\": \"Nickname\", \"type\": \"string\", \"default\": \"x\"},\n  \"port\": {\"title\": \"Port\", \"default\": 80}}}\n"
	tree := map[string]string{
		// The walk up from a file stops at the top of the work tree.
		".git/HEAD":               "ref: refs/heads/main\n",
		"notes.txt":               "not a catalog's\n",
		"region.yaml":             "resources: {cpuRequest: 100m, cpuLimit: 4000m, memoryRequest: 16Gi, memoryLimit: 8Gi}\nsliders:\n  cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}\n  memory: {sliderMin: 1, sliderMax: 32, sliderStep: 1, sliderUnit: Gi}\n",
		"ide/catalog.yaml":        "name: ide\n",
		"ide/README.md":           "# IDEs\n",
		"ide/icons/jupyter.svg":   `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		"db/catalog.yaml":         "name: db\n",
		"db/region-eu.yaml":       "resources: {cpuRequest: 100m, cpuLimit: 2000m, memoryRequest: 1Gi, memoryLimit: 2Gi}\n",
		"db/charts/pg/Chart.yaml": "apiVersion: v2\nname: pg\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
	}
	for _, c := range []map[string]string{chart("ide/charts/jupyter", good), chart("ide/charts/rstudio", bad), chart("ide/charts/jupyter/charts/sub", good)} {
		for k, v := range c {
			tree[k] = v
		}
	}
	// The subchart is vendored, as helm dependency build leaves it: listed
	// in its parent's dependencies.
	tree["ide/charts/jupyter/Chart.yaml"] += "dependencies:\n  - {name: sub, version: 1.0.0, repository: \"file://charts/sub\"}\n"
	filetree.Write(t, top, tree)
	t.Chdir(top)
	t.Setenv("GITHUB_ACTIONS", "")
}

type filesRun struct {
	Findings []struct {
		Rule, File, Chart string
		Line              int
	}
	Charts int
	code   int
	err    string
}

// lintJSON runs lint in-process with --format json, as a hook would with
// the files of a commit.
func lintJSON(t *testing.T, f Lint, args ...string) filesRun {
	t.Helper()
	var out syncbuf.Buffer
	f.Format, f.Paths, f.Stdout, f.Stderr = "json", args, &out, io.Discard
	err := f.Run(t.Context())
	var r filesRun
	var ae *Error
	if errors.As(err, &ae) {
		r.code = ae.Code
		if ae.Err != nil {
			r.err = ae.Err.Error()
		}
	} else if err != nil {
		t.Fatalf("lint %s: %v", strings.Join(args, " "), err)
	}
	if r.code != 2 {
		if err := json.Unmarshal([]byte(out.String()), &r); err != nil {
			t.Fatalf("lint %s: not JSON: %v\n%s", strings.Join(args, " "), err, out.String())
		}
	}
	return r
}

// Each file a commit hook names stands for the charts it belongs to; a
// region file for --region and its catalogs.
func TestLintFiles(t *testing.T) {
	filesRepo(t)
	for _, tc := range []struct {
		name   string
		flags  Lint
		args   []string
		charts int
		code   int
		// findings are "rule file:line" of every finding.
		findings []string
	}{
		{"a chart's values", Lint{}, []string{"ide/charts/jupyter/values.yaml"}, 1, 0, nil},
		{"a chart's schema, with its finding's position", Lint{}, []string{"ide/charts/rstudio/values.schema.json"}, 1, 1,
			[]string{"option-type ide/charts/rstudio/values.schema.json:3"}},
		{"two charts of one catalog", Lint{}, []string{"ide/charts/jupyter/Chart.yaml", "ide/charts/rstudio/values.yaml", "ide/charts/jupyter/values.schema.json"}, 2, 1,
			[]string{"option-type ide/charts/rstudio/values.schema.json:3"}},
		{"a subchart's file stands for its chart", Lint{}, []string{"ide/charts/jupyter/charts/sub/values.yaml"}, 1, 0, nil},
		{"catalog.yaml", Lint{}, []string{"ide/catalog.yaml"}, 2, 1,
			[]string{"option-type ide/charts/rstudio/values.schema.json:3"}},
		{"an icon concerns every chart", Lint{}, []string{"ide/icons/jupyter.svg"}, 2, 1,
			[]string{"option-type ide/charts/rstudio/values.schema.json:3"}},
		{"a region file beside catalogs", Lint{}, []string{"region.yaml"}, 3, 1,
			[]string{"option-type ide/charts/rstudio/values.schema.json:3", "region-file region.yaml:1"}},
		{"a region file with a chart lints its catalogs whole", Lint{}, []string{"ide/charts/jupyter/values.yaml", "region.yaml"}, 3, 1,
			[]string{"option-type ide/charts/rstudio/values.schema.json:3", "region-file region.yaml:1"}},
		{"a region file in a catalog", Lint{}, []string{"db/region-eu.yaml"}, 1, 0, nil},
		{"the region file --region names", Lint{Regions: []string{"region.yaml"}}, []string{"./region.yaml", "db/charts/pg/Chart.yaml"}, 3, 1,
			[]string{"option-type ide/charts/rstudio/values.schema.json:3", "region-file region.yaml:1"}},
		{"a deleted file of a chart", Lint{}, []string{"ide/charts/jupyter/templates/gone.yaml"}, 1, 0, nil},
		{"a deleted chart", Lint{}, []string{"ide/charts/gone/values.yaml"}, 0, 0, nil},
		{"a file of no chart in a catalog", Lint{}, []string{"ide/README.md"}, 0, 0, nil},
		{"directories: the files beside them are skipped, as before", Lint{}, []string{"ide", "db", "notes.txt"}, 3, 1,
			[]string{"option-type ide/charts/rstudio/values.schema.json:3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := lintJSON(t, tc.flags, tc.args...)
			var got []string
			for _, f := range r.Findings {
				got = append(got, f.Rule+" "+f.File+":"+strconv.Itoa(f.Line))
			}
			slices.Sort(got)
			if r.code != tc.code || r.Charts != tc.charts || !slices.Equal(got, tc.findings) {
				t.Errorf("exit %d, %d charts, findings %q (%s); want exit %d, %d charts, findings %q", r.code, r.Charts, got, r.err, tc.code, tc.charts, tc.findings)
			}
		})
	}

	for _, tc := range []struct {
		name  string
		flags Lint
		args  []string
		want  string
	}{
		{"a file of nothing", Lint{}, []string{"notes.txt"}, "notes.txt is not a catalog, a chart directory or a values.schema.json, nor a file of one"},
		{"a deleted file of nothing", Lint{}, []string{"gone/values.yaml"}, "reading gone/values.yaml: "},
		{"another region than --region's", Lint{Regions: []string{"region.yaml"}}, []string{"db/region-eu.yaml"}, "db/region-eu.yaml is a region file, and --region names region.yaml"},
		{"two regions in one document", Lint{}, []string{"region.yaml", "db/region-eu.yaml"}, "region.yaml and db/region-eu.yaml are region files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := lintJSON(t, tc.flags, tc.args...); r.code != 2 || !strings.Contains(r.err, tc.want) {
				t.Errorf("exit %d, error %q; want exit 2 with %q", r.code, r.err, tc.want)
			}
		})
	}

	t.Run("region files deeper in a catalog, and in no catalog", func(t *testing.T) {
		filetree.Write(t, ".", map[string]string{"ide/charts/region.yaml": "resources: {}\n", "misc/region.yaml": "resources: {}\n"})
		if r := lintJSON(t, Lint{}, "ide/charts/region.yaml"); r.code != 1 || r.Charts != 2 {
			t.Errorf("a region file inside a catalog: exit %d, %d charts (%s)", r.code, r.Charts, r.err)
		}
		// Neither misc/ nor a directory above it or in it has a catalog.yaml.
		want := "misc/region.yaml is not a catalog, a chart directory or a values.schema.json; as a region file, it belongs to no catalog"
		if r := lintJSON(t, Lint{}, "misc/region.yaml"); r.code != 2 || !strings.Contains(r.err, want) {
			t.Errorf("a region file of no catalog: exit %d, error %q", r.code, r.err)
		}
		// With a chart named, it is the region those charts are read with.
		if r := lintJSON(t, Lint{}, "misc/region.yaml", "ide/charts/jupyter/values.yaml"); r.code != 1 || r.Charts != 2 {
			t.Errorf("a region file of no catalog with a chart: exit %d, %d charts (%s)", r.code, r.Charts, r.err)
		}
	})

	t.Run("one pass per region file", func(t *testing.T) {
		var out syncbuf.Buffer
		l := Lint{Format: "text", Paths: []string{"region.yaml", "db/region-eu.yaml"}, Stdout: &out, Stderr: io.Discard}
		if err := l.Run(t.Context()); ExitCode(err) != ExitRefused {
			t.Fatalf("exit %v, want 1 (the flawed chart)\n%s", err, out.String())
		}
		passes := regexp.MustCompile(`(?m)^with region (\S+):$`).FindAllStringSubmatch(out.String(), -1)
		if len(passes) != 2 || passes[0][1] != "region.yaml" || passes[1][1] != "db/region-eu.yaml" ||
			!strings.Contains(out.String(), "3 charts, 1 error, 1 warning\n") || !strings.Contains(out.String(), "1 chart, 0 errors, 0 warnings\n") {
			t.Errorf("two passes expected, over 3 charts then 1:\n%s", out.String())
		}
	})
}

// The files the lint hook passes are the names lint maps: a chart's files and
// the region files lint recognizes. Each entry ends with --, so that a
// file name is never a flag.
func TestPreCommitHookFiles(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Entry, Files string
		PassFilenames    bool `json:"pass_filenames"`
		RequireSerial    bool `json:"require_serial"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 2 || hooks[0].ID != "catalogist-lint" || hooks[0].Entry != "catalogist lint --" || !hooks[0].PassFilenames || !hooks[0].RequireSerial ||
		hooks[1].ID != "catalogist-docs" || hooks[1].Entry != "catalogist docs --" || !hooks[1].PassFilenames || !hooks[1].RequireSerial {
		t.Fatalf("hooks = %+v", hooks)
	}
	// The docs hook: a chart's README and what its section is written
	// from, never a README outside a chart, which belongs to no chart.
	docs := regexp.MustCompile(hooks[1].Files)
	for _, p := range []string{
		"charts/jupyter/values.schema.json", "charts/jupyter/values.yaml", "charts/jupyter/README.md", "ide/charts/jupyter/README.md", "catalog.yaml",
		"charts/jupyter/Chart.yaml", "charts/jupyter/requirements.yaml", "charts/jupyter/README.md.gotmpl",
	} {
		if !docs.MatchString(p) {
			t.Errorf("the docs hook does not pass %s", p)
		}
	}
	for _, p := range []string{"README.md", "ide/README.md", "README.md.gotmpl", "charts/jupyter/templates/deployment.yaml", "region.yaml", "charts/jupyter/README.md.bak"} {
		if docs.MatchString(p) {
			t.Errorf("the docs hook passes %s", p)
		}
	}
	files := regexp.MustCompile(hooks[0].Files)
	for _, p := range []string{
		"charts/jupyter/values.schema.json", "values.yaml", "charts/jupyter/Chart.yaml", "catalog.yaml", "ide/catalog.yaml",
		"charts/jupyter/ci/gpu-values.yaml", "region.yaml", "regions.json", "regions/region-eu.yml", "region.prod.yaml",
	} {
		if !files.MatchString(p) {
			t.Errorf("the hook does not pass %s", p)
		}
		if base := p[strings.LastIndex(p, "/")+1:]; strings.HasPrefix(base, "region") && !catalog.RegionFileName.MatchString(base) {
			t.Errorf("the hook passes %s, which lint does not take for a region file", p)
		}
	}
	for _, p := range []string{"README.md", "charts/jupyter/templates/deployment.yaml", "regional.yaml", "my-values.yaml", "catalog.yaml.orig", "icons/region.svg"} {
		if files.MatchString(p) {
			t.Errorf("the hook passes %s", p)
		}
		if catalog.RegionFileName.MatchString(p) {
			t.Errorf("lint takes %s for a region file", p)
		}
	}
}
