package repoindex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// ChartNotFoundError says that an index has no chart of the name asked
// for. Known lists the charts it has, sorted, for suggesting a close name.
type ChartNotFoundError struct {
	Index string // the index's name, as given to ChartVersions
	Chart string
	Known []string
}

func (e *ChartNotFoundError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("%s: no chart %q: the index has no charts", e.Index, e.Chart)
	}
	return fmt.Sprintf("%s: no chart %q in the index: check the name (the index has %d charts)", e.Index, e.Chart, len(e.Known))
}

// ChartVersions returns the versions of one chart of an index in YAML or
// JSON: exactly what Read(data, name).Entries[chart] holds (invalid
// entries dropped, strings sanitized, newest first), without decoding
// the other charts. It returns a *ChartNotFoundError when the index has
// no such chart, and an empty list when it has the chart but no valid
// version of it. The result does not refer to data.
//
// In YAML, a scan of the lines that reads no value finds the chart's
// block under entries; in JSON, a validating scan of the tokens finds the
// chart's member of "entries". Read then reads a copy of the index
// reduced to its top level and that block. What the scans cannot place
// with certainty (anchors, aliases and tags, flow collections over
// several lines, several documents, tabs, line breaks other than LF and
// CRLF, "entries" set twice...) is left to Read on the whole index.
//
// Errors are Read's, with the lines of data. The index's top level
// (apiVersion v1 in particular) and the chart's own block are checked as
// Read checks them, but the other charts' blocks are not: an index that
// Read refuses only because of another chart (an unknown field, a value
// of the wrong type, a syntax error the scan can step over, a chart set
// twice) still gives this chart's versions, as Read would give them were
// the other chart fixed. Whenever Read accepts data, the result is
// Read's.
func ChartVersions(data []byte, name, chart string) ([]*repo.ChartVersion, error) {
	idx, err := ChartIndex(data, name, chart)
	if err != nil {
		return nil, err
	}
	return idx.Entries[chart], nil
}

// ChartIndex is ChartVersions with the index's top level (apiVersion,
// generated, annotations...): the index as Read reads it, with only the
// chart asked for in its entries.
func ChartIndex(data []byte, name, chart string) (*repo.IndexFile, error) {
	if o := outlineIndex(data); o != nil {
		idx, err := o.read(name, chart, true)
		if err != nil {
			return nil, err
		}
		_, ok := idx.Entries[chart]
		if found := o.has(chart); ok == found {
			if !ok {
				return nil, &ChartNotFoundError{Index: name, Chart: chart, Known: o.names()}
			}
			return idx, nil
		}
		// The outline and Read disagree, which they should not: trust Read.
	}
	idx, err := Read(data, name)
	if err != nil {
		return nil, err
	}
	cvs, ok := idx.Entries[chart]
	if !ok {
		return nil, &ChartNotFoundError{Index: name, Chart: chart, Known: sortedNames(idx.Entries)}
	}
	idx.Entries = map[string]repo.ChartVersions{chart: cvs}
	return idx, nil
}

// ChartNames returns the names of the charts of an index, sorted: the keys
// of Read(data, name).Entries, found as ChartVersions finds a chart and
// with its checks, but without decoding any chart.
func ChartNames(data []byte, name string) ([]string, error) {
	if o := outlineIndex(data); o != nil {
		if _, err := o.read(name, "", false); err != nil {
			return nil, err
		}
		return o.names(), nil
	}
	idx, err := Read(data, name)
	if err != nil {
		return nil, err
	}
	return sortedNames(idx.Entries), nil
}

// outline locates the charts of an index: src[:head] and src[tail:] are
// the index without its entries (the "entries:" line or `"entries": `
// included in head), and each chart is a block of src between them.
// Joining head, the blocks of one chart and tail (JSON adds braces and
// commas) makes an index that Read reads as it reads src, but for the
// other charts.
type outline struct {
	src               []byte
	head, tail        int
	open, sep, closer string
	charts            []chartBlock
}

