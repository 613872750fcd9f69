package schema_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

func describe(t *testing.T, src string, env schema.Env, values map[string]any) *schema.Description {
	t.Helper()
	root, err := srcpos.ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return schema.Describe(schema.Build(root, "chart/values.schema.json", env), nil, values)
}

func TestDescribeKeysOrderAndPositions(t *testing.T) {
	const src = `{
  "type": "object",
  "properties": {
    "b": {"type": "string", "default": "b"},
    "1": {"type": "string", "default": "one"},
    "limits": {
      "type": "object",
      "properties": {
        "nvidia.com/gpu": {"type": "integer", "default": 1, "sliderMin": 0, "sliderMax": 2}
      }
    },
    "0": {"type": "string", "default": "zero"},
    "list": {"type": "array", "default": [], "items": {"type": "object", "properties": {"k": {"type": "string", "default": "v"}}}},
    "bad": {"type": "string", "title": 3, "default": ""}
  }
}`
	d := describe(t, src, schema.Env{ExtKey: "x-onyxia"}, nil)
	var keys []string
	for _, o := range d.Options {
		keys = append(keys, strings.Join(o.Key, "|"))
	}
	// JavaScript walks array-index keys first, ascending; an array's items
	// follow the array.
	want := []string{"0", "1", "b", "limits", "limits|nvidia.com/gpu", "list", "list|[]", "list|[]|k", "bad"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("form order = %q, want %q", keys, want)
	}
	if d.Opens || len(d.Failures) != 1 || len(d.Shapes) != 1 {
		t.Fatalf("opens %v, failures %+v, shapes %+v; want one of each", d.Opens, d.Failures, d.Shapes)
	}
	f := d.Failures[0]
	// The integer slider is reported at its type, line 9, where it is fixed.
	if !reflect.DeepEqual(f.Key, []string{"limits", "nvidia.com/gpu"}) || f.File != "chart/values.schema.json" || f.Line != 9 || f.Column != 36 || f.Kind != "slider" {
		t.Errorf("failure = %+v, want the slider of limits/nvidia.com/gpu at 9:36", f)
	}
	if sh := d.Shapes[0]; !reflect.DeepEqual(sh.Key, []string{"bad"}) || sh.Line != 14 || !strings.Contains(sh.Message, "title") {
		t.Errorf("shape = %+v, want the title of bad at line 14", sh)
	}
	if got := d.Values["limits"]; !reflect.DeepEqual(got, map[string]any{"nvidia.com/gpu": 1.0}) {
		t.Errorf("values limits = %#v", got)
	}
	// The description is what the command prints as JSON: keys stay lists.
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"key":["limits","nvidia.com/gpu"]`) || !strings.Contains(string(data), `"opens":false`) {
		t.Errorf("JSON lacks the key list or opens: %s", data)
	}
}

func TestDescribeRegistryFilesAndReferences(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "ide"), 0o755); err != nil {
		t.Fatal(err)
	}
	regFile := filepath.Join(dir, "ide", "resources.json")
	if err := os.WriteFile(regFile, []byte(`{"type": "object", "properties": {
  "cpu": {"type": "integer", "default": 2, "sliderMin": 1, "sliderMax": 8}
}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := schema.LoadRegistry(dir)
	if err != nil {
		t.Fatal(err)
	}
	const src = `{"type": "object", "properties": {
  "resources": {"type": "object", "x-onyxia": {"overwriteSchemaWith": "ide/resources.json"}, "properties": {}},
  "git": {"type": "object", "x-onyxia": {"overwriteSchemaWith": "ide/git"}, "properties": {"name": {"type": "string", "default": "n"}}}
}}`
	d := describe(t, src, schema.Env{ExtKey: "x-onyxia", Registry: reg}, nil)
	if len(d.Failures) != 1 || d.Failures[0].File != regFile || d.Failures[0].Line != 2 {
		t.Errorf("failures = %+v, want the slider in %s at line 2", d.Failures, regFile)
	}
	if len(d.Substitutions) != 1 || d.Substitutions[0].Name != "ide/resources.json" || d.Substitutions[0].Registry != regFile ||
		!reflect.DeepEqual(d.Substitutions[0].Key, []string{"resources"}) {
		t.Errorf("substitutions = %+v", d.Substitutions)
	}
	if len(d.Unresolved) != 1 || d.Unresolved[0].Name != "ide/git" || !reflect.DeepEqual(d.Unresolved[0].Key, []string{"git"}) ||
		d.Unresolved[0].Line != 3 {
		t.Errorf("unresolved = %+v, want ide/git of option git at line 3", d.Unresolved)
	}
}

func TestDescribeOptionDetails(t *testing.T) {
	const src = `{"type": "object", "properties": {
  "mode": {"type": "string", "title": "Mode", "default": "fast", "enum": ["fast", "slow"], "x-onyxia": {"overwriteDefaultWith": "user.lang"}},
  "cpu": {"type": "string", "default": "1000m", "sliderMin": 100, "sliderMax": 4000, "sliderUnit": "m"},
  "fixed": {"type": "string", "const": "c"}
}}`
	root, err := srcpos.ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := schema.Build(root, "v.json", schema.Env{ExtKey: "x-onyxia"})
	d := schema.Describe(s, schema.NewContext(map[string]any{"user": map[string]any{"lang": "en"}}, nil, nil, ""), nil)
	mode, cpu, fixed := d.Options[0], d.Options[1], d.Options[2]
	if mode.Title != "Mode" || mode.Widget != schema.WidgetSelect || !reflect.DeepEqual(mode.Choices, []any{"fast", "slow"}) {
		t.Errorf("mode = %+v", mode)
	}
	if c := mode.Context; c == nil || !c.Resolved || c.Value != "en" || c.Rejected == "" || !reflect.DeepEqual(c.Paths, []string{"user.lang"}) {
		t.Errorf("mode context = %+v, want user.lang resolved to en and rejected", c)
	}
	if sl := cpu.Slider; sl == nil || sl.Min != 100 || sl.Max != 4000 || sl.Step != 1 || sl.StepSet || sl.Unit == nil || *sl.Unit != "m" || sl.Origin != schema.BoundsChart {
		t.Errorf("cpu slider = %+v", sl)
	}
	if !fixed.ReadOnly || fixed.Source != schema.FromConst || fixed.Value != "c" {
		t.Errorf("fixed = %+v", fixed)
	}
}
