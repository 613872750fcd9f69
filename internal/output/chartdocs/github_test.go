package chartdocs

import (
	"bytes"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/catalogist/catalogist/internal/base/invisible"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// githubHTML renders Markdown as GitHub renders a README: with cmark-gfm,
// GitHub's renderer, and the extensions GitHub turns on (tables,
// strikethrough, bare links). Raw HTML is let through, as GitHub does
// before sanitizing, so that any the Markdown makes shows as an element.
func githubHTML(t *testing.T, md []byte) *html.Node {
	t.Helper()
	bin := tooltest.Tool(t, "CATALOGIST_CMARKGFM", "cmark-gfm")
	cmd := exec.Command(bin, "--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink")
	cmd.Stdin = bytes.NewReader(md)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm: %v\n%s", err, stderr.String())
	}
	doc, err := html.Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

// textOf is the text a node shows.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// elements returns the elements named name, in document order.
func elements(root *html.Node, name string) []*html.Node {
	var out []*html.Node
	walk(root, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == name {
			out = append(out, n)
		}
	})
	return out
}

// showsItsAddress reports whether a link is one of GitHub's bare links,
// whose text is its address: what a reader sees is where it leads.
func showsItsAddress(a *html.Node) bool {
	href, err := url.PathUnescape(attr(a, "href"))
	if err != nil {
		return false
	}
	text := textOf(a)
	return href == text || href == "mailto:"+text || href == "http://"+text
}

// checkShownAsText fails for any element of a README rendered as GitHub
// renders it that docs does not write itself: raw HTML, an image other
// than a badge, a link showing other text than its address, emphasis
// other than *none* and *secret*, a strikethrough, a code block, and any
// HTML comment but the marker lines and the section's notice.
func checkShownAsText(t *testing.T, name string, doc *html.Node) {
	t.Helper()
	ours := []string{"html", "head", "body", "h1", "h2", "h3", "h4", "h5", "h6", "p", "table", "thead", "tbody", "tr", "th", "td", "code", "strong", "em", "blockquote", "ul", "li", "hr", "a", "img"}
	walk(doc, func(n *html.Node) {
		switch n.Type {
		case html.CommentNode:
			if c := "<!--" + n.Data + "-->"; c != Begin && c != End && c != notice {
				t.Errorf("%s: an HTML comment docs does not write: %q", name, c)
			}
		case html.ElementNode:
			switch {
			case !slices.Contains(ours, n.Data):
				t.Errorf("%s: a <%s> element (%q)", name, n.Data, textOf(n))
			case n.Data == "img" && !strings.HasPrefix(attr(n, "src"), "https://img.shields.io/badge/"):
				t.Errorf("%s: an image that is no badge: %q", name, attr(n, "src"))
			case n.Data == "a" && !showsItsAddress(n) && attr(n, "href") != "https://github.com/norwoodj/helm-docs/releases/v"+HelmDocsVersion:
				t.Errorf("%s: a link to %q showing %q", name, attr(n, "href"), textOf(n))
			case n.Data == "em" && textOf(n) != "none" && textOf(n) != "secret":
				t.Errorf("%s: emphasis docs does not write: %q", name, textOf(n))
			case n.Data != "a" && n.Data != "img" && len(n.Attr) > 0:
				t.Errorf("%s: a <%s> with attributes %v", name, n.Data, n.Attr)
			}
		}
	})
}

// markerLines counts the lines of a README that are a marker.
func markerLines(readme []byte) (begins, ends int) {
	for _, l := range splitLines(readme) {
		switch markerLine(l.text) {
		case Begin:
			begins++
		case End:
			ends++
		}
	}
	return begins, ends
}

