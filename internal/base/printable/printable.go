// Package printable makes text from outside (a server's answer, a
// catalog's names) safe to print on a terminal or in a log: control
// characters, which could move the cursor, recolour the screen (ANSI escape
// sequences), end the line or ring the bell, and format characters, which
// could reorder what is shown (bidirectional overrides) or hide text
// (zero-width characters), are written as visible Go-style escapes (\n,
// \x1b, \u202e), as are bytes that are not UTF-8.
package printable

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s as one line: every character that is not graphic
// (letters, marks, numbers, punctuation, symbols and spaces), the line
// breaks included, written as an escape.
func Line(s string) string { return escape(s, false) }

// Lines returns s with the same escapes as Line, but for its line breaks
// and tabs: for a message of several lines, such as an error that joins
// several. Carriage returns are escaped: one would let a line overwrite
// the one before on a terminal.
func Lines(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	if safe(s, lines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[0])|0x100, 16)[1:])
		case keep(r, lines):
			b.WriteString(s[:n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x100:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(r)|0x100, 16)[1:])
		case r < 0x10000:
			b.WriteString(`\u`)
			b.WriteString(strconv.FormatUint(uint64(r)|0x10000, 16)[1:])
		default:
			b.WriteString(`\U`)
			b.WriteString(strconv.FormatUint(uint64(r)|0x100000000, 16)[1:])
		}
		s = s[n:]
	}
	return b.String()
}

// keep reports whether a character is printed as it is.
func keep(r rune, lines bool) bool {
	if lines && (r == '\n' || r == '\t') {
		return true
	}
	return unicode.IsGraphic(r) && !unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) && !unicode.Is(unicode.Variation_Selector, r)
}

// safe reports whether s needs no escape, without allocating.
func safe(s string, lines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return safeRunes(s[i:], lines)
		}
		if (c < 0x20 || c == 0x7f) && !(lines && (c == '\n' || c == '\t')) {
			return false
		}
	}
	return true
}

func safeRunes(s string, lines bool) bool {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if (r == utf8.RuneError && n <= 1) || !keep(r, lines) {
			return false
		}
		s = s[n:]
	}
	return true
}
