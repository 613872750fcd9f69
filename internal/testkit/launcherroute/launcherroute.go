// Package launcherroute reads a launcher link as the reference platform's
// front end reads it, written from the platform notes (section 10) alone
// and apart from package launchlink, whose links the tests decode with it:
// the path /launcher/{catalogId}/{chartName}; parameters whose key holds no
// dot are the route's own (name, version, shared, s3, autoLaunch); every
// other one sets a value, its key split on the dots not preceded by %5C (or
// a backslash), [n] a list index, its value true, false, null, - (remove),
// a number as JavaScript's parseFloat reads it, or «string» percent-encoded
// (the guillemets may arrive encoded as %C2%AB and %C2%BB).
package launcherroute

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Route is a decoded link.
type Route struct {
	// Base is the platform's address, before /launcher/.
	Base             string
	CatalogID, Chart string
	// Params are the parameters that are not values, decoded.
	Params map[string]string
	// Patch is the values to set, in the link's order.
	Patch []Entry
}

// Entry is one value to set: Path holds string keys and int indexes;
// Remove is the link's "-" (undefined).
type Entry struct {
	Path   []any
	Value  any
	Remove bool
}

// Parse decodes a link.
func Parse(link string) (*Route, error) {
	raw, _, _ := strings.Cut(link, "#")
	addr, query, _ := strings.Cut(raw, "?")
	i := strings.LastIndex(addr, "/launcher/")
	if i < 0 {
		return nil, fmt.Errorf("%s: no /launcher/ in the path", link)
	}
	segs := strings.Split(addr[i+len("/launcher/"):], "/")
	if len(segs) != 2 || segs[0] == "" || segs[1] == "" {
		return nil, fmt.Errorf("%s: the path is not /launcher/{catalogId}/{chartName}", link)
	}
	r := &Route{Base: addr[:i], Params: map[string]string{}}
	var err error
	if r.CatalogID, err = url.PathUnescape(segs[0]); err != nil {
		return nil, err
	}
	if r.Chart, err = url.PathUnescape(segs[1]); err != nil {
		return nil, err
	}
	if query == "" {
		return r, nil
	}
	for _, part := range strings.Split(query, "&") {
		kv := strings.Split(part, "=")
		if len(kv) != 2 {
			return nil, fmt.Errorf("parameter %q: not one key=value", part)
		}
		key, val := kv[0], kv[1]
		if !strings.Contains(key, ".") {
			if r.Params[key], err = url.PathUnescape(val); err != nil {
				return nil, fmt.Errorf("parameter %s: %w", key, err)
			}
			continue
		}
		e, err := entry(key, val)
		if err != nil {
			return nil, fmt.Errorf("parameter %q: %w", part, err)
		}
		r.Patch = append(r.Patch, e)
	}
	return r, nil
}

// index is a list index after a key.
var index = regexp.MustCompile(`^\[([0-9]+)\]`)

func entry(key, val string) (Entry, error) {
	var e Entry
	for _, tok := range splitKey(key) {
		name := tok
		if j := strings.IndexByte(tok, '['); j >= 0 {
			name = tok[:j]
		}
		if name != "" || !strings.HasPrefix(tok, "[") {
			e.Path = append(e.Path, name)
		}
		for rest := tok[len(name):]; rest != ""; {
			m := index.FindStringSubmatch(rest)
			if m == nil {
				return e, fmt.Errorf("%q: text after a list index", tok)
			}
			n, err := strconv.Atoi(m[1])
			if err != nil {
				return e, err
			}
			e.Path = append(e.Path, n)
			rest = rest[len(m[0]):]
		}
	}
	if len(e.Path) == 0 {
		return e, fmt.Errorf("no path")
	}
	switch val {
	case "true", "false":
		e.Value = val == "true"
		return e, nil
	case "null":
		return e, nil
	case "-":
		e.Remove = true
		return e, nil
	}
	if f, ok := parseFloat(val); ok {
		e.Value = f
		return e, nil
	}
	text, err := url.PathUnescape(val)
	if err != nil {
		return e, fmt.Errorf("decodeURIComponent: %w", err)
	}
	if !strings.HasPrefix(text, "«") || !strings.HasSuffix(text, "»") || len(text) < len("«»") {
		return e, fmt.Errorf("%q: no «string», number, true, false, null or -", text)
	}
	inner := text[len("«") : len(text)-len("»")]
	if strings.Contains(inner, "»") {
		return e, fmt.Errorf("%q: » inside the string", text)
	}
	e.Value = inner
	return e, nil
}

