package editorschema_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/editorschema"
)

// editor is one editor schema compiled the way Helm compiles schemas, which
// is how an editor's validator reads it too (draft-07, local references).
type editor struct {
	name string
	root *jsonschema.Schema
	h    *schema.HelmSchema
}

func compile(t testing.TB, name string, data []byte) *editor {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	h := (&schema.HelmCompiler{}).Compile(v)
	if h.Err != nil {
		t.Fatalf("%s does not compile: %v", name, h.Err)
	}
	return &editor{name: name, root: h.Root, h: h}
}

// sub compiles the subschema at pointer of the editor schema.
func (e *editor) sub(t testing.TB, pointer string) *editor {
	t.Helper()
	s, err := e.h.Subschema(pointer)
	if err != nil {
		t.Fatalf("%s#%s: %v", e.name, pointer, err)
	}
	return &editor{name: e.name + "#" + pointer, root: s, h: e.h}
}

// A rejection is one reason an editor schema refuses a document, at the
// value it is about.
type rejection struct {
	node *srcpos.Node
	msg  string
}

func (r rejection) String() string {
	return fmt.Sprintf("%s (%s): %s", r.node.Pos, r.node.Pointer(), r.msg)
}

// at reports whether the rejection is about the value or the key at pos.
func (r rejection) at(pos string) bool {
	return r.node.Pos.String() == pos || r.node.KeyPos.IsValid() && r.node.KeyPos.String() == pos
}

// check validates a parsed document and returns the reasons it is refused.
func (e *editor) check(root *srcpos.Node) []rejection {
	err := e.root.Validate(root.Value())
	if err == nil {
		return nil
	}
	var out []rejection
	for _, v := range schema.Violations(err) {
		n, ok := root.LookupTokens(v.Instance)
		if !ok {
			n = root
		}
		out = append(out, rejection{n, v.Message})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].node.Pos, out[j].node.Pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return out
}

// parse reads a JSON or YAML file as srcpos does for catalogist.
func parse(t testing.TB, file string) *srcpos.Node {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root, err := parseData(file, data)
	if err != nil {
		t.Fatalf("%s:%v", file, err)
	}
	return root
}

// parseData reads a file's content, JSON or YAML by its name.
func parseData(name string, data []byte) (*srcpos.Node, error) {
	if strings.HasSuffix(name, ".json") {
		return srcpos.ParseJSON(data)
	}
	return srcpos.ParseYAML(data)
}

// mustValidate fails the test for each reason the editor schema refuses a
// file.
func (e *editor) mustValidate(t testing.TB, file string) {
	t.Helper()
	for _, r := range e.check(parse(t, file)) {
		t.Errorf("%s refuses %s:%s", e.name, file, r)
	}
}

// compiled keeps the editor schemas compiled, by key and platform.
var compiled = map[string]map[string]*editor{}

// schemas compiles the editor schemas for a key and platform.
func schemas(t testing.TB, extKey string, p *schema.Platform) map[string]*editor {
	t.Helper()
	key := extKey + "\x00"
	if p != nil {
		key += p.Name
	}
	if ed := compiled[key]; ed != nil {
		return ed
	}
	files, err := editorschema.Files(extKey, p, "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*editor{}
	for name, data := range files {
		out[name] = compile(t, name, data)
	}
	compiled[key] = out
	return out
}

func glob(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no file matches %s", pattern)
	}
	return files
}
