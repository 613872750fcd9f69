package site

import (
	"bytes"
	"html/template"
	"net/url"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
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
	)
}

const externalRel = "nofollow noopener noreferrer"

// renderMarkdown renders a README. Beyond goldmark's own blanking of
// javascript:, vbscript:, file: and data: URLs, links keep only http, https
// and mailto (images: https, the only remote images a page's CSP allows);
// a link to anything else is replaced by its text, an image by its
// alternative text. Relative links point at the chart's files in the
// catalog repository when tree is known (they would be broken on the
// site), else they are dropped too. remote reports that an image is left,
// which the page's CSP must then allow.
func renderMarkdown(md goldmark.Markdown, src []byte, tree sourceTree, hasTree bool) (_ template.HTML, remote bool, _ error) {
	doc := md.Parser().Parse(text.NewReader(src))
	var unwrap []ast.Node
	var replace []*ast.AutoLink
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
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
