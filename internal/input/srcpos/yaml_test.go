package srcpos

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func mustParseYAML(t *testing.T, src string) *Node {
	t.Helper()
	n, err := ParseYAML([]byte(src))
	if err != nil {
		t.Fatalf("ParseYAML(%q): %v", src, err)
	}
	return n
}

func TestParseYAMLPositions(t *testing.T) {
	src := "a: 1\n" +
		"b: [x, é, y]\n" +
		"c:\n" +
		"  d: true\n" +
		"  'e': \"ü\"\n" +
		"f:\n" +
		"  - null\n" +
		"  - 2.5\n"
	root := mustParseYAML(t, src)
	if root.Kind != Object || root.Pos != (Pos{1, 1}) {
		t.Fatalf("root = %v at %v, want object at 1:1", root.Kind, root.Pos)
	}
	for _, tc := range []struct {
		ptr    string
		kind   Kind
		text   string
		keyPos Pos
		pos    Pos
	}{
		{"/a", Number, "1", Pos{1, 1}, Pos{1, 4}},
		{"/b", Array, "", Pos{2, 1}, Pos{2, 4}},
		{"/b/0", String, "x", Pos{}, Pos{2, 5}},
		{"/b/1", String, "é", Pos{}, Pos{2, 8}},
		{"/b/2", String, "y", Pos{}, Pos{2, 11}}, // after a two-byte character
		{"/c", Object, "", Pos{3, 1}, Pos{4, 3}},
		{"/c/d", Bool, "true", Pos{4, 3}, Pos{4, 6}},
		{"/c/e", String, "ü", Pos{5, 3}, Pos{5, 8}},
		{"/f/0", Null, "", Pos{}, Pos{7, 5}},
		{"/f/1", Number, "2.5", Pos{}, Pos{8, 5}},
	} {
		n := nodeAt(t, root, tc.ptr)
		if n.Kind != tc.kind || n.Text != tc.text {
			t.Errorf("%s: got %v %q, want %v %q", tc.ptr, n.Kind, n.Text, tc.kind, tc.text)
		}
		if n.KeyPos != tc.keyPos || n.Pos != tc.pos {
			t.Errorf("%s: key at %v, value at %v; want %v, %v", tc.ptr, n.KeyPos, n.Pos, tc.keyPos, tc.pos)
		}
		if got, ok := root.Lookup(n.Pointer()); !ok || got != n {
			t.Errorf("%s: Pointer() = %q does not lead back to the node", tc.ptr, n.Pointer())
		}
	}
}

func TestParseYAMLScalars(t *testing.T) {
	for _, tc := range []struct {
		src  string // the value of key v
		kind Kind
		val  any // Value(), or the float64 value of a number
	}{
		{"1", Number, 1.0},
		{"-0", Number, 0.0},
		{"2.50", Number, 2.5},
		{"1e3", Number, 1000.0},
		{"0x1F", Number, 31.0},
		{"0o17", Number, 15.0},
		{"1_000", Number, 1000.0},
		{"12345678901234567890123", Number, 1.2345678901234568e+22},
		// A leading zero is octal to the YAML library (and to Helm's):
		// the node must carry that number.
		{"012", Number, 10.0},
		{"+1", Number, 1.0},
		{"true", Bool, true},
		{"False", Bool, false},
		{"yes", String, "yes"}, // YAML 1.2: not a boolean
		{"~", Null, nil},
		{"null", Null, nil},
		{"", Null, nil},
		{`"1"`, String, "1"},
		{"'true'", String, "true"},
		{"2000m", String, "2000m"},
		{"!!str 5", String, "5"},
		{"|\n  two\n  lines", String, "two\nlines\n"},
	} {
		root, err := ParseYAML([]byte("v: " + tc.src + "\n"))
		if err != nil {
			t.Errorf("v: %s: %v", tc.src, err)
			continue
		}
		n := root.Get("v")
		if n.Kind != tc.kind {
			t.Errorf("v: %s is a %v, want a %v", tc.src, n.Kind, tc.kind)
			continue
		}
		if n.Kind != Number {
			if !reflect.DeepEqual(n.Value(), tc.val) {
				t.Errorf("v: %s = %#v, want %#v", tc.src, n.Value(), tc.val)
			}
			continue
		}
		// Numbers: the value, and a text that is a JSON number literal.
		if f, ok := n.Float(); !ok || f != tc.val {
			t.Errorf("v: %s = %q (%v), want %v", tc.src, n.Text, f, tc.val)
		}
		if _, isNum := n.Value().(json.Number); !isNum || !json.Valid([]byte(n.Text)) {
			t.Errorf("v: %s: Value() = %#v, want a json.Number holding a JSON number literal", tc.src, n.Value())
		}
	}
	// Whatever YAML spells, Value() gives plain JSON values.
	for _, src := range []string{".inf", "-.Inf", ".nan", "0b101", "-0x10", "1.", ".5", "1e400", "2001-12-14"} {
		root, err := ParseYAML([]byte("v: " + src + "\n"))
		if err != nil {
			t.Errorf("v: %s: %v", src, err)
			continue
		}
		if _, err := json.Marshal(root.Value()); err != nil {
			t.Errorf("v: %s: Value() = %#v cannot be written as JSON: %v", src, root.Value(), err)
		}
	}
}

