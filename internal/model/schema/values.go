package schema

import (
	"encoding/json"
	"math"
	"unicode/utf8"
)

// HelmValues returns a values document with the types Helm's own YAML
// reading gives (float64 numbers, map[string]any objects, []any lists), as
// a copy: Helm's coalescing mutates its input, and values computed by the
// form or parsed from YAML 1.2 carry other types. A nil or non-object
// document gives an empty map.
//
// It is what a JSON round trip gives; the common types are copied
// directly, which lint does for every chart and set of values, and
// anything else takes the round trip.
func HelmValues(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		if out, ok := helmMap(m); ok {
			return out
		}
	}
	data, err := json.Marshal(v)
	if err == nil {
		var out map[string]any
		if json.Unmarshal(data, &out) == nil && out != nil {
			return out
		}
	}
	return map[string]any{}
}

// helmMap copies a map as the JSON round trip would, false when it holds
// a value the round trip changes otherwise (text that is not UTF-8, a
// number JSON cannot write, a type of another kind).
func helmMap(m map[string]any) (map[string]any, bool) {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !utf8.ValidString(k) {
			return nil, false
		}
		c, ok := helmValue(v)
		if !ok {
			return nil, false
		}
		out[k] = c
	}
	return out, true
}

func helmValue(v any) (any, bool) {
	switch x := v.(type) {
	case nil, bool:
		return x, true
	case string:
		return x, utf8.ValidString(x)
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case map[string]any:
		return helmMap(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, ok := helmValue(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	}
	return nil, false
}
