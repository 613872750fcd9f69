package workflow_test

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"

	"github.com/catalogist/catalogist/internal/publish/workflow"
)

// hostileURL is a release page a hostile server could answer with.
const hostileURL = "https://x/\n::error::forged ##[add-mask]tok [link](javascript:alert(1)) <img src=x>"

// render renders Markdown as GitHub does (GFM, raw HTML kept) and parses
// the HTML.
func render(t *testing.T, markdown string) *xhtml.Node {
	t.Helper()
	var out bytes.Buffer
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := md.Convert([]byte(markdown), &out); err != nil {
		t.Fatal(err)
	}
	doc, err := xhtml.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// elements returns the elements of a document named so.
func elements(n *xhtml.Node, name string) []*xhtml.Node {
	var out []*xhtml.Node
	if n.Type == xhtml.ElementNode && n.Data == name {
		out = append(out, n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, elements(c, name)...)
	}
	return out
}

func attr(n *xhtml.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// A link in a table cell is a link to its address, or, for an address that
// is not a plain web one, its text alone: nothing of the address becomes
// Markdown or HTML, and the row keeps its cells.
func TestLink(t *testing.T) {
	for _, tc := range []struct {
		url    string
		linked bool
	}{
		{hostileURL, false},
		{"javascript:alert(1)", false},
		{"https://user:pw@github.com/o/r", false},
		{"https://github.com/o r", false},
		{`https://github.com\@evil.example/`, false},
		{"https://github.com/o/r/releases/tag/a\u202e", false},
		{"ftp://github.com/o/r", false},
		{"https://github.com/o/r/releases/tag/a-1.0.0", true},
		{"https://github.com/o/r?x=](javascript:alert(1))<img/src=x>|`c`&y='\"&amp;", true},
		{"https://github.example:8443/o/(r)#x", true},
		{"https://[::1]:8080/o/r", false},
	} {
		md := "| Chart | Release |\n|---|---|\n| a | " + workflow.Link("a-1.0.0 | [x](y)", tc.url) + " |\n"
		doc := render(t, md)
		cells, links := elements(doc, "td"), elements(doc, "a")
		if len(cells) != 2 || text(cells[1]) != "a-1.0.0 | [x](y)" || len(elements(doc, "img")) != 0 {
			t.Errorf("%q: the row renders as\n%s", tc.url, md)
			continue
		}
		if !tc.linked {
			if len(links) != 0 {
				t.Errorf("%q: linked to %q", tc.url, attr(links[0], "href"))
			}
			continue
		}
		// Linked to the same address, what Markdown would read in it
		// percent-encoded.
		if len(links) != 1 {
			t.Errorf("%q: %d links:\n%s", tc.url, len(links), md)
			continue
		}
		got, err := url.Parse(attr(links[0], "href"))
		want, _ := url.Parse(tc.url)
		if err != nil || got.Scheme != want.Scheme || got.Host != want.Host || got.Path != want.Path || got.Query().Encode() != want.Query().Encode() {
			t.Errorf("%q: linked to %q", tc.url, attr(links[0], "href"))
		}
	}
}

// A failure's message, which may quote a catalog or a server, shows in the
// summary as it is, in a code block: no link, image, HTML or heading, and
// no control character.
func TestReportFailureShowsTheMessageAsText(t *testing.T) {
	msg := "creating the release: 422 " + hostileURL + "\n```\n# heading\n````x\x1b[31m"
	s := newStep(t)
	if err := s.run.ReportFailure("publish", msg); err != nil {
		t.Fatal(err)
	}
	sum := s.summaryText(t)
	doc := render(t, sum)
	pres := elements(doc, "pre")
	want := strings.ReplaceAll(msg, "\x1b", `\x1b`) + "\n"
	if len(pres) != 1 || text(pres[0]) != want {
		t.Errorf("the message is not one code block showing it:\n%s", sum)
	}
	for _, tag := range []string{"a", "img", "h1", "script"} {
		if n := len(elements(doc, tag)); n != 0 {
			t.Errorf("the summary renders %d <%s>:\n%s", n, tag, sum)
		}
	}
	if strings.Contains(sum, "\x1b") {
		t.Errorf("the summary holds an escape character")
	}
}