// chartBlock is a chart's key and value: src[start:end].
type chartBlock struct {
	name       string
	named      bool // false for a key that names no chart (null)
	start, end int
}

// outlineIndex outlines src as Read would read it, JSON or YAML, or
// returns nil when it cannot do so with certainty.
func outlineIndex(src []byte) *outline {
	trimmed := bytes.TrimLeft(src, " \t\r\n")
	if len(trimmed) == 0 {
		return nil
	}
	if trimmed[0] == '{' {
		return outlineJSON(src)
	}
	return outlineYAML(src)
}

func (o *outline) has(chart string) bool {
	return slices.ContainsFunc(o.charts, func(c chartBlock) bool { return c.named && c.name == chart })
}

// names returns the chart names, sorted, each once.
func (o *outline) names() []string {
	names := make([]string, 0, len(o.charts))
	for _, c := range o.charts {
		if c.named {
			names = append(names, c.name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// piece is a part of a reduced index: src[start:end], or text inserted
// where src[start:] begins.
type piece struct {
	start, end int
	text       string
}

// read reads the index reduced to the blocks of chart (none unless
// want), with Read's checks, and reports errors with the lines of src.
func (o *outline) read(name, chart string, want bool) (*repo.IndexFile, error) {
	pieces := make([]piece, 0, 6)
	add := func(p piece) {
		if p.text != "" || p.end > p.start {
			pieces = append(pieces, p)
		}
	}
	add(piece{start: 0, end: o.head})
	add(piece{start: o.head, text: o.open})
	first := true
	for _, c := range o.charts {
		if !want || !c.named || c.name != chart {
			continue
		}
		if !first {
			add(piece{start: c.start, text: o.sep})
		}
		add(piece{start: c.start, end: c.end})
		first = false
	}
	add(piece{start: o.tail, text: o.closer})
	add(piece{start: o.tail, end: len(o.src)})
	size := 0
	for _, p := range pieces {
		if p.text != "" {
			size += len(p.text)
		} else {
			size += p.end - p.start
		}
	}
	var b strings.Builder
	b.Grow(size)
	for _, p := range pieces {
		if p.text != "" {
			b.WriteString(p.text)
		} else {
			b.Write(o.src[p.start:p.end])
		}
	}
	idx, err := read(b.String(), name, nil)
	if f := (*fault)(nil); errors.As(err, &f) && f.line > 0 {
		f.line = o.line(pieces, int(f.line))
	}
	return idx, err
}

// line maps line n of the reduced index made of pieces to its line in src.
func (o *outline) line(pieces []piece, n int) int32 {
	breaks := n - 1 // before the line
	if breaks <= 0 {
		return int32(n)
	}
	for i, p := range pieces {
		if p.text != "" {
			continue // no line breaks
		}
		seg := o.src[p.start:p.end]
		c := bytes.Count(seg, []byte{'\n'})
		if breaks > c {
			breaks -= c
			continue
		}
		at := p.start
		for ; breaks > 0; breaks-- {
			at += bytes.IndexByte(o.src[at:p.end], '\n') + 1
		}
		if at == p.end && i+1 < len(pieces) {
			at = pieces[i+1].start
		}
		return int32(1 + bytes.Count(o.src[:at], []byte{'\n'}))
	}
	return int32(n)
}

// The YAML outline: a scan of the lines that tells apart the lines that
// start a node from those that continue a scalar, without reading values.

// outlineYAML outlines a block-style index. It reads every line, but
// looks into a line only as far as needed to know where the next line
// stands: whether it starts a key or continues a scalar.
func outlineYAML(data []byte) *outline {
	// The scan reads data through a string that shares its memory: a
	// copy would take longer than the scan. data does not change while
	// the scan runs, and the one string that outlives it, each chart's
	// name, is a copy.
	src := unsafe.String(unsafe.SliceData(data), len(data))
	if !usualLineBreaks(src) {
		return nil
	}
	y := &outliner{
		s:    lineScanner{block: -1, plain: -1, pending: -1},
		o:    &outline{src: data, tail: len(src)},
		root: -1, k: -1, cur: -1,
	}
	for pos := 0; pos < len(src); {
		end, next := lexLine(src, pos)
		if !y.line(src[pos:end], pos, next) {
			return nil
		}
		pos = next
	}
	if y.s.quote != 0 || !y.entriesSeen {
		return nil // an unterminated quoted scalar, or no entries to find
	}
	y.closeEntries(len(src))
	return y.o
}

// outliner is the state of outlineYAML's scan.
type outliner struct {
	s lineScanner
	o *outline
	// root and k are the indents of the top level and of entries' keys,
	// -1 until known.
	root, k                        int
	inEntries, entriesSeen, marker bool
	// cur is the chart being read, in o.charts; -1 if none.
	cur int
}

func (y *outliner) closeEntries(at int) {
	if y.cur >= 0 {
		y.o.charts[y.cur].end = at
	}
	if y.inEntries {
		y.o.tail = at
	}
	y.inEntries, y.cur = false, -1
}

// line reads the line b, which starts at pos and is followed by the line
// at next. It returns false when the index is unusual: the outline cannot
// be trusted.
func (y *outliner) line(b string, pos, next int) bool {
	if isDocumentMarker(b) {
		// Only a bare "---" starting the document is usual.
		if y.root >= 0 || y.marker || y.s.quote != 0 || !isBareStart(b) {
			return false
		}
		y.marker = true
		return true
	}
	switch y.s.line(b) {
	case unusualLine:
		return false
	case otherLine:
		return true
	}
	info := &y.s.info
	ind := info.indent
	switch {
	case y.root < 0:
		if info.dash || info.key == "" {
			return false // not a mapping
		}
		y.root = ind
	case ind < y.root:
		return false
	}
	if ind == y.root {
		return y.topLevel(info, pos, next)
	}
	if y.inEntries {
		return y.entry(info, ind, pos)
	}
	return true
}

// topLevel reads a line at the top level: a key, or an item of a
// top-level key's list.
func (y *outliner) topLevel(info *lineInfo, pos, next int) bool {
	if info.dash {
		// An item of a top-level key's list; under entries, entries is no
		// mapping, or the indentation is off.
		return !y.inEntries
	}
	if info.key == "" {
		return false
	}
	y.closeEntries(pos)
	key, null, ok := yamlKey(info.key, info.quoted)
	if !ok {
		return false
	}
	if null || !strings.EqualFold(key, "entries") {
		return true
	}
	if y.entriesSeen {
		return false // set twice
	}
	y.entriesSeen, y.o.head = true, next
	if !info.inline {
		y.inEntries, y.k = true, -1
		return true
	}
	if !noEntries(info.value) {
		return false // in flow style
	}
	y.o.tail = next
	return true
}

// entry reads a line under entries: a chart's key starts its block.
func (y *outliner) entry(info *lineInfo, ind, pos int) bool {
	if y.k < 0 {
		if info.dash || info.key == "" {
			return false // entries is no mapping
		}
		y.k = ind
	}
	switch {
	case ind < y.k:
		return false
	case ind == y.k && info.dash:
		return y.cur >= 0
	case ind == y.k:
		if info.key == "" {
			return false
		}
		key, null, ok := yamlKey(info.key, info.quoted)
		if !ok {
			return false
		}
		if y.cur >= 0 {
			y.o.charts[y.cur].end = pos
		}
		y.o.charts = append(y.o.charts, chartBlock{name: strings.Clone(key), named: !null, start: pos})
		y.cur = len(y.o.charts) - 1
	}
	return true
}

// noEntries reports whether v, the value of entries on its line, is an
// empty mapping or null.
func noEntries(v string) bool {
	for _, w := range []string{"{}", "~", "null", "Null", "NULL"} {
		if strings.HasPrefix(v, w) && lineEnds(v[len(w):]) {
			return true
		}
	}
	return false
}

// usualLineBreaks rejects input whose lines YAML might count otherwise
// than by its line feeds (a lone CR, NEL, LS or PS break lines), or that
// is not UTF-8 from its first byte.
func usualLineBreaks(src string) bool {
	for _, bom := range []string{"\xef\xbb\xbf", "\xfe\xff", "\xff\xfe"} {
		if strings.HasPrefix(src, bom) {
			return false
		}
	}
	for i := 0; ; {
		j := strings.IndexByte(src[i:], '\r')
		if j < 0 {
			break
		}
		i += j + 1
		if i == len(src) || src[i] != '\n' {
			return false
		}
	}
	for _, brk := range []string{"\u0085", "\u2028", "\u2029"} {
		if strings.Contains(src, brk) {
			return false
		}
	}
	return true
}

// yamlKey returns the string Read makes of a key found on a line: a plain
// key resolved as yaml.v2 does (null when it is no string), a quoted one
// unquoted. ok is false for what the scan leaves to Read: a merge key,
// or a quoted key the fast parser does not read.
func yamlKey(s string, quoted bool) (key string, null, ok bool) {
	if quoted {
		q, err := quotedLine(s)
		if err != nil || !q.ok || q.size != len(s) {
			return "", false, false
		}
		return q.value, false, true
	}
	if s == "<<" || len(s) > 1024 {
		return "", false, false
	}
	sc := resolvePlain(s)
	if sc.typ == strType {
		return s, false, true
	}
	key, isKey := sc.key()
	return key, !isKey, true
}

// lineKind is what lineScanner.line found.
type lineKind uint8

const (
	otherLine      lineKind = iota // blank, a comment, or the continuation of a scalar
	structuralLine                 // a line that starts a node
	unusualLine                    // something the scan does not place with certainty
)

// lineInfo describes a structural line.
type lineInfo struct {
	indent int
	dash   bool   // it starts with a sequence entry
	key    string // the mapping key it starts with (quotes included), unless dash; "" if none
	quoted bool   // key is quoted
	inline bool   // the key's value starts on the line
	value  string // then the line from the value on
}

// lineScanner follows, from line to line, the scalars that span lines,
// as yaml.v3 reads them. A quoted scalar ends at its closing quote,
// whatever the indentation of the lines it spans. A plain scalar goes on
// over the following lines indented more than the collection it is in
// (its parent) and ends at a comment line; a block scalar takes the
// lines indented more than its parent. The parent's indentation is that
// of the key for a mapping value, of the dash for a list item.
type lineScanner struct {
	info    lineInfo // the last structural line
	quote   byte     // the quote of a quoted scalar that goes on; 0 if none
	block   int      // the parent of a block scalar that goes on; -1 if none
	plain   int      // the parent of a plain scalar that may go on; -1 if none
	pending int      // the parent of a node the previous line left to come; -1 if none
}

// line reads line b; for a structural line, s.info describes it.
func (s *lineScanner) line(b string) lineKind {
	if s.quote != 0 {
		e := quoteEnd(b, 0, s.quote)
		if e < 0 {
			return otherLine
		}
		s.quote = 0
		if !lineEnds(b[e+1:]) {
			return unusualLine // a quoted key over lines, or worse
		}
		return otherLine
	}
	ind := leadingSpaces(b)
	if ind == len(b) {
		return otherLine // empty: scalars go on
	}
	if b[ind] == '\t' {
		return unusualLine
	}
	if goesOn(&s.block, ind) {
		return otherLine
	}
	if b[ind] == '#' {
		s.plain = -1
		return otherLine
	}
	if goesOn(&s.plain, ind) {
		return otherLine
	}
	return s.structural(b, ind)
}

// goesOn reports whether a line indented by ind continues the scalar
// whose parent is indented by *parent (none if -1), and forgets the
// scalar when it does not.
func goesOn(parent *int, ind int) bool {
	if *parent < 0 {
		return false
	}
	if ind > *parent {
		return true
	}
	*parent = -1
	return false
}

// structural reads a line that starts a node at column ind.
func (s *lineScanner) structural(b string, ind int) lineKind {
	info := &s.info
	*info = lineInfo{indent: ind}
	parent := s.pending
	s.pending = -1
	col := ind
	t := lex(b, col, true)
	for t.kind == dashToken {
		info.dash, parent = true, col
		if col = nodeAfter(b, col+1); col < 0 {
			s.pending = parent // the item is on the following lines
			return structuralLine
		}
		t = lex(b, col, true)
	}
	if t.kind != plainKeyToken && t.kind != quotedKeyToken {
		return s.node(b, col, t, parent)
	}
	if !info.dash {
		info.key, info.quoted = b[col:t.end], t.kind == quotedKeyToken
	}
	v := nodeAfter(b, t.value)
	if v < 0 {
		s.pending = col // the key's value is on the following lines
		return structuralLine
	}
	info.inline, info.value = true, b[v:]
	return s.node(b, v, lex(b, v, false), col)
}

// node reads the node other than a key that token t found at column col
// of line b, in a collection indented by parent (-1 for none).
func (s *lineScanner) node(b string, col int, t token, parent int) lineKind {
	switch t.kind {
	case quotedToken:
		if t.end < 0 {
			s.quote = b[col]
			return structuralLine
		}
		if !lineEnds(b[t.end:]) {
			return unusualLine // a key over lines, or worse
		}
		return structuralLine
	case flowToken:
		if !singleLineFlow(b[col:]) {
			return unusualLine
		}
		return structuralLine
	case blockToken:
		if !blockHeader(b[col+1:]) || parent < 0 {
			return unusualLine
		}
		s.block = parent
		return structuralLine
	case plainToken:
		if parent < 0 {
			return unusualLine
		}
		s.plain = parent
		return structuralLine
	}
	return unusualLine // anchors, aliases, tags, explicit keys, tabs, "- " in a value...
}

// singleLineFlow reports whether b starts with a flow collection that
// ends on the line and holds nothing that could change how the following
// lines read: no quote, comment, anchor, alias or tag.
func singleLineFlow(b string) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return lineEnds(b[i+1:])
			}
		case '"', '\'', '#', '&', '*', '!', '\t':
			return false
		}
	}
	return false
}

