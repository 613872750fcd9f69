package schema

import "encoding/json"

// HelmValues returns a values document with the types Helm's own YAML
// reading gives (float64 numbers, map[string]any objects, []any lists), as
// a copy: Helm's coalescing mutates its input, and values computed by the
// form or parsed from YAML 1.2 carry other types. A nil or non-object
// document gives an empty map.
func HelmValues(v any) map[string]any {
	data, err := json.Marshal(v)
	if err == nil {
		var out map[string]any
		if json.Unmarshal(data, &out) == nil && out != nil {
			return out
		}
	}
	return map[string]any{}
}
