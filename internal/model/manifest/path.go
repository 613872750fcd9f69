package manifest

import (
	"strconv"
	"strings"
)

// fieldPath is a path inside a manifest, rendered in the notation of the API
// server's field errors: fields joined by dots, list indexes and map keys in
// brackets ("spec.ports[0].port", "metadata.labels[app]").
type fieldPath string

// child is the path of a field of the object at p.
func (p fieldPath) child(name string) fieldPath {
	if p == "" {
		return fieldPath(name)
	}
	return p + "." + fieldPath(name)
}

// index is the path of an element of the list at p.
func (p fieldPath) index(i int) fieldPath {
	return p + "[" + fieldPath(strconv.Itoa(i)) + "]"
}

// key is the path of an entry of the map at p.
func (p fieldPath) key(k string) fieldPath {
	return p + "[" + fieldPath(k) + "]"
}

// join appends a path relative to p (as the strict decoder reports them,
// "spec.foo" or "[0].foo").
func (p fieldPath) join(rel string) fieldPath {
	rel = strings.TrimPrefix(rel, ".")
	switch {
	case rel == "":
		return p
	case p == "":
		return fieldPath(rel)
	case strings.HasPrefix(rel, "["):
		return p + fieldPath(rel)
	}
	return p + "." + fieldPath(rel)
}

// steps splits a path into field names and bracketed parts, naively: a
// field name holding a dot is split too. Callers that can tell fields from
// dotted keys use the YAML tree instead (tree.line).
func (p fieldPath) steps() []string {
	var out []string
	s := string(p)
	for s != "" {
		switch {
		case s[0] == '.':
			s = s[1:]
		case s[0] == '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return append(out, s)
			}
			out = append(out, s[:end+1])
			s = s[end+1:]
		default:
			end := strings.IndexAny(s, ".[")
			if end < 0 {
				end = len(s)
			}
			out = append(out, s[:end])
			s = s[end:]
		}
	}
	return out
}