// blockHeader reports whether b, what follows | or >, is a usual block
// scalar header: an indentation digit and a chomping sign, in either
// order and both optional, then the end of the line.
func blockHeader(b string) bool {
	digit, sign := false, false
	i := 0
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c >= '1' && c <= '9' && !digit:
			digit = true
		case (c == '+' || c == '-') && !sign:
			sign = true
		default:
			return lineEnds(b[i:])
		}
	}
	return true
}

// The JSON outline: a validating scan of the tokens that keeps no value.

// maxJSONDepth bounds nesting in outlineJSON, below encoding/json's limit
// (10000), so that what outlineJSON accepts json.Valid accepts.
const maxJSONDepth = 1000

// outlineJSON outlines an index in JSON. Read reads src as JSON only when
// json.Valid accepts it, so the scan validates as it goes, as strictly as
// json.Valid or more (in doubt, Read decides).
func outlineJSON(src []byte) *outline {
	j := jsonScanner{src: src}
	o := &outline{src: src, open: "{", sep: ",", closer: "}"}
	entriesSeen := false
	j.ws()
	ok := j.members(func(key string, _, vs int) bool {
		if !strings.EqualFold(key, "entries") {
			return j.value(1)
		}
		if entriesSeen || j.peek() != '{' {
			return false // set twice, or no object
		}
		entriesSeen = true
		o.head = vs
		ok := j.members(func(chart string, ks, _ int) bool {
			if !j.value(2) {
				return false
			}
			o.charts = append(o.charts, chartBlock{name: chart, named: true, start: ks, end: j.pos})
			return true
		})
		o.tail = j.pos
		return ok
	})
	j.ws()
	if !ok || j.pos != len(src) || !entriesSeen {
		return nil
	}
	return o
}

