package migrate

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// YAML anchors, aliases (*name) and merge keys (<<: *name) let one text
// stand for values at several places. A value reached that way is not
// where it reads: removing the copy in front of it leaves the merged one
// in force, and editing an anchored node edits every alias of it. Such
// values are left alone and reported, never edited.

// keyName is a mapping key's text, through an alias; false for keys that
// are not scalars.
func keyName(k *yaml.Node) (string, bool) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return "", false
	}
	return k.Value, true
}

// isMerge reports whether a mapping key is the merge key <<.
func isMerge(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" }

// resolve is the node an alias names, or n itself.
func resolve(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// merge is one mapping a merge key brings in: src as written (an alias,
// or a mapping in place), and the << key.
type merge struct{ key, src *yaml.Node }

// merges lists the mappings m's merge keys bring in, in the order they
// take precedence.
func merges(m *yaml.Node) []merge {
	var out []merge
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !isMerge(k) {
			continue
		}
		if v.Kind == yaml.SequenceNode {
			for _, it := range v.Content {
				out = append(out, merge{k, it})
			}
			continue
		}
		out = append(out, merge{k, v})
	}
	return out
}

// lookup is the value a YAML reader finds for key in n: through aliases,
// and through merge keys when n does not hold key itself. Each node is
// looked into once, which bounds the work on cyclic or nested merges.
func lookup(n *yaml.Node, key string, seen map[*yaml.Node]bool) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode || seen[n] {
		return nil
	}
	seen[n] = true
	if v, _ := Get(n, key); v != nil {
		return v
	}
	for _, mg := range merges(n) {
		if v := lookup(mg.src, key, seen); v != nil {
			return v
		}
	}
	return nil
}

// resolves reports whether path leads to a value from n as a YAML reader
// reads it.
func resolves(n *yaml.Node, path []string) bool {
	for _, k := range path {
		if n = lookup(n, k, map[*yaml.Node]bool{}); n == nil {
			return false
		}
	}
	return resolve(n) != nil
}

// mergedFrom is the merge of m that brings key in, if one does.
func mergedFrom(m *yaml.Node, key string) (merge, *yaml.Node) {
	seen := map[*yaml.Node]bool{m: true}
	for _, mg := range merges(m) {
		if v := lookup(mg.src, key, seen); v != nil {
			return mg, v
		}
	}
	return merge{}, nil
}

// viaMerge names a merge key and the anchor it brings in.
func (d *Doc) viaMerge(mg merge) string {
	s := fmt.Sprintf("the merge key at line %d", d.base+mg.key.Line)
	if mg.src.Kind == yaml.AliasNode && mg.src.Alias != nil {
		s += fmt.Sprintf(" (anchor &%s at line %d)", mg.src.Value, d.base+mg.src.Alias.Line)
	}
	return s
}

// viaAlias names an alias and its anchor.
func (d *Doc) viaAlias(a *yaml.Node) string {
	if a.Alias == nil {
		return fmt.Sprintf("the alias *%s at line %d", a.Value, d.base+a.Line)
	}
	return fmt.Sprintf("the alias *%s at line %d (anchor &%s at line %d)", a.Value, d.base+a.Line, a.Value, d.base+a.Alias.Line)
}

// reach follows path from m as written, and says why the value there
// must not be edited: it comes through an alias or a merge key, or a
// merge key would still give it once removed, or an alias elsewhere
// shares it. It returns the value found in place (nil when there is none)
// and the reason ("" when the value may be edited).
func (d *Doc) reach(m *yaml.Node, path []string) (*yaml.Node, string) {
	n := m
	for i, k := range path {
		if n.Kind == yaml.AliasNode {
			if resolves(n, path[i:]) {
				return nil, "comes through " + d.viaAlias(n)
			}
			return nil, ""
		}
		if n.Kind != yaml.MappingNode {
			return nil, ""
		}
		v, _ := Get(n, k)
		if mg, mv := mergedFrom(n, k); mv != nil && resolves(mv, path[i+1:]) {
			if v == nil {
				return nil, "comes through " + d.viaMerge(mg)
			}
			// The value in place hides the merged one, which shows again
			// once the value in place is gone.
			return v, "also comes through " + d.viaMerge(mg) + ", which would still give it"
		}
		if v == nil {
			return nil, ""
		}
		n = v
	}
	if n.Kind == yaml.AliasNode {
		return nil, "comes through " + d.viaAlias(n)
	}
	if err := d.guard(n); err != nil {
		return n, err.Error()
	}
	if err := d.guardTree(n); err != nil {
		return n, err.Error()
	}
	return n, ""
}

// sharedBy is the anchored node, n or one holding it, that an alias
// names, and that alias; nil when there is none.
func (d *Doc) sharedBy(n *yaml.Node) (anchor, alias *yaml.Node) {
	for p := n; p != nil; p = d.parent[p] {
		if as := d.aliases[p]; len(as) > 0 {
			return p, as[0]
		}
	}
	return nil, nil
}

// guard refuses an edit of n when an alias shares it: the edit would
// change the alias too.
func (d *Doc) guard(n *yaml.Node) error {
	a, al := d.sharedBy(n)
	if a == nil {
		return nil
	}
	in := "is"
	if a != n {
		in = "is inside"
	}
	return &sharedError{fmt.Sprintf("%s the anchor &%s at line %d, which the alias at line %d also uses: an edit here would change both", in, a.Anchor, d.base+a.Line, d.base+al.Line)}
}

// guardTree refuses removing the nodes given and all they hold when an
// alias left behind names an anchor among them.
func (d *Doc) guardTree(roots ...*yaml.Node) error {
	inside := map[*yaml.Node]bool{}
	var order []*yaml.Node
	var mark func(*yaml.Node)
	mark = func(n *yaml.Node) {
		inside[n] = true
		order = append(order, n)
		for _, c := range n.Content {
			mark(c)
		}
	}
	for _, r := range roots {
		mark(r)
	}
	for _, n := range order {
		for _, al := range d.aliases[n] {
			if !inside[al] {
				return &sharedError{fmt.Sprintf("holds the anchor &%s at line %d, which the alias at line %d uses", n.Anchor, d.base+n.Line, d.base+al.Line)}
			}
		}
	}
	return nil
}
