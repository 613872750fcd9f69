package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// formSchema is a chart schema in the seed's shape (git and resources
// groups) plus options for the order of sources, hidden conditions and
// arrays. %s are the defaults of git/enabled and git/repository.
const formSchema = `{
  "$schema": "http://json-schema.org/schema#",
  "type": "object",
  "properties": {
    "fixed": {"type": "string", "const": "c", "default": "d", "x-platform": {"overwriteDefaultWith": "git.name"}},
    "git": {
      "type": "object",
      "description": "git user configuration",
      "properties": {
        "enabled": {"type": "boolean", "default": %s},
        "name": {"type": "string", "default": "", "hidden": {"path": "git/enabled", "value": false},
          "x-platform": {"overwriteDefaultWith": "git.name"}},
        "email": {"type": "string", "default": "", "hidden": {"path": "git/enabled", "value": false},
          "x-platform": {"overwriteDefaultWith": "{{git.email}}"}},
        "cache": {"type": "string", "default": "", "hidden": {"path": "git/enabled", "value": false},
          "x-platform": {"overwriteDefaultWith": "git.credentials_cache_duration"}},
        "token": {"type": "string", "default": "chart-token", "hidden": {"path": "git/enabled", "value": false},
          "x-platform": {"overwriteDefaultWith": "git.token"}},
        "project": {"type": "string", "default": "none", "x-platform": {"overwriteDefaultWith": "git.project"}},
        "repository": {"type": "string", "default": %s, "hidden": {"path": "git/enabled", "value": false}},
        "branch": {"type": "string", "default": "", "hidden": {"path": "git/repository", "value": ""}}
      }
    },
    "resources": {
      "type": "object",
      "properties": {
        "limits": {
          "type": "object",
          "properties": {
            "nvidia.com/gpu": {"type": "string", "default": "1", "render": "slider",
              "sliderMin": 1, "sliderMax": 3, "sliderStep": 1, "sliderUnit": "",
              "x-platform": {"overwriteDefaultWith": "region.resources.gpu", "useRegionSliderConfig": "gpu"}},
            "cpu": {"type": "string", "title": "CPU", "default": "2000m", "render": "slider",
              "sliderMin": 50, "sliderMax": 40000, "sliderStep": 50, "sliderUnit": "m",
              "sliderExtremity": "up", "sliderExtremitySemantic": "Maximum", "sliderRangeId": "cpu",
              "x-platform": {"overwriteDefaultWith": "region.resources.cpuLimit", "useRegionSliderConfig": "cpu"}},
            "memory": {"type": "string", "title": "Memory", "default": "4Gi", "render": "slider",
              "sliderMin": 1, "sliderMax": 200, "sliderStep": 1, "sliderUnit": "Gi",
              "sliderExtremity": "up", "sliderExtremitySemantic": "Maximum", "sliderRangeId": "memory",
              "x-platform": {"overwriteDefaultWith": "region.resources.memoryLimit", "useRegionSliderConfig": "memory"}}
          }
        }
      }
    },
    "persistence": {
      "type": "object",
      "properties": {
        "enabled": {"type": "boolean", "default": false},
        "size": {"type": "string", "default": "10Gi", "render": "slider",
          "sliderMin": 1024, "sliderMax": 10240, "sliderStep": 1024, "sliderUnit": "Mi",
          "hidden": {"path": "enabled", "value": false, "isPathRelative": true},
          "x-platform": {"useRegionSliderConfig": "disk"}}
      }
    },
    "ingress": {
      "type": "object",
      "properties": {
        "enabled": {"type": "boolean", "default": true},
        "hostname": {"type": "string", "default": "", "hidden": {"path": "enabled", "value": false, "isPathRelative": true}}
      }
    },
    "order": {
      "type": "object",
      "properties": {
        "level": {"type": "integer", "default": "high"},
        "levelString": {"type": "integer", "default": "3"},
        "size": {"type": "integer", "default": 5},
        "unset": {"type": "string"},
        "fromValues": {"type": "string"},
        "mode": {"type": "string", "default": "fast", "enum": ["fast", "slow"],
          "x-platform": {"overwriteDefaultWith": "user.lang"}},
        "port": {"type": "integer", "default": 8080, "minimum": 1024,
          "x-platform": {"overwriteDefaultWith": "{{project.port}}"}},
        "emptyContext": {"type": "string", "default": "chart", "x-platform": {"overwriteDefaultWith": "{{user.profile.empty}}"}}
      }
    },
    "visibility": {
      "type": "object",
      "properties": {
        "always": {"type": "string", "default": "a", "hidden": true},
        "never": {"type": "string", "default": "n", "hidden": false},
        "ext": {"type": "string", "default": "e", "x-platform": {"hidden": true}},
        "toNothing": {"type": "string", "default": "t", "hidden": {"path": "visibility/missing", "value": null}},
        "toUnset": {"type": "string", "default": "u", "hidden": {"path": "order/unset", "value": null}},
        "belowScalar": {"type": "string", "default": "b", "hidden": {"path": "visibility/always/deeper", "value": "a"}},
        "deepEqual": {"type": "string", "default": "d", "hidden": {"path": "listGood", "value": ["a", "b"]}},
        "deepDiffer": {"type": "string", "default": "d", "hidden": {"path": "listGood", "value": ["a"]}},
        "number": {"type": "string", "default": "n", "hidden": {"path": "order/size", "value": 5.0}},
        "string": {"type": "string", "default": "s", "hidden": {"path": "order/size", "value": "5"}}
      }
    },
    "tolerations": {
      "type": "array",
      "minItems": 2,
      "items": {
        "type": "object",
        "properties": {
          "key": {"type": "string", "default": "gpu"},
          "effect": {"type": "string", "default": "NoSchedule",
            "hidden": {"path": "key", "value": "gpu", "isPathRelative": true}}
        }
      }
    },
    "emptyList": {"type": "array", "items": {"type": "string", "default": "x"}},
    "listDefault": {"type": "array", "minItems": 2, "default": ["only-one"], "items": {"type": "string"}},
    "listGood": {"type": "array", "default": ["a", "b"], "items": {"type": "string"}}
  }
}`