// jsonScanner reads JSON as json.Valid does, or more strictly.
type jsonScanner struct {
	src []byte
	pos int
}

func (j *jsonScanner) peek() byte {
	if j.pos < len(j.src) {
		return j.src[j.pos]
	}
	return 0
}

// colon reads the colon after an object key, with the spaces around it.
func (j *jsonScanner) colon() bool {
	j.ws()
	if j.peek() != ':' {
		return false
	}
	j.pos++
	j.ws()
	return true
}

func (j *jsonScanner) ws() {
	for j.pos < len(j.src) {
		switch j.src[j.pos] {
		case ' ', '\t', '\n', '\r':
			j.pos++
		default:
			return
		}
	}
}

// members reads an object, calling member with each key (decoded as
// encoding/json decodes it), the offset of the key and that of the value;
// member reads the value.
func (j *jsonScanner) members(member func(key string, ks, vs int) bool) bool {
	if j.peek() != '{' {
		return false
	}
	j.pos++
	j.ws()
	if j.peek() == '}' {
		j.pos++
		return true
	}
	for {
		ks := j.pos
		if !j.str() {
			return false
		}
		key, ok := jsonKey(j.src[ks:j.pos])
		if !ok {
			return false
		}
		if !j.colon() {
			return false
		}
		if !member(key, ks, j.pos) {
			return false
		}
		if more, ok := j.next('}'); !more {
			return ok
		}
	}
}

