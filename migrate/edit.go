package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Doc is a YAML text with pending edits. yaml.v3 nodes locate what to
// change, and the edits replace only those bytes of the original text, so
// comments, key order, quoting, blank lines and indentation of everything
// else stay as they were: re-encoding the tree would normalise them all.
type Doc struct {
	src   []byte
	lines []int // byte offset where each line starts; lines[0] is line 1
	// Root is the document's top node (nil for an empty document).
	Root   *yaml.Node
	edits  []edit
	parent map[*yaml.Node]*yaml.Node
}

type edit struct {
	start, end int
	text       string
}

// ErrShape says that a part of a file is not in a shape the migration
// edits; the caller reports it rather than guessing.
var ErrShape = errors.New("unknown shape")

// ParseDoc parses one YAML document.
func ParseDoc(src []byte) (*Doc, error) {
	// Positions count lines as yaml.v3 does only with LF and CRLF breaks.
	if bytes.Contains(bytes.ReplaceAll(src, []byte("\r\n"), nil), []byte("\r")) ||
		bytes.Contains(src, []byte("\u0085")) || bytes.Contains(src, []byte("\u2028")) || bytes.Contains(src, []byte("\u2029")) {
		return nil, errors.New("line breaks other than LF and CRLF; convert the file to LF line endings")
	}
	var n yaml.Node
	if err := yaml.Unmarshal(src, &n); err != nil {
		return nil, err
	}
	d := &Doc{src: src, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		d.Root = n.Content[0]
	}
	d.parent = map[*yaml.Node]*yaml.Node{}
	var walk func(*yaml.Node)
	walk = func(p *yaml.Node) {
		for _, c := range p.Content {
			d.parent[c] = p
			walk(c)
		}
	}
	if d.Root != nil {
		walk(d.Root)
	}
	return d, nil
}

// nlines is the number of lines, a last line without a line break included.
func (d *Doc) nlines() int {
	if d.lines[len(d.lines)-1] == len(d.src) {
		return len(d.lines) - 1
	}
	return len(d.lines)
}

// line returns the text of line n (1-based) without its line break.
func (d *Doc) line(n int) string {
	if n < 1 || n > len(d.lines) {
		return "" // past the text: a position yaml.v3 gave at its very end
	}
	start := d.lines[n-1]
	end := len(d.src)
	if n < len(d.lines) {
		end = d.lines[n] - 1
	}
	return strings.TrimSuffix(string(d.src[start:end]), "\r")
}

// lineStart and lineAfter are the offsets where line n starts and where
// the line after it starts.
func (d *Doc) lineStart(n int) int {
	if n > len(d.lines) {
		return len(d.src)
	}
	return d.lines[max(n, 1)-1]
}
func (d *Doc) lineAfter(n int) int {
	if n < len(d.lines) {
		return d.lines[n]
	}
	return len(d.src)
}

// offset converts a yaml.v3 position (1-based line and character column)
// to a byte offset.
func (d *Doc) offset(line, col int) int {
	s := d.line(line)
	off := 0
	for i := 1; i < col && off < len(s); i++ {
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return d.lineStart(line) + off
}

// indentOf is the number of leading spaces of a line.
func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// newline is the file's line break.
func (d *Doc) newline() string {
	if bytes.Contains(d.src, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

func (d *Doc) add(start, end int, text string) { d.edits = append(d.edits, edit{start, end, text}) }

// Bytes applies the edits to the original text.
func (d *Doc) Bytes() ([]byte, error) {
	es := slices.Clone(d.edits)
	slices.SortStableFunc(es, func(a, b edit) int { return a.start - b.start })
	var b bytes.Buffer
	pos := 0
	for _, e := range es {
		if e.start < pos {
			return nil, fmt.Errorf("overlapping edits at byte %d", e.start)
		}
		b.Write(d.src[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.Write(d.src[pos:])
	return b.Bytes(), nil
}

// Get returns the value of key in a mapping, and the index of the key in
// its Content; nil when absent or m is not a mapping.
func Get(m *yaml.Node, key string) (*yaml.Node, int) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, -1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1], i
		}
	}
	return nil, -1
}

// Path follows keys through nested mappings.
func Path(m *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		m, _ = Get(m, k)
	}
	return m
}

// SetScalar replaces a one-line scalar's text, keeping its quoting style.
func (d *Doc) SetScalar(n *yaml.Node, value string) error {
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || n.Tag == "!!null" && n.Value == "" {
		return fmt.Errorf("line %d: %w: a one-line value was expected", n.Line, ErrShape)
	}
	if n.Value == value {
		return nil
	}
	start := d.offset(n.Line, n.Column)
	end, err := d.scalarEnd(n, start)
	if err != nil {
		return err
	}
	d.add(start, end, renderScalar(value, n.Style))
	return nil
}

// scalarEnd finds the end of a one-line scalar starting at start.
func (d *Doc) scalarEnd(n *yaml.Node, start int) (int, error) {
	lineEnd := d.lineStart(n.Line) + len(d.line(n.Line))
	s := string(d.src[start:lineEnd])
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return start + i + 1, nil
			}
		}
	case n.Style&yaml.SingleQuotedStyle != 0:
		for i := 1; i < len(s); i++ {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					i++
					continue
				}
				return start + i + 1, nil
			}
		}
	default:
		// A one-line plain scalar is its own text; anything else (a
		// value over several lines, an anchor or tag before it) is not.
		if strings.HasPrefix(s, n.Value) {
			return start + len(n.Value), nil
		}
		return 0, fmt.Errorf("line %d: %w: a value over several lines, or with an anchor or tag", n.Line, ErrShape)
	}
	return 0, fmt.Errorf("line %d: %w: a quoted value over several lines", n.Line, ErrShape)
}

