package repoindex

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// errUnusual makes the fast parser give up; the general parser then reads
// the input (and reports its errors).
var errUnusual = errors.New("unusual YAML")

// unusualError is errUnusual with the furthest line the fast parser read,
// where the trouble most likely is: yaml.v3 reports the line of the
// enclosing block for many syntax errors.
type unusualError struct{ line int }

func (e *unusualError) Error() string        { return errUnusual.Error() }
func (e *unusualError) Is(target error) bool { return target == errUnusual }

// maxFastDepth bounds the fast parser's recursion; real indexes nest about
// eight levels deep.
const maxFastDepth = 64

// line is one line of the input, located by the parser when it gets
// there: an array of all lines would cost more memory than the parse.
type line struct {
	start, end int // content, without the line break
	next       int // start of the following line
	indent     int // leading spaces
	blank      bool
}

// fastParser reads the block-style YAML that Helm and Encode write (block
// mappings and sequences, plain and quoted scalars over one or more lines,
// comments, CRLF) an order of magnitude faster than yaml.v3. Anything else
// (flow collections, anchors, tags, block scalars, tabs, several
// documents...) returns errUnusual rather than risk reading it differently.
type fastParser struct {
	src      string
	t        *tree
	depth    int
	docStart int // the leading "---" line, read as blank; -1 if none
	furthest int // the start of the furthest line read
	// lineNo's cache: pos is on line n.
	pos, n int
}

// fastParse returns the tree of src and its root, or an error that is
// errUnusual.
func fastParse(src string) (*tree, int32, error) {
	markers, err := precheck(src)
	if err != nil {
		return nil, 0, &unusualError{}
	}
	p := &fastParser{src: src, t: newTree(src, 1024), docStart: -1, n: 1}
	t, root, err := p.parse(markers)
	if err != nil {
		return nil, 0, &unusualError{line: p.lineNo(p.line(p.furthest))}
	}
	return t, root, nil
}

func (p *fastParser) parse(markers int) (*tree, int32, error) {
	l := p.skipBlank(p.line(0))
	if markers > 0 {
		// Only a bare "---" starting the document is usual.
		if markers > 1 || !isBareStart(p.text(l, 0)) {
			return nil, 0, errUnusual
		}
		p.docStart = l.start
		l = p.skipBlank(p.line(l.next))
	}
	if p.eof(l) {
		return p.t, p.t.add(node{line: 1}), nil // an empty document is null
	}
	root, next, err := p.blockNode(l, l.indent, -1, rootRole)
	if err != nil {
		return nil, 0, err
	}
	if !p.eof(p.skipBlank(next)) {
		return nil, 0, errUnusual
	}
	return p.t, root, nil
}

// precheck rejects, as unusual, characters that YAML forbids or that
// change the line structure (tabs, lone CR, control characters, NEL, LS,
// PS, BOM), and counts the lines that start with a document marker.
func precheck(src string) (markers int, err error) {
	if len(src) >= 1<<31-1 {
		return 0, errUnusual
	}
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		if lineStart && (c == '-' || c == '.') && isDocumentMarker(src[i:]) {
			markers++
		}
		lineStart = false
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				lineStart = true
			case c == '\r':
				if i+1 == len(src) || src[i+1] != '\n' {
					return 0, errUnusual
				}
			case c < ' ' || c == 0x7f:
				return 0, errUnusual
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if !yamlPrintable(r) || r == utf8.RuneError && size == 1 {
			return 0, errUnusual
		}
		i += size
	}
	return markers, nil
}

