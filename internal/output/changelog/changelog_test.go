package changelog

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseAnnotation(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      []Change
		err       string
	}{
		{name: "empty", raw: "  \n"},
		{name: "strings", raw: "- Fixed the ingress\n- \"Added: a slider\"\n",
			want: []Change{{Description: "Fixed the ingress"}, {Description: "Added: a slider"}}},
		{name: "objects", raw: `- kind: added
  description: GPU selection
  links:
    - name: Pull request
      url: https://github.com/example-org/catalog/pull/12
- kind: security
  description: "  Image with CVE-2026-1 fixed  "
`, want: []Change{
			{Kind: "added", Description: "GPU selection", Links: []Link{{Name: "Pull request", URL: "https://github.com/example-org/catalog/pull/12"}}},
			{Kind: "security", Description: "Image with CVE-2026-1 fixed"},
		}},
		{name: "entry without description left out", raw: "- kind: added\n- kind: fixed\n  description: x\n",
			want: []Change{{Kind: "fixed", Description: "x"}}},
		{name: "not YAML", raw: "- kind: [added\n", err: "is not YAML"},
		{name: "a mapping", raw: "kind: added\ndescription: x\n", err: "is not a list"},
		{name: "a plain text", raw: "Fixed the ingress", err: "is not a list"},
		{name: "nested list", raw: "- [a, b]\n", err: "entry 1 (line 1 of the annotation)"},
		{name: "links not a list", raw: "- description: x\n  links: https://example.org\n", err: "entry 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseAnnotation(tc.raw)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				if !strings.Contains(err.Error(), Annotation) {
					t.Errorf("error %q does not name the annotation", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestMarkdown(t *testing.T) {
	got := Markdown([]Change{
		{Kind: "added", Description: "GPU selection", Links: []Link{{Name: "PR #12", URL: "https://github.com/o/r/pull/12"}, {Name: "docs", URL: "https://example.org/a b"}}},
		{Kind: "fixed", Description: "Two\nlines\n# not a heading"},
		{Description: "Plain entry", Links: []Link{{Name: "bad", URL: "javascript:alert(1)"}, {URL: "https://example.org/x"}}},
		{Kind: "changed", Description: "x", Links: []Link{{Name: "no URL"}}},
	})
	want := "- **Added**: GPU selection ([PR \\#12](<https://github.com/o/r/pull/12>), [docs](<https://example.org/a%20b>))\n" +
		"- **Fixed**: Two lines # not a heading\n" +
		"- Plain entry (bad, [https://example.org/x](<https://example.org/x>))\n" +
		"- **Changed**: x\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

const keepAChangelog = "# Changelog\n\nAll notable changes.\n\n" +
	"## [Unreleased]\n\n- Nothing yet\n\n" +
	"## [1.3.0] - 2026-03-01\n\n### Added\n\n- GPU selection\n\n```yaml\n## 1.2.0 inside code\n```\n\n" +
	"## [1.2.0] - 2026-01-10\n\n### Fixed\n- Ingress path\n\n" +
	"## v1.1.0\n\n- First\n\n" +
	"## 1.0.0\n\n"

func TestSection(t *testing.T) {
	for _, tc := range []struct {
		version, want string
		ok            bool
	}{
		{"1.3.0", "### Added\n\n- GPU selection\n\n```yaml\n## 1.2.0 inside code\n```\n", true},
		{"1.2.0", "### Fixed\n- Ingress path\n", true},
		{"1.1.0", "- First\n", true},
		{"1.0.0", "", false}, // empty section
		{"1.3", "", false},   // not a word of its own
		{"0.9.0", "", false}, // not there
	} {
		got, ok := Section([]byte(keepAChangelog), tc.version)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Section(%s) = %q, %v; want %q, %v", tc.version, got, ok, tc.want, tc.ok)
		}
	}
	// A deeper heading ends nothing; the first heading naming the version
	// wins; a line of # without a space is not a heading.
	md := "### 2.0.0\ntext\n#### Notes\nmore\n#nothing\n### 2.0.0\nagain\n"
	if got, _ := Section([]byte(md), "2.0.0"); got != "text\n#### Notes\nmore\n#nothing\n" {
		t.Errorf("nested headings: %q", got)
	}
}

// FuzzChanges holds the renderer to its promise on any annotation: it
// parses or fails without panicking, and what it renders is one list item
// per change, none of which can start a heading or another block.
func FuzzChanges(f *testing.F) {
	f.Add("- kind: added\n  description: x\n  links:\n    - {name: a, url: 'https://e.org/)'}\n")
	f.Add("- a\n- b\n")
	f.Add("- description: \"multi\\nline\\n## heading\"\n")
	f.Add("*a")
	f.Add("- &a [x]\n- *a\n")
	f.Fuzz(func(t *testing.T, raw string) {
		changes, err := ParseAnnotation(raw)
		if err != nil {
			return
		}
		md := Markdown(changes)
		lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
		if len(changes) == 0 {
			if md != "" {
				t.Fatalf("no change rendered as %q", md)
			}
			return
		}
		if len(lines) != len(changes) {
			t.Fatalf("%d changes rendered as %d lines:\n%s", len(changes), len(lines), md)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "- ") {
				t.Fatalf("line %q is not a list item", l)
			}
		}
	})
}

func FuzzSection(f *testing.F) {
	f.Add([]byte(keepAChangelog), "1.2.0")
	f.Add([]byte("## 1.0.0\n```\n## 2.0.0\n"), "2.0.0")
	f.Fuzz(func(t *testing.T, md []byte, version string) {
		got, ok := Section(md, version)
		if ok != (got != "") {
			t.Fatalf("ok %v with section %q", ok, got)
		}
		if ok && !strings.Contains(string(md), strings.TrimSuffix(got, "\n")) {
			t.Fatalf("section %q is not from the file", got)
		}
	})
}
