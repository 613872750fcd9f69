package srcpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// addRepoFiles seeds a fuzz target with the JSON and YAML files of the
// repository's examples and test data.
func addRepoFiles(f *testing.F) {
	const maxFiles, maxSize = 200, 1 << 20
	n := 0
	for _, dir := range []string{"../../../examples", "../../../testdata"} {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if n >= maxFiles {
				return fs.SkipAll
			}
			if err != nil || d.IsDir() {
				return nil // a missing directory just adds nothing
			}
			switch filepath.Ext(path) {
			case ".json", ".yaml", ".yml":
			default:
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil || len(data) > maxSize {
				return nil
			}
			f.Add(data)
			n++
			return nil
		})
	}
}

var bom = []byte("\xef\xbb\xbf")

// jsonDepth is the deepest nesting of arrays and objects in data, strings
// skipped.
func jsonDepth(data []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// checkTree verifies that every node of a parsed tree has a position and a
// consistent parent link.
func checkTree(t *testing.T, root *Node) {
	t.Helper()
	var walk func(n, parent *Node)
	walk = func(n, parent *Node) {
		if !n.Pos.IsValid() {
			t.Fatalf("node %q (%v) has no position", n.Pointer(), n.Kind)
		}
		if n.Parent != parent {
			t.Fatalf("node %q has the wrong parent", n.Pointer())
		}
		if parent != nil && parent.Kind == Object && !n.KeyPos.IsValid() {
			t.Fatalf("member %q has no key position", n.Pointer())
		}
		for _, c := range n.Members {
			walk(c, n)
		}
		for _, c := range n.Items {
			walk(c, n)
		}
	}
	walk(root, nil)
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `[]`, `""`, `0`, `-1.5e-300`, `null`,
		`{"a":[1,2.5e-3,"x",true,false,null],"b":{"c":{}}}`,
		"\xef\xbb\xbf{\"bom\": 1}",
		`{"a":1,"a":{"b":2}}`,
		`{"a/b~c":{"":[]}}`,
		`{"é":"ü","😀":"\ud83d\ude00"}`,
		`[1,]`, `{"a" 1}`, `{} {}`, `[01]`, `"\u0000"`, "[\n1\n,\n2\n]",
	} {
		f.Add([]byte(s))
	}
	addRepoFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := ParseJSON(data)
		body := bytes.TrimPrefix(data, bom)
		valid := json.Valid(body)
		depth := jsonDepth(body)
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("error %v is a %T, want a *doc.Error", err, err)
			}
			if !de.Pos.IsValid() {
				t.Fatalf("error %q has no position", de.Msg)
			}
			if de.Limit && depth <= MaxDepth {
				t.Fatalf("limit error %v for a document of depth %d", de, depth)
			}
			// Everything encoding/json (and so Helm) accepts must parse.
			if valid && depth <= MaxDepth {
				t.Fatalf("encoding/json accepts %q but ParseJSON fails: %v", data, err)
			}
			return
		}
		if !valid {
			t.Fatalf("ParseJSON accepts %q, which encoding/json rejects", data)
		}
		checkTree(t, root)

		var want any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("encoding/json cannot decode an input it finds valid: %v", err)
		}
		out, err := json.Marshal(root.Value())
		if err != nil {
			t.Fatalf("Value() cannot be marshalled: %v", err)
		}
		var got any
		dec = json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("re-marshalled Value() %s does not decode: %v", out, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Value() = %s, encoding/json reads %#v", out, want)
		}
	})
}

func FuzzParseYAML(f *testing.F) {
	for _, s := range []string{
		"", "a: 1\n", "- x\n- [y, {z: é}]\n", "base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n",
		"a: &a [x, x]\nb: [*a, *a]\n", "x: 0x1F\ny: .inf\nz: 012\n", "a: |\n  text\n", "? [a]\n: b\n",
		"a: 1\n\tb: 2\n", "--- 1\n--- 2\n", "a: !!binary aGk=\n", `{"json": [1, 2]}`,
	} {
		f.Add([]byte(s))
	}
	addRepoFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := ParseYAML(data)
		core, coreErr := ParseYAMLCore(data)
		if (err == nil) != (coreErr == nil) {
			t.Fatalf("ParseYAML: %v, ParseYAMLCore: %v: the readings differ in scalars only", err, coreErr)
		}
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("error %v is a %T, want a *doc.Error", err, err)
			}
			if !de.Pos.IsValid() {
				t.Fatalf("error %q has no position", de.Msg)
			}
			return
		}
		checkTree(t, root)
		_ = root.Value()
		checkTree(t, core)
		if _, err := json.Marshal(core.Value()); err != nil {
			t.Fatalf("the YAML 1.2 reading is no JSON: %v", err)
		}
	})
}