// next reads, after a member or an item, the comma before the next one
// (more) or the closing bracket; ok is false for anything else.
func (j *jsonScanner) next(closing byte) (more, ok bool) {
	j.ws()
	switch j.peek() {
	case ',':
		j.pos++
		j.ws()
		return true, true
	case closing:
		j.pos++
		return false, true
	}
	return false, false
}

// jsonKey decodes a JSON string as encoding/json does.
func jsonKey(raw []byte) (string, bool) {
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// value skips a value, checking it.
func (j *jsonScanner) value(depth int) bool {
	if depth >= maxJSONDepth {
		return false
	}
	switch c := j.peek(); {
	case c == '"':
		return j.str()
	case c == '{' || c == '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		j.pos++
		j.ws()
		if j.peek() == closing {
			j.pos++
			return true
		}
		for {
			if c == '{' {
				if !j.str() {
					return false
				}
				if !j.colon() {
					return false
				}
			}
			if !j.value(depth + 1) {
				return false
			}
			if more, ok := j.next(closing); !more {
				return ok
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		return j.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(j.src[j.pos:], []byte(lit)) {
			j.pos += len(lit)
			return true
		}
	}
	return false
}

// jsonPlain marks the bytes a JSON string holds as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str skips a string, checking it.
func (j *jsonScanner) str() bool {
	if j.peek() != '"' {
		return false
	}
	src, i := j.src, j.pos+1
	for {
		for i < len(src) && jsonPlain[src[i]] {
			i++
		}
		if i == len(src) {
			return false
		}
		switch src[i] {
		case '"':
			j.pos = i + 1
			return true
		case '\\':
			if i+1 == len(src) {
				return false
			}
			switch src[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(src) {
					return false
				}
				for _, h := range src[i+2 : i+6] {
					if hexDigit(h) < 0 {
						return false
					}
				}
				i += 6
			default:
				return false
			}
		default:
			return false // a control character
		}
	}
}

// number skips a number, checking its syntax.
func (j *jsonScanner) number() bool {
	src, i := j.src, j.pos
	digits := func() int {
		n := 0
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(src) && src[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	j.pos = i
	return true
}
