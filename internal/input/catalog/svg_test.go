package catalog

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const svgNS = `xmlns="http://www.w3.org/2000/svg"`

func TestCheckSVGRefuses(t *testing.T) {
	for _, tc := range []struct{ name, svg, want string }{
		{"script", `<svg ` + svgNS + `><script>alert(1)</script></svg>`, "line 1: <script> element"},
		{"prefixed script", "<svg " + svgNS + ` xmlns:s="http://www.w3.org/2000/svg">` + "\n<s:script>alert(1)</s:script></svg>", "line 2: <script> element"},
		{"xhtml script", `<svg ` + svgNS + ` xmlns:h="http://www.w3.org/1999/xhtml"><h:SCRIPT>alert(1)</h:SCRIPT></svg>`, "<SCRIPT (namespace http://www.w3.org/1999/xhtml)> element"},
		{"unbound prefix", `<svg ` + svgNS + `><x:script>alert(1)</x:script></svg>`, "element"},
		{"handler", `<svg ` + svgNS + ` onload="alert(1)"/>`, "event handler onload on <svg>"},
		{"prefixed handler", `<svg ` + svgNS + ` xmlns:s="http://www.w3.org/2000/svg"><rect s:onclick="alert(1)"/></svg>`, "event handler onclick"},
		{"uppercase handler", `<svg ` + svgNS + `><rect ONMOUSEOVER="x()"/></svg>`, "event handler"},
		{"foreignObject", `<svg ` + svgNS + `><foreignObject><div/></foreignObject></svg>`, "<foreignObject> element"},
		{"javascript link", `<svg ` + svgNS + ` xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="java&#9;script:alert(1)"><rect/></a></svg>`, "a script URL in xlink:href on <a>"},
		{"external image", `<svg ` + svgNS + `><image href="https://tracker.example/p.png"/></svg>`, "an external reference in href on <image>"},
		{"external use", `<svg ` + svgNS + ` xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="other.svg#x"/></svg>`, "an external reference in xlink:href on <use>"},
		{"svg data url", `<svg ` + svgNS + `><image href="data:image/svg+xml;base64,PHN2Zz4="/></svg>`, "an external reference"},
		{"animated href", `<svg ` + svgNS + `><a><set attributeName="href" to="x"/></a></svg>`, "<set> animating href"},
		{"css import", `<svg ` + svgNS + `><style>@import "https://evil.example/x.css";</style></svg>`, "a style sheet that loads another resource"},
		{"css url", `<svg ` + svgNS + `><style>rect{fill:url(https://evil.example/x)}</style></svg>`, "a style sheet"},
		{"style attribute url", `<svg ` + svgNS + `><rect style="fill:url('https://evil.example/x')"/></svg>`, "a style attribute that loads another resource"},
		{"stylesheet pi", `<?xml-stylesheet href="https://evil.example/x.css"?><svg ` + svgNS + `/>`, "an external style sheet"},
		{"entities", `<!DOCTYPE svg [<!ENTITY x "y">]><svg ` + svgNS + `>&x;</svg>`, "a DOCTYPE declaring entities"},
		{"iframe", `<svg ` + svgNS + `><iframe src="x"/></svg>`, "<iframe> element"},
		{"not svg", `<html><body/></html>`, "the document is <html>, not <svg>"},
		{"empty", ``, "no <svg> element"},
		{"broken", `<svg ` + svgNS + `><rect></svg>`, "not well-formed XML"},
		{"unknown charset", `<?xml version="1.0" encoding="x-nothing"?><svg ` + svgNS + `/>`, "unknown encoding"},
		{"utf-16 script", "<?xml version=\"1.0\" encoding=\"UTF-16LE\"?>" + utf16le(`<svg `+svgNS+`><script>alert(1)</script></svg>`), "<script> element"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckSVG([]byte(tc.svg))
			var p *SVGProblem
			if !errors.As(err, &p) {
				t.Fatalf("CheckSVG accepted %s (err %v)", tc.svg, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckSVG = %q, want it to say %q", err, tc.want)
			}
		})
	}
}

func utf16le(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteByte(byte(r))
		b.WriteByte(0)
	}
	return b.String()
}

func TestCheckSVGAccepts(t *testing.T) {
	for _, svg := range []string{
		`<svg ` + svgNS + ` viewBox="0 0 10 10"><rect width="10" height="10" fill="#123"/></svg>`,
		// What drawing programs write: an XML declaration, a public DOCTYPE,
		// their own namespaces, gradients referenced by id, inline styles.
		`<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<!-- Created with a drawing program -->
<svg ` + svgNS + ` xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" version="1.1">
  <sodipodi:namedview inkscape:zoom="1"/>
  <defs><linearGradient id="g"><stop offset="0" style="stop-color:#fff"/></linearGradient></defs>
  <style>.a{fill:url(#g)}</style>
  <rect class="a" style="fill:url(#g)" width="4" height="4"/>
  <use xlink:href="#g"/>
  <image href="data:image/png;base64,iVBORw0KGgo="/>
  <text>onload= and javascript are words here</text>
</svg>`,
		`<?xml version="1.0" encoding="ISO-8859-1"?><svg ` + svgNS + `><title>caf` + "\xe9" + `</title></svg>`,
	} {
		if err := CheckSVG([]byte(svg)); err != nil {
			t.Errorf("CheckSVG refused a plain icon: %v\n%s", err, svg)
		}
	}
}

// TestCheckSVGExamples checks the icons this repository ships.
func TestCheckSVGExamples(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/*/icons/*.svg")
	more, _ := filepath.Glob("../../../examples/icons/*.svg")
	files = append(files, more...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckSVG(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// FuzzCheckSVG: the checker never panics, and whatever it accepts turns
// refused once a script element or a handler is added inside the root.
func FuzzCheckSVG(f *testing.F) {
	f.Add([]byte(`<svg ` + svgNS + `><rect/></svg>`))
	f.Add([]byte(`<svg ` + svgNS + ` xmlns:s="http://www.w3.org/2000/svg"><s:script>1</s:script></svg>`))
	f.Add([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><!DOCTYPE svg PUBLIC "a" "b"><svg ` + svgNS + `><style>a{}</style></svg>`))
	f.Add([]byte(`<svg><a xlink:href="#x" xmlns:xlink="http://www.w3.org/1999/xlink"/></svg>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if CheckSVG(data) != nil {
			return
		}
		end := rootStartEnd(data)
		if end < 0 {
			return
		}
		for _, planted := range []string{`<script>alert(1)</script>`, `<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script>`, `<g onload="alert(1)"/>`, `<foreignObject/>`} {
			with := append(append(append([]byte{}, data[:end]...), planted...), data[end:]...)
			if CheckSVG(with) == nil {
				t.Fatalf("accepted with %s planted:\n%q", planted, with)
			}
		}
	})
}

// rootStartEnd is the offset just after the root element's start tag, or
// -1 when the root is empty (<svg/>) or not found.
func rootStartEnd(data []byte) int {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = func(string, io.Reader) (io.Reader, error) { return nil, errors.New("charset") }
	for {
		tok, err := d.RawToken()
		if err != nil {
			return -1
		}
		if _, ok := tok.(xml.StartElement); ok {
			end := int(d.InputOffset())
			if end >= 2 && data[end-2] == '/' {
				return -1
			}
			return end
		}
	}
}
