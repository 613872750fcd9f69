package gencatalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/lint"
)

// testCharts is enough charts to see every flavor and most optional groups.
const testCharts = 24

// generate writes a catalog of n charts into a fresh temporary directory.
func generate(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	if err := Write(dir, n); err != nil {
		t.Fatalf("Write(%d): %v", n, err)
	}
	return dir
}

// readTree returns every file under dir by slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestWriteIsDeterministic(t *testing.T) {
	a := readTree(t, generate(t, 12))
	b := readTree(t, generate(t, 12))
	icons := 0
	for path := range a {
		if strings.HasPrefix(path, "icons/") {
			icons++
		}
	}
	if want := 1 + 12*7; icons != 12 || len(a) != want {
		t.Fatalf("wrote %d files (%d icons), want %d", len(a), icons, want)
	}
	for path, data := range a {
		if !bytes.Equal(data, b[path]) {
			t.Errorf("%s differs between two runs with the same n", path)
		}
	}
	// A chart does not depend on how many others are generated.
	c := readTree(t, generate(t, 3))
	for path, data := range c {
		if path != "catalog.yaml" && !bytes.Equal(data, a[path]) {
			t.Errorf("%s differs between n=3 and n=12", path)
		}
	}
	// Charts differ from each other.
	seen := map[string]string{}
	for i := range 12 {
		path := "charts/" + ChartName(i) + "/values.schema.json"
		if other, dup := seen[string(a[path])]; dup {
			t.Errorf("%s is identical to %s", path, other)
		}
		seen[string(a[path])] = path
	}
}

