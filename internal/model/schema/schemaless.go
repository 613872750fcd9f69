package schema

import "github.com/catalogist/catalogist/internal/input/srcpos"

// Schemaless is the launcher the platform opens for a chart without
// values.schema.json: no fields, and the values it sends are values.yaml
// as its form reads it (YAML 1.2, see analysis.Chart.FormValues), every
// key holding an empty list left out. file names the chart's values.yaml
// in the description.
func Schemaless(env Env, file string, values map[string]any) *Form {
	root, _ := srcpos.ParseJSON([]byte(`{"type": "object", "properties": {}}`))
	s := Build(root, file, env)
	f := Compute(s, nil, nil)
	f.schemaless = true
	if v, ok := withoutEmptyLists(jsValue(values)).(map[string]any); ok {
		f.Values = v
	}
	return f
}

// Schemaless reports whether the form is the launcher of a chart without a
// schema.
func (f *Form) Schemaless() bool { return f.schemaless }

// withoutEmptyLists returns v with every key that holds an empty list left
// out, at any depth.
func withoutEmptyLists(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			if l, ok := c.([]any); ok && len(l) == 0 {
				continue
			}
			out[k] = withoutEmptyLists(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = withoutEmptyLists(c)
		}
		return out
	}
	return v
}
