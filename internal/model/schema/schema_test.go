package schema

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// treeSchema exercises the option tree: nesting, array items, a key with a
// slash, slider fields and every form of hidden.
const treeSchema = `{
  "$schema": "http://json-schema.org/schema#",
  "type": "object",
  "properties": {
    "git": {
      "type": "object",
      "title": "Git",
      "properties": {
        "enabled": {"type": "boolean", "default": true},
        "branch": {"type": "string", "hidden": {"path": "git/repository", "value": ""}}
      }
    },
    "limits": {
      "type": "object",
      "properties": {
        "nvidia.com/gpu": {"type": "string", "render": "slider", "sliderMin": 0, "sliderMax": 4,
          "sliderStep": 1, "sliderUnit": "", "x-platform": {"useRegionSliderConfig": "gpu"}},
        "cpu": {"type": "string", "sliderMin": 50, "sliderMax": 40000, "sliderStep": 50, "sliderUnit": "m",
          "sliderExtremity": "up", "sliderExtremitySemantic": "Maximum", "sliderRangeId": "cpu"}
      }
    },
    "tolerations": {
      "type": "array",
      "items": {"type": "object", "properties": {"key": {"type": "string", "x-platform": {"readonly": true}}}}
    },
    "hideBool": {"type": "string", "hidden": true},
    "hideFalse": {"type": "string", "hidden": false},
    "hideExt": {"type": "string", "x-platform": {"hidden": true}},
    "hideExtFalse": {"type": "string", "hidden": {"path": "size", "value": 1, "isPathRelative": true}, "x-platform": {"hidden": false}},
    "x-onyxia-spelt": {"type": "string", "x-onyxia": {"overwriteDefaultWith": "git.name", "hidden": true}},
    "notAnObject": 3
  }
}`

func mustSchema(t *testing.T, src, extKey string) *Schema {
	t.Helper()
	s, err := Parse([]byte(src), extKey)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

func TestParseOptionPaths(t *testing.T) {
	s := mustSchema(t, treeSchema, "")
	if s.ExtKey != DefaultExtensionKey {
		t.Errorf("ExtKey = %q, want %q", s.ExtKey, DefaultExtensionKey)
	}
	var paths []string
	for _, o := range s.Options {
		paths = append(paths, o.Path)
	}
	want := []string{
		"git", "git/enabled", "git/branch",
		"limits", "limits/nvidia.com/gpu", "limits/cpu",
		"tolerations", "tolerations/[]", "tolerations/[]/key",
		"hideBool", "hideFalse", "hideExt", "hideExtFalse", "x-onyxia-spelt", "notAnObject",
	}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("option paths =\n%q\nwant\n%q", paths, want)
	}
	if s.Top.Path != "" || s.Top.Parent != nil || len(s.Top.Children) != 9 {
		t.Errorf("Top = path %q, %d children", s.Top.Path, len(s.Top.Children))
	}

	for _, tc := range []struct {
		path, name, parent string
		inItems            bool
	}{
		{"git/enabled", "enabled", "git", false},
		{"limits/nvidia.com/gpu", "nvidia.com/gpu", "limits", false},
		{"tolerations/[]", "[]", "tolerations", true},
		{"tolerations/[]/key", "key", "tolerations/[]", true},
	} {
		o := s.Option(tc.path)
		if o == nil {
			t.Errorf("Option(%q) = nil", tc.path)
			continue
		}
		if k := s.OptionKey(o.Key...); k != o {
			t.Errorf("OptionKey(%q) = %v", o.Key, k)
		}
		if o.Name != tc.name || o.Parent.Path != tc.parent || o.InItems != tc.inItems {
			t.Errorf("Option(%q) = name %q parent %q inItems %v; want %q %q %v", tc.path, o.Name, o.Parent.Path, o.InItems, tc.name, tc.parent, tc.inItems)
		}
	}
	if s.Option("tolerations").Items != s.Option("tolerations/[]") {
		t.Errorf("tolerations.Items is not the tolerations/[] option")
	}
	if s.Option("nope") != nil {
		t.Errorf("Option(nope) != nil")
	}

	gpu := s.Option("limits/nvidia.com/gpu")
	if !gpu.HasSlider || gpu.Slider != (slider.Config{Min: 0, Max: 4, Step: 1, Unit: ""}) || gpu.SliderConfigName() != "gpu" {
		t.Errorf("gpu slider = %v %v config %q", gpu.HasSlider, gpu.Slider, gpu.SliderConfigName())
	}
	cpu := s.Option("limits/cpu")
	if !cpu.HasSlider || cpu.Render != "" || cpu.Extremity != "up" || cpu.ExtremitySemantic != "Maximum" || cpu.RangeID != "cpu" || cpu.SliderConfigName() != "" {
		t.Errorf("cpu = slider %v render %q extremity %q/%q range %q", cpu.HasSlider, cpu.Render, cpu.Extremity, cpu.ExtremitySemantic, cpu.RangeID)
	}
	if s.Option("git/enabled").HasSlider {
		t.Errorf("a boolean without slider fields is a slider")
	}
	if !s.Option("tolerations/[]/key").Readonly {
		t.Errorf("x-platform readonly true is not read")
	}
	if got := s.Option("git").Label(); got != "Git" {
		t.Errorf("Label() = %q, want the title", got)
	}
	if got := s.Option("git/enabled").Label(); got != "enabled" {
		t.Errorf("Label() = %q, want the name", got)
	}
	if d := s.Option("git/enabled").Default; d == nil || !d.Bool() {
		t.Errorf("git/enabled default = %v", d)
	}
	if n := s.Option("notAnObject"); n.Type != "" || n.Node.Kind != srcpos.Number {
		t.Errorf("a non-object property: type %q kind %v", n.Type, n.Node.Kind)
	}
}

