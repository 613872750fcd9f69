package catalog

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"golang.org/x/text/encoding/ianaindex"
)

// SVGProblem is why an SVG icon is refused, and the line where it is.
type SVGProblem struct {
	Line   int
	Reason string
}

func (p *SVGProblem) Error() string { return fmt.Sprintf("line %d: %s", p.Line, p.Reason) }

// activeElements are the elements that run script, embed another document
// or fetch one, by local name: a prefix bound to the SVG or XHTML namespace
// (<s:script>) is still a script, so names are compared without their
// namespace, and in any case (XHTML's are case-insensitive).
var activeElements = map[string]bool{
	"script": true, "foreignobject": true, "iframe": true, "embed": true,
	"object": true, "handler": true, "listener": true, "audio": true,
	"video": true, "frame": true, "frameset": true, "base": true, "meta": true,
}

// referenceAttrs name another resource; inside an icon only a reference to
// the icon's own elements (#id) or an inline raster image is allowed.
var referenceAttrs = map[string]bool{"href": true, "src": true, "action": true, "formaction": true}

// inlineImage is a data: URL holding a raster image, which cannot run.
var inlineImage = regexp.MustCompile(`(?i)^data:image/(png|jpeg|gif|webp)[;,]`)

// cssReference finds what CSS may fetch: @import, and url() not naming an
// element of the icon.
var cssReference = regexp.MustCompile(`(?i)@import|url\(\s*['"]?\s*[^#'"\s)]`)

// CheckSVG parses an SVG icon as XML with namespaces and returns an
// *SVGProblem when it is more than a picture: script elements, event
// handler attributes, foreignObject and other embedded documents, external
// or javascript: references, entity declarations, or text that is not
// well-formed XML. Inside <img> an SVG would not run, but opened directly
// from the published site it runs on the site's origin, where no header
// can stop it: such icons are refused and the default icon shown.
func CheckSVG(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	// A browser reads the file in the character set it declares; reading
	// it otherwise could hide a script from this check. Unknown ones are
	// refused rather than guessed.
	d.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		enc, err := ianaindex.IANA.Encoding(label)
		if err != nil || enc == nil {
			return nil, fmt.Errorf("unknown encoding %q: save the icon as UTF-8", label)
		}
		return enc.NewDecoder().Reader(r), nil
	}
	var stack []string
	root := true
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if root {
				return &SVGProblem{Line: line, Reason: "no <svg> element"}
			}
			return nil
		}
		if err != nil {
			return &SVGProblem{Line: line, Reason: "not well-formed XML: " + strings.TrimPrefix(err.Error(), "XML syntax error on ")}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			local := strings.ToLower(t.Name.Local)
			if root && local != "svg" {
				return &SVGProblem{Line: line, Reason: fmt.Sprintf("the document is <%s>, not <svg>", t.Name.Local)}
			}
			root = false
			if activeElements[local] {
				return &SVGProblem{Line: line, Reason: fmt.Sprintf("<%s> element", qualified(t.Name))}
			}
			for _, a := range t.Attr {
				if reason := attrProblem(t.Name, a); reason != "" {
					return &SVGProblem{Line: line, Reason: reason}
				}
			}
			stack = append(stack, local)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1] == "style" && cssReference.Match(t) {
				return &SVGProblem{Line: line, Reason: "a style sheet that loads another resource (@import or url())"}
			}
		case xml.ProcInst:
			if strings.EqualFold(t.Target, "xml-stylesheet") {
				return &SVGProblem{Line: line, Reason: "an external style sheet (<?xml-stylesheet?>)"}
			}
		case xml.Directive:
			if bytes.ContainsAny(t, "[") || bytes.Contains(bytes.ToUpper(t), []byte("ENTITY")) {
				return &SVGProblem{Line: line, Reason: "a DOCTYPE declaring entities"}
			}
		}
	}
}

// attrProblem says what is wrong with an attribute of element el, or "".
func attrProblem(el xml.Name, a xml.Attr) string {
	local := strings.ToLower(a.Name.Local)
	value := scriptless(a.Value)
	switch {
	case strings.HasPrefix(local, "on"):
		return fmt.Sprintf("event handler %s on <%s>", qualified(a.Name), qualified(el))
	case strings.Contains(value, "javascript:") || strings.Contains(value, "vbscript:"):
		return fmt.Sprintf("a script URL in %s on <%s>", qualified(a.Name), qualified(el))
	case referenceAttrs[local]:
		v := strings.TrimSpace(a.Value)
		if v != "" && !strings.HasPrefix(v, "#") && !inlineImage.MatchString(v) {
			return fmt.Sprintf("an external reference in %s on <%s>: only #id references and inline PNG, JPEG, GIF or WebP images are kept", qualified(a.Name), qualified(el))
		}
	case local == "style" && cssReference.MatchString(a.Value):
		return fmt.Sprintf("a style attribute that loads another resource on <%s>", qualified(el))
	case local == "attributename" && (strings.HasPrefix(value, "on") || strings.HasSuffix(value, "href")):
		// An animation can set a link or a handler the markup does not
		// show.
		return fmt.Sprintf("<%s> animating %s", qualified(el), a.Value)
	}
	return ""
}

// scriptless lowers a value and drops what browsers ignore inside a URL's
// scheme (whitespace and control characters), so "java\tscript:" is seen.
func scriptless(v string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' {
			return -1
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, v)
}

// qualified writes a name as the file spells it when it can: the decoder
// gives the namespace URL in place of the prefix.
func qualified(n xml.Name) string {
	switch n.Space {
	case "", "http://www.w3.org/2000/svg":
		return n.Local
	case "http://www.w3.org/1999/xlink", "xlink":
		return "xlink:" + n.Local
	}
	return n.Local + " (namespace " + n.Space + ")"
}
