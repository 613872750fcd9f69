package schema

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

// roundTrip is what HelmValues promises: a JSON round trip.
func roundTrip(v any) map[string]any {
	data, err := json.Marshal(v)
	if err == nil {
		var out map[string]any
		if json.Unmarshal(data, &out) == nil && out != nil {
			return out
		}
	}
	return map[string]any{}
}

func TestHelmValuesIsARoundTrip(t *testing.T) {
	for _, v := range []any{
		nil, "x", []any{1},
		map[string]any{"a": 1, "b": int64(1 << 60), "c": 2.5, "d": "é", "e": nil, "f": true, "g": []any{map[string]any{"h": -0.0}}},
		map[string]any{"bad": "\xff"},
		map[string]any{"\xfe": 1},
		map[string]any{"nan": math.NaN()},
		map[string]any{"inf": []any{math.Inf(1)}},
		map[string]any{"other": uint8(3), "values": map[string]string{"a": "b"}},
	} {
		if got, want := HelmValues(v), roundTrip(v); !reflect.DeepEqual(got, want) {
			t.Errorf("HelmValues(%#v) = %#v, want %#v", v, got, want)
		}
	}
	// A copy: writing to it leaves the source alone.
	src := map[string]any{"a": map[string]any{"b": 1}}
	HelmValues(src)["a"].(map[string]any)["b"] = 2
	if src["a"].(map[string]any)["b"] != 1 {
		t.Error("HelmValues shares maps with its input")
	}
}

// FuzzHelmValues compares HelmValues with the JSON round trip on YAML
// documents of every shape.
func FuzzHelmValues(f *testing.F) {
	for _, s := range []string{"a: 1\nb: [x, 2.5, {c: null}]\n", "0x1f: 1e400\n", "a: !!binary aGk=\n", "- 1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if yaml.Unmarshal([]byte(s), &v) != nil {
			return
		}
		if got, want := HelmValues(v), roundTrip(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("HelmValues(%#v) = %#v, want %#v", v, got, want)
		}
	})
}
