package chartdocs

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzUpdate writes a section into any README: it never panics, an error
// names the README, and a README it updates keeps every byte outside the
// markers, reads back with the same markers, and is left as it is by a
// second update.
func FuzzUpdate(f *testing.F) {
	d := features(f)
	for _, seed := range []string{
		"# t\n\n## Options\n\n" + Begin + "\n" + End + "\n",
		"# t\r\n" + Begin + "\r\nold\r\n" + End + "\r\nafter",
		"```\n" + Begin + "\n```\n" + Begin + "\n" + End,
		"Options\n---\n   " + Begin + " \n~~~\n" + End + "\n~~~\n" + End,
		End + "\n" + Begin + "\n",
		Begin + "\n" + Begin + "\n" + End + "\n",
		"text " + Begin + "\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, readme []byte) {
		out, err := Update("README.md", readme, d)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "README.md") {
				t.Fatalf("the error does not name the README: %v", err)
			}
			return
		}
		s, err := locate("README.md", readme)
		if err != nil {
			t.Fatalf("Update succeeded where locate fails: %v", err)
		}
		tail := len(readme) - s.end
		if !bytes.Equal(out[:s.start], readme[:s.start]) || !bytes.Equal(out[len(out)-tail:], readme[s.end:]) {
			t.Fatalf("bytes outside the markers changed:\n%q\n%q", readme, out)
		}
		s2, err := locate("README.md", out)
		if err != nil {
			t.Fatalf("the updated README has no section: %v\n%q", err, out)
		}
		if s2.start != s.start || s2.level != s.level || s2.eol != s.eol || len(out)-s2.end != tail {
			t.Fatalf("the updated README's section moved: %+v, was %+v", s2, s)
		}
		again, err := Update("README.md", out, d)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("a second update changed the README (%v):\n%q\n%q", err, out, again)
		}
	})
}