func TestParseYAMLAnchorsAndMerge(t *testing.T) {
	src := "base: &b {x: 1, y: 2}\n" +
		"other: &o {y: 20, z: 30}\n" +
		"alias: *b\n" +
		"mergeFirst:\n" +
		"  <<: *b\n" +
		"  y: 3\n" +
		"mergeLast:\n" +
		"  y: 4\n" +
		"  <<: *b\n" +
		"mergeList:\n" +
		"  <<: [*b, *o]\n" +
		"list: &l [a, b]\n" +
		"listAlias: *l\n"
	root := mustParseYAML(t, src)
	want := map[string]any{
		"base":       map[string]any{"x": json.Number("1"), "y": json.Number("2")},
		"other":      map[string]any{"y": json.Number("20"), "z": json.Number("30")},
		"alias":      map[string]any{"x": json.Number("1"), "y": json.Number("2")},
		"mergeFirst": map[string]any{"x": json.Number("1"), "y": json.Number("3")},
		"mergeLast":  map[string]any{"x": json.Number("1"), "y": json.Number("4")},
		// The first mapping of a merge list wins over the later ones.
		"mergeList": map[string]any{"x": json.Number("1"), "y": json.Number("2"), "z": json.Number("30")},
		"list":      []any{"a", "b"},
		"listAlias": []any{"a", "b"},
	}
	if got := root.Value(); !reflect.DeepEqual(got, want) {
		t.Errorf("Value() =\n%#v\nwant\n%#v", got, want)
	}
	for _, tc := range []struct {
		ptr  string
		text string
	}{
		{"/mergeFirst/y", "3"}, {"/mergeLast/y", "4"}, {"/mergeList/y", "2"}, {"/mergeList/z", "30"},
	} {
		if n := nodeAt(t, root, tc.ptr); n.Text != tc.text {
			t.Errorf("Get at %s = %q, want %q", tc.ptr, n.Text, tc.text)
		}
	}
	// An alias is placed where it is written; merged members are reparented.
	if a := root.Get("alias"); a.Pos != (Pos{3, 8}) || a.Parent != root {
		t.Errorf("alias at %v (parent %p), want 3:8 under the root", a.Pos, a.Parent)
	}
	mf := root.Get("mergeFirst")
	if x := mf.Get("x"); x.Parent != mf || x.Pointer() != "/mergeFirst/x" {
		t.Errorf("merged member: parent %p, pointer %q; want mergeFirst, /mergeFirst/x", x.Parent, x.Pointer())
	}
	if root.Get("alias") == root.Get("base") || root.Get("alias").Get("x") == root.Get("base").Get("x") {
		t.Errorf("an alias must expand into its own nodes")
	}
}