// renderScalar writes a scalar as YAML in the given style, or plain when
// that reads back as the same string.
func renderScalar(value string, style yaml.Style) string {
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value, Style: style & (yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle)})
	if err != nil {
		return fmt.Sprintf("%q", value)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// lastLine is the last line a node's text occupies in a block context
// whose parent sits at indent: every line up to where the next node of the
// document starts, but for the blank lines, the comments at indent or less
// and the document markers just before that next node, which belong to it.
func (d *Doc) lastLine(n *yaml.Node, indent int) int {
	next := d.after(n)
	last := next - 1
	for last > n.Line {
		s := d.line(last)
		t := strings.TrimSpace(s)
		if t == "" || strings.HasPrefix(t, "#") && indentOf(s) <= indent || strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
			last--
			continue
		}
		break
	}
	return max(last, n.Line)
}

// after is the line where the node that follows n in the document starts
// (one past the last line when none does).
func (d *Doc) after(n *yaml.Node) int {
	for {
		p := d.parent[n]
		if p == nil {
			return d.nlines() + 1
		}
		i := slices.Index(p.Content, n)
		if i >= 0 && i+1 < len(p.Content) {
			return p.Content[i+1].Line
		}
		n = p
	}
}

// flowEnd is the line where a flow collection closes.
func (d *Doc) flowEnd(n *yaml.Node) int {
	depth := 0
	quote := byte(0)
	for off := d.offset(n.Line, n.Column); off < len(d.src); off++ {
		c := d.src[off]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			if depth--; depth == 0 {
				return bytes.Count(d.src[:off], []byte("\n")) + 1
			}
		}
	}
	return n.Line
}

// pairLines is the line range of a block mapping's pair i (its key's
// comment lines just above it included).
func (d *Doc) pairLines(m *yaml.Node, i int) (first, last int) {
	k, v := m.Content[i], m.Content[i+1]
	first = k.Line
	for first > 1 {
		s := d.line(first - 1)
		if !strings.HasPrefix(strings.TrimSpace(s), "#") || indentOf(s) != k.Column-1 {
			break
		}
		first--
	}
	last = k.Line
	if v.Line > last {
		last = v.Line
	}
	if l := d.lastLine(v, k.Column-1); l > last {
		last = l
	}
	return first, last
}

// DeletePair removes pair i of a block mapping, whole lines.
func (d *Doc) DeletePair(m *yaml.Node, i int) error {
	if m.Style&yaml.FlowStyle != 0 {
		return fmt.Errorf("line %d: %w: a mapping in flow style ({...})", m.Line, ErrShape)
	}
	first, last := d.pairLines(m, i)
	// Between blank lines (or at the top), the blank lines after the pair
	// go with it, so that no gap is left doubled or leading the file.
	if first == 1 || strings.TrimSpace(d.line(first-1)) == "" {
		for last < d.nlines() && strings.TrimSpace(d.line(last+1)) == "" {
			last++
		}
	}
	d.add(d.lineStart(first), d.lineAfter(last), "")
	return nil
}

// DeletePairs removes several pairs, or none when one of them cannot go.
func (d *Doc) DeletePairs(pairs []pairRef) error {
	for _, p := range pairs {
		if p.m.Style&yaml.FlowStyle != 0 {
			return fmt.Errorf("line %d: %w: a mapping in flow style ({...})", p.m.Line, ErrShape)
		}
	}
	for _, p := range pairs {
		if err := d.DeletePair(p.m, p.i); err != nil {
			return err
		}
	}
	return nil
}

// mappingEnd is the last line of a block mapping.
func (d *Doc) mappingEnd(m *yaml.Node) int {
	_, last := d.pairLines(m, len(m.Content)-2)
	return last
}

// indentUnit guesses the file's indentation step from a mapping's nested
// mappings, 2 when it has none.
func indentUnit(m *yaml.Node) int {
	if m == nil {
		return 2
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		v := m.Content[i+1]
		if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Content[0].Column > m.Content[i].Column {
			return v.Content[0].Column - m.Content[i].Column
		}
	}
	return 2
}

// Render writes a value as block YAML, each line prefixed by indent.
func Render(v any, unit int, indent string, nl string) (string, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(unit)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	var out strings.Builder
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if l == "" {
			continue
		}
		out.WriteString(indent + strings.TrimSuffix(l, "\n") + nl)
	}
	return out.String(), nil
}