// testProfile is the user's part of the context, decoded as the tool decodes
// documents (numbers as json.Number).
const testProfile = `{
  "git": {"name": "Ada Lovelace", "email": "ada@example.org", "credentials_cache_duration": 3600, "token": ""},
  "user": {"idep": "ada", "lang": "en", "profile": {"empty": ""}},
  "project": {"id": "u-ada", "port": 80}
}`

// testRegion is a region whose bounds differ from the chart's.
const testRegion = `resources: {cpuLimit: 4000m, memoryLimit: 8Gi, gpu: "2", disk: 10Gi}
sliders:
  cpu:    {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}
  memory: {sliderMin: 1, sliderMax: 32, sliderStep: 1, sliderUnit: Gi}
  gpu:    {sliderMin: 0, sliderMax: 2, sliderStep: 1, sliderUnit: ""}
  disk:   {sliderMin: 1, sliderMax: 100, sliderStep: 1, sliderUnit: Gi}
`

func formOf(t *testing.T, enabled, repository string) *Schema {
	t.Helper()
	return mustSchema(t, fmt.Sprintf(formSchema, enabled, repository), "")
}

func profile(t *testing.T) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(testProfile)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func parseRegion(t *testing.T, src string) *region.Region {
	t.Helper()
	r, err := region.Parse([]byte(src), "")
	if err != nil {
		t.Fatalf("region: %v", err)
	}
	return r
}

