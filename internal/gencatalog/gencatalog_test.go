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
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
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
	if want := 1 + 12*6; len(a) != want {
		t.Fatalf("wrote %d files, want %d", len(a), want)
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
		if icon, _ := meta["icon"].(string); !strings.HasPrefix(icon, "https://") {
			t.Errorf("%s: icon %q is not an https URL", name, icon)
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

func TestSchemasCompileAndValuesValidate(t *testing.T) {
	dir := generate(t, testCharts)
	for i := range testCharts {
		name := ChartName(i)
		chartDir := filepath.Join(dir, "charts", name)
		data, err := os.ReadFile(filepath.Join(chartDir, "values.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: schema is not JSON: %v", name, err)
			continue
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("file:///values.schema.json", doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sch, err := c.Compile("file:///values.schema.json")
		if err != nil {
			t.Errorf("%s: schema does not compile: %v", name, err)
			continue
		}
		var values any
		mustYAML(t, filepath.Join(chartDir, "values.yaml"), &values)
		if err := sch.Validate(values); err != nil {
			t.Errorf("%s: values.yaml does not validate against the schema: %v", name, err)
		}

		// values.yaml holds exactly the schema's defaults.
		var schema map[string]any
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		if got, want := normalize(t, values), normalize(t, defaultsOf(schema)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: values.yaml differs from the schema defaults", name)
		}
	}
}

// TestSchemaConventions checks what the platform's form relies on: types,
// sliders, range pairs, hidden conditions and context paths.
func TestSchemaConventions(t *testing.T) {
	dir := generate(t, testCharts)
	counts := map[string]int{}
	for i := range testCharts {
		name := ChartName(i)
		var schema map[string]any
		data, err := os.ReadFile(filepath.Join(dir, "charts", name, "values.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		if schema["$schema"] != "http://json-schema.org/schema#" || schema["type"] != "object" {
			t.Errorf("%s: root $schema %v, type %v", name, schema["$schema"], schema["type"])
		}
		c := &conventions{t: t, chart: name, root: schema, down: map[string]map[string]any{}, up: map[string]map[string]any{}, counts: counts}
		c.walk(schema, nil)
		for id, d := range c.down {
			u, ok := c.up[id]
			if !ok {
				t.Errorf("%s: range %q has a down end but no up end", name, id)
				continue
			}
			if d["sliderUnit"] != u["sliderUnit"] || d["sliderStep"] != u["sliderStep"] {
				t.Errorf("%s: range %q: ends differ in unit or step", name, id)
			}
			if sliderValue(t, d) > sliderValue(t, u) {
				t.Errorf("%s: range %q: down default %v > up default %v", name, id, d["default"], u["default"])
			}
		}
	}
	for _, k := range []string{"slider", "range", "hidden-absolute", "hidden-relative", "overwriteDefaultWith", "useRegionSliderConfig", "list", "password"} {
		if counts[k] == 0 {
			t.Errorf("no generated option uses %s", k)
		}
	}
}

type conventions struct {
	t        *testing.T
	chart    string
	root     map[string]any
	down, up map[string]map[string]any
	counts   map[string]int
}

var (
	validTypes      = map[string]bool{"object": true, "array": true, "string": true, "number": true, "integer": true, "boolean": true}
	validRenders    = map[string]bool{"slider": true, "textArea": true, "password": true, "list": true}
	placeholder     = regexp.MustCompile(`\{\{([^{}]*)\}\}`)
	regionSliders   = map[string]bool{"cpu": true, "memory": true, "gpu": true, "disk": true}
	contextPrefixes = []string{
		"git.name", "git.email", "git.credentials_cache_duration", "git.token",
		"region.resources.", "region.defaultNetworkPolicy", "region.defaultIpProtection", "region.from",
		"region.tolerations", "region.nodeSelector", "region.startupProbe",
		"vault.", "s3.", "k8s.", "user.", "project.id", "service.oneTimePassword",
	}
)

func (c *conventions) walk(node map[string]any, path []string) {
	at := c.chart + ": /" + strings.Join(path, "/")
	typ, _ := node["type"].(string)
	if !validTypes[typ] {
		c.t.Errorf("%s: type %v", at, node["type"])
	}
	for _, k := range []string{"title", "description"} {
		if _, ok := node[k].(string); !ok && len(path) > 0 {
			c.t.Errorf("%s: %s missing or not a string", at, k)
		}
	}
	if _, ok := node["default"]; !ok && typ != "object" && len(path) > 0 {
		c.t.Errorf("%s: no default", at)
	}
	if r, ok := node["render"].(string); ok {
		if !validRenders[r] {
			c.t.Errorf("%s: render %q", at, r)
		}
		c.counts[r]++
		if r == "list" && !contains(node["listEnum"], node["default"]) {
			c.t.Errorf("%s: default %v not in listEnum", at, node["default"])
		}
		if r == "slider" {
			c.checkSlider(node, at)
		}
	}
	if h, ok := node["hidden"].(map[string]any); ok {
		c.checkHidden(h, path, at)
	}
	if x, ok := node["x-platform"].(map[string]any); ok {
		if p, ok := x["overwriteDefaultWith"].(string); ok {
			c.counts["overwriteDefaultWith"]++
			c.checkContextPath(p, at)
		}
		if s, ok := x["useRegionSliderConfig"].(string); ok {
			c.counts["useRegionSliderConfig"]++
			if !regionSliders[s] || node["render"] != "slider" {
				c.t.Errorf("%s: useRegionSliderConfig %q on a non-slider or unknown config", at, s)
			}
		}
	}
	if props, ok := node["properties"].(map[string]any); ok {
		for k, v := range props {
			c.walk(v.(map[string]any), append(append([]string(nil), path...), k))
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		if _, ok := items["type"].(string); !ok {
			c.t.Errorf("%s: items without a type", at)
		}
	}
}

func (c *conventions) checkSlider(node map[string]any, at string) {
	lo, hi, step := node["sliderMin"].(float64), node["sliderMax"].(float64), node["sliderStep"].(float64)
	if _, ok := node["sliderUnit"].(string); !ok || step <= 0 || lo >= hi {
		c.t.Errorf("%s: bad slider fields", at)
		return
	}
	v := sliderValue(c.t, node)
	if v < lo || v > hi || int(v-lo)%int(step) != 0 {
		c.t.Errorf("%s: slider default %v off the grid %v..%v step %v", at, node["default"], lo, hi, step)
	}
	id, _ := node["sliderRangeId"].(string)
	switch node["sliderExtremity"] {
	case nil:
	case "down":
		if c.down[id] == nil {
			c.down[id] = node
		}
		c.counts["range"]++
	case "up":
		if c.up[id] == nil {
			c.up[id] = node
		}
	default:
		c.t.Errorf("%s: sliderExtremity %v", at, node["sliderExtremity"])
	}
}

// sliderValue parses a slider default: a number, or a string of a number
// followed by the unit.
func sliderValue(t *testing.T, node map[string]any) float64 {
	switch d := node["default"].(type) {
	case float64:
		return d
	case string:
		unit, _ := node["sliderUnit"].(string)
		num, ok := strings.CutSuffix(d, unit)
		v, err := strconv.ParseFloat(num, 64)
		if !ok || err != nil {
			t.Errorf("slider default %q does not end with unit %q after a number", d, unit)
		}
		return v
	}
	t.Errorf("slider default %v has type %T", node["default"], node["default"])
	return 0
}

func (c *conventions) checkHidden(h map[string]any, path []string, at string) {
	p, _ := h["path"].(string)
	var target []string
	if rel, _ := h["isPathRelative"].(bool); rel {
		c.counts["hidden-relative"]++
		target = append(append([]string(nil), path[:len(path)-1]...), strings.Split(p, "/")...)
	} else {
		c.counts["hidden-absolute"]++
		target = strings.Split(p, "/")
	}
	node := c.root
	for _, seg := range target {
		props, _ := node["properties"].(map[string]any)
		next, ok := props[seg].(map[string]any)
		if !ok {
			c.t.Errorf("%s: hidden path %q points at nothing", at, p)
			return
		}
		node = next
	}
	if _, isBool := h["value"].(bool); isBool && node["type"] != "boolean" {
		c.t.Errorf("%s: hidden path %q compares a boolean with a %v option", at, p, node["type"])
	}
}

func (c *conventions) checkContextPath(p, at string) {
	paths := []string{p}
	if strings.Contains(p, "{{") {
		paths = nil
		for _, m := range placeholder.FindAllStringSubmatch(p, -1) {
			paths = append(paths, m[1])
		}
	}
	for _, path := range paths {
		ok := false
		for _, prefix := range contextPrefixes {
			if path == prefix || (strings.HasSuffix(prefix, ".") && strings.HasPrefix(path, prefix) && len(path) > len(prefix)) {
				ok = true
			}
		}
		if !ok {
			c.t.Errorf("%s: overwriteDefaultWith %q uses unknown context path %q", at, p, path)
		}
	}
}

func contains(list, v any) bool {
	l, _ := list.([]any)
	for _, e := range l {
		if reflect.DeepEqual(e, v) {
			return true
		}
	}
	return false
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