// docs on charts whose schema keys, titles, descriptions, defaults,
// choices, units, pre-fills and conditions, and whose Chart.yaml's every
// field, hold markup, new lines, control characters, links and marker
// lines (testdata/hostile): on GitHub, every README shows them as text.
// Each README is made only of what docs writes (headings, paragraphs,
// tables, code, bold, the deprecation quote, badges, the list of
// sources), each of its links shows its own address, each option has its
// row with its key in its first cell, the README has one pair of marker
// lines, and docs --check finds every README up to date.
func TestHostileREADMEs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hostile")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "hostile"))); err != nil {
		t.Fatal(err)
	}
	cat, env := discover(t, dir)
	if len(cat.Charts) != 3 {
		t.Fatalf("the fixture has %d charts, want 3", len(cat.Charts))
	}
	for _, ch := range cat.Charts {
		t.Run(ch.Name, func(t *testing.T) {
			res, err := Sync(cat, ch, env, false)
			if err != nil || res.Status != Written {
				t.Fatalf("docs: %+v, %v", res, err)
			}
			readme, err := os.ReadFile(res.README)
			if err != nil {
				t.Fatal(err)
			}
			if b, e := markerLines(readme); b != 1 || e != 1 {
				t.Errorf("%d begin and %d end lines:\n%s", b, e, readme)
			}
			doc := githubHTML(t, readme)
			checkShownAsText(t, res.README, doc)
			d, err := Load(cat, ch, env)
			if err != nil {
				t.Fatal(err)
			}
			checkRows(t, d, doc)
			if ch.Name != "keys" {
				checkChartText(t, ch.ChartFile, doc)
			}
			if t.Failed() {
				t.Logf("README:\n%s", readme)
			}
			if res, err := Sync(cat, ch, env, true); err != nil || res.Status != UpToDate {
				t.Errorf("check after docs: %+v, %v", res, err)
			}
		})
	}
}

// checkRows checks that each option of a doc has its row, in order, with
// its key in its first cell as the section writes it, and each group its
// heading ending with its key.
func checkRows(t *testing.T, d *Doc, doc *html.Node) {
	t.Helper()
	var keys, groups []string
	var visit func(g *group)
	visit = func(g *group) {
		if g.opt != nil {
			groups = append(groups, keyText(g.opt.Key))
		}
		for _, o := range g.rows {
			keys = append(keys, keyText(o.Key))
		}
		for _, sub := range g.groups {
			visit(sub)
		}
	}
	visit(d.tree())
	var cells []string
	for _, body := range elements(doc, "tbody") {
		for _, tr := range elements(body, "tr") {
			if td := elements(tr, "td"); len(td) == 4 && len(elements(td[0], "code")) == 1 {
				cells = append(cells, textOf(elements(td[0], "code")[0]))
			}
		}
	}
	// A helm-docs README's other tables (maintainers, requirements) have
	// three columns.
	if !slices.Equal(cells, keys) {
		t.Errorf("the options' first cells are\n%q\nwant\n%q", cells, keys)
	}
	var headings []string
	for _, h := range elements(doc, "h3") {
		if c := elements(h, "code"); len(c) > 0 {
			headings = append(headings, textOf(c[len(c)-1]))
		}
	}
	if !slices.Equal(headings, groups) {
		t.Errorf("the groups' headings end with\n%q\nwant\n%q", headings, groups)
	}
}

