package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// A file may hold several YAML documents (an Application with the
// resources deployed beside it, a values file someone appended to). Each
// is edited on its own, as a text of its own, so that no edit can reach
// into another document and the documents that do not change keep every
// byte, separators, directives and comments between them included.

// bom is the byte order mark some editors put at the start of UTF-8 text.
var bom = []byte("\ufeff")

// marker reports whether a line is the document marker m ("---" or
// "..."): three characters at column 0 followed by a blank or the end of
// the line, which YAML reads as a marker wherever it stands.
func marker(line []byte, m string) bool {
	if !bytes.HasPrefix(line, []byte(m)) {
		return false
	}
	rest := line[len(m):]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r' || rest[0] == '\n'
}

// segment is the text of one document: src[start:end], whose first line
// is line line+1 of the file.
type segment struct{ start, end, line int }

// splitDocuments cuts a text into its documents. Comments, blank lines
// and directives before a document's "---" go with it; comments after a
// document's "..." stay with it. A text without any document (empty, or
// only comments) is one segment.
func splitDocuments(src []byte) []segment {
	var segs []segment
	cur := segment{}
	// opened: the current document had its "---"; content: it has text;
	// closed: it ended with "...".
	opened, content, closed := false, false, false
	cut := func(off, line int) {
		if opened || content {
			cur.end = off
			segs = append(segs, cur)
			cur = segment{start: off, line: line}
		}
		opened, content, closed = false, false, false
	}
	line := 0
	for off := 0; off < len(src); line++ {
		next := len(src)
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		l := src[off:next]
		if off == 0 {
			l = bytes.TrimPrefix(l, bom)
		}
		t := bytes.TrimSpace(l)
		quiet := len(t) == 0 || t[0] == '#'
		if closed && !quiet && !marker(l, "...") {
			cut(off, line)
		}
		switch {
		case marker(l, "---"):
			if opened || content {
				cut(off, line)
			}
			opened = true
		case marker(l, "..."):
			closed = true
		case quiet:
		case l[0] == '%' && !opened && !content:
			// A directive: it belongs to the document its "---" starts.
		default:
			content = true
		}
		off = next
	}
	cur.end = len(src)
	return append(segs, cur)
}

// countDocuments is the number of documents yaml.v3 reads in a text.
func countDocuments(src []byte) (int, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for n := 0; ; n++ {
		var v yaml.Node
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			return n, nil
		} else if err != nil {
			return n, err
		}
	}
}

// parseFile parses each document of a file on its own.
func parseFile(src []byte) ([]*Doc, error) {
	if err := lineBreaks(src, 0); err != nil {
		return nil, err
	}
	n, err := countDocuments(src)
	if err != nil {
		return nil, lineError(err, 0)
	}
	segs := splitDocuments(src)
	if n != len(segs) && (n != 0 || len(segs) != 1) {
		// The parser and the markers disagree: a "---" or "..." line
		// where the parser does not end a document.
		return nil, fmt.Errorf("the parser reads %d document(s) where the --- and ... lines mark %d; put each document marker on a line of its own at column 0", n, len(segs))
	}
	docs := make([]*Doc, len(segs))
	for i, sg := range segs {
		if docs[i], err = parseDoc(src[sg.start:sg.end], sg.line); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// notText says why data is not a YAML text this package edits (UTF-8
// without NUL bytes), or returns nil.
func notText(data []byte) error {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return &isError{"is UTF-16 text; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)"}
	}
	bad := bytes.IndexByte(data, 0)
	what := "a NUL byte"
	if !utf8.Valid(data) {
		for i := 0; i < len(data); {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				if bad < 0 || i < bad {
					bad, what = i, "bytes that are not UTF-8"
				}
				break
			}
			i += size
		}
	}
	if bad < 0 {
		return nil
	}
	line := bytes.Count(data[:bad], []byte("\n")) + 1
	return &isError{fmt.Sprintf("is binary, not YAML (%s at line %d); give the YAML text file", what, line)}
}

// isError says what a file is instead of what it should be; its message
// follows the file's name as a sentence ("values.yaml is binary").
type isError struct{ msg string }

func (e *isError) Error() string { return e.msg }

// empty reports whether a document holds no value: no text, or null.
func (d *Doc) empty() bool {
	return d.Root == nil || d.Root.Kind == yaml.ScalarNode && d.Root.ShortTag() == "!!null"
}
