package manifest

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

var knownChecks = map[Check]bool{
	CheckYAML: true, CheckFields: true, CheckRemoved: true, CheckDeprecated: true, CheckDisabled: true,
	CheckNames: true, CheckSelector: true, CheckCustom: true, CheckListPolicy: true,
}

// FuzzCheck judges arbitrary documents: no panic; every problem has a known
// check, a severity among the three and a message, and a line inside the
// document; a document without YAML errors is identified; and judging
// twice gives the same answer (no map order leaks out).
func FuzzCheck(f *testing.F) {
	for _, c := range cases {
		if len(c.doc) < 64<<10 {
			f.Add([]byte(c.doc), c.version.Minor)
		}
	}
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: List, items: [{}]}\n"), 37)
	f.Add([]byte("a: &a {b: *a}\n"), 37)
	f.Fuzz(func(t *testing.T, doc []byte, minor int) {
		c := &Checker{Version: Version{1, minor % 64}, CRDs: map[schema.GroupKind]bool{widget: true}}
		obj, problems := c.Check(doc)
		lines := bytes.Count(doc, []byte("\n")) + 1
		yamlError := false
		for _, p := range problems {
			if !knownChecks[p.Check] || p.Msg == "" || p.Severity < Note || p.Severity > Error {
				t.Fatalf("a malformed problem: %+v", p)
			}
			if p.Line < 0 || p.Line > lines {
				t.Fatalf("line %d of a %d-line document: %+v", p.Line, lines, p)
			}
			yamlError = yamlError || p.Check == CheckYAML
		}
		if !yamlError && len(problems) > 0 && (obj.APIVersion == "" || obj.Kind == "" || obj.Name == "" && !strings.HasSuffix(obj.Kind, "List")) {
			t.Fatalf("problems without a YAML error, but the object is %+v:%s", obj, describe(problems))
		}
		again, problems2 := c.Check(doc)
		if again != obj || !reflect.DeepEqual(problems, problems2) {
			t.Fatalf("a second check differs:%s\nthen:%s", describe(problems), describe(problems2))
		}
	})
}
