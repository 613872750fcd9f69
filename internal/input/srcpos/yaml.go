package srcpos

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

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
func ParseYAML(data []byte) (*Node, error) { return parseYAML(data, false) }

// ParseYAMLCore parses a YAML document as JavaScript's yaml library 2.x
// reads it by default, the reading of the platform's form: YAML 1.2 with
// the core schema. A plain scalar is null (~, null, empty), a boolean
// (true, false in three casings), an integer (decimal, 0o octal, 0x hex,
// so 0755 is 755) or a float (.5, 1e3, 1.); anything else is a string
// (0b101, 1_000, yes, 2001-12-14). An explicit tag other than !!str keeps
// its type only when the text is one of that type (!!float 1 is a
// string). Merge keys are plain keys ("<<"), and keys that read as numbers,
// booleans or null are written as JavaScript writes them (0x1F: is "31",
// ~: is "").
func ParseYAMLCore(data []byte) (*Node, error) { return parseYAML(data, true) }

func parseYAML(data []byte, core bool) (*Node, error) {
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
	c := &yamlConverter{core: core}
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
	// core reads scalars by the YAML 1.2 core schema (ParseYAMLCore).
	core    bool
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
		if c.core {
			return coreScalar(y, parent, pos), nil
		}
		return convertScalar(y, parent, pos)
	}
	return nil, &Error{Pos: pos, Msg: "unsupported YAML node"}
}

// convertMapping converts a mapping, applying its merge keys.
func (c *yamlConverter) convertMapping(y *yaml.Node, parent *Node, depth int, pos Pos) (*Node, error) {
	n := &Node{Kind: Object, Pos: pos, Parent: parent}
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Tag == "!!merge" && !c.core {
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
		if c.core {
			val.Key = coreKey(k)
		}
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

// The YAML 1.2 core schema's scalars, as JavaScript's yaml library tests
// them.
var (
	coreNull  = regexp.MustCompile(`^(?:~|[Nn]ull|NULL)?$`)
	coreBool  = regexp.MustCompile(`^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$`)
	coreOct   = regexp.MustCompile(`^0o[0-7]+$`)
	coreInt   = regexp.MustCompile(`^[-+]?[0-9]+$`)
	coreHex   = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	coreFloat = regexp.MustCompile(`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$|^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$`)
)

// coreScalar converts a scalar by the core schema.
func coreScalar(y *yaml.Node, parent *Node, pos Pos) *Node {
	n := &Node{Kind: String, Pos: pos, Parent: parent, Text: y.Value}
	tag := ""
	switch {
	case y.Style&yaml.TaggedStyle != 0:
		tag = y.ShortTag()
	case y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return n
	}
	v := y.Value
	switch {
	case (tag == "" || tag == "!!null") && coreNull.MatchString(v):
		n.Kind, n.Text = Null, ""
	case (tag == "" || tag == "!!bool") && coreBool.MatchString(v):
		n.Kind, n.Text = Bool, strconv.FormatBool(v[0] == 't' || v[0] == 'T')
	case (tag == "" || tag == "!!int") && (coreInt.MatchString(v) || coreOct.MatchString(v) || coreHex.MatchString(v)):
		if text, ok := coreNumber(v); ok {
			n.Kind, n.Text = Number, text
		}
	case (tag == "" || tag == "!!float") && coreFloat.MatchString(v):
		// .inf, .nan and 1e400 are numbers JSON cannot hold: they stay
		// strings, as ParseYAML keeps them.
		f, _ := strconv.ParseFloat(v, 64)
		if !math.IsInf(f, 0) {
			n.Kind, n.Text = Number, strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return n
}

// coreNumber is the JSON literal of a core schema integer, read as
// JavaScript's parseInt reads it (a double); false beyond a double, where
// parseInt gives Infinity, which JSON cannot hold.
func coreNumber(v string) (string, bool) {
	base, digits := 10, v
	switch {
	case strings.HasPrefix(v, "0o"):
		base, digits = 8, v[2:]
	case strings.HasPrefix(v, "0x"):
		base, digits = 16, v[2:]
	}
	i, ok := new(big.Int).SetString(digits, base)
	if !ok {
		return "", false
	}
	if i.IsInt64() && i.Int64() > -1<<53 && i.Int64() < 1<<53 {
		return strconv.FormatInt(i.Int64(), 10), true
	}
	f, _ := new(big.Float).SetInt(i).Float64()
	if math.IsInf(f, 0) {
		return "", false
	}
	return strconv.FormatFloat(f, 'g', -1, 64), true
}

// coreKey is a mapping key as JavaScript's yaml library writes it into an
// object: a key that reads as a number, a boolean or null is written as
// String() writes that value.
func coreKey(k *yaml.Node) string {
	kn := coreScalar(k, nil, Pos{})
	switch kn.Kind {
	case Null:
		return ""
	case Number:
		f, _ := strconv.ParseFloat(kn.Text, 64)
		if f == math.Trunc(f) && math.Abs(f) < 1e21 {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return kn.Text
	case Bool:
		return kn.Text
	}
	return k.Value
}