func TestParseYAMLErrors(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n" +
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
		"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n" +
		"f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	// A wide anchor referenced many times: few alias nodes, but a million
	// nodes once expanded (the YAML library itself refuses to decode it as
	// "excessive aliasing").
	wideBomb := "a: &a [" + strings.Repeat("x, ", 999) + "x]\n" +
		"b: [" + strings.Repeat("*a, ", 999) + "*a]\n"
	nestedSeq := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name  string
		src   string
		line  int // 0: any
		limit bool
		msg   string
	}{
		{"NUL byte", "a: 1\x00\n", 1, true, "NUL"},
		{"NUL byte later", "a: 1\nb: x\x00y\n", 1, true, "NUL"},
		{"alias bomb", bomb, 0, true, "alias"},
		{"wide alias bomb", wideBomb, 0, true, "alias"},
		{"nesting past MaxDepth", nestedSeq(MaxDepth + 1), 1, true, "nesting"},
		{"nesting far past MaxDepth", "a: " + strings.Repeat("{x: ", 2*MaxDepth) + "1" + strings.Repeat("}", 2*MaxDepth), 1, true, "nesting"},
		{"bad indentation", "a: 1\nb: 2\n c: 3\n", 3, false, ""},
		{"tab indentation", "a: 1\n\tb: 2\n", 2, false, "tab"},
		{"unknown anchor", "a: 1\nb: *nope\n", 0, false, "nope"},
		{"bad merge", "a: 1\n<<: 3\n", 2, false, "merge"},
		{"non-scalar key", "? [a]\n: b\n", 1, false, "scalar"},
		{"bad int tag", "a: !!int x\n", 1, false, "int"},
		{"unclosed flow", "a: [1, 2\n", 0, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := ParseYAML([]byte(tc.src))
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("ParseYAML = %v, %v; want a *doc.Error", n, err)
			}
			if de.Limit != tc.limit {
				t.Errorf("Limit = %v, want %v (%v)", de.Limit, tc.limit, de)
			}
			if tc.line != 0 && de.Pos.Line != tc.line {
				t.Errorf("error on line %d, want %d (%v)", de.Pos.Line, tc.line, de)
			}
			if !de.Pos.IsValid() {
				t.Errorf("error without a position: %v", de)
			}
			if !strings.Contains(de.Msg, tc.msg) {
				t.Errorf("message %q does not mention %q", de.Msg, tc.msg)
			}
		})
	}
}

func TestParseYAMLAccepted(t *testing.T) {
	nestedSeq := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name string
		src  string
		kind Kind
	}{
		{"empty", "", Null},
		{"only a comment", "# nothing\n", Null},
		{"document marker only", "---\n", Null},
		{"first document of a stream", "--- 1\n--- [2]\n", Number},
		{"JSON is YAML", `{"a": [1, {"b": null}]}`, Object},
		{"nesting at MaxDepth", nestedSeq(MaxDepth), Array},
		{"NUL escape in a string", "a: \"x\\0y\"\n", Object},
		{"many aliases below the limit", "a: &a x\nb: [" + strings.Repeat("*a, ", 500) + "*a]\n", Object},
	} {
		n, err := ParseYAML([]byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if n.Kind != tc.kind {
			t.Errorf("%s: kind %v, want %v", tc.name, n.Kind, tc.kind)
		}
	}
}

// TestParseYAMLCore: the YAML 1.2 core reading, as JavaScript's yaml
// library 2.x gives it (JSON.stringify(YAML.parse(src)) there).
func TestParseYAMLCore(t *testing.T) {
	src := `a: 0755
b: 0b101
c: 1_000
d: !!float 1
f: yes
g: 0o17
h: 0x1F
i: -0x10
j: +1
k: 1.
l: .5
m: 1e3
n: !!int 12
o: !!str 12
p: ~
q: Null
r: 2001-12-14
s: 12345678901234567890123
t: !!bool yes
u: True
w: !!int 0x1F
x: !!float 1.5
y: "0755"
z: 012
0755: octkey
0x1F: hexkey
~: nullkey
true: boolkey
base: &b {z: 1}
merged:
  <<: *b
  w: 2
`
	const want = `{"31":"hexkey","755":"octkey","a":755,"b":"0b101","c":"1_000","d":"1","f":"yes","g":15,"h":31,"i":"-0x10","j":1,"k":1,"l":0.5,"m":1000,"n":12,"o":"12","p":null,"q":null,"r":"2001-12-14","s":1.2345678901234568e+22,"t":"yes","u":true,"w":31,"x":1.5,"y":"0755","z":12,"":"nullkey","true":"boolkey","base":{"z":1},"merged":{"<<":{"z":1},"w":2}}`
	root, err := ParseYAMLCore([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(root.Value())
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("ParseYAMLCore =\n%s\nwant\n%s", got, want)
	}
	// Positions are the same as ParseYAML's.
	if n := root.Get("a"); n.Pos != (Pos{1, 4}) || n.KeyPos != (Pos{1, 1}) {
		t.Errorf("a at %v (key %v)", n.Pos, n.KeyPos)
	}
}
