package srcpos

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// nodeAt returns the node at pointer p, failing the test when it is absent.
func nodeAt(t *testing.T, root *Node, p string) *Node {
	t.Helper()
	n, ok := root.Lookup(p)
	if !ok {
		t.Fatalf("Lookup(%q) did not resolve; stopped at %q", p, n.Pointer())
	}
	return n
}

func mustParseJSON(t *testing.T, src string) *Node {
	t.Helper()
	n, err := ParseJSON([]byte(src))
	if err != nil {
		t.Fatalf("ParseJSON(%q): %v", src, err)
	}
	return n
}

func TestParseJSONPositions(t *testing.T) {
	// Columns count characters: "é", "ü" and "日本" are several bytes each
	// but one column each, and "😀" is four bytes.
	src := "{\n" +
		"  \"naïve\": \"café\",\n" +
		"  \"日本\": [1, \"ü\", true, null],\n" +
		"  \"o\": {\"k\": -1.5e3},\n" +
		"\t\"😀\": \"x\", \"z\": {}\n" +
		"}\n"
	root := mustParseJSON(t, src)
	if root.Pos != (Pos{1, 1}) || root.Kind != Object {
		t.Fatalf("root = %v at %v, want object at 1:1", root.Kind, root.Pos)
	}
	for _, tc := range []struct {
		ptr    string
		kind   Kind
		text   string
		keyPos Pos
		pos    Pos
	}{
		{"/naïve", String, "café", Pos{2, 3}, Pos{2, 12}},
		{"/日本", Array, "", Pos{3, 3}, Pos{3, 9}},
		{"/日本/0", Number, "1", Pos{}, Pos{3, 10}},
		{"/日本/1", String, "ü", Pos{}, Pos{3, 13}},
		{"/日本/2", Bool, "true", Pos{}, Pos{3, 18}},
		{"/日本/3", Null, "", Pos{}, Pos{3, 24}},
		{"/o", Object, "", Pos{4, 3}, Pos{4, 8}},
		{"/o/k", Number, "-1.5e3", Pos{4, 9}, Pos{4, 14}},
		{"/😀", String, "x", Pos{5, 2}, Pos{5, 7}},
		{"/z", Object, "", Pos{5, 12}, Pos{5, 17}},
	} {
		n := nodeAt(t, root, tc.ptr)
		if n.Kind != tc.kind || n.Text != tc.text {
			t.Errorf("%s: got %v %q, want %v %q", tc.ptr, n.Kind, n.Text, tc.kind, tc.text)
		}
		if n.KeyPos != tc.keyPos {
			t.Errorf("%s: KeyPos = %v, want %v", tc.ptr, n.KeyPos, tc.keyPos)
		}
		if n.Pos != tc.pos {
			t.Errorf("%s: Pos = %v, want %v", tc.ptr, n.Pos, tc.pos)
		}
	}
}

func TestParseJSONDuplicateKeys(t *testing.T) {
	root := mustParseJSON(t, `{"a": 1, "b": 0, "a": {"x": 2}}`)
	if len(root.Members) != 3 {
		t.Fatalf("kept %d members, want all 3 (duplicates are kept)", len(root.Members))
	}
	first, last := root.Members[0], root.Members[2]
	if first.Key != "a" || last.Key != "a" {
		t.Fatalf("member keys = %q, %q; want a, a", first.Key, last.Key)
	}
	if got := root.Get("a"); got != last {
		t.Errorf("Get(a) returned the member at %v, want the last one at %v", got.Pos, last.Pos)
	}
	if first.KeyPos != (Pos{1, 2}) || last.KeyPos != (Pos{1, 18}) {
		t.Errorf("duplicate key positions = %v, %v; want 1:2, 1:18", first.KeyPos, last.KeyPos)
	}
	want := map[string]any{"a": map[string]any{"x": json.Number("2")}, "b": json.Number("0")}
	if got := root.Value(); !reflect.DeepEqual(got, want) {
		t.Errorf("Value() = %#v, want %#v (last duplicate wins, as encoding/json)", got, want)
	}
}

func TestParseJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		pos       Pos
		msg       string // a substring of the message, "" for any
	}{
		{"empty file", "", Pos{1, 1}, "empty"},
		{"only blanks", "  \n\t\n", Pos{1, 1}, "empty"},
		// A trailing comma is reported at the comma itself.
		{"trailing comma in object", `{"a": 1,}`, Pos{1, 8}, "comma"},
		{"trailing comma in array", `[1,]`, Pos{1, 3}, "comma"},
		{"trailing comma before a newline", "[\n  1,\n]", Pos{2, 4}, "comma"},
		{"missing comma on next line", "{\n  \"a\": 1\n  \"b\": 2\n}", Pos{3, 3}, "expecting ',' or '}'"},
		{"missing colon", `{"a" 1}`, Pos{1, 6}, "expecting ':'"},
		{"missing value", `{"a":}`, Pos{1, 6}, ""},
		{"bad literal after multi-byte text", `{"é": "ü", "b": tru}`, Pos{1, 20}, ""},
		{"single-quoted name", `{'a': 1}`, Pos{1, 2}, ""},
		{"leading zero", `[01]`, Pos{1, 3}, ""},
		{"NaN", `[NaN]`, Pos{1, 2}, ""},
		{"comment", "{\"a\": 1 // no\n}", Pos{1, 9}, ""},
		{"unterminated array", `[1, 2`, Pos{1, 6}, "end of file"},
		{"unterminated on a later line", "{\n  \"a\": [1,\n", Pos{3, 1}, "end of file"},
		{"unterminated string", `"abc`, Pos{1, 5}, "end of file"},
		{"trailing value", `{} x`, Pos{1, 4}, "after the top-level value"},
		{"second document", "{}\n{}", Pos{2, 1}, "after the top-level value"},
		{"extra closing bracket", `{"a":1}]`, Pos{1, 8}, "after the top-level value"},
		{"two numbers", `1 2`, Pos{1, 3}, "after the top-level value"},
		{"trailing string", `{} "x"`, Pos{1, 4}, "after the top-level value"},
		{"BOM in the middle", "{\"a\": \xef\xbb\xbf1}", Pos{1, 7}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := ParseJSON([]byte(tc.src))
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("ParseJSON(%q) = %v, %v; want a *doc.Error", tc.src, n, err)
			}
			if de.Pos != tc.pos {
				t.Errorf("error at %v, want %v (%s)", de.Pos, tc.pos, de.Msg)
			}
			if !strings.Contains(de.Msg, tc.msg) {
				t.Errorf("message %q does not mention %q", de.Msg, tc.msg)
			}
			if de.Limit {
				t.Errorf("a syntax error is not a limit error")
			}
			if !strings.HasPrefix(de.Error(), tc.pos.String()+": ") {
				t.Errorf("Error() = %q, want it to start with %q", de.Error(), tc.pos.String()+": ")
			}
		})
	}
}

func TestParseJSONBOM(t *testing.T) {
	root := mustParseJSON(t, "\xef\xbb\xbf{\"a\": [true]}")
	if root.Pos != (Pos{1, 1}) {
		t.Errorf("root at %v, want 1:1 (the BOM takes no column)", root.Pos)
	}
	a := nodeAt(t, root, "/a/0")
	if a.Pos != (Pos{1, 8}) || !a.Bool() {
		t.Errorf("/a/0 = %v %q at %v, want true at 1:8", a.Kind, a.Text, a.Pos)
	}
}

func TestParseJSONLimits(t *testing.T) {
	arrays := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	// objects nests n objects: {"a":{"a":...{}...}}.
	objects := func(n int) string {
		return strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1)
	}
	for _, tc := range []struct {
		name string
		src  string
		pos  Pos // where the limit error is, or the zero Pos when the document parses
	}{
		{"arrays at MaxDepth", arrays(MaxDepth), Pos{}},
		{"arrays past MaxDepth", arrays(MaxDepth + 1), Pos{1, MaxDepth + 1}},
		{"objects at MaxDepth", objects(MaxDepth), Pos{}},
		{"objects past MaxDepth", objects(MaxDepth + 1), Pos{1, 5*MaxDepth + 1}},
		{"deep nesting on later lines", strings.Repeat("[\n", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), Pos{MaxDepth + 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(tc.src))
			if !tc.pos.IsValid() {
				if err != nil {
					t.Fatalf("ParseJSON: %v", err)
				}
				return
			}
			var de *Error
			if !errors.As(err, &de) || !de.Limit {
				t.Fatalf("ParseJSON = %v, want a *doc.Error with Limit set", err)
			}
			if de.Pos != tc.pos {
				t.Errorf("limit error at %v, want %v (the first bracket past the limit)", de.Pos, tc.pos)
			}
		})
	}
}

func TestParseJSONMaxBytes(t *testing.T) {
	// A string document of exactly MaxBytes bytes is accepted.
	atLimit := make([]byte, MaxBytes)
	for i := range atLimit {
		atLimit[i] = 'a'
	}
	atLimit[0], atLimit[len(atLimit)-1] = '"', '"'
	n, err := ParseJSON(atLimit)
	if err != nil {
		t.Fatalf("document of MaxBytes bytes: %v", err)
	}
	if n.Kind != String || len(n.Text) != MaxBytes-2 {
		t.Errorf("document of MaxBytes bytes = %v of %d bytes", n.Kind, len(n.Text))
	}

	// One byte more is refused before parsing, as a limit.
	over := append(atLimit, ' ')
	_, err = ParseJSON(over)
	var de *Error
	if !errors.As(err, &de) || !de.Limit {
		t.Fatalf("document of MaxBytes+1 bytes: err = %v, want a *doc.Error with Limit set", err)
	}
	if de.Pos != (Pos{1, 1}) {
		t.Errorf("size error at %v, want 1:1", de.Pos)
	}
}