func catalogSliders(t *testing.T, src string) map[string]*region.Slider {
	t.Helper()
	n, err := srcpos.ParseYAML([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := region.ReadSliders(n)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func field(t *testing.T, f *Form, path string) *Field {
	t.Helper()
	fd := f.Field(path)
	if fd == nil {
		t.Fatalf("no field at %q", path)
	}
	return fd
}

type want struct {
	path    string
	value   any // nil with defined false: undefined
	defined bool
	source  Source
}

func checkFields(t *testing.T, f *Form, wants []want) {
	t.Helper()
	for _, w := range wants {
		fd := field(t, f, w.path)
		if fd.Defined != w.defined || fd.Source != w.source || !reflect.DeepEqual(fd.Value, w.value) {
			t.Errorf("%s = %#v (defined %v) from %q; want %#v (defined %v) from %q [context %#v rejected %q; default rejected %q]",
				w.path, fd.Value, fd.Defined, fd.Source, w.value, w.defined, w.source, fd.ContextValue, fd.ContextRejected, fd.DefaultRejected)
		}
	}
}

func TestComputeOrder(t *testing.T) {
	s := formOf(t, "true", `""`)
	ctx := NewContext(profile(t), parseRegion(t, testRegion), nil, "")
	values := map[string]any{
		"order": map[string]any{"level": 3, "size": 9, "fromValues": "from-values"},
		"fixed": "values",
	}
	f := Compute(s, ctx, values)
	checkFields(t, f, []want{
		// const beats everything.
		{"fixed", "c", true, FromConst},
		// overwriteDefaultWith beats default.
		{"git/name", "Ada Lovelace", true, FromContext},
		{"git/email", "ada@example.org", true, FromContext},
		// A number is coerced to the string the option wants.
		{"git/cache", "3600", true, FromContext},
		// An empty string is a value and replaces the default.
		{"git/token", "", true, FromContext},
		{"order/emptyContext", "", true, FromContext},
		// A path the context does not have falls back to default.
		{"git/project", "none", true, FromDefault},
		// A valid default beats values.yaml.
		{"order/size", 5.0, true, FromDefault},
		// An invalid default falls back to values.yaml.
		{"order/level", 3.0, true, FromValues},
		// A default of the wrong type is not coerced.
		{"order/levelString", nil, false, FromNothing},
		{"order/fromValues", "from-values", true, FromValues},
		{"order/unset", nil, false, FromNothing},
		// A context value that fails the option falls back.
		{"order/mode", "fast", true, FromDefault},
		{"order/port", 8080.0, true, FromDefault},
	})
	for _, tc := range []struct {
		path        string
		ctxValue    any
		resolved    bool
		rejected    bool
		defRejected bool
	}{
		{"git/cache", 3600.0, true, false, false},
		{"git/project", nil, false, false, false},
		{"order/mode", "en", true, true, false},
		{"order/port", 80.0, true, true, false},
		{"order/level", nil, false, false, true},
		{"order/levelString", nil, false, false, true},
		{"order/size", nil, false, false, false},
	} {
		fd := field(t, f, tc.path)
		if fd.ContextResolved != tc.resolved || !reflect.DeepEqual(fd.ContextValue, tc.ctxValue) ||
			(fd.ContextRejected != "") != tc.rejected || (fd.DefaultRejected != "") != tc.defRejected {
			t.Errorf("%s: context %#v resolved %v rejected %q; default rejected %q", tc.path, fd.ContextValue, fd.ContextResolved, fd.ContextRejected, fd.DefaultRejected)
		}
	}

	// The values document holds what the fields hold, and leaves out
	// undefined ones.
	order := f.Values["order"].(map[string]any)
	if _, ok := order["unset"]; ok {
		t.Errorf("an undefined option is in the values: %#v", order)
	}
	if order["fromValues"] != "from-values" || order["size"] != 5.0 {
		t.Errorf("values order = %#v", order)
	}
	git := f.Values["git"].(map[string]any)
	if git["cache"] != "3600" || git["name"] != "Ada Lovelace" || git["enabled"] != true {
		t.Errorf("values git = %#v", git)
	}
	if f.Values["fixed"] != "c" {
		t.Errorf("values fixed = %#v", f.Values["fixed"])
	}
}

func TestComputeWithoutContext(t *testing.T) {
	s := formOf(t, "true", `""`)
	f := Compute(s, nil, nil)
	checkFields(t, f, []want{
		{"git/name", "", true, FromDefault},
		{"git/cache", "", true, FromDefault},
		{"git/token", "chart-token", true, FromDefault},
		{"resources/limits/cpu", "2000m", true, FromDefault},
		{"resources/limits/nvidia.com/gpu", "1", true, FromDefault},
		// 10Gi does not end with the chart's own unit, Mi.
		{"persistence/size", nil, false, FromNothing},
	})
	if fd := field(t, f, "persistence/size"); !strings.Contains(fd.DefaultRejected, "Mi") {
		t.Errorf("persistence/size default rejected as %q, want a unit message", fd.DefaultRejected)
	}
	if fd := field(t, f, "resources/limits/cpu"); fd.BoundsFrom != BoundsChart || fd.Bounds != (slider.Config{Min: 50, Max: 40000, Step: 50, Unit: "m"}) {
		t.Errorf("cpu bounds without a region = %v from %q", fd.Bounds, fd.BoundsFrom)
	}
}

func TestComputeRegionSliders(t *testing.T) {
	s := formOf(t, "true", `""`)
	reg := parseRegion(t, testRegion)
	ctx := NewContext(profile(t), reg, nil, "")
	f := Compute(s, ctx, nil)
	checkFields(t, f, []want{
		{"resources/limits/cpu", "4000m", true, FromContext},
		{"resources/limits/memory", "8Gi", true, FromContext},
		{"resources/limits/nvidia.com/gpu", "2", true, FromContext},
		// The region's disk slider (1..100 Gi) replaces the chart's unit, so
		// the default 10Gi becomes valid.
		{"persistence/size", "10Gi", true, FromDefault},
	})
	for _, tc := range []struct {
		path string
		want slider.Config
	}{
		{"resources/limits/cpu", slider.Config{Min: 100, Max: 8000, Step: 100, Unit: "m"}},
		{"resources/limits/memory", slider.Config{Min: 1, Max: 32, Step: 1, Unit: "Gi"}},
		// The chart's max (3) is replaced by the region's (2), and so is
		// its min (1 becomes 0).
		{"resources/limits/nvidia.com/gpu", slider.Config{Min: 0, Max: 2, Step: 1, Unit: ""}},
		{"persistence/size", slider.Config{Min: 1, Max: 100, Step: 1, Unit: "Gi"}},
	} {
		fd := field(t, f, tc.path)
		if !fd.HasBounds || fd.Bounds != tc.want || fd.BoundsFrom != BoundsRegion {
			t.Errorf("%s: bounds %v from %q (has %v), want %v from region", tc.path, fd.Bounds, fd.BoundsFrom, fd.HasBounds, tc.want)
		}
	}
	if fd := field(t, f, "git/name"); fd.HasBounds {
		t.Errorf("git/name has slider bounds %v", fd.Bounds)
	}
}

// With an empty unit the platform reads a slider value with parseFloat,
// which ignores what follows the number: "1Gi" is accepted as 1.
func TestComputeEmptyUnitParseFloat(t *testing.T) {
	s := formOf(t, "true", `""`)
	reg := parseRegion(t, strings.Replace(testRegion, "resources: {cpuLimit: 4000m, memoryLimit: 8Gi, gpu: \"2\", disk: 10Gi}", "resources: {gpu: 1Gi}", 1))
	f := Compute(s, NewContext(profile(t), reg, nil, ""), nil)
	if fd := field(t, f, "resources/limits/nvidia.com/gpu"); fd.Value != "1Gi" || fd.Source != FromContext {
		t.Errorf("gpu = %#v from %q, want \"1Gi\" from the context", fd.Value, fd.Source)
	}
	if len(f.Failures) != 0 && hasFailure(f, FailSlider, "resources/limits/nvidia.com/gpu", "") {
		t.Errorf("the slider fails on 1Gi: %v", failureList(f))
	}
}

func TestComputeRegionValueRejected(t *testing.T) {
	s := formOf(t, "true", `""`)
	for _, tc := range []struct {
		name, resources, path string
		fallback              any
		why                   string
	}{
		{"cpu above the region max", `{cpuLimit: 9000m}`, "resources/limits/cpu", "2000m", "outside"},
		{"cpu below the region min", `{cpuLimit: 50m}`, "resources/limits/cpu", "2000m", "outside"},
		{"cpu in whole CPUs", `{cpuLimit: "4"}`, "resources/limits/cpu", "2000m", `"m"`},
		{"memory in another unit", `{memoryLimit: 8192Mi}`, "resources/limits/memory", "4Gi", `"Gi"`},
		{"gpu above the region max", `{gpu: "3"}`, "resources/limits/nvidia.com/gpu", "1", "outside"},
		{"gpu that is no number", `{gpu: one}`, "resources/limits/nvidia.com/gpu", "1", "not a number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := parseRegion(t, strings.Replace(testRegion, "resources: {cpuLimit: 4000m, memoryLimit: 8Gi, gpu: \"2\", disk: 10Gi}", "resources: "+tc.resources, 1))
			f := Compute(s, NewContext(profile(t), reg, nil, ""), nil)
			fd := field(t, f, tc.path)
			if fd.Value != tc.fallback || fd.Source != FromDefault {
				t.Errorf("%s = %#v from %q, want the default %#v", tc.path, fd.Value, fd.Source, tc.fallback)
			}
			if !fd.ContextResolved || !strings.Contains(fd.ContextRejected, tc.why) {
				t.Errorf("%s: context %#v rejected %q, want a reason mentioning %q", tc.path, fd.ContextValue, fd.ContextRejected, tc.why)
			}
		})
	}
}

func TestComputeBoundsPrecedence(t *testing.T) {
	s := formOf(t, "true", `""`)
	catalog := catalogSliders(t, "gpu: {sliderMin: 0, sliderMax: 8, sliderStep: 1, sliderUnit: \"\"}\n"+
		"cpu: {sliderMin: 500, sliderMax: 2000, sliderStep: 500, sliderUnit: m}\n")
	regionNoGPU := parseRegion(t, "resources: {gpu: \"6\"}\nsliders:\n  cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}\n")
	regionFull := parseRegion(t, testRegion)
	gpuPath, cpuPath := "resources/limits/nvidia.com/gpu", "resources/limits/cpu"
	for _, tc := range []struct {
		name          string
		ctx           *Context
		gpu, cpu      slider.Config
		gpuFrom       string
		cpuFrom       string
		gpuValue      any
		gpuValueFrom  Source
		catalogFileOK bool
	}{
		{"chart only", NewContext(nil, nil, nil, ""),
			slider.Config{Min: 1, Max: 3, Step: 1}, slider.Config{Min: 50, Max: 40000, Step: 50, Unit: "m"},
			BoundsChart, BoundsChart, "1", FromDefault, false},
		{"catalog only", NewContext(nil, nil, catalog, "catalog.yaml"),
			slider.Config{Min: 0, Max: 8, Step: 1}, slider.Config{Min: 500, Max: 2000, Step: 500, Unit: "m"},
			BoundsCatalog, BoundsCatalog, "1", FromDefault, true},
		{"region lacks gpu: catalog used", NewContext(nil, regionNoGPU, catalog, "catalog.yaml"),
			slider.Config{Min: 0, Max: 8, Step: 1}, slider.Config{Min: 100, Max: 8000, Step: 100, Unit: "m"},
			BoundsCatalog, BoundsRegion, "6", FromContext, true},
		{"region beats catalog", NewContext(nil, regionFull, catalog, "catalog.yaml"),
			slider.Config{Min: 0, Max: 2, Step: 1}, slider.Config{Min: 100, Max: 8000, Step: 100, Unit: "m"},
			BoundsRegion, BoundsRegion, "2", FromContext, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Compute(s, tc.ctx, nil)
			gpu, cpu := field(t, f, gpuPath), field(t, f, cpuPath)
			if gpu.Bounds != tc.gpu || gpu.BoundsFrom != tc.gpuFrom {
				t.Errorf("gpu bounds %v from %q, want %v from %q", gpu.Bounds, gpu.BoundsFrom, tc.gpu, tc.gpuFrom)
			}
			if cpu.Bounds != tc.cpu || cpu.BoundsFrom != tc.cpuFrom {
				t.Errorf("cpu bounds %v from %q, want %v from %q", cpu.Bounds, cpu.BoundsFrom, tc.cpu, tc.cpuFrom)
			}
			if gpu.Value != tc.gpuValue || gpu.Source != tc.gpuValueFrom {
				t.Errorf("gpu = %#v from %q, want %#v from %q (rejected %q)", gpu.Value, gpu.Source, tc.gpuValue, tc.gpuValueFrom, gpu.ContextRejected)
			}
			b, origin, ok := tc.ctx.Bounds(Catalogist, s.Option(gpuPath))
			if !ok || b != tc.gpu || origin != tc.gpuFrom {
				t.Errorf("Context.Bounds(gpu) = %v, %q, %v", b, origin, ok)
			}
			if ns := tc.ctx.Sliders["gpu"]; ns != nil && (ns.File == "catalog.yaml") != tc.catalogFileOK {
				t.Errorf("gpu slider file = %q", ns.File)
			}
		})
	}
	if _, _, ok := NewContext(nil, regionFull, nil, "").Bounds(Catalogist, s.Option("git/name")); ok {
		t.Errorf("an option that is not a slider has bounds")
	}
}

