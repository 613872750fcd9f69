package secret

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
)

// Manifest returns rendered Kubernetes manifests (YAML documents separated
// by "---" lines, as Helm renders them) with their secrets masked: every
// value of a Secret's data and stringData, the values of a ConfigMap's data
// keys named like secrets, the value of every environment variable named
// like one, and then every secret string of the Set (Scrub), since a
// template may put a value anywhere. A document that holds none of those
// keeps its bytes; one that does is written again, comments kept.
func (s *Set) Manifest(text string) string {
	docs := splitDocuments(text)
	var b strings.Builder
	b.Grow(len(text))
	for _, d := range docs {
		b.WriteString(maskDocument(d))
	}
	return s.Scrub(b.String())
}

// splitDocuments cuts a manifest stream before each "---" line, keeping
// every byte.
func splitDocuments(text string) []string {
	var docs []string
	start := 0
	for i := 0; i < len(text); {
		end := strings.IndexByte(text[i:], '\n')
		line := text[i:]
		if end >= 0 {
			line = text[i : i+end]
		}
		if i > start && (line == "---" || strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "---\t") || line == "---\r") {
			docs = append(docs, text[start:i])
			start = i
		}
		if end < 0 {
			break
		}
		i += end + 1
	}
	return append(docs, text[start:])
}

// maskDocument masks one document of a stream, its "---" line kept.
func maskDocument(d string) string {
	head, body := "", d
	if strings.HasPrefix(d, "---") {
		if nl := strings.IndexByte(d, '\n'); nl >= 0 {
			head, body = d[:nl+1], d[nl+1:]
		} else {
			return d
		}
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(body), &root); err != nil || len(root.Content) == 0 {
		// What does not parse is still scrubbed of the known secrets.
		return d
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode || !maskObject(top) {
		return d
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil || enc.Close() != nil {
		return d
	}
	text := out.String()
	// The stream reads the same with the blank line that ended the
	// document before.
	if trail := len(body) - len(strings.TrimRight(body, "\n")); trail > 1 {
		text += strings.Repeat("\n", trail-1)
	}
	return head + text
}

// maskObject masks the secrets of one Kubernetes object and reports
// whether it masked any.
func maskObject(obj *yaml.Node) bool {
	kind := scalar(get(obj, "kind"))
	changed := false
	switch kind {
	case "Secret":
		for _, field := range []string{"data", "stringData"} {
			if m := get(obj, field); m != nil && m.Kind == yaml.MappingNode {
				for i := 1; i < len(m.Content); i += 2 {
					changed = maskScalar(m.Content[i]) || changed
				}
			}
		}
	case "ConfigMap":
		if m := get(obj, "data"); m != nil && m.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(m.Content); i += 2 {
				if Named(m.Content[i].Value) {
					changed = maskScalar(m.Content[i+1]) || changed
				}
			}
		}
	}
	return maskEnv(obj) || changed
}

// maskEnv masks, anywhere below n, the value of each environment variable
// ({name: X, value: Y} in an env list) whose name is a secret's.
func maskEnv(n *yaml.Node) bool {
	changed := false
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "env" && v.Kind == yaml.SequenceNode {
				for _, item := range v.Content {
					if item.Kind == yaml.MappingNode && Named(scalar(get(item, "name"))) {
						if val := get(item, "value"); val != nil {
							changed = maskScalar(val) || changed
						}
					}
				}
			}
			changed = maskEnv(v) || changed
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			changed = maskEnv(c) || changed
		}
	}
	return changed
}

// maskScalar masks a non-empty scalar.
func maskScalar(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Value == "" || n.Value == Mask || n.Tag == "!!null" {
		return false
	}
	n.Value, n.Tag, n.Style = Mask, "!!str", yaml.SingleQuotedStyle
	return true
}

func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}
