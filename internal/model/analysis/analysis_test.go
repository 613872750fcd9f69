package analysis_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/schema"
)

const gitSchema = `{
  "type": "object",
  "properties": {
    "enabled": {"type": "string"},
    "port": {"type": "integer", "default": 1},
    "name": {"type": "string", "default": "x", "x-platform": {"overwriteDefaultWith": "user.idep"}}
  }
}`

func analyze(t *testing.T, in analysis.Input) *analysis.Chart {
	t.Helper()
	if in.Env.Platform == nil {
		in.Env = schema.Env{ExtKey: schema.DefaultExtensionKey, Platform: schema.Catalogist}
	}
	a, err := analysis.Analyze(in)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The form reads values.yaml as YAML 1.2 and Helm as YAML 1.1: one chart
// carries both readings, so that lint, pages and launch agree on each.
func TestTwoReadingsOfValues(t *testing.T) {
	a := analyze(t, analysis.Input{SchemaFile: "s.json", Schema: []byte(gitSchema), ValuesFile: "values.yaml", Values: []byte("enabled: yes\nport: 8080\n")})
	if a.HelmValues["enabled"] != true {
		t.Errorf("Helm reads yes as %#v, want true", a.HelmValues["enabled"])
	}
	v, err := a.FormValues()
	if err != nil || v["enabled"] != "yes" || v["port"] != json.Number("8080") {
		t.Errorf("form values = %#v, %v; want yes kept a string", v, err)
	}
	if got := a.Form.FieldKey("enabled").Value; got != "yes" {
		t.Errorf("form value of enabled = %#v, want \"yes\"", got)
	}
	if d, err := a.ValuesDoc(); err != nil || d.Get("port").Pos.Line != 2 {
		t.Errorf("values document = %v, %v; want port on line 2", d, err)
	}
}

func TestFormValuesRefused(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"- a\n- b\n", "values.yaml:1:1: values.yaml is an array"},
		{"a: [1\n", "values.yaml:"},
	} {
		a := analyze(t, analysis.Input{ValuesFile: "values.yaml", Values: []byte(tc.src)})
		if _, err := a.FormValues(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("FormValues of %q: error = %v, want it to start with %q", tc.src, err, tc.want)
		}
	}
	a := analyze(t, analysis.Input{ValuesFile: "values.yaml", Values: []byte("# only a comment\n")})
	if v, err := a.FormValues(); v != nil || err != nil {
		t.Errorf("an empty values.yaml gives %#v, %v; want no values", v, err)
	}
}

func TestSchemaNotJSON(t *testing.T) {
	a := analyze(t, analysis.Input{SchemaFile: "s.json", Schema: []byte(`{"type": `)})
	if a.Schema != nil || a.Form != nil || a.SchemaErr == nil {
		t.Fatalf("schema %v, form %v, error %v; want only the error", a.Schema, a.Form, a.SchemaErr)
	}
}

// A file beyond the parser's limits is refused outright, naming the place.
func TestBeyondLimits(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'k'; i++ {
		bomb += string(i) + ": &" + string(i) + " [" + strings.Repeat("*"+string(i-1)+", ", 8) + "*" + string(i-1) + "]\n"
	}
	_, err := analysis.Analyze(analysis.Input{ValuesFile: "charts/x/values.yaml", Values: []byte(bomb)})
	if err == nil || !strings.HasPrefix(err.Error(), "charts/x/values.yaml:") {
		t.Errorf("error = %v, want one at a line of charts/x/values.yaml", err)
	}
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300)
	if _, err := analysis.Analyze(analysis.Input{SchemaFile: "s.json", Schema: []byte(deep)}); err == nil || !strings.HasPrefix(err.Error(), "s.json:1:") {
		t.Errorf("error = %v, want one at s.json:1", err)
	}
}

// A page computes the form without a profile from the chart lint analysed
// with one.
func TestFormInAnotherContext(t *testing.T) {
	ctx := schema.NewContext(map[string]any{"user": map[string]any{"idep": "ada"}}, nil, nil, "")
	a := analyze(t, analysis.Input{SchemaFile: "s.json", Schema: []byte(gitSchema), Context: ctx})
	if got := a.Form.FieldKey("name").Value; got != "ada" {
		t.Errorf("with a profile, name = %#v, want ada", got)
	}
	if got := a.FormIn(nil).FieldKey("name").Value; got != "x" {
		t.Errorf("without one, name = %#v, want the default x", got)
	}
}

// Load reads a catalog's chart, refusing a file that leads out of it.
func TestLoadRefusesEscape(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "cat", "charts", "c")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "Chart.yaml"), "apiVersion: v2\nname: c\nversion: 1.0.0\n")
	write(filepath.Join(dir, "values.schema.json"), gitSchema)
	write(filepath.Join(root, "outside.yaml"), "enabled: yes\n")
	if err := os.Symlink(filepath.Join(root, "outside.yaml"), filepath.Join(dir, "values.yaml")); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Discover(filepath.Join(root, "cat"))
	if err != nil {
		t.Fatal(err)
	}
	env := schema.Env{ExtKey: schema.DefaultExtensionKey, Platform: schema.Catalogist}
	_, err = analysis.Load(cat, cat.Charts[0], env, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "outside.yaml") {
		t.Fatalf("error = %v, want the link out refused", err)
	}
	if err := os.Remove(filepath.Join(dir, "values.yaml")); err != nil {
		t.Fatal(err)
	}
	if cat, err = catalog.Discover(filepath.Join(root, "cat")); err != nil {
		t.Fatal(err)
	}
	a, err := analysis.Load(cat, cat.Charts[0], env, nil, nil)
	if err != nil || a.Form == nil || a.HelmValues != nil {
		t.Fatalf("Load = %+v, %v; want a form and no values", a, err)
	}
}