func TestParseHidden(t *testing.T) {
	s := mustSchema(t, treeSchema, "")
	for _, tc := range []struct {
		path     string
		nilH     bool
		always   bool
		target   string
		relative bool
	}{
		{"git/branch", false, false, "git/repository", false},
		{"hideBool", false, true, "", false},
		{"hideFalse", true, false, "", false},
		{"hideExt", false, true, "", false},
		{"hideExtFalse", false, false, "size", true}, // relative to the root object
		{"x-onyxia-spelt", true, false, "", false},   // x-onyxia is not the configured key
		{"git/enabled", true, false, "", false},
	} {
		h := s.Option(tc.path).Hidden
		if tc.nilH {
			if h != nil {
				t.Errorf("%s: Hidden = %+v, want nil", tc.path, h)
			}
			continue
		}
		if h == nil {
			t.Errorf("%s: Hidden = nil", tc.path)
			continue
		}
		if h.Always != tc.always || h.Relative != tc.relative || h.Node == nil {
			t.Errorf("%s: Hidden always=%v relative=%v node=%v; want %v %v", tc.path, h.Always, h.Relative, h.Node, tc.always, tc.relative)
		}
		if !tc.always {
			if got := h.TargetPath(s.Option(tc.path)); got != tc.target {
				t.Errorf("%s: TargetPath = %q, want %q", tc.path, got, tc.target)
			}
		}
	}
	if h := s.Option("git/branch").Hidden; h.Value == nil || h.Value.Kind != srcpos.String || h.Value.Text != "" {
		t.Errorf("git/branch hidden value = %v", h.Value)
	}
}

func TestTargetPath(t *testing.T) {
	s := mustSchema(t, `{"type": "object", "properties": {"a": {"type": "object", "properties": {
		"b": {"type": "string", "hidden": {"path": "/c/", "value": 1, "isPathRelative": true}},
		"d": {"type": "string", "hidden": {"path": "/c/", "value": 1}},
		"e": {"type": "string", "hidden": {"path": "x/y", "value": 1, "isPathRelative": true}}}}}}`, "")
	// The path is split on every slash, as the platform splits it: a
	// leading or trailing slash makes an empty segment, which names nothing.
	for path, want := range map[string]string{"a/b": "a//c/", "a/d": "/c/", "a/e": "a/x/y"} {
		o := s.Option(path)
		if got := o.Hidden.TargetPath(o); got != want {
			t.Errorf("%s: TargetPath = %q, want %q", path, got, want)
		}
	}
	if o := s.Option("a/d"); s.Resolve(o.Hidden.Target(o)) != nil {
		t.Errorf("a path with a leading slash resolves to an option")
	}
	if o := s.Option("a/e"); len(o.Hidden.Target(o)) != 3 {
		t.Errorf("a/e: Target = %q", o.Hidden.Target(o))
	}
}

// A key holding a slash is one segment: options are found by their key
// segments, never by splitting a joined path.
func TestKeySegments(t *testing.T) {
	s := mustSchema(t, treeSchema, "")
	o := s.OptionKey("limits", "nvidia.com/gpu")
	if o == nil || o.Name != "nvidia.com/gpu" || len(o.Key) != 2 {
		t.Fatalf("OptionKey(limits, nvidia.com/gpu) = %+v", o)
	}
	if s.Resolve([]string{"limits", "nvidia.com", "gpu"}) != nil {
		t.Errorf("a slash-split path reaches the key holding a slash")
	}
	if got := s.Resolve([]string{"tolerations", "3", "key"}); got == nil || got.Path != "tolerations/[]/key" {
		t.Errorf("Resolve(tolerations/3/key) = %v", got)
	}
}

