package chartdocs

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"

	"github.com/catalogist/catalogist/internal/base/invisible"
)

// FuzzEscaping writes any text (a schema's and a Chart.yaml's are UTF-8)
// with each escaping function into a table row: goldmark, reading GitHub's
// flavour, finds the one row with its three cells, each showing the text
// as written (see TestEscapingOnGitHub, which holds the same with GitHub's
// own renderer), and nothing but code and links showing their address.
func FuzzEscaping(f *testing.F) {
	for _, v := range escapeVectors {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if !utf8.ValidString(v) {
			return
		}
		if msg := escapedRowProblem(v); msg != "" {
			t.Fatal(msg)
		}
	})
}

var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))

// escapedRowProblem writes v with each escaping function into a table
// row, renders it with goldmark's GitHub flavour, raw HTML let through,
// and says what does not show v as written, "" when all does.
func escapedRowProblem(v string) string {
	md := "| cellText | code | chartText |\n|---|---|---|\n| " + cellText(v) + " | " + code(v) + " | " + chartText(v) + " |\n"
	var out bytes.Buffer
	if err := gfm.Convert([]byte(md), &out); err != nil {
		return err.Error()
	}
	doc, err := xhtml.Parse(&out)
	if err != nil {
		return err.Error()
	}
	var rows []*xhtml.Node
	var bad []string
	walk(doc, func(n *xhtml.Node) {
		if n.Type != xhtml.ElementNode {
			return
		}
		switch n.Data {
		case "html", "head", "body", "table", "thead", "tbody", "tr", "th", "td", "code":
		case "a":
			if !showsItsAddress(n) {
				bad = append(bad, fmt.Sprintf("a link to %q showing %q", attr(n, "href"), textOf(n)))
			}
		default:
			bad = append(bad, "a <"+n.Data+">")
		}
		if n.Data == "tr" && n.Parent.Data == "tbody" {
			rows = append(rows, n)
		}
	})
	if len(rows) != 1 {
		return fmt.Sprintf("%q: %d rows\n%s", v, len(rows), md)
	}
	td := elements(rows[0], "td")
	if len(td) != 3 {
		return fmt.Sprintf("%q: %d cells\n%s", v, len(td), md)
	}
	shownCode := invisible.Escape(v)
	if v == "" {
		shownCode = " "
	}
	want := []string{
		shownInline(strings.Join(strings.Fields(v), " ")),
		shownCode,
		shownInline(strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(v)),
	}
	for j, w := range want {
		if got := textOf(td[j]); got != w {
			bad = append(bad, fmt.Sprintf("as %s it shows %q, want %q", []string{"cellText", "code", "chartText"}[j], got, w))
		}
	}
	if len(bad) > 0 {
		return fmt.Sprintf("%q: %s\n%s", v, strings.Join(bad, "; "), md)
	}
	return ""
}
