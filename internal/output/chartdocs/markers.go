package chartdocs

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// The marker lines a README holds its options section between, each alone
// on a line.
const (
	Begin = "<!-- catalogist:options:begin -->"
	End   = "<!-- catalogist:options:end -->"
)

// ErrNoMarkers is returned for a README without the marker lines.
var ErrNoMarkers = errors.New("no options section")

// section is where a README's options section goes: the bytes from start
// (the line after the begin marker) to end (the start of the end marker's
// line), the heading level its groups take and the README's line ending.
type section struct {
	start, end int
	level      int
	eol        string
}

// line is one line of a README: its bytes without the line ending, and
// where it starts.
type line struct {
	text  string
	start int
	// end is where the next line starts.
	end int
}

func splitLines(b []byte) []line {
	var out []line
	for start := 0; start < len(b); {
		i := bytes.IndexByte(b[start:], '\n')
		end := len(b)
		if i >= 0 {
			end = start + i + 1
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(b[start:end]), "\n"), "\r")
		out = append(out, line{text: text, start: start, end: end})
		start = end
	}
	return out
}

// locate finds the options section of a README named file. Marker lines
// inside fenced code blocks are text about markers, not markers. The
// section's groups take the level below the last heading above the begin
// marker (## Options puts them at ###), level 2 without one.
func locate(file string, readme []byte) (section, error) {
	lines := splitLines(readme)
	begin, end := -1, -1
	level := 2
	inline := 0
	var fence string
	// paragraph is true when the line before is text a setext underline
	// makes a heading.
	paragraph := false
	for i, l := range lines {
		prev := paragraph
		paragraph = false
		if fence != "" {
			if closesFence(l.text, fence) {
				fence = ""
			}
			continue
		}
		if f := opensFence(l.text); f != "" {
			fence = f
			continue
		}
		switch markerLine(l.text) {
		case Begin:
			if begin >= 0 {
				return section{}, fmt.Errorf("%s:%d: a second %s (the first is on line %d): keep one pair of marker lines", file, i+1, Begin, begin+1)
			}
			if end >= 0 {
				return section{}, fmt.Errorf("%s:%d: %s comes after %s on line %d: put the begin line above the end line", file, i+1, Begin, End, end+1)
			}
			begin = i
			continue
		case End:
			if end >= 0 {
				return section{}, fmt.Errorf("%s:%d: a second %s (the first is on line %d): keep one pair of marker lines", file, i+1, End, end+1)
			}
			end = i
			continue
		}
		if inline == 0 && (strings.Contains(l.text, Begin) || strings.Contains(l.text, End)) {
			inline = i + 1
		}
		h := headingLevel(l.text, prev)
		if begin < 0 && h > 0 {
			level = min(h+1, 6)
		}
		paragraph = h == 0 && strings.TrimSpace(l.text) != ""
	}
	switch {
	case begin < 0 && end < 0:
		hint := ""
		if inline > 0 {
			hint = fmt.Sprintf(" (line %d holds a marker, but not alone at the start of its line)", inline)
		}
		return section{}, fmt.Errorf("%s: %w%s: add these two lines where the options section should go, under a heading such as ## Options, then run catalogist docs again:\n  %s\n  %s", file, ErrNoMarkers, hint, Begin, End)
	case begin < 0:
		return section{}, fmt.Errorf("%s:%d: %s has no %s above it: add the begin line where the options section should start", file, end+1, End, Begin)
	case end < 0:
		return section{}, fmt.Errorf("%s:%d: %s has no %s below it: add the end line where the options section should stop", file, begin+1, Begin, End)
	}
	b := lines[begin]
	eol := "\n"
	if strings.HasSuffix(string(readme[b.start:b.end]), "\r\n") {
		eol = "\r\n"
	}
	return section{start: b.end, end: lines[end].start, level: level, eol: eol}, nil
}

// markerLine returns the marker a line holds alone (up to three spaces of
// indentation and trailing blanks allowed, as Markdown would still read it
// as an HTML comment), or "".
func markerLine(text string) string {
	t := strings.TrimRight(text, " \t")
	trimmed := strings.TrimLeft(t, " ")
	if len(t)-len(trimmed) > 3 {
		return ""
	}
	if trimmed == Begin || trimmed == End {
		return trimmed
	}
	return ""
}

// opensFence returns the fence a line opens (``` or ~~~, three or more),
// or "".
func opensFence(text string) string {
	t := strings.TrimLeft(text, " ")
	if len(text)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return ""
	}
	return t[:n]
}

// closesFence reports whether a line closes fence: the same character at
// least as many times, and nothing else.
func closesFence(text, fence string) bool {
	t := strings.TrimLeft(text, " ")
	if len(text)-len(t) > 3 {
		return false
	}
	t = strings.TrimRight(t, " \t")
	return len(t) >= len(fence) && strings.Trim(t, fence[:1]) == ""
}

// headingLevel returns the level of the heading a line is, or ends (a
// setext heading's underline, below a paragraph's line), or 0.
func headingLevel(text string, paragraph bool) int {
	t := strings.TrimLeft(text, " ")
	if len(text)-len(t) > 3 || t == "" {
		return 0
	}
	if t[0] == '#' {
		n := 0
		for n < len(t) && t[n] == '#' {
			n++
		}
		if n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t') {
			return n
		}
		return 0
	}
	if !paragraph {
		return 0
	}
	u := strings.TrimRight(t, " \t")
	switch {
	case strings.Trim(u, "=") == "":
		return 1
	case strings.Trim(u, "-") == "":
		return 2
	}
	return 0
}

// replace returns readme with the section's content replaced by content,
// every other byte as it was.
func replace(readme []byte, s section, content string) []byte {
	out := make([]byte, 0, len(readme)-(s.end-s.start)+len(content))
	out = append(out, readme[:s.start]...)
	out = append(out, content...)
	return append(out, readme[s.end:]...)
}

// FirstDifference returns the first line (from 1) on which b differs from
// a, 0 when they are equal.
func FirstDifference(a, b []byte) int {
	if bytes.Equal(a, b) {
		return 0
	}
	n := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return n
		}
		if a[i] == '\n' {
			n++
		}
	}
	return n
}