func TestLayoutAndChartYAML(t *testing.T) {
	dir := generate(t, testCharts)
	var catalog map[string]any
	mustYAML(t, filepath.Join(dir, "catalog.yaml"), &catalog)
	if catalog["name"] != fmt.Sprintf("generated-%d", testCharts) || catalog["extensionKey"] != "x-platform" {
		t.Errorf("catalog.yaml: name %v, extensionKey %v", catalog["name"], catalog["extensionKey"])
	}
	semver := regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`)
	for i := range testCharts {
		name := ChartName(i)
		chartDir := filepath.Join(dir, "charts", name)
		for _, f := range []string{"Chart.yaml", "values.yaml", "values.schema.json", "README.md", "templates/deployment.yaml", "templates/_helpers.tpl"} {
			if _, err := os.Stat(filepath.Join(chartDir, f)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		var meta map[string]any
		mustYAML(t, filepath.Join(chartDir, "Chart.yaml"), &meta)
		if meta["apiVersion"] != "v2" || meta["name"] != name {
			t.Errorf("%s: apiVersion %v, name %v", name, meta["apiVersion"], meta["name"])
		}
		if v, _ := meta["version"].(string); !semver.MatchString(v) {
			t.Errorf("%s: version %q is not SemVer", name, v)
		}
		if d, _ := meta["description"].(string); d == "" {
			t.Errorf("%s: no description", name)
		}
		// The catalog's own icon file: a build of a generated catalog
		// fetches nothing.
		if icon := meta["icon"]; icon != nil || !exists(filepath.Join(dir, "icons", name+".svg")) {
			t.Errorf("%s: icon %v in Chart.yaml, or no icons/%s.svg", name, icon, name)
		}
	}
}

func TestSchemaSizes(t *testing.T) {
	dir := generate(t, testCharts)
	for i := range testCharts {
		fi, err := os.Stat(filepath.Join(dir, "charts", ChartName(i), "values.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() < SizeMin || fi.Size() > SizeMax {
			t.Errorf("%s: values.schema.json is %d bytes, want %d..%d", ChartName(i), fi.Size(), SizeMin, SizeMax)
		}
	}
}

// TestLintsClean checks the generated charts with the linter itself (Helm's
// schema compilation, values, sliders, range pairs, hidden conditions,
// context paths), with the bounds of a region like the reference's, and
// checks that they use what the platform's form offers.
func TestLintsClean(t *testing.T) {
	dir := generate(t, testCharts)
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := region.Parse([]byte(`resources: {cpuRequest: 100m, cpuLimit: 4000m, memoryRequest: 1Gi, memoryLimit: 8Gi, gpu: "1", disk: 10Gi}
sliders:
  cpu: {sliderMin: 100, sliderMax: 80000, sliderStep: 100, sliderUnit: m}
  memory: {sliderMin: 1, sliderMax: 400, sliderStep: 1, sliderUnit: Gi}
  gpu: {sliderMin: 0, sliderMax: 4, sliderStep: 1, sliderUnit: ""}
  disk: {sliderMin: 1, sliderMax: 100, sliderStep: 1, sliderUnit: Gi}
`), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range [][]*region.Region{nil, {reg}} {
		res, err := lint.Run([]*catalog.Catalog{cat}, lint.Options{Regions: rs})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Findings {
			t.Errorf("%s:%d:%d: %s [%s]", f.File, f.Line, f.Column, f.Message, f.Rule)
		}
	}

	counts := map[string]int{}
	for i := range testCharts {
		chartDir := filepath.Join(dir, "charts", ChartName(i))
		s, err := schema.Load(filepath.Join(chartDir, "values.schema.json"), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range s.Options {
			switch {
			case o.Extremity == "down":
				counts["range slider"]++
			case o.HasSlider:
				counts["slider"]++
			}
			if o.Hidden != nil && !o.Hidden.Always {
				counts["hidden condition"]++
			}
			if o.SliderConfigName() != "" {
				counts["region slider"]++
			}
			if o.Ext != nil && o.Ext.OverwriteDefaultWith != nil {
				counts["context reference"]++
			}
			if o.Render == "password" || o.Render == "list" {
				counts[o.Render]++
			}
		}

		// values.yaml holds exactly the schema's defaults.
		var values any
		mustYAML(t, filepath.Join(chartDir, "values.yaml"), &values)
		data, err := os.ReadFile(filepath.Join(chartDir, "values.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		if got, want := normalize(t, values), normalize(t, defaultsOf(raw)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: values.yaml differs from the schema defaults", ChartName(i))
		}
	}
	for _, k := range []string{"slider", "range slider", "hidden condition", "region slider", "context reference", "password", "list"} {
		if counts[k] < testCharts {
			t.Errorf("only %d %s options in %d charts", counts[k], k, testCharts)
		}
	}
}

// defaultsOf returns the values an object schema's defaults make up.
func defaultsOf(node map[string]any) any {
	props, ok := node["properties"].(map[string]any)
	if !ok {
		return node["default"]
	}
	out := map[string]any{}
	for k, v := range props {
		out[k] = defaultsOf(v.(map[string]any))
	}
	return out
}

// normalize maps YAML and JSON decodings onto the same Go types.
func normalize(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestHelmLint runs the real Helm 4 CLI on one chart of each catalog.
func TestHelmLint(t *testing.T) {
	helm := os.Getenv("CATALOGIST_HELM4")
	if helm == "" {
		t.Fatal("CATALOGIST_HELM4 is not set: run `make tools` (scripts/install-tools.sh helm4) and `make test`, " +
			"or set CATALOGIST_HELM4 to the path of a Helm 4 binary")
	}
	if _, err := os.Stat(helm); err != nil {
		t.Fatalf("CATALOGIST_HELM4=%s: %v; run `make tools` to install Helm 4", helm, err)
	}
	dir := generate(t, testCharts)
	picked := map[string]string{} // catalog -> chart
	for i := range testCharts {
		var meta struct {
			Annotations map[string]string `yaml:"annotations"`
		}
		mustYAML(t, filepath.Join(dir, "charts", ChartName(i), "Chart.yaml"), &meta)
		if cat := meta.Annotations["category"]; picked[cat] == "" {
			picked[cat] = ChartName(i)
		}
	}
	if len(picked) != 3 {
		t.Fatalf("want one chart of each of the 3 catalogs among %d charts, got %v", testCharts, picked)
	}
	for cat, name := range picked {
		t.Run(cat, func(t *testing.T) {
			chartDir := filepath.Join(dir, "charts", name)
			runHelm(t, helm, "lint", "--strict", chartDir)
			out := runHelm(t, helm, "template", "release", chartDir)
			if !strings.Contains(out, "kind: Deployment") {
				t.Errorf("helm template %s rendered no Deployment:\n%s", name, out)
			}
		})
	}
}

func runHelm(t *testing.T, helm string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, helm, args...)
	cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+t.TempDir(), "HELM_CONFIG_HOME="+t.TempDir(), "HELM_DATA_HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("helm %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func ExampleWrite() {
	dir, err := os.MkdirTemp("", "catalog")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := Write(dir, 2); err != nil {
		panic(err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "charts"))
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// chart-000
	// chart-001
}

func exists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