func TestComputeHidden(t *testing.T) {
	for _, tc := range []struct {
		name, enabled, repository string
		hidden, shown             []string
	}{
		{"git enabled, no repository", "true", `""`,
			[]string{"git/branch"},
			[]string{"git/name", "git/email", "git/cache", "git/token", "git/repository"}},
		{"git disabled", "false", `""`,
			[]string{"git/name", "git/email", "git/cache", "git/token", "git/repository", "git/branch"},
			[]string{"git/enabled", "git/project"}},
		{"repository set", "true", `"https://git.example.org/r.git"`,
			nil,
			[]string{"git/branch", "git/name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Compute(formOf(t, tc.enabled, tc.repository), NewContext(profile(t), nil, nil, ""), nil)
			for _, p := range tc.hidden {
				if !field(t, f, p).Hidden {
					t.Errorf("%s is shown, want hidden", p)
				}
			}
			for _, p := range tc.shown {
				if field(t, f, p).Hidden {
					t.Errorf("%s is hidden, want shown", p)
				}
			}
		})
	}

	f := Compute(formOf(t, "false", `""`), NewContext(profile(t), nil, nil, ""), nil)
	for path, hidden := range map[string]bool{
		"persistence/size":       true,  // sibling persistence/enabled is false
		"ingress/hostname":       false, // sibling ingress/enabled is true
		"visibility/always":      true,  // hidden: true
		"visibility/never":       false, // hidden: false
		"visibility/ext":         true,  // x-platform hidden: true
		"visibility/toNothing":   false, // a path to nothing never hides
		"visibility/toUnset":     false, // an option without value is nothing too
		"visibility/belowScalar": false,
		"visibility/deepEqual":   true, // arrays compare deeply
		"visibility/deepDiffer":  false,
		"visibility/number":      true,  // numbers compare by value (5 and 5.0)
		"visibility/string":      false, // "5" is not 5
	} {
		if got := field(t, f, path).Hidden; got != hidden {
			t.Errorf("%s: hidden = %v, want %v", path, got, hidden)
		}
	}
	// Hidden options are still computed and sent.
	if fd := field(t, f, "git/name"); !fd.Hidden || fd.Value != "Ada Lovelace" {
		t.Errorf("hidden git/name = %#v (hidden %v), want its context value", fd.Value, fd.Hidden)
	}
	if f.Values["git"].(map[string]any)["name"] != "Ada Lovelace" || f.Values["visibility"].(map[string]any)["always"] != "a" {
		t.Errorf("hidden options are missing from the values: %#v %#v", f.Values["git"], f.Values["visibility"])
	}
}

