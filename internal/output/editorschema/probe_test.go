package editorschema_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/editorschema"
)

// The editor schemas must say what the Go code says. Each test here puts
// the same documents to the code that reads the files and to the schema,
// and wants the same verdict, so that a key, a value or a shape the code
// learns and the schema does not (or the other way round) fails here.

// samples are values of every kind, names the form knows and names it
// does not.
func samples() []any {
	return []any{"s", "", 0, 1.5, -1, true, nil, []any{}, []any{"x"}, []any{1}, map[string]any{}, map[string]any{"a": 1},
		schema.Types[0], schema.Renders[0], schema.Extremities[0], "null", "textarea", "Down"}
}

// kinds are one value of each JSON kind.
var kinds = []any{"s", 0, true, nil, []any{}, map[string]any{}}

// literals returns the identifier-like string literals of a package's
// source: every key the package reads is among them.
func literals(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	word := regexp.MustCompile(`^\$?[A-Za-z][A-Za-z]*$`)
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if _, ok := n.(*ast.ImportSpec); ok {
				return false
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && word.MatchString(s) {
					seen[s] = true
				}
			}
			return true
		})
	}
	return slices.Sorted(mapsKeys(seen))
}

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// referenceKeys resolve when Helm compiles a schema, against other
// documents: the schema of one document cannot check them.
var referenceKeys = []string{"$ref", "$schema", "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary"}

// lintRefuses is what lint makes of a values schema: the form refuses a
// node it reads (schema.Shapes), or Helm cannot compile it.
func lintRefuses(t *testing.T, helm *schema.HelmCompiler, doc []byte, extKey string) bool {
	t.Helper()
	s, err := schema.Parse(doc, extKey)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Shapes()) > 0 {
		return true
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return helm.Compile(v).Err != nil
}

// latest is the $schema of the latest draft, which the bundled catalogs
// write.
const latest = "http://json-schema.org/schema#"

// laxer are the keys whose values the editor schema accepts where Helm,
// reading the schema in a draft, refuses some: the editor schema checks a
// schema with draft-07's meta-schema made to accept what every later draft
// accepts, so that no draft's valid schema is refused.
var laxer = map[string][]string{
	// Keywords the drafts 2019-09 and 2020-12 add, which a draft-07 schema
	// may use as it likes.
	latest: {"$defs", "contentSchema", "dependentSchemas", "prefixItems", "unevaluatedItems", "unevaluatedProperties"},
	// Draft-07 wants an enum with values, each once; additionalItems,
	// which the later drafts dropped, a schema.
	"http://json-schema.org/draft-07/schema#": {"enum", "additionalItems"},
}

// Every key package schema reads, every key of the draft's meta-schema and
// of the vocabulary, with a value of every kind, in an option and in the
// extension object: the editor schema refuses exactly what lint refuses,
// but for the keys it is laxer with. The platforms differ in the extension
// only: the options are tried on the first.
func TestValuesVocabularyAgreesWithTheForm(t *testing.T) {
	for i, p := range []*schema.Platform{schema.Catalogist, schema.Onyxia} {
		data, err := editorschema.Values(p.ExtKey, p, "")
		if err != nil {
			t.Fatal(err)
		}
		ed := compile(t, editorschema.ValuesName, data)
		var gen map[string]any
		if err := json.Unmarshal(data, &gen); err != nil {
			t.Fatal(err)
		}
		// In an option: every key package schema reads, and every key of
		// the vocabulary and of the meta-schema; a word of package schema
		// that is no key the schema knows is tried with one value of each
		// kind, one of which a check of the form on it would refuse. In the
		// extension object: the keys the platform reads, and one it does
		// not.
		keys := map[string]bool{}
		for _, k := range literals(t, "../../model/schema") {
			keys[k] = false
		}
		metaKeys := dig(t, gen, "definitions", "draft-07", "properties")
		for _, m := range []map[string]any{metaKeys, dig(t, gen, "definitions", "option", "else", "properties")} {
			for k := range m {
				keys[k] = true
			}
		}
		for _, k := range referenceKeys {
			delete(keys, k)
		}
		extKeys := append(slices.Clone(schema.ExtensionKeys), "overwriteDefault")
		helm := &schema.HelmCompiler{}
		for draft, lax := range laxer {
			try := func(where, key string, option map[string]any) {
				doc := map[string]any{"$schema": draft, "type": "object", "properties": map[string]any{"o": option}}
				raw, err := json.Marshal(doc)
				if err != nil {
					t.Fatal(err)
				}
				root, err := srcpos.ParseJSON(raw)
				if err != nil {
					t.Fatal(err)
				}
				got, want := len(ed.check(root)) > 0, lintRefuses(t, helm, raw, p.ExtKey)
				switch {
				case got && !want:
					t.Errorf("%s platform: %s %s: the editor schema refuses what lint accepts", p.Name, where, raw)
				case !got && want && !(where == "option" && slices.Contains(lax, key)):
					t.Errorf("%s platform: %s %s: the editor schema accepts what lint refuses", p.Name, where, raw)
				}
			}
			for _, k := range slices.Sorted(mapsKeys(keys)) {
				// The drafts differ in the meta-schema only.
				if _, ok := metaKeys[k]; i > 0 || !ok && draft != latest {
					continue
				}
				values := samples()
				if !keys[k] {
					values = kinds
				}
				for _, v := range values {
					try("option", k, map[string]any{"type": "string", k: v})
				}
			}
			// Helm ignores the extension, whatever the draft.
			if draft != latest {
				continue
			}
			for _, k := range extKeys {
				for _, v := range samples() {
					try("extension", k, map[string]any{"type": "string", p.ExtKey: map[string]any{k: v}})
				}
			}
			for _, v := range samples() {
				try("extension object", p.ExtKey, map[string]any{"type": "string", p.ExtKey: v})
			}
		}
	}
}