// yamlPrintable reports whether YAML allows r unescaped, leaving out the
// characters YAML 1.1 treats as line breaks and the byte order mark.
func yamlPrintable(r rune) bool {
	switch {
	case r == 0x85, r == 0x2028, r == 0x2029, r == 0xfeff:
		return false
	case r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return r >= ' ' && r < 0x7f
}

// line returns the line starting at pos; at the end of src, an empty line
// for which eof is true.
func (p *fastParser) line(pos int) line {
	p.furthest = max(p.furthest, pos)
	end, next := lexLine(p.src, pos)
	l := line{start: pos, end: end, next: next, indent: leadingSpaces(p.src[pos:end])}
	body := p.src[pos+l.indent : l.end]
	l.blank = body == "" || body[0] == '#' || pos == p.docStart
	return l
}

func (p *fastParser) eof(l line) bool { return l.start >= len(p.src) }

// empty reports whether l holds nothing but spaces.
func (l line) empty() bool { return l.start+l.indent == l.end }

func (p *fastParser) skipBlank(l line) line {
	for !p.eof(l) && l.blank {
		l = p.line(l.next)
	}
	return l
}

// text returns line l from column col to its end.
func (p *fastParser) text(l line, col int) string {
	return p.src[l.start+col : l.end]
}

// lineNo returns the 1-based number of line l. The parser goes forward, so
// counting from the last answer is cheap.
func (p *fastParser) lineNo(l line) int {
	if l.start >= p.pos {
		p.n += strings.Count(p.src[p.pos:l.start], "\n")
	} else {
		p.n -= strings.Count(p.src[l.start:p.pos], "\n")
	}
	p.pos = l.start
	return p.n
}

// null adds a null scalar on line l.
func (p *fastParser) null(l line) int32 {
	return p.t.add(node{line: int32(p.lineNo(l))})
}

// collection adds an empty mapping or sequence starting on line l.
func (p *fastParser) collection(l line, k kind) int32 {
	return p.t.add(node{kind: k, line: int32(p.lineNo(l))})
}

// blockNode parses the node starting at column col of line l: at the
// start of its line, or after "- ". Its continuation lines must be indented
// more than parent. It returns the node and the line after it.
func (p *fastParser) blockNode(l line, col, parent int, r role) (int32, line, error) {
	if p.depth++; p.depth > maxFastDepth {
		return 0, l, errUnusual
	}
	defer func() { p.depth-- }()
	switch t := lex(p.text(l, 0), col, true); t.kind {
	case dashToken:
		if col != l.indent {
			return 0, l, errUnusual // "- - a"
		}
		return p.sequence(l, col, r)
	case plainKeyToken, quotedKeyToken:
		k, err := p.key(l, col, t)
		if err != nil {
			return 0, l, err
		}
		return p.mapping(l, col, k, t.value, r)
	default:
		return p.inlineValue(l, col, parent, t)
	}
}

// mapping parses a block mapping whose keys are at column col, the first
// (k, its colon ending at column after) being already read.
func (p *fastParser) mapping(l line, col int, k int32, after int, r role) (int32, line, error) {
	m := p.collection(l, mappingKind)
	var ch children
	for {
		ch.push(p.t, k)
		v, next, err := p.mappingValue(l, after, col, r.child(p.t.value(k)))
		if err != nil {
			return 0, l, err
		}
		ch.push(p.t, v)
		var more bool
		if l, more, err = p.nextEntry(next, col); err != nil {
			return 0, l, err
		}
		if !more {
			break
		}
		t := lex(p.text(l, 0), col, true)
		if t.kind != plainKeyToken && t.kind != quotedKeyToken {
			return 0, l, errUnusual
		}
		if k, err = p.key(l, col, t); err != nil {
			return 0, l, err
		}
		after = t.value
	}
	p.t.nodes[m].first = ch.first
	return m, l, nil
}

// mappingValue parses the value of a key of a mapping at column col, from
// column pos of line l (just after the colon).
func (p *fastParser) mappingValue(l line, pos, col int, r role) (int32, line, error) {
	s := p.text(l, 0)
	if v := nodeAfter(s, pos); v >= 0 {
		return p.inlineValue(l, v, col, lex(s, v, false))
	}
	nl := p.skipBlank(p.line(l.next))
	if !p.eof(nl) {
		if nl.indent > col {
			return p.blockNode(nl, nl.indent, col, r)
		}
		if nl.indent == col && isDash(p.text(nl, 0), col) {
			// Helm's compact style: the items of a key's sequence are not
			// indented.
			return p.sequence(nl, col, r)
		}
	}
	return p.null(l), p.line(l.next), nil
}

// sequence parses a block sequence whose dashes are at column col.
func (p *fastParser) sequence(l line, col int, r role) (int32, line, error) {
	seq := p.collection(l, sequenceKind)
	var ch children
	for {
		extra := len(p.t.extra)
		var item int32
		var next line
		var err error
		if v := nodeAfter(p.text(l, 0), col+1); v < 0 {
			item, next, err = p.emptyItem(l, col)
		} else {
			item, next, err = p.blockNode(l, v, col, otherRole)
		}
		if err != nil {
			return 0, l, err
		}
		if r == versionsRole && p.t.nodes[item].kind == mappingKind {
			item = p.decodeVersion(item, extra)
		}
		ch.push(p.t, item)
		var more bool
		if l, more, err = p.nextEntry(next, col); err != nil {
			return 0, l, err
		}
		if !more || !isDash(p.text(l, 0), col) {
			break
		}
	}
	p.t.nodes[seq].first = ch.first
	return seq, l, nil
}

// nextEntry finds where a collection whose entries are at column col
// goes on after an entry that ends before line next: at the next line
// that is not blank, if it is at column col (more); the collection ends
// at a line less indented, or at the end of the input.
func (p *fastParser) nextEntry(next line, col int) (l line, more bool, err error) {
	l = p.skipBlank(next)
	switch {
	case p.eof(l) || l.indent < col:
		return l, false, nil
	case l.indent > col:
		return l, false, errUnusual
	}
	return l, true, nil
}

// decodeVersion decodes chart version item, the last subtree of the tree
// (which starts at extra in t.extra), and replaces it with a node holding
// the result. The tree then never holds more than one version, which
// saves most of its memory: on a large index, touching fresh memory costs
// more than parsing.
func (p *fastParser) decodeVersion(item int32, extra int) int32 {
	line := p.t.nodes[item].line
	d := decoder{t: p.t}
	cv, err := d.chartVersion(item)
	p.t.nodes = p.t.nodes[:item]
	clear(p.t.extra[extra:])
	p.t.extra = p.t.extra[:extra]
	p.t.versions = append(p.t.versions, decoded{cv, err})
	return p.t.add(node{kind: decodedKind, start: int32(len(p.t.versions) - 1), line: line})
}

// role is what a node is in the index, as far as the parser cares.
type role uint8

const (
	otherRole    role = iota
	rootRole          // the document
	entriesRole       // the value of the root's "entries"
	versionsRole      // a list of versions in entries
)

// child is the role of the value of key k in a mapping of role r.
func (r role) child(k string) role {
	switch {
	case r == rootRole && k == "entries":
		return entriesRole
	case r == entriesRole:
		return versionsRole
	}
	return otherRole
}

// emptyItem parses an item whose dash ends its line: the item is on the
// following, more indented, lines, or null.
func (p *fastParser) emptyItem(l line, col int) (int32, line, error) {
	nl := p.skipBlank(p.line(l.next))
	if !p.eof(nl) && nl.indent > col {
		return p.blockNode(nl, nl.indent, col, otherRole)
	}
	return p.null(l), p.line(l.next), nil
}

// key adds the key that token t, a plain or quoted key, found at column
// col of line l.
func (p *fastParser) key(l line, col int, t token) (int32, error) {
	s := p.text(l, col)
	value, raw, st := s[:t.end-col], true, plainStyle
	if t.kind == quotedKeyToken {
		q, err := quotedLine(s)
		if err != nil || !q.ok {
			return 0, errUnusual
		}
		value, raw, st = q.value, q.raw, stringStyle
	} else if value == "" || isPlainStartUnusual(value) {
		return 0, errUnusual
	}
	if len(value) > 1024 {
		return 0, errUnusual // YAML needs an explicit key
	}
	return p.scalar(l, col, value, raw, st), nil
}

// scalar adds a scalar found at column col of line l: a slice of the
// input there when raw (after the quote if quoted), else a new string.
func (p *fastParser) scalar(l line, col int, value string, raw bool, st style) int32 {
	n := p.lineNo(l)
	if !raw {
		return p.t.addString(value, n, st)
	}
	start := l.start + col
	if st == stringStyle {
		start++
	}
	return p.t.addSpan(start, start+len(value), n, st)
}

// isPlainStartUnusual rejects plain scalars that begin like an indicator
// ("- a", "-", "<<"), to leave their subtleties to yaml.v3.
func isPlainStartUnusual(s string) bool {
	return isIndicator(s[0]) || isDash(s, 0) || s == "<<"
}

// inlineValue parses the scalar or empty flow collection that token t,
// no key, found at column col of line l.
func (p *fastParser) inlineValue(l line, col, parent int, t token) (int32, line, error) {
	s := p.text(l, col)
	switch t.kind {
	case quotedToken:
		return p.quoted(l, col, parent)
	case flowToken:
		switch {
		case strings.HasPrefix(s, "[]") && lineEnds(s[2:]):
			return p.collection(l, sequenceKind), p.line(l.next), nil
		case strings.HasPrefix(s, "{}") && lineEnds(s[2:]):
			return p.collection(l, mappingKind), p.line(l.next), nil
		}
	case plainToken:
		if !isIndicator(s[0]) { // "?a" and ":a" are left to yaml.v3
			return p.plain(l, col, parent)
		}
	}
	return 0, l, errUnusual
}

// plain parses a plain scalar, possibly continued on more indented lines,
// which YAML folds: one line break becomes a space, n empty lines n
// newlines.
func (p *fastParser) plain(l line, col, parent int) (int32, line, error) {
	first, ended, err := plainLine(p.text(l, col))
	if err != nil {
		return 0, l, err
	}
	if first == "<<" {
		return 0, l, errUnusual
	}
	next := p.line(l.next)
	var b []byte
	empty := 0
	for c := next; !ended && !p.eof(c); c = p.line(c.next) {
		if c.empty() {
			empty++
			continue
		}
		if c.blank || c.indent <= parent {
			break
		}
		s := p.text(c, c.indent)
		if isIndicator(s[0]) || s[0] == '-' {
			return 0, l, errUnusual
		}
		var more string
		if more, ended, err = plainLine(s); err != nil {
			return 0, l, err
		}
		if b == nil {
			b = append(make([]byte, 0, 2*len(first)), first...)
		}
		b = fold(b, empty)
		b = append(b, more...)
		empty, next = 0, p.line(c.next)
	}
	if b != nil {
		return p.t.addString(string(b), p.lineNo(l), plainStyle), next, nil
	}
	return p.scalar(l, col, first, true, plainStyle), next, nil
}

// plainLine returns the part of a plain scalar on one line, and whether a
// comment ends the scalar there.
func plainLine(s string) (string, bool, error) {
	n, stop := plainEnd(s)
	switch stop {
	case colonStop:
		return "", false, errUnusual // a key where a value belongs
	case tabStop:
		return "", false, errUnusual // precheck keeps tabs out: never here
	}
	return strings.TrimRight(s[:n], " "), stop == commentStop, nil
}

// fold appends what a line break followed by empty empty lines becomes in
// a folded scalar.
func fold(b []byte, empty int) []byte {
	if empty == 0 {
		return append(b, ' ')
	}
	for range empty {
		b = append(b, '\n')
	}
	return b
}

// quoted parses a single- or double-quoted scalar starting at column col
// of line l, continued on lines indented more than parent.
func (p *fastParser) quoted(l line, col, parent int) (int32, line, error) {
	s := p.text(l, col)
	if q, err := quotedLine(s); err != nil {
		return 0, l, err
	} else if q.ok {
		if !lineEnds(s[q.size:]) {
			return 0, l, errUnusual
		}
		return p.scalar(l, col, q.value, q.raw, stringStyle), p.line(l.next), nil
	}
	q := quoteReader{quote: s[0]}
	q.buf = make([]byte, 0, 2*len(s))
	rest := s[1:]
	for c := l; ; {
		n, done, err := q.read(rest)
		if err != nil {
			return 0, l, err
		}
		if done {
			if !lineEnds(rest[n:]) {
				return 0, l, errUnusual
			}
			return p.t.addString(string(q.buf), p.lineNo(l), stringStyle), p.line(c.next), nil
		}
		empty := 0
		for c = p.line(c.next); !p.eof(c) && c.empty(); c = p.line(c.next) {
			empty++
		}
		if p.eof(c) || c.indent <= parent {
			return 0, l, errUnusual
		}
		q.lineBreak(empty)
		rest = p.text(c, c.indent)
	}
}

// quoted is a quoted scalar read by quotedLine.
type quotedScalar struct {
	value string
	size  int  // length in the line, quotes included
	ok    bool // the scalar ends on the line
	raw   bool // value is the line between the quotes
}

// quotedLine reads a quoted scalar that ends on its line.
func quotedLine(s string) (quotedScalar, error) {
	quote := s[0]
	// The common case, with nothing to unescape, needs no copy.
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case quote:
			if quote == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				i = len(s)
				break
			}
			return quotedScalar{value: s[1:i], size: i + 1, ok: true, raw: true}, nil
		case '\\':
			if quote == '"' {
				i = len(s)
			}
		}
	}
	q := quoteReader{quote: quote}
	n, done, err := q.read(s[1:])
	if err != nil || !done {
		return quotedScalar{}, err
	}
	return quotedScalar{value: string(q.buf), size: n + 1, ok: true}, nil
}