func TestPointerLookupRoundTrip(t *testing.T) {
	src := `{"a/b": {"c~d": [0, {"": 1, "x": {"~1": true, "/": null}}]}, "plain": "v", "": {"": 2}}`
	root := mustParseJSON(t, src)

	// Every node's pointer leads back to that node.
	var walk func(n *Node)
	count := 0
	walk = func(n *Node) {
		count++
		got, ok := root.Lookup(n.Pointer())
		if !ok || got != n {
			t.Errorf("Lookup(%q) = %v at %v, %v; want the node at %v", n.Pointer(), got.Kind, got.Pos, ok, n.Pos)
		}
		for _, c := range n.Members {
			walk(c)
		}
		for _, c := range n.Items {
			walk(c)
		}
	}
	walk(root)
	if count != 12 {
		t.Errorf("walked %d nodes, want 12", count)
	}

	for _, tc := range []struct {
		ptr     string
		ok      bool
		stopPtr string // pointer of the node Lookup returns
	}{
		{"", true, ""},
		{"#", true, ""},
		{"/a~1b", true, "/a~1b"},
		{"#/a~1b/c~0d/1", true, "/a~1b/c~0d/1"},
		{"/a~1b/c~0d/1/x/~01", true, "/a~1b/c~0d/1/x/~01"},
		{"/a~1b/c~0d/1/x/~1", true, "/a~1b/c~0d/1/x/~1"},
		{"/a~1b/c~0d/1/", true, "/a~1b/c~0d/1/"},
		{"/", true, "/"},
		{"//", true, "//"},
		{"/a/b", false, ""},                    // "/" must be escaped
		{"/a~1b/missing/x", false, "/a~1b"},    // closest existing ancestor
		{"/a~1b/c~0d/7", false, "/a~1b/c~0d"},  // index out of range
		{"/a~1b/c~0d/-1", false, "/a~1b/c~0d"}, // negative index
		{"/a~1b/c~0d/x", false, "/a~1b/c~0d"},  // not an index
		{"/plain/deeper", false, "/plain"},     // below a scalar
		{"/a~1b/c~0d/1/x/~01/more", false, "/a~1b/c~0d/1/x/~01"},
	} {
		got, ok := root.Lookup(tc.ptr)
		if ok != tc.ok || got.Pointer() != tc.stopPtr {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tc.ptr, got.Pointer(), ok, tc.stopPtr, tc.ok)
		}
	}

	for _, tc := range []struct{ tok, esc string }{
		{"plain", "plain"}, {"a/b", "a~1b"}, {"c~d", "c~0d"}, {"~1", "~01"}, {"/~", "~1~0"}, {"", ""},
	} {
		if got := EscapePointer(tc.tok); got != tc.esc {
			t.Errorf("EscapePointer(%q) = %q, want %q", tc.tok, got, tc.esc)
		}
		if got := SplitPointer("/" + tc.esc); len(got) != 1 || got[0] != tc.tok {
			t.Errorf("SplitPointer(%q) = %q, want [%q]", "/"+tc.esc, got, tc.tok)
		}
	}
}

func TestValueTypes(t *testing.T) {
	root := mustParseJSON(t, `{"i": 1, "f": -2.50, "big": 123456789012345678901234567890, "e": 1E400,
		"s": "x\u00e9\n", "t": true, "F": false, "n": null, "a": [1, "1", [], {}], "o": {}}`)
	want := map[string]any{
		"i": json.Number("1"), "f": json.Number("-2.50"),
		"big": json.Number("123456789012345678901234567890"), "e": json.Number("1E400"),
		"s": "x\u00e9\n", "t": true, "F": false, "n": nil,
		"a": []any{json.Number("1"), "1", []any{}, map[string]any{}},
		"o": map[string]any{},
	}
	if got := root.Value(); !reflect.DeepEqual(got, want) {
		t.Errorf("Value() =\n%#v\nwant\n%#v", got, want)
	}
	for _, tc := range []struct {
		ptr  string
		want float64
		ok   bool
	}{
		{"/i", 1, true}, {"/f", -2.5, true}, {"/s", 0, false}, {"/t", 0, false}, {"/e", 0, false},
	} {
		got, ok := nodeAt(t, root, tc.ptr).Float()
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%s.Float() = %v, %v; want %v, %v", tc.ptr, got, ok, tc.want, tc.ok)
		}
	}
	if !nodeAt(t, root, "/t").Bool() || nodeAt(t, root, "/F").Bool() || nodeAt(t, root, "/s").Bool() {
		t.Errorf("Bool() is true only for the literal true")
	}
	var nilNode *Node
	if nilNode.Value() != nil || nilNode.Get("x") != nil || nilNode.Bool() {
		t.Errorf("a nil node must be usable: Value nil, Get nil, Bool false")
	}
	for k, name := range map[Kind]string{Null: "null", Bool: "boolean", Number: "number", String: "string", Array: "array", Object: "object", Kind(9): "kind(9)"} {
		if k.String() != name {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), name)
		}
	}
}
