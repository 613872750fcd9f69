package devserver

import (
	"bytes"
	"html"
	"strings"

	nethtml "golang.org/x/net/html"
)

// inject adds the live script to an HTML page as it is served: a script
// element ending the head (before the body when the head's end tag is
// omitted, at the end otherwise), carrying the build the page belongs to,
// and, in the page's Content-Security-Policy, the connections to the server
// the script makes. Every other byte is the page's own.
//
// The built files themselves are left exactly as `catalogist build` writes
// them: what is served is then what would be published, plus this, and
// the script cannot leak into a published site. The pages' CSP allows
// scripts from their own origin, which the server is, but no connection
// (default-src 'none'), which the event stream and the status need.
func inject(page []byte, build string) []byte {
	script := `<script src="/__catalogist/live.js" data-build="` + html.EscapeString(build) + `" defer></script>`
	var out bytes.Buffer
	out.Grow(len(page) + len(script) + 32)
	z := nethtml.NewTokenizer(bytes.NewReader(page))
	done := false
	for {
		tt := z.Next()
		if tt == nethtml.ErrorToken {
			break
		}
		// Copied first: TagName and TagAttr lower-case the token in place.
		raw := bytes.Clone(z.Raw())
		name, hasAttr := z.TagName()
		switch {
		case done:
		case tt == nethtml.EndTagToken && string(name) == "head",
			tt == nethtml.StartTagToken && string(name) == "body":
			out.WriteString(script)
			done = true
		case (tt == nethtml.StartTagToken || tt == nethtml.SelfClosingTagToken) && string(name) == "meta" && hasAttr:
			if tag, ok := allowConnections(z, tt == nethtml.SelfClosingTagToken); ok {
				out.WriteString(tag)
				continue
			}
		}
		out.Write(raw)
	}
	if !done {
		out.WriteString(script)
	}
	return out.Bytes()
}

// allowConnections rewrites a meta element that sets a
// Content-Security-Policy so that it allows connections to the page's own
// origin; ok is false for another meta element, or one that allows them
// already.
func allowConnections(z *nethtml.Tokenizer, selfClosing bool) (tag string, ok bool) {
	type attr struct{ key, val string }
	var attrs []attr
	csp := -1
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		attrs = append(attrs, attr{string(k), string(v)})
		if strings.EqualFold(string(k), "http-equiv") && strings.EqualFold(strings.TrimSpace(string(v)), "content-security-policy") {
			csp = len(attrs) - 1
		}
	}
	if csp < 0 {
		return "", false
	}
	changed := false
	for i, a := range attrs {
		if a.key == "content" {
			if p := connectSelf(a.val); p != a.val {
				attrs[i].val, changed = p, true
			}
		}
	}
	if !changed {
		return "", false
	}
	var b strings.Builder
	b.WriteString("<meta")
	for _, a := range attrs {
		b.WriteString(" " + a.key + `="` + attrEscaper.Replace(a.val) + `"`)
	}
	if selfClosing {
		b.WriteString(" /")
	}
	b.WriteString(">")
	return b.String(), true
}

// attrEscaper escapes a double-quoted attribute value, leaving the quotes
// of CSP keywords ('self') readable.
var attrEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;")

// connectSelf returns a policy whose connect-src allows 'self'. Without a
// connect-src, connections fall under default-src: a connect-src is added
// with its sources, 'none' giving way to 'self'.
func connectSelf(policy string) string {
	dirs := strings.Split(policy, ";")
	var fallback []string
	for i, d := range dirs {
		fields := strings.Fields(d)
		if len(fields) == 0 {
			continue
		}
		switch strings.ToLower(fields[0]) {
		case "connect-src":
			if srcs, ok := withSelf(fields); ok {
				lead := d[:len(d)-len(strings.TrimLeft(d, " \t\n\f\r"))]
				dirs[i] = lead + strings.Join(srcs, " ")
			}
			return strings.Join(dirs, ";")
		case "default-src":
			fallback = append([]string{"connect-src"}, fields[1:]...)
		}
	}
	if fallback == nil {
		// Nothing restricts connections.
		return policy
	}
	srcs, ok := withSelf(fallback)
	if !ok {
		return policy
	}
	return strings.TrimRight(policy, "; ") + "; " + strings.Join(srcs, " ")
}

// withSelf adds 'self' to a directive's sources, in place of 'none'; ok is
// false when they hold it already.
func withSelf(fields []string) (srcs []string, ok bool) {
	srcs = fields[:1:1]
	for _, src := range fields[1:] {
		switch strings.ToLower(src) {
		case "'self'":
			return fields, false
		case "'none'":
			continue
		}
		srcs = append(srcs, src)
	}
	return append(srcs, "'self'"), true
}