func TestComputeArrays(t *testing.T) {
	f := Compute(formOf(t, "true", `""`), nil, nil)
	item := map[string]any{"key": "gpu", "effect": "NoSchedule"}
	checkFields(t, f, []want{
		{"tolerations", []any{item, item}, true, FromItems},
		{"tolerations/[]", item, true, FromNothing},
		{"tolerations/[]/key", "gpu", true, FromDefault},
		{"emptyList", []any{}, true, FromItems},
		{"emptyList/[]", "x", true, FromDefault},
		// A default with fewer items than minItems is not used, and items
		// without a default cannot fill minItems: the form will not open.
		{"listDefault", nil, false, FromNothing},
		{"listGood", []any{"a", "b"}, true, FromDefault},
	})
	if fd := field(t, f, "listDefault"); !strings.Contains(fd.DefaultRejected, "1 items") {
		t.Errorf("listDefault default rejected as %q", fd.DefaultRejected)
	}
	if got := f.Values["tolerations"]; !reflect.DeepEqual(got, []any{item, item}) {
		t.Errorf("values tolerations = %#v", got)
	}
	if !hasFailure(f, FailItems, "listDefault", "minItems 2 but its items get no default value") {
		t.Errorf("no minItems failure: %v", failureList(f))
	}
	// values.yaml supplies an array when the schema has no valid default;
	// it must then be valid, or the form will not open.
	f = Compute(formOf(t, "true", `""`), nil, map[string]any{"listDefault": []any{"v", "w"}})
	checkFields(t, f, []want{{"listDefault", []any{"v", "w"}, true, FromValues}})
	f = Compute(formOf(t, "true", `""`), nil, map[string]any{"listDefault": []any{"v"}})
	if !hasFailure(f, FailValue, "listDefault", "values.yaml gives [\"v\"], which the form does not accept either (it has 1 items") {
		t.Errorf("no failure for an invalid values.yaml value: %v", failureList(f))
	}
}

