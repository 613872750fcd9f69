package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
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
	// base is the number of lines of the file before src, so that
	// messages give the file's line numbers.
	base int
	// Root is the document's top node (nil for an empty document).
	Root   *yaml.Node
	edits  []edit
	parent map[*yaml.Node]*yaml.Node
	// aliases are the alias nodes that name each anchored node.
	aliases map[*yaml.Node][]*yaml.Node
}

type edit struct {
	start, end int
	text       string
}

// ErrShape says that a part of a file is not in a shape the migration
// edits; the caller reports it rather than guessing.
var ErrShape = errors.New("unknown shape")

// ErrShared says that an edit would reach, through a YAML alias, values
// other than the one meant.
var ErrShared = errors.New("shared through an alias")

// sharedError is an ErrShared with its explanation.
type sharedError struct{ msg string }

func (e *sharedError) Error() string        { return e.msg }
func (e *sharedError) Is(target error) bool { return target == ErrShared }

// parseDoc parses a text holding one YAML document that starts after
// line base of its file.
func parseDoc(src []byte, base int) (*Doc, error) {
	if err := lineBreaks(src, base); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var n, more yaml.Node
	if err := dec.Decode(&n); err != nil && !errors.Is(err, io.EOF) {
		return nil, lineError(err, base)
	}
	if err := dec.Decode(&more); err == nil {
		return nil, fmt.Errorf("line %d: a second YAML document where one was expected", base+more.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, lineError(err, base)
	}
	d := &Doc{src: src, lines: []int{0}, base: base}
	for i, c := range src {
		if c == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		d.Root = n.Content[0]
	}
	d.parent = map[*yaml.Node]*yaml.Node{}
	d.aliases = map[*yaml.Node][]*yaml.Node{}
	var walk func(*yaml.Node) error
	walk = func(p *yaml.Node) error {
		if p.Kind == yaml.AliasNode && p.Alias != nil {
			d.aliases[p.Alias] = append(d.aliases[p.Alias], p)
		}
		if p.Kind == yaml.MappingNode {
			if err := d.uniqueKeys(p); err != nil {
				return err
			}
		}
		for _, c := range p.Content {
			d.parent[c] = p
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if d.Root != nil {
		if err := walk(d.Root); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// lineBreaks refuses line breaks other than LF and CRLF: positions count
// lines as yaml.v3 does only with those.
func lineBreaks(src []byte, base int) error {
	lf := bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if i := bytes.IndexAny(lf, "\r\u0085\u2028\u2029"); i >= 0 {
		line := base + bytes.Count(lf[:i], []byte("\n")) + 1
		return fmt.Errorf("line %d: line breaks other than LF and CRLF; convert the file to LF line endings", line)
	}
	return nil
}

// uniqueKeys refuses a mapping that holds a key twice: YAML forbids it,
// parsers disagree on which one wins, and an edit would reach either.
// Merge keys (<<) may repeat: each adds its mappings.
func (d *Doc) uniqueKeys(m *yaml.Node) error {
	if len(m.Content) < 4 {
		return nil
	}
	seen := make(map[string]*yaml.Node, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		name, ok := keyName(k)
		if !ok || isMerge(k) {
			continue
		}
		if first := seen[name]; first != nil {
			return fmt.Errorf("line %d: the key %q is already at line %d of the same mapping; a mapping holds each key once: remove one of them", d.base+k.Line, name, d.base+first.Line)
		}
		seen[name] = k
	}
	return nil
}

// yamlLine is the position yaml.v3 puts in its messages.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// lineError gives a yaml.v3 error the file's line number.
func lineError(err error, base int) error {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return fmt.Errorf("line %d: %s", base+n, msg[len(m[0]):])
	}
	return errors.New(strings.TrimPrefix(msg, "yaml: "))
}

// shapeError is an ErrShape at a line of the document.
func (d *Doc) shapeError(line int, why string) error {
	return fmt.Errorf("line %d: %w: %s", d.base+line, ErrShape, why)
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
		if k, ok := keyName(m.Content[i]); ok && k == key && !isMerge(m.Content[i]) {
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
		return d.shapeError(n.Line, "a one-line value was expected")
	}
	if n.Value == value {
		return nil
	}
	if err := d.guard(n); err != nil {
		return fmt.Errorf("line %d %w", d.base+n.Line, err)
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
		return 0, d.shapeError(n.Line, "a value over several lines, or with an anchor or tag")
	}
	return 0, d.shapeError(n.Line, "a quoted value over several lines")
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
		return d.shapeError(m.Line, "a mapping in flow style ({...})")
	}
	if err := d.guardPair(m, i); err != nil {
		return err
	}
	first, last := d.pairLines(m, i)
	// Between blank lines (or at the top of the document), the blank lines
	// after the pair go with it, so that no gap is left doubled or leading
	// the document.
	if first == 1 || strings.TrimSpace(d.line(first-1)) == "" || marker([]byte(d.line(first-1)), "---") {
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
			return d.shapeError(p.m.Line, "a mapping in flow style ({...})")
		}
		if err := d.guardPair(p.m, p.i); err != nil {
			return err
		}
	}
	for _, p := range pairs {
		if err := d.DeletePair(p.m, p.i); err != nil {
			return err
		}
	}
	return nil
}

// guardPair refuses removing pair i of m when an alias shares m, or names
// an anchor inside the pair.
func (d *Doc) guardPair(m *yaml.Node, i int) error {
	k := m.Content[i]
	if err := d.guard(m); err != nil {
		return fmt.Errorf("line %d %w", d.base+k.Line, err)
	}
	if err := d.guardTree(k, m.Content[i+1]); err != nil {
		return fmt.Errorf("line %d %w", d.base+k.Line, err)
	}
	return nil
}

// contentEnd is where a document's text ends: before its "..." line, if
// it has one.
func (d *Doc) contentEnd() int {
	for n := 1; n <= d.nlines(); n++ {
		if marker([]byte(d.line(n)), "...") {
			return d.lineStart(n)
		}
	}
	return len(d.src)
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
	if m != nil {
		if err := d.guard(m); err != nil {
			return fmt.Errorf("line %d %w", d.base+m.Line, err)
		}
	}
	if m == nil || len(m.Content) == 0 {
		if m != nil && m != d.Root {
			return d.shapeError(m.Line, "an empty mapping inside another")
		}
		text, err := Render(pairs, 2, "", nl)
		if err != nil {
			return err
		}
		at := d.contentEnd()
		if at > 0 && d.src[at-1] != '\n' {
			text = nl + text
		}
		if m != nil && m.Style&yaml.FlowStyle != 0 {
			// "{}": the whole document is an empty flow mapping.
			d.add(d.offset(m.Line, m.Column), d.lineAfter(d.flowEnd(m)), text)
			return nil
		}
		d.add(at, at, text)
		return nil
	}
	if m.Style&yaml.FlowStyle != 0 {
		return d.shapeError(m.Line, "a mapping in flow style ({...})")
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
		return d.shapeError(s.Line, "a list in flow style ([...])")
	}
	if err := d.guard(s); err != nil {
		return fmt.Errorf("line %d %w", d.base+s.Line, err)
	}
	first := s.Content[0]
	dash := d.dash(first)
	if dash < 0 {
		return d.shapeError(first.Line, "a list item without its dash")
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

// ReplaceInLines rewrites lines first..last, the text of node n, with
// replace.
func (d *Doc) ReplaceInLines(n *yaml.Node, first, last int, replace func(string) string) error {
	start, end := d.lineStart(first), d.lineAfter(last)
	before := string(d.src[start:end])
	after := replace(before)
	if after == before {
		return nil
	}
	if err := d.guard(n); err != nil {
		return fmt.Errorf("line %d %w", d.base+n.Line, err)
	}
	d.add(start, end, after)
	return nil
}

// Block is the content of a literal block scalar (`key: |`), dedented.
type Block struct {
	Text        string
	node        *yaml.Node
	first, last int // content lines
	indent      int
}

// BlockOf returns the content of a literal block scalar.
func (d *Doc) BlockOf(n *yaml.Node) (*Block, error) {
	if n.Kind != yaml.ScalarNode || n.Style&yaml.LiteralStyle == 0 {
		return nil, d.shapeError(n.Line, "a literal block (|) was expected")
	}
	b := &Block{node: n, first: n.Line + 1, last: n.Line}
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

// blockBase is the number of lines of the file before a block's content,
// for a Doc of its text to give the file's line numbers.
func (d *Doc) blockBase(b *Block) int { return d.base + b.first - 1 }

// SetBlock replaces a literal block scalar's content with text, indented
// as the content was.
func (d *Doc) SetBlock(b *Block, text string) error {
	if text == b.Text {
		return nil
	}
	if err := d.guard(b.node); err != nil {
		return fmt.Errorf("line %d %w", d.base+b.node.Line, err)
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
		return nil
	}
	d.add(d.lineStart(b.first), d.lineAfter(b.last), out.String())
	return nil
}