func TestCustomExtensionKey(t *testing.T) {
	s := mustSchema(t, treeSchema, "x-onyxia")
	if s.ExtKey != "x-onyxia" {
		t.Fatalf("ExtKey = %q", s.ExtKey)
	}
	o := s.Option("x-onyxia-spelt")
	if o.Ext == nil || o.Ext.OverwriteDefaultWith == nil || o.Ext.OverwriteDefaultWith.Text != "git.name" {
		t.Errorf("x-onyxia overwriteDefaultWith not read under the custom key: %+v", o.Ext)
	}
	if o.Hidden == nil || !o.Hidden.Always {
		t.Errorf("x-onyxia hidden true not read under the custom key")
	}
	if s.Option("hideExt").Hidden != nil || s.Option("hideExt").Ext != nil {
		t.Errorf("x-platform is read although the key is x-onyxia")
	}
	if s.Option("limits/nvidia.com/gpu").SliderConfigName() != "" {
		t.Errorf("useRegionSliderConfig under x-platform is read although the key is x-onyxia")
	}

	root, err := srcpos.ParseJSON([]byte(treeSchema))
	if err != nil {
		t.Fatal(err)
	}
	if got := Build(root, "", Env{}).ExtKey; got != DefaultExtensionKey {
		t.Errorf("Build with no key uses %q", got)
	}
}

func TestForeignExtensions(t *testing.T) {
	src := `{"type": "object", "properties": {
		"a": {"type": "string", "x-onyxia": {"overwriteDefaultWith": "git.name"}},
		"b": {"type": "array", "items": {"type": "string", "x-onyxia": {"useRegionSliderConfig": "cpu"}}},
		"c": {"type": "string", "x-platform": {"hidden": true}},
		"d": {"type": "string", "x-other": {"unrelated": 1}, "x-string": "overwriteDefaultWith"},
		"e": {"type": "string", "allOf": [{"x-legacy": {"readonly": true}}]}
	}}`
	for _, tc := range []struct {
		key  string
		want map[string]int
	}{
		{"", map[string]int{"x-onyxia": 2, "x-legacy": 1}},
		{"x-onyxia", map[string]int{"x-platform": 1, "x-legacy": 1}},
	} {
		s := mustSchema(t, src, tc.key)
		got := map[string]int{}
		for k, nodes := range s.ForeignExtensions() {
			got[k] = len(nodes)
			for _, n := range nodes {
				if n.Key != k || n.Kind != srcpos.Object {
					t.Errorf("key %q: node %q of kind %v", tc.key, n.Key, n.Kind)
				}
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("key %q: ForeignExtensions = %v, want %v", tc.key, got, tc.want)
			continue
		}
		for k, n := range tc.want {
			if got[k] != n {
				t.Errorf("key %q: ForeignExtensions = %v, want %v", tc.key, got, tc.want)
			}
		}
	}
	s := mustSchema(t, src, "")
	var lines []int
	for _, n := range s.ForeignExtensions()["x-onyxia"] {
		lines = append(lines, n.KeyPos.Line)
	}
	sort.Ints(lines)
	if len(lines) != 2 || lines[0] != 2 || lines[1] != 3 {
		t.Errorf("x-onyxia found on lines %v, want [2 3]", lines)
	}
}

func TestParseErrorsAndLoad(t *testing.T) {
	_, err := Parse([]byte("{\n  \"type\": \"object\",\n}"), "")
	var de *srcpos.Error
	if !errors.As(err, &de) || de.Pos != (srcpos.Pos{Line: 2, Col: 19}) {
		t.Errorf("Parse of a trailing comma: %v, want a *doc.Error at 2:19", err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "values.schema.json")
	if err := os.WriteFile(p, []byte(treeSchema), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Load(p, "")
	if err != nil || s.File != p || s.Option("git/enabled") == nil {
		t.Errorf("Load = %v, %v", s, err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad, ""); err == nil || !strings.HasPrefix(err.Error(), bad+":1:2: ") {
		t.Errorf("Load of a broken file: %v, want it to start with %q", err, bad+":1:2: ")
	}
	if _, err := Load(filepath.Join(dir, "absent.json"), ""); err == nil {
		t.Errorf("Load of a missing file succeeded")
	}
	// A document that is JSON but not a schema object still gives a tree.
	for _, src := range []string{"[]", "3", `{"properties": 3}`, `{"type": "object", "items": []}`} {
		s := mustSchema(t, src, "")
		if s.Top == nil || len(s.Options) != 0 {
			t.Errorf("%s: Top %v with %d options", src, s.Top, len(s.Options))
		}
	}
}

// catalog.Platforms is the one list of platforms: each name is defined
// here under that name.
func TestEveryPlatformDefined(t *testing.T) {
	for _, name := range catalog.Platforms() {
		p, err := PlatformNamed(name)
		if err != nil || p.Name != name {
			t.Errorf("platform %q: %v, %+v", name, err, p)
		}
	}
	if _, err := PlatformNamed("kubeflow"); err == nil {
		t.Error("an unknown platform has a definition")
	}
}
