package schema

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Following a pointer in the compiled root gives the subschema compiling its
// location gives.
func TestSubschemaFollowsTheRoot(t *testing.T) {
	for _, doc := range []string{
		`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"a/b": {"type": "object", "properties": {"c~d": {"type": "array", "items": {"type": "string", "minLength": 2}}}}}}`,
		`{"type": "object", "properties": {"a/b": {"type": "object", "properties": {"c~d": {"type": "array", "items": {"type": "string", "minLength": 2}}}}}}`,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		h := (&HelmCompiler{}).Compile(v)
		if h.Err != nil {
			t.Fatal(h.Err)
		}
		for _, ptr := range []string{"", "/properties/a~1b", "/properties/a~1b/properties/c~0d", "/properties/a~1b/properties/c~0d/items", "/type"} {
			got, err := h.Subschema(ptr)
			want, werr := h.compileAt(ptr)
			if got != want || (err == nil) != (werr == nil) {
				t.Errorf("%s: followed %v (%v), compiled %v (%v)", ptr, got, err, want, werr)
			}
		}
		items, _ := h.Subschema("/properties/a~1b/properties/c~0d/items")
		if items == nil || items.Validate("x") == nil || items.Validate("xy") != nil {
			t.Errorf("items subschema %v does not judge as its schema says", items)
		}
	}
}
