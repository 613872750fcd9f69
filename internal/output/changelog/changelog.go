// Package changelog reads what a chart says changed in a version: the
// artifacthub.io/changes annotation of its Chart.yaml, which Artifact Hub
// and the catalog's pages show, or the version's section of the chart's
// CHANGELOG.md. Release notes are written from them.
package changelog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// Annotation is the Chart.yaml annotation Artifact Hub reads a version's
// changes from.
const Annotation = "artifacthub.io/changes"

// Change is one entry of the annotation.
type Change struct {
	// Kind is one of Artifact Hub's kinds (added, changed, deprecated,
	// removed, fixed, security), or "" for the list-of-strings form.
	Kind, Description string
	Links             []Link
}

// Link is a named URL of a change.
type Link struct {
	Name, URL string
}

// ParseAnnotation reads the annotation's value: a YAML list of strings, or
// of {kind, description, links: [{name, url}]} mappings, Artifact Hub's
// two forms. Entries without a description are left out; anything else
// than a list of those is an error.
func ParseAnnotation(raw string) ([]Change, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(raw), &doc); err != nil {
		return nil, fmt.Errorf("%s is not YAML: %w", Annotation, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s is not a list: write one `- description` line per change, or `- kind: added` with `description:`", Annotation)
	}
	var out []Change
	for i, item := range list.Content {
		c, err := parseItem(item)
		if err != nil {
			return nil, fmt.Errorf("%s, entry %d (line %d of the annotation): %w", Annotation, i+1, item.Line, err)
		}
		if c.Description != "" {
			out = append(out, c)
		}
	}
	return out, nil
}

func parseItem(n *yaml.Node) (Change, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		var s string
		if err := n.Decode(&s); err != nil {
			return Change{}, err
		}
		return Change{Description: strings.TrimSpace(s)}, nil
	case yaml.MappingNode:
		var v struct {
			Kind        string `yaml:"kind"`
			Description string `yaml:"description"`
			Links       []struct {
				Name string `yaml:"name"`
				URL  string `yaml:"url"`
			} `yaml:"links"`
		}
		if err := n.Decode(&v); err != nil {
			return Change{}, err
		}
		c := Change{Kind: strings.TrimSpace(v.Kind), Description: strings.TrimSpace(v.Description)}
		for _, l := range v.Links {
			c.Links = append(c.Links, Link{Name: strings.TrimSpace(l.Name), URL: strings.TrimSpace(l.URL)})
		}
		return c, nil
	}
	return Change{}, errors.New("neither a text nor a mapping with kind and description")
}

// Markdown renders changes as a Markdown list, one item per change:
// "- **Added**: description ([link](url))". Descriptions are kept on one
// line, so that no text of theirs can end the list or start a heading;
// links other than http(s) are shown as text.
func Markdown(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		b.WriteString("- ")
		if k := oneLine(c.Kind); k != "" {
			b.WriteString("**" + escape(capitalize(k)) + "**: ")
		}
		b.WriteString(oneLine(c.Description))
		var links []string
		for _, l := range c.Links {
			if l.URL == "" {
				continue
			}
			links = append(links, link(l))
		}
		if len(links) > 0 {
			b.WriteString(" (" + strings.Join(links, ", ") + ")")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func link(l Link) string {
	name := oneLine(l.Name)
	if name == "" {
		name = oneLine(l.URL)
	}
	u, err := url.Parse(l.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return escape(name)
	}
	// The angle-bracket form takes any URL but one holding a space or
	// angle brackets, which url.String has escaped.
	return "[" + escape(name) + "](<" + u.String() + ">)"
}

// oneLine joins a text's lines and spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func capitalize(s string) string {
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// escape keeps a text from being read as Markdown markup.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>#|", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Section returns the section of a CHANGELOG.md about version: the lines
// under the first heading naming it ("## [1.2.0] - 2026-03-01", "## v1.2.0",
// "### 1.2.0"), up to the next heading of the same or a higher level,
// without its surrounding blank lines. ok is false when no heading names
// the version, or its section is empty. Headings inside fenced code blocks
// are not headings.
func Section(markdown []byte, version string) (string, bool) {
	if version == "" {
		return "", false
	}
	sc := bufio.NewScanner(bytes.NewReader(markdown))
	sc.Buffer(make([]byte, 0, 64<<10), len(markdown)+1)
	level := 0 // of the version's heading, once found
	var lines []string
	fence := ""
	for sc.Scan() {
		line := sc.Text()
		if f := fenceOf(line); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(f, fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), fence[:1])) == "":
				fence = ""
			}
		} else if fence == "" {
			if l, text := heading(line); l > 0 {
				if level > 0 && l <= level {
					break
				}
				if level == 0 && names(text, version) {
					level = l
					continue
				}
			}
		}
		if level > 0 {
			lines = append(lines, line)
		}
	}
	body := strings.Trim(strings.Join(lines, "\n"), "\n")
	if strings.TrimSpace(body) == "" {
		return "", false
	}
	return body + "\n", true
}

// fenceOf returns the fence a line opens or closes a code block with
// (``` or ~~~, three or more), or "".
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return ""
	}
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// heading returns an ATX heading's level and text, or 0.
func heading(line string) (int, string) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return 0, ""
	}
	text := strings.TrimSpace(t[n:])
	text = strings.TrimSpace(strings.TrimRight(text, "#"))
	return n, text
}

// names reports whether a heading's text names version, as a word of its
// own, with or without a leading v.
func names(text, version string) bool {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".-+_", r))
	})
	for _, w := range words {
		if w == version || w == "v"+version || w == "V"+version {
			return true
		}
	}
	return false
}
