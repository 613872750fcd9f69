// Package invisible tells the characters that do not show as themselves
// where a catalog's text is read (a README, the form, a terminal), and
// writes them so that they do.
package invisible

import (
	"fmt"
	"strings"
	"unicode"
)

// Is reports whether r does not show as itself: a control character (a
// new line ends a table row, or the line a marker is read from; an escape
// sequence drives the terminal the text is printed on), a line or
// paragraph separator, or a bidirectional control, which reorders the
// text around it.
func Is(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// Escape writes each character of s that Is reports as JSON writes it in
// a string (\n, \t, \u001b, \u202e), so that it shows, on the line it was
// on.
func Escape(s string) string {
	if !strings.ContainsFunc(s, Is) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case Is(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Name names a character Is reports, for a message: "a new line", "a
// tab", "a control character U+001B", "a bidirectional control U+202E",
// "a line separator U+2028".
func Name(r rune) string {
	code := fmt.Sprintf("U+%04X", r)
	switch {
	case r == '\n' || r == '\r':
		return "a new line"
	case r == '\t':
		return "a tab"
	case unicode.Is(unicode.Bidi_Control, r):
		return "a bidirectional control " + code
	case unicode.IsControl(r):
		return "a control character " + code
	}
	return "a line separator " + code
}