func TestValidate(t *testing.T) {
	s := formOf(t, "true", `""`)
	ctx := NewContext(nil, parseRegion(t, testRegion), nil, "")
	for _, tc := range []struct {
		path string
		v    any
		want any
		ok   bool
	}{
		{"git/cache", json.Number("3600"), "3600", true},
		{"git/cache", 3600.0, "3600", true},
		{"git/cache", true, "true", true},
		{"git/enabled", "true", true, true},
		{"git/enabled", "maybe", nil, false},
		{"order/size", "7", 7.0, true},
		{"order/size", json.Number("7.5"), nil, false},
		{"order/port", json.Number("80"), nil, false},
		{"order/mode", "slow", "slow", true},
		{"order/mode", "medium", nil, false},
		{"resources/limits/cpu", "8000m", "8000m", true},
		{"resources/limits/cpu", "8100m", nil, false},
		{"resources/limits/cpu", "8", nil, false},
		{"resources/limits/nvidia.com/gpu", json.Number("2"), "2", true},
		{"resources/limits/nvidia.com/gpu", "0", "0", true},
		{"listGood", []any{"x"}, []any{"x"}, true},
		{"listDefault", []any{"x"}, nil, false},
		{"git", map[string]any{}, nil, false},
	} {
		got, ok, why := ctx.Validate(s, s.Option(tc.path), tc.v)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) || (ok == (why != "")) {
			t.Errorf("Validate(%s, %#v) = %#v, %v, %q; want %#v, %v", tc.path, tc.v, got, ok, why, tc.want, tc.ok)
		}
	}
}

