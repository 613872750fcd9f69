package repoindex

import "strings"

// The block lexer: how a line of block-style YAML splits into a dash, a
// key, a scalar or a collection. The fast parser, which reads the values
// of an index, and the outline, which only places its lines, both lex
// with it, so that they cannot tell a key from a scalar differently: if
// they did, ChartVersions would find another block than Read reads. What
// each does with a token (which ones it reads, which ones it leaves to
// yaml.v3) is its own.

// lexLine locates the line that starts at pos in src: its content ends
// at end, before LF or CRLF, and the following line starts at next. At
// the end of src, the line is empty.
func lexLine(src string, pos int) (end, next int) {
	end, next = len(src), len(src)
	if i := strings.IndexByte(src[pos:], '\n'); i >= 0 {
		end, next = pos+i, pos+i+1
	}
	if end > pos && src[end-1] == '\r' {
		end--
	}
	return end, next
}

// leadingSpaces returns the number of spaces that start s: a line's
// indentation.
func leadingSpaces(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// tokenKind is what starts at a column of a line where a node starts.
type tokenKind uint8

const (
	plainToken     tokenKind = iota // a plain scalar
	quotedToken                     // a single- or double-quoted scalar
	plainKeyToken                   // a plain scalar and the colon that makes it a key
	quotedKeyToken                  // a quoted scalar and the colon that makes it a key
	dashToken                       // the dash of a sequence entry
	flowToken                       // [ or {, starting a flow collection
	blockToken                      // | or >, starting a block scalar
	indicatorToken                  // another indicator: anchor, alias, tag, explicit key, directive...
	tabToken                        // a tab, whose meaning in YAML depends on more than the line
)

// token is what lex finds.
type token struct {
	kind tokenKind
	// end is, for a key, where its text ends (after the closing quote,
	// before the spaces ahead of the colon); for a quoted scalar, after
	// its closing quote, or -1 when it goes on to the following lines.
	end int
	// value is, for a key, the column just after its colon.
	value int
}

// lex reads the token at column col of line s, which is no space. keys
// says whether a key may start there: a mapping's value cannot be one,
// and then the text of a plain scalar is not read.
func lex(s string, col int, keys bool) token {
	c := s[col]
	switch {
	case c == '"' || c == '\'':
		e := quoteEnd(s, col+1, c)
		if e < 0 {
			return token{kind: quotedToken, end: -1}
		}
		if keys {
			if v := keyColon(s, e+1); v >= 0 {
				return token{kind: quotedKeyToken, end: e + 1, value: v}
			}
		}
		return token{kind: quotedToken, end: e + 1}
	case c == '[' || c == '{':
		return token{kind: flowToken}
	case c == '|' || c == '>':
		return token{kind: blockToken}
	case isDash(s, col):
		return token{kind: dashToken}
	case c == '\t':
		return token{kind: tabToken}
	case isIndicator(c) && !plainStart(s[col:]):
		return token{kind: indicatorToken}
	}
	if !keys {
		return token{kind: plainToken}
	}
	n, stop := plainEnd(s[col:])
	switch stop {
	case colonStop:
		end := col + n
		for end > col && s[end-1] == ' ' {
			end--
		}
		return token{kind: plainKeyToken, end: end, value: col + n + 1}
	case tabStop:
		return token{kind: tabToken}
	}
	return token{kind: plainToken}
}

// isDash reports whether a sequence entry's dash is at column i of s.
func isDash(s string, i int) bool {
	return s[i] == '-' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t')
}

// plainStop is what ends a plain scalar on its line.
type plainStop uint8

const (
	endStop     plainStop = iota // the end of the line
	colonStop                    // a colon before a space or the end of the line: the scalar is a key
	commentStop                  // " #"
	tabStop                      // a tab
)

// plainEnd returns where the plain scalar that starts s stops on the line,
// and what stops it.
func plainEnd(s string) (int, plainStop) {
	for i := 0; i < len(s); i++ {
		if !plainStops[s[i]] {
			continue
		}
		switch s[i] {
		case ':':
			if i+1 == len(s) || s[i+1] == ' ' {
				return i, colonStop
			}
		case '#':
			if i > 0 && s[i-1] == ' ' {
				return i, commentStop
			}
		case '\t':
			return i, tabStop
		}
	}
	return len(s), endStop
}

// plainStops marks the bytes at which plainEnd looks closer: one test
// per byte passes over the others, which most are.
var plainStops = [256]bool{':': true, '#': true, '\t': true}

// keyColon returns the column just after the colon that makes the scalar
// ending at column i of s a key (spaces, then a colon before a space or
// the end of the line), or -1 if none does.
func keyColon(s string, i int) int {
	i += leadingSpaces(s[i:])
	if i == len(s) || s[i] != ':' || i+1 < len(s) && s[i+1] != ' ' {
		return -1
	}
	return i + 1
}

// nodeAfter returns the column where the node after an indicator ("-" or
// a key's ":") ending at column i of s starts, or -1 when only spaces and
// a comment follow: the node is then on the following lines, or null.
func nodeAfter(s string, i int) int {
	i += leadingSpaces(s[i:])
	if i == len(s) || s[i] == '#' {
		return -1
	}
	return i
}

// quoteEnd returns the index of the quote q closing a scalar in s, the
// search starting at from, or -1 if the scalar goes on past s.
func quoteEnd(s string, from int, q byte) int {
	for i := from; i < len(s); i++ {
		switch s[i] {
		case q:
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				i++
				continue
			}
			return i
		case '\\':
			if q == '"' {
				i++
			}
		}
	}
	return -1
}

// lineEnds reports whether s holds nothing but spaces and a comment.
func lineEnds(s string) bool {
	r := leadingSpaces(s)
	return r == len(s) || s[r] == '#' && r > 0
}

// isIndicator reports whether a scalar cannot start with c unquoted
// (leaving out '-', which starts "-1").
func isIndicator(c byte) bool { return indicators[c] }

// indicators marks the bytes isIndicator reports.
var indicators = func() (t [256]bool) {
	for _, c := range []byte("?:,[]{}#&*!|>'\"%@`") {
		t[c] = true
	}
	return t
}()

// plainStart reports whether s, starting with an indicator, starts a
// plain scalar all the same: "?" and ":" do when a character other than
// a space follows.
func plainStart(s string) bool {
	return (s[0] == '?' || s[0] == ':') && len(s) > 1 && s[1] != ' ' && s[1] != '\t'
}

// isDocumentMarker reports whether s starts with "---" or "..." alone.
func isDocumentMarker(s string) bool {
	if len(s) < 3 || s[0] != '-' && s[0] != '.' || s[1] != s[0] || s[2] != s[0] {
		return false
	}
	return len(s) == 3 || s[3] == ' ' || s[3] == '\n' || s[3] == '\r'
}

// isBareStart reports whether line s is a "---" that starts a document
// with nothing else on the line but a comment.
func isBareStart(s string) bool {
	return strings.HasPrefix(s, "---") && lineEnds(s[3:])
}
