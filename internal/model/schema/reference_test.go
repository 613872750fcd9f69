package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// onyxiaForm computes the form of a schema on the onyxia platform.
func onyxiaForm(t *testing.T, src string, ctx map[string]any, values map[string]any) (*Schema, *Form) {
	t.Helper()
	root, err := srcpos.ParseJSON([]byte(src))
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	s := Build(root, "values.schema.json", Env{ExtKey: "x-onyxia", Platform: Onyxia})
	return s, Compute(s, NewContext(ctx, nil, nil, ""), values)
}

func props(p string) string {
	return `{"type": "object", "properties": {` + p + `}}`
}

// Each case is a behaviour of the reference platform's form (platform notes
// sections 2, 4, 5 and 5b) with the values it computes or how it fails.
func TestReferenceForm(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema string
		ctx    string // JSON launch context
		values map[string]any
		want   string // JSON values, "" when not checked
		// fail is "kind:option:substring" of a failure that stops the form;
		// revealed the same for one that crashes only once shown.
		fail, revealed string
	}{
		{name: "bare string is a path",
			schema: props(`"a": {"type": "string", "default": "d", "x-onyxia": {"overwriteDefaultWith": "git.name"}}`),
			ctx:    `{"git": {"name": "Ada"}}`, want: `{"a": "Ada"}`},
		{name: "bare word that names nothing falls back",
			schema: props(`"a": {"type": "string", "default": "d", "x-onyxia": {"overwriteDefaultWith": "lakefs"}}`),
			want:   `{"a": "d"}`},
		{name: "whole reference returns the raw value",
			schema: props(`"a": {"type": "object", "default": {}, "x-onyxia": {"overwriteDefaultWith": "{{region.nodeSelector}}"}}`),
			ctx:    `{"region": {"nodeSelector": {"gpu": "a100"}}}`, want: `{"a": {"gpu": "a100"}}`},
		{name: "template substitutes each placeholder",
			schema: props(`"a": {"type": "string", "default": "d", "x-onyxia": {"overwriteDefaultWith": "{{project.id}}-{{k8s.randomSubdomain}}.{{k8s.domain}}"}}`),
			ctx:    `{"project": {"id": "p"}, "k8s": {"randomSubdomain": "7", "domain": "ex.org"}}`, want: `{"a": "p-7.ex.org"}`},
		{name: "template with a missing placeholder is undefined",
			schema: props(`"a": {"type": "string", "default": "d", "x-onyxia": {"overwriteDefaultWith": "{{project.id}}-{{k8s.nope}}"}}`),
			ctx:    `{"project": {"id": "p"}}`, want: `{"a": "d"}`},
		{name: "spaces are not trimmed",
			schema: props(`"a": {"type": "string", "default": "d", "x-onyxia": {"overwriteDefaultWith": "{{ user.email }}"}}`),
			ctx:    `{"user": {"email": "e@x"}}`, want: `{"a": "d"}`},
		{name: "an empty string replaces the default",
			schema: props(`"a": {"type": "string", "default": "d", "x-onyxia": {"overwriteDefaultWith": "git.token"}}`),
			ctx:    `{"git": {"token": ""}}`, want: `{"a": ""}`},
		{name: "a number becomes the string the option wants",
			schema: props(`"a": {"type": "string", "default": "d", "x-onyxia": {"overwriteDefaultWith": "git.credentials_cache_duration"}}`),
			ctx:    `{"git": {"credentials_cache_duration": 3600}}`, want: `{"a": "3600"}`},
		{name: "a string context value is read with parseFloat for a number option",
			schema: props(`"a": {"type": "number", "default": 1, "x-onyxia": {"overwriteDefaultWith": "region.x"}}`),
			ctx:    `{"region": {"x": "4Gi"}}`, want: `{"a": 4}`},
		{name: "a context value failing the option falls back",
			schema: props(`"a": {"type": "string", "default": "fast", "enum": ["fast", "slow"], "x-onyxia": {"overwriteDefaultWith": "user.lang"}}`),
			ctx:    `{"user": {"lang": "en"}}`, want: `{"a": "fast"}`},
		{name: "a default of the wrong type is not coerced and values.yaml wins",
			schema: props(`"a": {"type": "integer", "default": "3"}`), values: map[string]any{"a": 4}, want: `{"a": 4}`},
		{name: "array mapping reads each element's fields",
			schema: props(`"providers": {"type": "array", "default": [], "x-onyxia": {"overwriteDefaultWith": "ai.providers"},
				"items": {"type": "object", "properties": {
					"id": {"type": "string", "default": ""},
					"label": {"type": "string", "default": "", "x-onyxia": {"overwriteDefaultWith": "{{name}} ({{id}})"}}}}}`),
			ctx:  `{"ai": {"providers": [{"id": "a", "name": "Alpha", "extra": 1}, {"id": "b", "name": "Beta"}]}}`,
			want: `{"providers": [{"id": "a", "label": "Alpha (a)"}, {"id": "b", "label": "Beta (b)"}]}`},
		{name: "hidden options are still computed and sent",
			schema: props(`"on": {"type": "boolean", "default": false}, "x": {"type": "string", "default": "v", "hidden": {"path": "on", "value": false}}`),
			want:   `{"on": false, "x": "v"}`},
		// Sliders.
		{name: "a slider without step or unit opens",
			schema: props(`"n": {"type": "number", "default": 2, "sliderMin": 1, "sliderMax": 4}`), want: `{"n": 2}`},
		{name: "an off-grid slider value is shown as it is",
			schema: props(`"c": {"type": "string", "default": "150m", "sliderMin": 100, "sliderMax": 800, "sliderStep": 100, "sliderUnit": "m"}`),
			want:   `{"c": "150m"}`},
		{name: "an integer slider crashes",
			schema: props(`"n": {"type": "integer", "default": 2, "sliderMin": 1, "sliderMax": 4}`),
			fail:   "slider:n:type integer"},
		{name: "a number slider with an empty unit crashes",
			schema: props(`"n": {"type": "number", "default": 2, "sliderMin": 1, "sliderMax": 4, "sliderUnit": ""}`),
			fail:   "slider:n:any sliderUnit"},
		{name: "a select wins over sliderMin",
			schema: props(`"n": {"type": "integer", "default": 2, "enum": [1, 2], "sliderMin": 1, "sliderMax": 4}`),
			want:   `{"n": 2}`},
		{name: "render slider without sliderMin is a text field",
			schema: props(`"s": {"type": "string", "default": "x", "render": "slider"}`), want: `{"s": "x"}`},
		{name: "a slider without sliderMax crashes",
			schema: props(`"n": {"type": "number", "default": 2, "sliderMin": 1}`), fail: "slider:n:no sliderMax"},
		{name: "range ends pair in document order, a unit and a step on one end",
			schema: props(`"req": {"type": "string", "default": "1Gi", "sliderMin": 1, "sliderMax": 8, "sliderStep": 1, "sliderUnit": "Gi", "sliderExtremity": "down", "sliderRangeId": "m"},
				"lim": {"type": "string", "default": "2Gi", "sliderMin": 1, "sliderMax": 8, "sliderExtremity": "up", "sliderRangeId": "m"}`),
			want: `{"req": "1Gi", "lim": "2Gi"}`},
		{name: "a down end without an up end crashes",
			schema: props(`"req": {"type": "string", "default": "1Gi", "sliderMin": 1, "sliderMax": 8, "sliderStep": 1, "sliderUnit": "Gi", "sliderExtremity": "down", "sliderRangeId": "m"}`),
			fail:   "range:req:no up end"},
		{name: "a down end whose up end is hidden crashes",
			schema: props(`"on": {"type": "boolean", "default": false},
				"req": {"type": "string", "default": "1Gi", "sliderMin": 1, "sliderMax": 8, "sliderStep": 1, "sliderUnit": "Gi", "sliderExtremity": "down", "sliderRangeId": "m"},
				"lim": {"type": "string", "default": "2Gi", "sliderMin": 1, "sliderMax": 8, "sliderExtremity": "up", "sliderRangeId": "m", "hidden": {"path": "on", "value": false}}`),
			fail: "range:req:is hidden"},
		{name: "range ends without any step crash",
			schema: props(`"req": {"type": "string", "default": "1Gi", "sliderMin": 1, "sliderMax": 8, "sliderUnit": "Gi", "sliderExtremity": "down", "sliderRangeId": "m"},
				"lim": {"type": "string", "default": "2Gi", "sliderMin": 1, "sliderMax": 8, "sliderExtremity": "up", "sliderRangeId": "m"}`),
			fail: "range:req:neither"},
		{name: "a down value above its up value throws",
			schema: props(`"req": {"type": "string", "default": "4Gi", "sliderMin": 1, "sliderMax": 8, "sliderStep": 1, "sliderUnit": "Gi", "sliderExtremity": "down", "sliderRangeId": "m"},
				"lim": {"type": "string", "default": "2Gi", "sliderMin": 1, "sliderMax": 8, "sliderExtremity": "up", "sliderRangeId": "m"}`),
			fail: "range:req:above the up end"},
		{name: "a crash in a hidden option is revealed only",
			schema: props(`"on": {"type": "boolean", "default": false},
				"n": {"type": "integer", "default": 2, "sliderMin": 1, "sliderMax": 4, "hidden": {"path": "on", "value": false}}`),
			want: `{"on": false, "n": 2}`, revealed: "slider:n:type integer"},
		// 5b.
		{name: "an option with no value crashes",
			schema: props(`"s": {"type": "string"}`), fail: "value:s:no value from any source"},
		{name: "an invalid values.yaml fallback crashes",
			schema: props(`"s": {"type": "string", "pattern": "^a"}`), values: map[string]any{"s": "b"}, fail: "value:s:comes from values.yaml"},
		{name: "null in values.yaml for a string crashes",
			schema: props(`"s": {"type": "string"}`), values: map[string]any{"s": nil}, fail: "value:s:comes from values.yaml"},
		{name: "an invalid const crashes",
			schema: props(`"s": {"type": "string", "const": 3}`), fail: "value:s:const 3"},
		{name: "a const null without type crashes",
			schema: props(`"n": {"const": null}`), fail: "value:n:const null and no type"},
		{name: "render list without options crashes",
			schema: props(`"s": {"type": "string", "default": "a", "render": "list"}`), fail: "list:s:render list but no valid option"},
		{name: "minItems without default items crashes",
			schema: props(`"l": {"type": "array", "minItems": 1, "items": {"type": "string"}}`), fail: "items:l:minItems 1"},
		{name: "a default outside listEnum without fallback crashes",
			schema: props(`"s": {"type": "string", "default": "c", "render": "list", "listEnum": ["a", "b"]}`), fail: "value:s:no value from any source"},
		{name: "format password and readOnly do not crash",
			schema: props(`"p": {"type": "string", "default": "x", "format": "password", "readOnly": true, "maxLength": 0}`), want: `{"p": "x"}`},
		// Selects.
		{name: "overwriteListEnumWith options are checked one by one",
			schema: props(`"s": {"type": "string", "default": "b", "listEnum": ["z"], "x-onyxia": {"overwriteListEnumWith": "region.zones"}}`),
			ctx:    `{"region": {"zones": ["a", {"no": 1}, "b"]}}`, want: `{"s": "b"}`},
		{name: "an empty overwriteListEnumWith falls back to listEnum",
			schema: props(`"s": {"type": "string", "default": "z", "listEnum": ["z"], "x-onyxia": {"overwriteListEnumWith": "region.zones"}}`),
			ctx:    `{"region": {"zones": []}}`, want: `{"s": "z"}`},
		{name: "a listEnum with a wrong-typed option is dropped whole",
			schema: props(`"s": {"type": "string", "default": "q", "listEnum": ["a", 1]}`), want: `{"s": "q"}`},
		// Hidden.
		{name: "a leading slash never matches",
			schema: props(`"on": {"type": "boolean", "default": false}, "x": {"type": "string", "default": "v", "hidden": {"path": "/on", "value": false}}`),
			want:   `{"on": false, "x": "v"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ctx map[string]any
			if tc.ctx != "" {
				if err := json.Unmarshal([]byte(tc.ctx), &ctx); err != nil {
					t.Fatal(err)
				}
			}
			_, f := onyxiaForm(t, tc.schema, ctx, tc.values)
			if shapes := mustShapes(t, tc.schema); len(shapes) > 0 {
				t.Fatalf("the schema itself is refused: %v", shapes)
			}
			if tc.want != "" {
				var want any
				if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(jsValue(want), any(f.Values)) {
					got, _ := json.Marshal(f.Values)
					t.Errorf("values = %s, want %s", got, tc.want)
				}
			}
			check := func(spec string, revealed bool) {
				if spec == "" {
					for _, fl := range f.Failures {
						if fl.Revealed == revealed {
							t.Errorf("unexpected failure: %v", failureList(f))
						}
					}
					return
				}
				parts := strings.SplitN(spec, ":", 3)
				found := false
				for _, fl := range f.Failures {
					found = found || (string(fl.Kind) == parts[0] && fl.Option.Path == parts[1] && strings.Contains(fl.Msg, parts[2]) && fl.Revealed == revealed)
				}
				if !found {
					t.Errorf("no failure %q (revealed %v) among: %v", spec, revealed, failureList(f))
				}
			}
			check(tc.fail, false)
			check(tc.revealed, true)
			if f.Opens() != (tc.fail == "") {
				t.Errorf("Opens() = %v", f.Opens())
			}
		})
	}
}

func mustShapes(t *testing.T, src string) []Shape {
	t.Helper()
	root, err := srcpos.ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Build(root, "", Env{ExtKey: "x-onyxia", Platform: Onyxia}).Shapes()
}

// What the platform's schema check refuses (notes sections 1 and 5b).
func TestReferenceShapes(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		kind         ShapeKind
		msg          string
	}{
		{"no type nor const", props(`"a": {"default": 1}`), ShapeType, "neither type nor const"},
		{"a type list", props(`"a": {"type": ["string", "null"]}`), ShapeType, "list of types"},
		{"a null type", props(`"a": {"type": "null"}`), ShapeType, `type "null"`},
		{"a title that is no string", props(`"a": {"type": "string", "default": "", "title": 3}`), ShapeText, "title"},
		{"an unknown render", props(`"a": {"type": "string", "default": "", "render": "select"}`), ShapeRender, `render "select"`},
		{"an unknown extremity", props(`"a": {"type": "string", "default": "", "sliderExtremity": "top"}`), ShapeExtremity, `"top"`},
		{"hidden without value", props(`"a": {"type": "string", "default": "", "hidden": {"path": "b"}}`), ShapeOther, "no value"},
		{"a tuple", props(`"a": {"type": "array", "items": [{"type": "string"}]}`), ShapeOther, "tuple"},
		{"an unresolved $defs", `{"type": "object", "$defs": {"x": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/x"}}}`, ShapeRef, "only #/definitions/"},
		{"a fractional minItems", props(`"a": {"type": "array", "minItems": 1.5, "items": {"type": "string"}}`), ShapeOther, "minItems"},
		{"hidden in the extension as an object", props(`"a": {"type": "string", "default": "", "x-onyxia": {"hidden": {"path": "b", "value": 1}}}`), ShapeExtBool, "{path, value}"},
		{"overwriteDefaultWith as a number", props(`"a": {"type": "string", "default": "", "x-onyxia": {"overwriteDefaultWith": 3}}`), ShapeExtType, "overwriteDefaultWith"},
		{"sliderMin as a string", props(`"a": {"type": "string", "default": "", "sliderMin": "1"}`), ShapeSlider, "sliderMin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shapes := mustShapes(t, tc.schema)
			found := false
			for _, sh := range shapes {
				found = found || (sh.Kind == tc.kind && strings.Contains(sh.Msg, tc.msg) && strings.Contains(sh.Msg, "the form will not open"))
			}
			if !found {
				t.Errorf("no %s shape mentioning %q in %+v", tc.kind, tc.msg, shapes)
			}
		})
	}
	if shapes := mustShapes(t, `{"type": "object", "definitions": {"x": {"type": "string", "default": ""}}, "properties": {"a": {"$ref": "#/definitions/x"}}}`); len(shapes) != 0 {
		t.Errorf("a #/definitions reference is resolved by the API, yet: %+v", shapes)
	}
}