// AppendPairs adds pairs at the end of a block mapping (m nil or empty:
// at the end of the file, at column 0). value is rendered as block YAML.
func (d *Doc) AppendPairs(m *yaml.Node, pairs *yaml.Node) error {
	nl := d.newline()
	if m == nil || len(m.Content) == 0 {
		if m != nil && (m.Line > 1 || m.Column > 1) {
			return fmt.Errorf("line %d: %w: an empty mapping inside another", m.Line, ErrShape)
		}
		text, err := Render(pairs, 2, "", nl)
		if err != nil {
			return err
		}
		if len(d.src) > 0 && !bytes.HasSuffix(d.src, []byte("\n")) {
			text = nl + text
		}
		if m != nil && m.Style&yaml.FlowStyle != 0 {
			// "{}": the whole document is an empty flow mapping.
			d.add(d.offset(m.Line, m.Column), d.lineAfter(d.flowEnd(m)), text)
			return nil
		}
		d.add(len(d.src), len(d.src), text)
		return nil
	}
	if m.Style&yaml.FlowStyle != 0 {
		return fmt.Errorf("line %d: %w: a mapping in flow style ({...})", m.Line, ErrShape)
	}
	text, err := Render(pairs, indentUnit(m), strings.Repeat(" ", m.Content[0].Column-1), nl)
	if err != nil {
		return err
	}
	at := d.lineAfter(d.mappingEnd(m))
	if at == len(d.src) && len(d.src) > 0 && !bytes.HasSuffix(d.src, []byte("\n")) {
		text = nl + text
	}
	d.add(at, at, text)
	return nil
}

// dash is the column of the dash that starts a block sequence's item, -1
// when the item's line has none before it.
func (d *Doc) dash(item *yaml.Node) int {
	return strings.LastIndex(d.line(item.Line)[:d.offset(item.Line, item.Column)-d.lineStart(item.Line)], "-")
}

// AppendItem adds an item at the end of a block sequence.
func (d *Doc) AppendItem(s *yaml.Node, item any, unit int) error {
	if s.Style&yaml.FlowStyle != 0 || len(s.Content) == 0 {
		return fmt.Errorf("line %d: %w: a list in flow style ([...])", s.Line, ErrShape)
	}
	first := s.Content[0]
	dash := d.dash(first)
	if dash < 0 {
		return fmt.Errorf("line %d: %w: a list item without its dash", first.Line, ErrShape)
	}
	text, err := Render([]any{item}, unit, strings.Repeat(" ", dash), d.newline())
	if err != nil {
		return err
	}
	last := d.lastLine(s.Content[len(s.Content)-1], dash)
	at := d.lineAfter(last)
	if at == len(d.src) && !bytes.HasSuffix(d.src, []byte("\n")) {
		text = d.newline() + text
	}
	d.add(at, at, text)
	return nil
}

// ReplaceInLines replaces every match of old with new in lines first..last.
func (d *Doc) ReplaceInLines(first, last int, replace func(string) string) {
	start, end := d.lineStart(first), d.lineAfter(last)
	before := string(d.src[start:end])
	if after := replace(before); after != before {
		d.add(start, end, after)
	}
}

// Block is the content of a literal block scalar (`key: |`), dedented.
type Block struct {
	Text        string
	first, last int // content lines
	indent      int
}

// BlockOf returns the content of a literal block scalar.
func (d *Doc) BlockOf(n *yaml.Node) (*Block, error) {
	if n.Kind != yaml.ScalarNode || n.Style&yaml.LiteralStyle == 0 {
		return nil, fmt.Errorf("line %d: %w: a literal block (|) was expected", n.Line, ErrShape)
	}
	b := &Block{first: n.Line + 1, last: n.Line}
	for l := n.Line + 1; l <= d.nlines(); l++ {
		s := d.line(l)
		if strings.TrimSpace(s) == "" {
			continue
		}
		in := indentOf(s)
		if b.indent == 0 {
			if in == 0 {
				break
			}
			b.indent = in
		}
		if in < b.indent {
			break
		}
		b.last = l
	}
	var t strings.Builder
	for l := b.first; l <= b.last; l++ {
		s := d.line(l)
		if len(s) >= b.indent {
			s = s[b.indent:]
		} else {
			s = ""
		}
		t.WriteString(s + "\n")
	}
	b.Text = t.String()
	return b, nil
}

// SetBlock replaces a literal block scalar's content with text, indented
// as the content was.
func (d *Doc) SetBlock(b *Block, text string) {
	if text == b.Text {
		return
	}
	nl := d.newline()
	pad := strings.Repeat(" ", b.indent)
	var out strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(l, "\n")
		if l == "" {
			out.WriteString(nl)
			continue
		}
		out.WriteString(pad + l + nl)
	}
	if b.last < b.first {
		at := d.lineAfter(b.first - 1)
		d.add(at, at, out.String())
		return
	}
	d.add(d.lineStart(b.first), d.lineAfter(b.last), out.String())
}