// dig returns the object at a path of a decoded document.
func dig(t *testing.T, doc map[string]any, path ...string) map[string]any {
	t.Helper()
	cur := doc
	for _, p := range path {
		next, ok := cur[p].(map[string]any)
		if !ok {
			t.Fatalf("the generated schema has no object at %s", strings.Join(path, "/"))
		}
		cur = next
	}
	return cur
}

// The enumerations the form knows are the schema's, both ways.
func TestValuesVocabularyEnumerations(t *testing.T) {
	data, err := editorschema.Values("x-acme", schema.Catalogist, "")
	if err != nil {
		t.Fatal(err)
	}
	var gen map[string]any
	if err := json.Unmarshal(data, &gen); err != nil {
		t.Fatal(err)
	}
	props := dig(t, gen, "definitions", "subschema", "else", "properties")
	for key, want := range map[string][]string{"render": schema.Renders, "sliderExtremity": schema.Extremities} {
		if got := strs(props[key].(map[string]any)["enum"]); !slices.Equal(got, want) {
			t.Errorf("%s: the schema allows %v, the form %v", key, got, want)
		}
	}
	typ := dig(t, gen, "definitions", "option", "else", "properties", "type")
	if got := strs(typ["enum"]); !slices.Equal(got, schema.Types) {
		t.Errorf("type: the schema allows %v, the form %v", got, schema.Types)
	}
	if _, ok := props["x-acme"]; !ok {
		t.Error("the extension object is not under the key in force, x-acme")
	}
	ext := dig(t, gen, "definitions", "extension", "properties")
	if got := slices.Sorted(mapsKeys(boolKeys(ext))); !slices.Equal(got, slices.Sorted(slices.Values(schema.ExtensionKeys))) {
		t.Errorf("extension keys: the schema has %v, the platform reads %v", got, schema.ExtensionKeys)
	}
	for k, v := range ext {
		if d, _ := v.(map[string]any)["description"].(string); d == "" || d == k {
			t.Errorf("extension key %s has no description", k)
		}
	}
	// Both platforms' keys but the one in force carry a warning.
	for _, name := range schema.PlatformNames() {
		k := schema.PlatformKey(name)
		if msg, _ := props[k].(map[string]any)["deprecationMessage"].(string); msg == "" {
			t.Errorf("%s, another platform's key, has no deprecation warning", k)
		}
	}
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func boolKeys(m map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// agree puts YAML documents to a Go reader and to an editor schema and
// reports where they disagree, but for the documents of known, whose
// refusal by the reader needs more than a schema (the reason is the value).
func agree(t *testing.T, ed *editor, read func([]byte) error, docs []string, known map[string]string) {
	t.Helper()
	for _, doc := range docs {
		root, err := srcpos.ParseYAML([]byte(doc))
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		rs := ed.check(root)
		goErr := read([]byte(doc))
		if why, ok := known[doc]; ok {
			if goErr == nil || len(rs) > 0 {
				t.Errorf("%q is listed as refused by the reader alone (%s), but the reader says %v and the schema %v", doc, why, goErr, rs)
			}
			continue
		}
		switch {
		case goErr != nil && len(rs) == 0:
			t.Errorf("%s accepts %q, which the reader refuses: %v", ed.name, doc, goErr)
		case goErr == nil && len(rs) > 0:
			t.Errorf("%s refuses %q, which the reader accepts: %v", ed.name, doc, rs)
		}
	}
}

// knownKeys reads the list of known keys a reader's message gives for an
// unknown one.
func knownKeys(t *testing.T, err error, re string) []string {
	t.Helper()
	if err == nil {
		t.Fatal("the reader accepts an unknown key")
	}
	m := regexp.MustCompile(re).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("no list of keys in %q", err)
	}
	keys := strings.Split(m[1], ", ")
	sort.Strings(keys)
	return keys
}

// keysProbe is a document per key and sample value, the value written as
// JSON inside YAML, within a wrapper holding %s.
func keysProbe(wrapper string, keys []string) []string {
	var out []string
	for _, k := range keys {
		for _, v := range samples() {
			raw, _ := json.Marshal(v)
			out = append(out, strings.ReplaceAll(wrapper, "%s", strconv.Quote(k)+": "+string(raw)))
		}
	}
	return out
}

func schemaKeys(t *testing.T, data []byte, path ...string) []string {
	t.Helper()
	var gen map[string]any
	if err := json.Unmarshal(data, &gen); err != nil {
		t.Fatal(err)
	}
	return slices.Sorted(mapsKeys(boolKeys(dig(t, gen, path...))))
}
