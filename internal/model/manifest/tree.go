package manifest

import (
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// tree is the document parsed with positions, for the lines of problems
// and for what the JSON conversion loses (duplicate keys, the text of a
// scalar). It is parsed only when a problem needs it: most documents have
// none, and parsing twice would double the cost of checking them.
type tree struct {
	root *yaml.Node // the document's top node, nil when yaml.v3 refuses the text
}

// maxTreeNodes bounds the walks over a tree: a document of a few megabytes
// has far fewer nodes, so the bound only stops hostile input.
const maxTreeNodes = 1 << 20

func parseTree(doc []byte) *tree {
	var n yaml.Node
	if err := yaml.Unmarshal(doc, &n); err != nil || n.Kind != yaml.DocumentNode || len(n.Content) == 0 {
		return &tree{}
	}
	return &tree{root: n.Content[0]}
}

// node finds the node at a path and the node of its key (nil for a list
// element or the root), or, when the path goes further than the tree, the
// deepest node on it (exact is then false). A map key holding dots or
// brackets is matched whole, as the longest key the path continues from.
func (t *tree) node(p fieldPath) (value, key *yaml.Node, exact bool) {
	n := t.root
	s := string(p)
	for steps := 0; n != nil && s != ""; steps++ {
		if steps > 1000 {
			return n, key, false
		}
		n = resolve(n)
		var next, nextKey *yaml.Node
		switch n.Kind {
		case yaml.SequenceNode:
			if i, rest, ok := bracketIndex(s); ok && i < len(n.Content) {
				next, s = n.Content[i], rest
			}
		case yaml.MappingNode:
			nextKey, next, s = longestKey(n, s, 0)
		}
		if next == nil {
			return n, key, false
		}
		n, key = next, nextKey
	}
	return n, key, n != nil
}

// line is the line of the field at p (of its key, for a map entry); for a
// field that is not written, the line of the deepest one on its path that
// is (a missing selector is reported on the line of spec); 0 without a
// tree.
func (t *tree) line(p fieldPath) int {
	v, k, _ := t.node(p)
	switch {
	case k != nil:
		return k.Line
	case v != nil:
		return v.Line
	}
	return 0
}

// scalar is the text of the scalar at p as written, "" when there is none.
func (t *tree) scalar(p fieldPath) string {
	v, _, exact := t.node(p)
	if v == nil || !exact {
		return ""
	}
	if v = resolve(v); v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

// resolve follows an alias to its anchor.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// bracketIndex reads "[3]" (optionally after a dot) at the start of s.
func bracketIndex(s string) (int, string, bool) {
	s = strings.TrimPrefix(s, ".")
	if !strings.HasPrefix(s, "[") {
		return 0, "", false
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return 0, "", false
	}
	i, err := strconv.Atoi(s[1:end])
	if err != nil || i < 0 {
		return 0, "", false
	}
	return i, s[end+1:], true
}

// longestKey finds the entry of a mapping that s starts with, as "key",
// ".key" or "[key]", followed by the end, a dot or a bracket. Keys merged in
// with "<<" count too, after the mapping's own.
func longestKey(m *yaml.Node, s string, depth int) (key, value *yaml.Node, rest string) {
	bracket := strings.HasPrefix(s, "[")
	s = strings.TrimPrefix(s, ".")
	best := -1
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		var r string
		var ok bool
		if bracket {
			r, ok = strings.CutPrefix(s, "["+k.Value+"]")
		} else if r, ok = strings.CutPrefix(s, k.Value); ok && r != "" && r[0] != '.' && r[0] != '[' {
			ok = false
		}
		if ok && (best < 0 || len(k.Value) > len(m.Content[best].Value)) {
			best, rest = i, r
		}
	}
	if best >= 0 {
		return m.Content[best], m.Content[best+1], rest
	}
	for i := 0; i+1 < len(m.Content) && depth < 10; i += 2 {
		if m.Content[i].Tag == "!!merge" {
			if merged := resolve(m.Content[i+1]); merged.Kind == yaml.MappingNode {
				return longestKey(merged, s, depth+1) // s still starts with "[" for a bracketed key
			}
		}
	}
	return nil, nil, ""
}

// duplicate is a key written twice in one mapping.
type duplicate struct {
	path fieldPath
	line int // of the second occurrence
}

// duplicates lists the keys that appear twice in a mapping, which the JSON
// conversion silently reduces to the last one. The walk follows the Go type
// of the object (nil when unknown) to write map keys in brackets, as the
// API server writes them. Aliases are not followed: a duplicate inside an
// anchored mapping is reported once, where it is written. Keys a "<<" merge
// brings in may be overridden: that is what merging is for.
func (t *tree) duplicates(root reflect.Type) []duplicate {
	var out []duplicate
	budget := maxTreeNodes
	var walk func(n *yaml.Node, p fieldPath, typ reflect.Type)
	walk = func(n *yaml.Node, p fieldPath, typ reflect.Type) {
		if budget--; budget < 0 || n == nil {
			return
		}
		for typ != nil && typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		switch n.Kind {
		case yaml.SequenceNode:
			elem := elemType(typ, reflect.Slice)
			for i, c := range n.Content {
				walk(c, p.index(i), elem)
			}
		case yaml.MappingNode:
			seen := make(map[string]bool, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
					continue
				}
				kp, kt := keyStep(p, k.Value, typ)
				if seen[k.Value] {
					out = append(out, duplicate{kp, k.Line})
				}
				seen[k.Value] = true
				walk(n.Content[i+1], kp, kt)
			}
		}
	}
	walk(t.root, "", root)
	return out
}

// keyStep is the path and Go type of the entry key of a mapping of type
// typ: a field of a struct, an entry of a map, or a field of something
// unknown.
func keyStep(p fieldPath, key string, typ reflect.Type) (fieldPath, reflect.Type) {
	switch {
	case typ == nil:
		return p.child(key), nil
	case typ.Kind() == reflect.Map:
		return p.key(key), typ.Elem()
	case typ.Kind() == reflect.Struct:
		return p.child(key), jsonFields(typ)[key]
	}
	return p.child(key), nil
}

func elemType(typ reflect.Type, kind reflect.Kind) reflect.Type {
	if typ == nil || typ.Kind() != kind && typ.Kind() != reflect.Array {
		return nil
	}
	return typ.Elem()
}