// quoteReader unquotes a quoted scalar line by line.
type quoteReader struct {
	quote byte
	buf   []byte
	keep  int  // length of buf without trailing unescaped spaces
	join  bool // the last line ended with an escaped line break
}

// read consumes s up to the closing quote (done, n bytes consumed) or to
// its end.
func (q *quoteReader) read(s string) (n int, done bool, err error) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == q.quote && q.quote == '\'' && i+1 < len(s) && s[i+1] == '\'':
			q.buf = append(q.buf, '\'')
			i += 2
		case c == q.quote:
			return i + 1, true, nil
		case c == '\\' && q.quote == '"':
			if i+1 == len(s) {
				q.join = true
				return len(s), false, nil
			}
			size, err := q.escape(s[i+1:])
			if err != nil {
				return 0, false, err
			}
			i += 1 + size
		default:
			q.buf = append(q.buf, c)
			i++
			if c == ' ' {
				continue
			}
		}
		q.keep = len(q.buf)
	}
	return len(s), false, nil
}

// lineBreak folds a line break followed by empty empty lines.
func (q *quoteReader) lineBreak(empty int) {
	if q.join {
		q.join = false
		for range empty {
			q.buf = append(q.buf, '\n')
		}
	} else {
		q.buf = fold(q.buf[:q.keep], empty)
	}
	q.keep = len(q.buf)
}

