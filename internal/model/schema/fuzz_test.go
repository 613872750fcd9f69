package schema

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// FuzzSchema parses arbitrary documents as values.schema.json and computes
// their form in a context with a region: whatever the schema, the model and
// the computation must not panic, and every option must get a field.
func FuzzSchema(f *testing.F) {
	for _, root := range []string{"../../../examples", "../../../testdata"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == "values.schema.json" {
				if data, err := os.ReadFile(path); err == nil {
					f.Add(data)
				}
			}
			return nil
		})
	}
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"array","minItems":3,"items":{"type":"object","properties":{"b":{"const":1}}}}}}`))
	f.Add([]byte(`{"type":"object","definitions":{"n":{"type":"object","properties":{"c":{"$ref":"#/definitions/n"}}}},"properties":{"t":{"$ref":"#/definitions/n"},"r":{"type":"object","x-onyxia":{"overwriteSchemaWith":"loop.json"}},"s":{"$ref":"base.json"}}}`))
	f.Add([]byte(`{"type":"object","properties":{"l":{"type":"string","sliderMin":1,"sliderMax":4,"sliderExtremity":"down","sliderRangeId":"m","default":"5"},"u":{"type":"number","sliderMin":1,"sliderMax":4,"sliderUnit":"","sliderExtremity":"up","sliderRangeId":"m","default":2}}}`))
	dir := f.TempDir()
	for name, content := range map[string]string{
		"loop.json": `{"type":"object","properties":{"again":{"type":"object","x-onyxia":{"overwriteSchemaWith":"loop.json"}}}}`,
		"base.json": `{"type":"string","default":"b","$ref":"#/definitions/n"}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			f.Fatal(err)
		}
	}
	registry, err := LoadRegistry(dir)
	if err != nil {
		f.Fatal(err)
	}
	reg, err := region.Parse([]byte(`resources: {cpuLimit: 4000m, gpu: "1"}
sliders:
  cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}
  gpu: {sliderMin: 0, sliderMax: 2, sliderStep: 1, sliderUnit: ""}
`), "")
	if err != nil {
		f.Fatal(err)
	}
	ctx := NewContext(map[string]any{"git": map[string]any{"name": "Ada", "credentials_cache_duration": 3600}}, reg, nil, "")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "x-platform")
		if err != nil {
			return
		}
		s.ForeignExtensions()
		s.Shapes()
		root, _ := srcpos.ParseJSON(data)
		o := Build(root, "f.json", Env{ExtKey: "x-onyxia", Platform: Onyxia, Registry: registry})
		o.Shapes()
		of := Compute(o, ctx, map[string]any{"r": map[string]any{"again": nil}})
		of.DroppedChoices()
		Check(o, ctx, map[string]any{"l": "9", "u": 1})
		for _, fl := range of.Failures {
			if fl.Node == nil || fl.Msg == "" {
				t.Fatalf("failure without a place or a message: %+v", fl)
			}
			o.FileOf(fl.Node)
		}
		// What a page re-evaluates as values are edited: visibility over
		// the computed values and over values of other shapes, and the
		// model it is given.
		HiddenKeys(o, of.Values)
		HiddenKeys(s, map[string]any{"a": []any{map[string]any{"b": nil}}, "git": "x"})
		of.Describe()
		form := Compute(s, ctx, map[string]any{"a": []any{1, "x"}, "git": map[string]any{"enabled": "yes"}})
		if len(form.Fields) != len(s.Options) {
			t.Fatalf("%d fields for %d options", len(form.Fields), len(s.Options))
		}
		for _, o := range s.Options {
			if o.Hidden != nil {
				o.Hidden.TargetPath(o)
			}
			if form.Field(o.Path) == nil {
				t.Fatalf("no field for option %q", o.Path)
			}
		}
	})
}
