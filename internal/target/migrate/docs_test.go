package migrate

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

func TestSplitDocuments(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"", []string{""}},
		{"# only a comment\n", []string{"# only a comment\n"}},
		{"a: 1\n", []string{"a: 1\n"}},
		{"# head\n---\na: 1\n---\nb: 2\n", []string{"# head\n---\na: 1\n", "---\nb: 2\n"}},
		{"a: 1\n...\n# tail of a\n%YAML 1.1\n---\nb: 2\n", []string{"a: 1\n...\n# tail of a\n", "%YAML 1.1\n---\nb: 2\n"}},
		{"--- # one\n--- # two\n", []string{"--- # one\n", "--- # two\n"}},
		{"a: |\n  ---\n  text\n---\nb: 2", []string{"a: |\n  ---\n  text\n", "---\nb: 2"}},
		{"a: 1\r\n---\r\nb: 2\r\n", []string{"a: 1\r\n", "---\r\nb: 2\r\n"}},
		{"\ufeff---\na: 1\n---\n", []string{"\ufeff---\na: 1\n", "---\n"}},
		{"a: 1\n---x: 2\n", []string{"a: 1\n---x: 2\n"}},
	} {
		var got []string
		for _, sg := range splitDocuments([]byte(tc.src)) {
			got = append(got, tc.src[sg.start:sg.end])
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.src, got, tc.want)
		}
	}
}

// FuzzParseFile checks the splitting of a file into documents against
// yaml.v3 reading the whole file: the pieces cover the text in order,
// each parses to the same value as the whole file's document of the same
// rank, and at the same positions. It also checks what notText accepts.
func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		"a: 1\n---\nb: [1, 2]\n...\n# c\n---\n- x\n",
		"# head\n%YAML 1.1\n---\nk: &a {x: 1}\nl: *a\n...\n%TAG !e! tag:example.com,2000:\n--- !e!m\nz: 1\n",
		"--- |\n  text\n--- >\n  folded\n",
		"a: 1\r\n---\r\nb: 2\r\n",
		"a: \"x\n---\ny\"\n",
		"\ufeffa: 1\n",
		"a: 1\na: 2\n",
		"--- |\nfoo\n---\nbar\n",
		"web: caf\xe9\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		textErr := notText(src)
		if want := utf8.Valid(src) && bytes.IndexByte(src, 0) < 0 && !bytes.HasPrefix(src, []byte{0xff, 0xfe}) && !bytes.HasPrefix(src, []byte{0xfe, 0xff}); want != (textErr == nil) {
			t.Fatalf("notText = %v for a text that is UTF-8 without NUL: %v", textErr, want)
		}
		segs := splitDocuments(src)
		end, line := 0, 0
		for _, sg := range segs {
			if sg.start != end || sg.end < sg.start || sg.line != line {
				t.Fatalf("segments %+v do not follow each other", segs)
			}
			line += bytes.Count(src[sg.start:sg.end], []byte("\n"))
			end = sg.end
		}
		if end != len(src) {
			t.Fatalf("segments %+v end at %d of %d", segs, end, len(src))
		}
		if textErr != nil {
			return
		}
		docs, err := parseFile(src)
		if err != nil {
			return
		}
		var whole []*yaml.Node
		dec := yaml.NewDecoder(bytes.NewReader(src))
		for {
			var n yaml.Node
			if err := dec.Decode(&n); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("parseFile accepts what yaml.v3 refuses: %v", err)
			}
			whole = append(whole, &n)
		}
		if len(whole) != len(docs) && (len(whole) != 0 || len(docs) != 1) {
			t.Fatalf("%d documents, yaml.v3 reads %d", len(docs), len(whole))
		}
		for i, n := range whole {
			d := docs[i]
			var root *yaml.Node
			if len(n.Content) > 0 {
				root = n.Content[0]
			}
			if (root == nil) != (d.Root == nil) {
				t.Fatalf("document %d: root %v, yaml.v3 reads %v", i+1, d.Root, root)
			}
			if root == nil {
				continue
			}
			if d.base+d.Root.Line != root.Line || d.Root.Column != root.Column {
				t.Fatalf("document %d starts at %d:%d, yaml.v3 says %d:%d", i+1, d.base+d.Root.Line, d.Root.Column, root.Line, root.Column)
			}
			var a, b any
			errA, errB := d.Root.Decode(&a), root.Decode(&b)
			if (errA == nil) != (errB == nil) || !reflect.DeepEqual(a, b) {
				t.Fatalf("document %d reads %v (%v), yaml.v3 reads %v (%v)", i+1, a, errA, b, errB)
			}
		}
		if strings.Contains(string(src), "\x00") {
			t.Fatal("a NUL byte got through")
		}
	})
}