// checkChartText checks that Chart.yaml's texts show as written, or, for a
// value written where a new line cannot go, with blanks for new lines.
func checkChartText(t *testing.T, chartFile string, doc *html.Node) {
	t.Helper()
	data, err := os.ReadFile(chartFile)
	if err != nil {
		t.Fatal(err)
	}
	info, err := ParseChartInfo(chartFile, data, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	shown := textOf(doc)
	for _, img := range elements(doc, "img") {
		shown += "\n" + attr(img, "alt")
	}
	for _, line := range strings.Split(info.Description, "\n") {
		// Markdown drops a paragraph line's indentation.
		if line = strings.TrimSpace(line); !strings.Contains(shown, line) {
			t.Errorf("the description's line %q is not shown", line)
		}
	}
	for _, v := range []string{info.AppVersion, info.Type, info.Maintainers[0].Name, info.Maintainers[0].Email, info.Maintainers[1].Name, info.Sources[1], info.Sources[2], info.Home} {
		if v = strings.ReplaceAll(v, "\n", " "); !strings.Contains(shown, v) {
			t.Errorf("%q is not shown", v)
		}
	}
	// In code, a new line shows as its escape.
	if v := invisible.Escape(info.KubeVersion); !strings.Contains(shown, "Kubernetes: "+v) {
		t.Errorf("kubeVersion is not shown as %q", v)
	}
}

// Texts that would make markup, written by each escaping function into a
// table cell, show on GitHub as written: cellText's with blanks folded,
// code's and chartText's with new lines as blanks (chartText) or escapes
// (code), and hidden characters as escapes.
func TestEscapingOnGitHub(t *testing.T) {
	var md strings.Builder
	md.WriteString("| cellText | code | chartText |\n|---|---|---|\n")
	for _, v := range escapeVectors {
		md.WriteString("| " + cellText(v) + " | " + code(v) + " | " + chartText(v) + " |\n")
	}
	doc := githubHTML(t, []byte(md.String()))
	checkShownAsText(t, "the table", doc)
	rows := elements(elements(doc, "tbody")[0], "tr")
	if len(rows) != len(escapeVectors) {
		t.Fatalf("%d rows for %d texts", len(rows), len(escapeVectors))
	}
	for i, v := range escapeVectors {
		td := elements(rows[i], "td")
		if len(td) != 3 {
			t.Errorf("%q: %d cells", v, len(td))
			continue
		}
		want := []string{
			shownInline(strings.Join(strings.Fields(v), " ")),
			invisible.Escape(v),
			shownInline(strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(v)),
		}
		for j, w := range want {
			if got := textOf(td[j]); got != w {
				t.Errorf("%q as %s shows %q, want %q", v, []string{"cellText", "code", "chartText"}[j], got, w)
			}
		}
		if len(elements(td[1], "code")) != 1 {
			t.Errorf("%q: code writes no code span", v)
		}
	}
}

// shownInline is how a text shows once escaped: each hidden character as
// its escape, blanks at the ends dropped from a cell.
func shownInline(s string) string { return strings.Trim(invisible.Escape(s), " \t") }

// escapeVectors are texts a schema or Chart.yaml may hold that Markdown or
// HTML would read as markup; the fuzz targets start from them too.
var escapeVectors = []string{
	"plain text",
	"<img src=x onerror=alert(1)>",
	"x\n<!-- catalogist:options:begin -->\n# Security fix\n[Security fix: download here](https://evil.example)\n",
	Begin,
	End + " " + Begin,
	"a|b`c``d|e",
	`a\|b \\| c\`,
	"```",
	"~~~ fence",
	"~~struck~~ and ~struck~ and ~/.venv and ~2.0",
	"(~/a (~/b",
	"*em* **strong** _em_ __strong__ a_b_c AWS_ACCESS_KEY_ID",
	"[link](https://evil.example) ![img](https://evil.example/x.png) [ref][1]",
	"<https://evil.example> <mailto:a@b.c>",
	"https://ok.example/m\\<img src=y> www.ok.example/a<img src=z>",
	"https://ok.example/a*b* https://ok.example/x_ https://ok.example/~",
	"&amp; &#60;b&#62; &lt; R&D &copy",
	"# heading",
	"> quote",
	"- item",
	"1. item",
	"---",
	"===",
	"| a | b |",
	"ctrl\x00\x1b[31m\x7f\u0085\u202e\u2028\u2029\u200f end",
	"\ttab\vvt\fff",
	"trailing backslash \\",
	"   spaced   out   ",
	"`",
	"``",
	" ` ",
	"\u00a0nbsp\u00a0",
	"1) [x](https://evil.example) <b>b</b>",
	">=1.20 <2 || ~1 ^2",
	"a<!--b-->c",
	"<![CDATA[x]]>",
	"<?php x ?>",
	"</p><p>",
}