// escape decodes the escape sequence at the start of s (after the
// backslash) and returns its length.
func (q *quoteReader) escape(s string) (int, error) {
	digits := 0
	switch c := s[0]; c {
	case '0':
		q.buf = append(q.buf, 0)
	case 'a':
		q.buf = append(q.buf, '\a')
	case 'b':
		q.buf = append(q.buf, '\b')
	case 't', '\t':
		q.buf = append(q.buf, '\t')
	case 'n':
		q.buf = append(q.buf, '\n')
	case 'v':
		q.buf = append(q.buf, '\v')
	case 'f':
		q.buf = append(q.buf, '\f')
	case 'r':
		q.buf = append(q.buf, '\r')
	case 'e':
		q.buf = append(q.buf, 0x1b)
	case ' ', '"', '/', '\\':
		q.buf = append(q.buf, c)
	case 'N':
		q.buf = append(q.buf, "\u0085"...)
	case '_':
		q.buf = append(q.buf, "\u00a0"...)
	case 'L':
		q.buf = append(q.buf, "\u2028"...)
	case 'P':
		q.buf = append(q.buf, "\u2029"...)
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	default:
		return 0, errUnusual
	}
	if digits == 0 {
		return 1, nil
	}
	if len(s) <= digits {
		return 0, errUnusual
	}
	var r rune
	for _, c := range []byte(s[1 : 1+digits]) {
		d := hexDigit(c)
		if d < 0 {
			return 0, errUnusual
		}
		r = r<<4 | d
	}
	if r >= 0xd800 && r <= 0xdfff || r > utf8.MaxRune {
		return 0, errUnusual
	}
	q.buf = utf8.AppendRune(q.buf, r)
	return 1 + digits, nil
}

func hexDigit(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}
