package repoindex

import (
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// maxDepth bounds nesting, aliases included, in the general parser.
const maxDepth = 1000

// generalParse reads any YAML with yaml.v3 and converts its first document
// into a tree, expanding aliases and merge keys as yaml.v2 (Helm) does.
func generalParse(data []byte) (*tree, int32, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, 0, syntaxError(data, err)
	}
	c := converter{t: newTree("", len(data)/16), budget: 16*len(data) + 1<<16}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return c.t, c.t.add(node{line: 1}), nil
	}
	root, err := c.convert(doc.Content[0], 0)
	if err != nil {
		return nil, 0, err
	}
	return c.t, root, nil
}

// converter turns yaml.v3 nodes into a tree.
type converter struct {
	t      *tree
	budget int // nodes left before alias expansion is deemed an attack
}

func (c *converter) convert(n *yaml.Node, depth int) (int32, error) {
	if depth > maxDepth {
		return 0, &fault{line: int32(n.Line), msg: "nesting is too deep"}
	}
	if c.budget--; c.budget < 0 {
		return 0, &fault{line: int32(n.Line), msg: "aliases expand to too many values; write the values out"}
	}
	switch n.Kind {
	case yaml.AliasNode:
		return c.convert(n.Alias, depth+1)
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.SequenceNode:
		i := c.t.add(node{kind: sequenceKind, line: int32(n.Line)})
		var ch children
		for _, item := range n.Content {
			j, err := c.convert(item, depth+1)
			if err != nil {
				return 0, err
			}
			ch.push(c.t, j)
		}
		c.t.nodes[i].first = ch.first
		return i, nil
	case yaml.MappingNode:
		i := c.t.add(node{kind: mappingKind, line: int32(n.Line)})
		var ch children
		if err := c.pairs(n, &ch, depth); err != nil {
			return 0, err
		}
		c.t.nodes[i].first = ch.first
		return i, nil
	}
	return 0, &fault{line: int32(n.Line), msg: "unsupported YAML node"}
}

// pairs appends the keys and values of mapping n to ch, those of merged
// mappings ("<<: *defaults") included. yaml.v2 in strict mode, as Helm
// uses it, refuses a merged key that is also set explicitly, so the
// order of the pairs does not matter: the decoder refuses duplicates.
func (c *converter) pairs(n *yaml.Node, ch *children, depth int) error {
	if depth > maxDepth {
		return &fault{line: int32(n.Line), msg: "merge keys (<<) nest too deep or refer to themselves"}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMergeKey(k) {
			if err := c.merge(v, ch, depth+1); err != nil {
				return err
			}
			continue
		}
		for _, x := range []*yaml.Node{k, v} {
			j, err := c.convert(x, depth+1)
			if err != nil {
				return err
			}
			ch.push(c.t, j)
		}
	}
	return nil
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Style == 0 || k.Tag == "!!merge")
}

func (c *converter) merge(v *yaml.Node, ch *children, depth int) error {
	v = deref(v)
	switch {
	case v.Kind == yaml.MappingNode:
		return c.pairs(v, ch, depth)
	case v.Kind == yaml.SequenceNode && allMappings(v.Content):
		for _, m := range v.Content {
			if err := c.pairs(deref(m), ch, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return &fault{line: int32(v.Line), msg: "a merge key (<<) needs a mapping or a list of mappings"}
}

// deref follows aliases. yaml.v3 refuses an anchor whose value contains
// its own alias, so this ends.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func allMappings(ns []*yaml.Node) bool {
	for _, m := range ns {
		if deref(m).Kind != yaml.MappingNode {
			return false
		}
	}
	return true
}

// scalar converts a scalar, keeping what decides its type the way yaml.v2
// does: plain scalars are resolved later, quoted and block ones are
// strings, and explicit tags are honoured.
func (c *converter) scalar(n *yaml.Node) (int32, error) {
	value, st := n.Value, plainStyle
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		st = stringStyle
	}
	if n.Style&yaml.TaggedStyle != 0 {
		switch n.Tag {
		case "!!str":
			st = stringStyle
		case "!!binary":
			b, err := base64.StdEncoding.DecodeString(n.Value)
			if err != nil {
				return 0, &fault{line: int32(n.Line), msg: "!!binary value is not base64: " + err.Error()}
			}
			value, st = string(b), stringStyle
		case "!!null", "!!bool", "!!int", "!!float", "!!timestamp", "!!merge":
			if err := checkTag(n.Tag, n.Value); err != nil {
				return 0, &fault{line: int32(n.Line), msg: err.Error()}
			}
			st = plainStyle
		default:
			// yaml.v2 reads a value with an unknown tag as a string.
			st = stringStyle
		}
	}
	return c.t.addString(value, n.Line, st), nil
}

// checkTag refuses, as yaml.v2 does, a value that an explicit standard
// tag does not fit.
func checkTag(tag, value string) error {
	want := map[string]scalarType{"!!null": nullType, "!!bool": boolType, "!!int": intType, "!!float": floatType}[tag]
	got := resolvePlain(value).typ
	switch {
	case tag == "!!timestamp" || tag == "!!merge":
		return nil
	case got == want, want == intType && got == uintType, want == floatType && (got == intType || got == uintType):
		return nil
	}
	return fmt.Errorf("cannot read %q as %s; remove the tag or fix the value", value, tag)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a yaml.v3 error into a fault with a line number, also
// for the errors yaml.v3 reports without one.
func syntaxError(data []byte, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &fault{line: int32(n), msg: "invalid YAML: " + m[2] + "; check the indentation and quoting", syntax: true}
	}
	return &fault{line: int32(badCharLine(data)), msg: "invalid YAML: " + trimYAMLPrefix(msg), syntax: true}
}

func trimYAMLPrefix(s string) string {
	if len(s) > 6 && s[:6] == "yaml: " {
		return s[6:]
	}
	return s
}

// badCharLine returns the line of the first character YAML forbids, or 0.
func badCharLine(data []byte) int {
	ln := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == '\n':
			ln++
		case r == '\t', r == '\r':
		case r == utf8.RuneError && size == 1, !yamlPrintable(r) && r != 0x85 && r != 0x2028 && r != 0x2029 && !(r == 0xfeff && i == 0):
			return ln
		}
		i += size
	}
	return 0
}
