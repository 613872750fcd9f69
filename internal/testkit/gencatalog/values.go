package gencatalog

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"
)

// valuesYAML renders the defaults of schema as a values.yaml document: every
// object option with properties becomes a mapping, every other option its
// default, in schema order.
func valuesYAML(name string, schema obj) ([]byte, error) {
	root := defaultsNode(schema)
	root.HeadComment = "Default values for " + name + ".\nThey match the defaults of values.schema.json; the launcher's form may replace them."
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("%s: values.yaml: %w", name, err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// defaultsNode returns the mapping of the defaults of an object schema.
func defaultsNode(schema obj) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	p, _ := schema.get("properties")
	for _, prop := range p.(obj) {
		node := prop.v.(obj)
		var val *yaml.Node
		if _, ok := node.get("properties"); ok {
			val = defaultsNode(node)
		} else {
			def, _ := node.get("default")
			val = toNode(def)
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: prop.k}, val)
	}
	return m
}

// toNode converts a default value to a YAML node, keeping member order.
func toNode(v any) *yaml.Node {
	switch x := v.(type) {
	case obj:
		m := &yaml.Node{Kind: yaml.MappingNode}
		for _, e := range x {
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.k}, toNode(e.v))
		}
		if len(x) == 0 {
			m.Style = yaml.FlowStyle
		}
		return m
	case map[string]any:
		return toNode(sortedObj(x))
	case []any:
		s := &yaml.Node{Kind: yaml.SequenceNode}
		for _, e := range x {
			s.Content = append(s.Content, toNode(e))
		}
		if len(x) == 0 {
			s.Style = yaml.FlowStyle
		}
		return s
	default:
		var n yaml.Node
		if err := n.Encode(x); err != nil {
			panic(err) // scalars always encode
		}
		return &n
	}
}