// splitKey splits a key on its dots, but those preceded by %5C (either
// case) or a backslash, which are a dot inside one key; a last empty piece
// (a key ending with a dot) is dropped.
func splitKey(key string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(key); i++ {
		switch {
		case i+3 < len(key) && strings.EqualFold(key[i:i+4], "%5C."):
			cur.WriteByte('.')
			i += 3
		case i+1 < len(key) && key[i:i+2] == `\.`:
			cur.WriteByte('.')
			i++
		case key[i] == '.':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(key[i])
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// float is the longest prefix JavaScript's parseFloat reads, after leading
// white space.
var float = regexp.MustCompile(`^[+-]?(Infinity|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)`)

// parseFloat is JavaScript's parseFloat: false where it gives NaN.
func parseFloat(s string) (float64, bool) {
	m := float.FindString(strings.TrimLeft(s, " \t\n\v\f\r\u00a0\ufeff"))
	if m == "" {
		return 0, false
	}
	if strings.HasSuffix(m, "Infinity") {
		m = strings.TrimSuffix(m, "Infinity") + "Inf"
	}
	f, err := strconv.ParseFloat(m, 64)
	if err != nil {
		// Out of range: JavaScript gives ±Infinity or 0 there, which
		// ParseFloat returns with the error.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// Apply sets a patch on a values document as the platform does
// (assignValueAtPath): missing or mismatched containers on the way are
// replaced by a list before an index and a mapping before a key, but a list
// is kept before a key, which the platform then refuses (an error here).
// A removal deletes a mapping's key.
func Apply(doc map[string]any, patch []Entry) error {
	for _, e := range patch {
		if _, ok := e.Path[0].(string); !ok {
			return fmt.Errorf("%v: the values document is a mapping, not a list", e.Path)
		}
		if _, err := assign(doc, e.Path, e); err != nil {
			return fmt.Errorf("%v: %w", e.Path, err)
		}
	}
	return nil
}

// assign sets e at path in o and returns o (a list may grow).
func assign(o any, path []any, e Entry) (any, error) {
	first, rest := path[0], path[1:]
	if len(rest) == 0 {
		return put(o, first, e)
	}
	cur, _ := read(o, first)
	switch rest[0].(type) {
	case int:
		if _, ok := cur.([]any); !ok {
			cur = []any{}
		}
	case string:
		switch cur.(type) {
		case map[string]any, []any:
		default:
			cur = map[string]any{}
		}
	}
	sub, err := assign(cur, rest, e)
	if err != nil {
		return nil, err
	}
	return put(o, first, Entry{Value: sub})
}

func read(o any, k any) (any, bool) {
	switch x := o.(type) {
	case map[string]any:
		s, ok := k.(string)
		if !ok {
			return nil, false
		}
		v, ok := x[s]
		return v, ok
	case []any:
		i, ok := k.(int)
		if !ok || i >= len(x) {
			return nil, false
		}
		return x[i], true
	}
	return nil, false
}

func put(o any, k any, e Entry) (any, error) {
	switch x := o.(type) {
	case map[string]any:
		s, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("index %v of a mapping", k)
		}
		if e.Remove {
			delete(x, s)
		} else {
			x[s] = e.Value
		}
		return x, nil
	case []any:
		i, ok := k.(int)
		if !ok {
			return nil, fmt.Errorf("key %q of a list: the platform's assignment fails", k)
		}
		if e.Remove {
			return nil, fmt.Errorf("removing item %d of a list leaves a hole (null)", i)
		}
		for len(x) <= i {
			// JavaScript leaves holes, which JSON writes as null.
			x = append(x, nil)
		}
		x[i] = e.Value
		return x, nil
	}
	return nil, fmt.Errorf("set under %T", o)
}