func TestEqualJSONAndValueAt(t *testing.T) {
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{json.Number("1"), 1.0, true},
		{json.Number("1.0"), 1, true},
		{json.Number("1"), "1", false},
		{"", nil, false},
		{nil, nil, true},
		{false, false, true},
		{[]any{json.Number("1"), "a"}, []any{1.0, "a"}, true},
		{[]any{1.0}, []any{1.0, 2.0}, false},
		{map[string]any{"a": json.Number("2")}, map[string]any{"a": 2}, true},
		{map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{map[string]any{}, []any{}, false},
		{"x", map[string]any{}, false},
	} {
		if got := EqualJSON(tc.a, tc.b); got != tc.want {
			t.Errorf("EqualJSON(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	// Paths are written as hidden conditions write them: plain slash-separated
	// segments, no JSON pointer escapes.
	values := map[string]any{"a": map[string]any{"b~c": []any{"x", "y"}, "n": nil}}
	for _, tc := range []struct {
		path string
		want any
		ok   bool
	}{
		{"", values, true},
		{"a/b~c/1", "y", true},
		{"a/n", nil, true},
		{"a/b~c/2", nil, false},
		{"a/b~c/x", nil, false},
		{"a/missing", nil, false},
		{"a/n/deeper", nil, false},
	} {
		got, ok := ValueAt(values, strings.Split(tc.path, "/")[:len(strings.Split(tc.path, "/"))*btoi(tc.path != "")])
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ValueAt(%q) = %#v, %v; want %#v, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func hasFailure(f *Form, kind FailureKind, path, msg string) bool {
	for _, fl := range f.Failures {
		if fl.Kind == kind && fl.Option.Path == path && strings.Contains(fl.Msg, msg) {
			return true
		}
	}
	return false
}

func failureList(f *Form) string {
	var b strings.Builder
	for _, fl := range f.Failures {
		fmt.Fprintf(&b, "\n  %s %s (revealed %v): %s", fl.Kind, fl.Option.Path, fl.Revealed, fl.Msg)
	}
	return b.String()
}
