package srcpos

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// maxAliasExpansions bounds alias expansion so that a "billion laughs"
// document fails instead of exhausting memory.
const (
	maxAliasExpansions = 10000
	maxAliasNodes      = 100000
)

// ParseYAML parses the first document of a YAML stream and keeps the position
// of every key and value. An empty document yields a null node.
func ParseYAML(data []byte) (*Node, error) {
	if len(data) > MaxBytes {
		return nil, &Error{Pos: Pos{1, 1}, Msg: fmt.Sprintf("file is %d bytes, more than the %d bytes accepted", len(data), MaxBytes), Limit: true}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, &Error{Pos: Pos{1, 1}, Msg: "binary data: the file contains NUL bytes", Limit: true}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(err)
	}
	if root.Kind == 0 {
		return &Node{Kind: Null, Pos: Pos{1, 1}}, nil
	}
	c := &yamlConverter{}
	return c.convert(&root, nil, 0)
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func yamlError(err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		err = errors.New(te.Errors[0])
	}
	msg := err.Error()
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{Pos: Pos{line, 1}, Msg: m[2]}
	}
	if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return &Error{Pos: Pos{1, 1}, Msg: msg}
}

type yamlConverter struct {
	aliases int
	// expanding counts the aliases being expanded; expanded counts the nodes
	// they produced, which a wide "billion laughs" document multiplies.
	expanding, expanded int
}

func (c *yamlConverter) convert(y *yaml.Node, parent *Node, depth int) (*Node, error) {
	pos := Pos{y.Line, y.Column}
	if c.expanding > 0 {
		c.expanded++
		if c.expanded > maxAliasNodes {
			return nil, &Error{Pos: pos, Msg: fmt.Sprintf("aliases expand to more than %d values", maxAliasNodes), Limit: true}
		}
	}
	if (y.Kind == yaml.SequenceNode || y.Kind == yaml.MappingNode) && depth >= MaxDepth {
		return nil, &Error{Pos: pos, Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth), Limit: true}
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return &Node{Kind: Null, Pos: pos}, nil
		}
		return c.convert(y.Content[0], parent, depth)
	case yaml.AliasNode:
		c.aliases++
		if c.aliases > maxAliasExpansions {
			return nil, &Error{Pos: pos, Msg: fmt.Sprintf("more than %d alias expansions", maxAliasExpansions), Limit: true}
		}
		c.expanding++
		n, err := c.convert(y.Alias, parent, depth)
		c.expanding--
		if err != nil {
			return nil, err
		}
		n.Pos = pos
		return n, nil
	case yaml.SequenceNode:
		n := &Node{Kind: Array, Pos: pos, Parent: parent}
		for _, e := range y.Content {
			item, err := c.convert(e, n, depth+1)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, item)
		}
		return n, nil
	case yaml.MappingNode:
		return c.convertMapping(y, parent, depth, pos)
	case yaml.ScalarNode:
		return convertScalar(y, parent, pos)
	}
	return nil, &Error{Pos: pos, Msg: "unsupported YAML node"}
}

// convertMapping converts a mapping, applying its merge keys.
func (c *yamlConverter) convertMapping(y *yaml.Node, parent *Node, depth int, pos Pos) (*Node, error) {
	n := &Node{Kind: Object, Pos: pos, Parent: parent}
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Tag == "!!merge" {
			if err := c.merge(n, v, depth); err != nil {
				return nil, err
			}
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return nil, &Error{Pos: Pos{k.Line, k.Column}, Msg: "only scalar mapping keys are supported"}
		}
		val, err := c.convert(v, n, depth+1)
		if err != nil {
			return nil, err
		}
		val.Key, val.KeyPos = k.Value, Pos{k.Line, k.Column}
		n.Members = append(n.Members, val)
	}
	return n, nil
}

// convertScalar converts a scalar: Text holds a JSON literal for a null,
// a boolean or a number.
func convertScalar(y *yaml.Node, parent *Node, pos Pos) (*Node, error) {
	n := &Node{Pos: pos, Parent: parent, Text: y.Value}
	switch y.ShortTag() {
	case "!!null":
		n.Kind, n.Text = Null, ""
	case "!!bool":
		var b bool
		if err := y.Decode(&b); err != nil {
			return nil, &Error{Pos: pos, Msg: err.Error()}
		}
		n.Kind, n.Text = Bool, strconv.FormatBool(b)
	case "!!int", "!!float":
		// Text holds a JSON number literal whatever the YAML spelling
		// (0x1F, 0o17, +1, 1_000, .5).
		n.Kind = Number
		if jsonNumber.MatchString(y.Value) {
			break
		}
		var i int64
		if y.ShortTag() == "!!int" && y.Decode(&i) == nil {
			n.Text = strconv.FormatInt(i, 10)
			break
		}
		var f float64
		if err := y.Decode(&f); err != nil {
			return nil, &Error{Pos: pos, Msg: err.Error()}
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			// JSON has no such numbers; keep the text as a string.
			n.Kind = String
			break
		}
		n.Text = strconv.FormatFloat(f, 'g', -1, 64)
	default:
		n.Kind = String
	}
	return n, nil
}

// merge applies a "<<" merge key: members not already present are copied.
func (c *yamlConverter) merge(n *Node, v *yaml.Node, depth int) error {
	srcs := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		srcs = v.Content
	}
	for _, s := range srcs {
		m, err := c.convert(s, n, depth+1)
		if err != nil {
			return err
		}
		if m.Kind != Object {
			return &Error{Pos: Pos{s.Line, s.Column}, Msg: "a merge key needs a mapping"}
		}
		for _, mem := range m.Members {
			if n.Get(mem.Key) == nil {
				mem.Parent = n
				n.Members = append(n.Members, mem)
			}
		}
	}
	return nil
}
