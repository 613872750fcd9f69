package site

import (
	"bytes"
	"fmt"
	"html/template"
	"net/url"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	gmrenderer "github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// newMarkdown is the README renderer: GitHub Flavored Markdown with heading
// anchors. Raw HTML is left out (goldmark's default, never WithUnsafe): a
// README's <script>, <iframe> or event handler attributes become a comment.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(gmrenderer.WithNodeRenderers(util.Prioritized(scrollBoxRenderer{}, 100))),
	)
}

// kindScrollBox is the box renderMarkdown puts around each table and code
// block of a README: a wide one (helm-docs' values table, a long command)
// scrolls sideways in it instead of being cut or widening the page, and
// the box takes the keyboard's focus so that a keyboard can scroll it,
// with a label saying which table or code it is.
var kindScrollBox = ast.NewNodeKind("ScrollBox")

type scrollBox struct {
	ast.BaseBlock
	// class is the box's class: table-scroll or code-scroll.
	class, label string
}

func (n *scrollBox) Kind() ast.NodeKind { return kindScrollBox }

func (n *scrollBox) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"class": n.class, "label": n.label}, nil)
}

type scrollBoxRenderer struct{}

func (scrollBoxRenderer) RegisterFuncs(r gmrenderer.NodeRendererFuncRegisterer) {
	r.Register(kindScrollBox, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			box := n.(*scrollBox)
			// The label holds the README's text: escaped as any.
			_, _ = w.WriteString(`<div class="` + box.class + `" tabindex="0" role="region" aria-label="` + template.HTMLEscapeString(box.label) + "\">\n")
		} else {
			_, _ = w.WriteString("</div>\n")
		}
		return ast.WalkContinue, nil
	})
}

// inlineText is the text of a node's inline content, as a reader sees it.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := c.(type) {
		case *ast.Text:
			b.Write(x.Segment.Value(src))
			if x.SoftLineBreak() || x.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(x.Value)
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

const externalRel = "nofollow noopener noreferrer"

// renderMarkdown renders a README. Beyond goldmark's own blanking of
// javascript:, vbscript:, file: and data: URLs, links keep only http, https
// and mailto (images: https, the only remote images a page's CSP allows);
// a link to anything else is replaced by its text, an image by its
// alternative text. Relative links point at the chart's files in the
// catalog repository when tree is known (they would be broken on the
// site), else they are dropped too. remote reports that an image is left,
// which the page's CSP must then allow. Tables and code blocks are put in
// boxes that scroll (scrollBox).
func renderMarkdown(md goldmark.Markdown, src []byte, tree sourceTree, hasTree bool) (_ template.HTML, remote bool, _ error) {
	doc := md.Parser().Parse(text.NewReader(src))
	var unwrap []ast.Node
	var replace []*ast.AutoLink
	var boxes []*scrollBox
	var boxed []ast.Node
	heading := ""
	box := func(n ast.Node, class, what string, count *int) {
		*count++
		label := fmt.Sprintf("README %s %d", what, *count)
		if heading != "" {
			label += ", under " + heading
		}
		boxes = append(boxes, &scrollBox{class: class, label: label})
		boxed = append(boxed, n)
	}
	tables, code := 0, 0
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.Heading:
			heading = inlineText(x, src)
		case *east.Table:
			box(x, "table-scroll", "table", &tables)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			box(x, "code-scroll", "code", &code)
		case *ast.Link:
			dest, ok := markdownURL(string(x.Destination), false, tree, hasTree)
			if !ok {
				unwrap = append(unwrap, x)
				break
			}
			x.Destination = []byte(dest)
			if isHTTP(dest) {
				x.SetAttributeString("rel", []byte(externalRel))
			}
		case *ast.Image:
			dest, ok := markdownURL(string(x.Destination), true, tree, hasTree)
			if !ok {
				unwrap = append(unwrap, x)
				return ast.WalkSkipChildren, nil
			}
			x.Destination = []byte(dest)
			remote = true
		case *ast.AutoLink:
			if x.AutoLinkType != ast.AutoLinkURL {
				break
			}
			u := string(x.URL(src))
			if !isHTTP(u) && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
				replace = append(replace, x)
				break
			}
			x.SetAttributeString("rel", []byte(externalRel))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return "", false, err
	}
	for _, n := range unwrap {
		parent := n.Parent()
		if parent == nil {
			continue
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
	for _, n := range replace {
		if parent := n.Parent(); parent != nil {
			parent.ReplaceChild(parent, n, ast.NewString(n.Label(src)))
		}
	}
	for i, n := range boxed {
		if parent := n.Parent(); parent != nil {
			parent.ReplaceChild(parent, n, boxes[i])
			boxes[i].AppendChild(boxes[i], n)
		}
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		return "", false, err
	}
	// The only trusted HTML of the site: goldmark's output with raw HTML
	// omitted and the links filtered above.
	return template.HTML(buf.String()), remote, nil
}

// markdownURL decides where a README link or image points, and whether it
// stays a link at all.
func markdownURL(raw string, image bool, tree sourceTree, hasTree bool) (string, bool) {
	// Judge the URL the renderer will write: goldmark resolves backslash
	// escapes and character references ("&#106;avascript:") when it writes
	// a destination.
	raw = string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations([]byte(raw)))))
	if raw == "" || strings.HasPrefix(raw, "#") {
		return raw, !image && !strings.ContainsAny(raw, "\\") && !hasControl(raw)
	}
	if strings.ContainsAny(raw, "\\") || hasControl(raw) {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	if strings.HasPrefix(raw, "//") {
		raw = "https:" + raw
		if u, err = url.Parse(raw); err != nil {
			return "", false
		}
	}
	if u.Scheme != "" {
		switch strings.ToLower(u.Scheme) {
		case "http", "https":
			if image {
				return raw, isHTTPS(raw)
			}
			return raw, isHTTP(raw)
		case "mailto":
			return raw, !image && isEmail(strings.TrimPrefix(raw[len(u.Scheme)+1:], "//"))
		}
		return "", false
	}
	if !hasTree {
		return "", false
	}
	// A path relative to the README's folder, or to the repository root
	// when it starts with a slash (as GitHub reads it).
	p := u.Path
	if !strings.HasPrefix(p, "/") {
		p = tree.dir + "/" + p
	}
	clean, ok := cleanRepoPath(strings.TrimLeft(p, "/"))
	if !ok {
		return "", false
	}
	kind := "blob"
	if image {
		kind = "raw"
	}
	out := tree.url(kind, clean)
	if u.RawQuery != "" {
		out += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		out += "#" + u.EscapedFragment()
	}
	return out, true
}
