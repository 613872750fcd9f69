package gencatalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// kv is one member of an ordered JSON object.
type kv struct {
	k string
	v any
}

// obj is a JSON object that keeps its members in insertion order, so the
// generated files are stable byte for byte and read like hand-written ones.
type obj []kv

// get returns the value of member k.
func (o obj) get(k string) (any, bool) {
	for _, m := range o {
		if m.k == k {
			return m.v, true
		}
	}
	return nil, false
}

// encodeJSON writes v as JSON indented by two spaces per level, starting at
// nesting depth depth (used to size a member before adding it). Arrays of
// scalars are kept on one line; everything else is laid out one member per
// line, like encoding/json's MarshalIndent.
func encodeJSON(buf *bytes.Buffer, v any, depth int) {
	switch x := v.(type) {
	case obj:
		if len(x) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteString("{\n")
		for i, m := range x {
			indent(buf, depth+1)
			writeString(buf, m.k)
			buf.WriteString(": ")
			encodeJSON(buf, m.v, depth+1)
			if i < len(x)-1 {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		indent(buf, depth)
		buf.WriteByte('}')
	case map[string]any:
		encodeJSON(buf, sortedObj(x), depth)
	case []any:
		if len(x) == 0 {
			buf.WriteString("[]")
			return
		}
		if allScalars(x) {
			buf.WriteByte('[')
			for i, e := range x {
				if i > 0 {
					buf.WriteString(", ")
				}
				encodeJSON(buf, e, depth)
			}
			buf.WriteByte(']')
			return
		}
		buf.WriteString("[\n")
		for i, e := range x {
			indent(buf, depth+1)
			encodeJSON(buf, e, depth+1)
			if i < len(x)-1 {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		indent(buf, depth)
		buf.WriteByte(']')
	case string:
		writeString(buf, x)
	case bool:
		buf.WriteString(strconv.FormatBool(x))
	case int:
		buf.WriteString(strconv.Itoa(x))
	case nil:
		buf.WriteString("null")
	default:
		panic(fmt.Sprintf("gencatalog: cannot encode %T", v))
	}
}

func allScalars(a []any) bool {
	for _, e := range a {
		switch e.(type) {
		case obj, map[string]any, []any:
			return false
		}
	}
	return true
}

func indent(buf *bytes.Buffer, depth int) {
	for range depth {
		buf.WriteString("  ")
	}
}

// writeString writes s as a JSON string without HTML escaping, so that
// placeholders such as {{k8s.domain}} and "<" stay readable.
func writeString(buf *bytes.Buffer, s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // a Go string always encodes
	}
	buf.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// memberSize is the number of bytes member k: v adds to an object encoded at
// depth depth (indentation, key, value, comma and newline).
func memberSize(k string, v any, depth int) int {
	var b bytes.Buffer
	indent(&b, depth+1)
	writeString(&b, k)
	b.WriteString(": ")
	encodeJSON(&b, v, depth+1)
	return b.Len() + len(",\n")
}

// sortedObj returns the members of m ordered by key.
func sortedObj(m map[string]any) obj {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	o := make(obj, 0, len(m))
	for _, k := range keys {
		o = append(o, kv{k, m[k]})
	}
	return o
}
