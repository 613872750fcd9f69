package jsregexp

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// check refuses what JavaScript refuses and regexp2's ECMAScript mode
// accepts as .NET syntax: every group that opens with "(?" must be one of
// JavaScript's (non-capturing, lookaround, named, or a modifiers group of
// ECMAScript 2025). The rest of the grammar is regexp2's, whose ECMAScript
// mode follows JavaScript's Annex B reading (a "{" that is no quantifier is
// a character, "\8" is "8", "\c" alone is a backslash and a "c").
func check(p string) error {
	for i := 0; i < len(p); {
		switch p[i] {
		case '\\':
			if i+1 == len(p) {
				return &SyntaxError{Offset: i, Msg: `\ at end of pattern`}
			}
			_, w := utf8.DecodeRuneInString(p[i+1:])
			i += 1 + w
		case '[':
			i = classEnd(p, i)
		case '(':
			if err := checkGroup(p, i); err != nil {
				return err
			}
			i++
		default:
			i++
		}
	}
	return nil
}

// classEnd returns the offset after the character class opening at i: in
// JavaScript the first unescaped "]" closes it, even right after "[" or
// "[^" ("[]" is a class of nothing).
func classEnd(p string, i int) int {
	i++
	for i < len(p) {
		switch p[i] {
		case '\\':
			if i+1 == len(p) {
				return i + 1
			}
			_, w := utf8.DecodeRuneInString(p[i+1:])
			i += 1 + w
		case ']':
			return i + 1
		default:
			i++
		}
	}
	return i
}

// checkGroup checks a group opening at i.
func checkGroup(p string, i int) error {
	rest := p[i+1:]
	if !strings.HasPrefix(rest, "?") {
		return nil
	}
	rest = rest[1:]
	switch {
	case rest == "":
		return &SyntaxError{Offset: i, Msg: "invalid group"}
	case rest[0] == ':' || rest[0] == '=' || rest[0] == '!':
		return nil
	case strings.HasPrefix(rest, "<=") || strings.HasPrefix(rest, "<!"):
		return nil
	case rest[0] == '<':
		// A group name: regexp2 checks its characters as JavaScript does.
		return nil
	}
	return checkModifiers(p, i, rest)
}

// checkModifiers checks "(?ims-ims:", the modifiers group of ECMAScript
// 2025: flags among i, m and s, none twice, not both lists empty, and a
// ":" (the flags alone, "(?i)", are refused).
func checkModifiers(p string, i int, rest string) error {
	seen := map[byte]bool{}
	dash, before, after := false, 0, 0
	for j := 0; j < len(rest); j++ {
		c := rest[j]
		switch {
		case c == ':':
			if dash && before == 0 && after == 0 {
				return &SyntaxError{Offset: i, Msg: "invalid flags group: no flag around the -"}
			}
			return nil
		case c == '-' && !dash:
			dash = true
		case c == 'i' || c == 'm' || c == 's':
			if seen[c] {
				return &SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid flags group: flag %c twice", c)}
			}
			seen[c] = true
			if dash {
				after++
			} else {
				before++
			}
		default:
			return &SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid group %q: JavaScript has no inline flags, named groups (?P<name>...), atomic groups, conditionals or comments", groupHead(p[i:]))}
		}
	}
	return &SyntaxError{Offset: i, Msg: "invalid group"}
}

// groupHead is the start of a group, for messages.
func groupHead(s string) string {
	if j := strings.IndexAny(s[1:], "():>"); j >= 0 && j < 16 && s[1+j] != '(' {
		return s[:j+2]
	}
	if len(s) > 8 {
		n := 8
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		return s[:n] + "..."
	}
	return s
}

// Difference is a construct of a pattern that JavaScript and Go's regexp
// read differently.
type Difference struct {
	// Offset is the construct's byte offset in the pattern; Text the
	// construct as written.
	Offset int
	Text   string
	// JS and Go say what each engine reads it as; Instead what both read
	// alike, as JavaScript reads it or as Go does.
	JS, Go, Instead string
}

// Differences lists the constructs of a pattern that JavaScript reads
// otherwise than Go's regexp, when both compile it. Those where the
// engines differ on a few characters only (Go's "\s" leaves out the
// vertical tab and non-ASCII spaces, Go's "." matches "\r", and Go counts
// characters where JavaScript counts UTF-16 code units) are not listed.
func Differences(p string) []Difference {
	if _, err := Compile(p); err != nil {
		return nil
	}
	if _, err := regexp.Compile(p); err != nil {
		return nil
	}
	var out []Difference
	add := func(off int, text, js, goReads string) {
		out = append(out, Difference{Offset: off, Text: text, JS: js, Go: goReads, Instead: instead(text)})
	}
	for i := 0; i < len(p); {
		switch p[i] {
		case '\\':
			if i+1 == len(p) {
				return out
			}
			n := escapeDifference(p, i, add)
			i += n
		case '[':
			end := classEnd(p, i)
			classDifferences(p, i, end, add)
			i = end
		default:
			i++
		}
	}
	return out
}

// escapeDifference records an escape outside a class read otherwise, and
// returns its length as JavaScript reads it.
func escapeDifference(p string, i int, add func(int, string, string, string)) int {
	c, w := utf8.DecodeRuneInString(p[i+1:])
	switch c {
	case 'A':
		add(i, `\A`, `the letter "A"`, "the start of the text")
	case 'z':
		add(i, `\z`, `the letter "z"`, "the end of the text")
	case 'a':
		add(i, `\a`, `the letter "a"`, "the bell character U+0007")
	case 'p', 'P':
		if text, name, ok := unicodeClass(p[i:]); ok {
			goReads := "a character of the Unicode class " + name
			if c == 'P' {
				goReads = "a character outside the Unicode class " + name
			}
			add(i, text, fmt.Sprintf("the text %q", text[1:]), goReads)
		}
	case 'Q':
		end := strings.Index(p[i:], `\E`)
		text := p[i:]
		if end >= 0 {
			text = p[i : i+end+2]
		}
		add(i, text, `the letters "Q" and "E" around a pattern`, "the text between them, taken literally")
		return len(text)
	case 'x':
		if m := goHexBrace.FindString(p[i:]); m != "" {
			js := fmt.Sprintf("the text %q", m[1:])
			if decimalBrace.MatchString(m[2:]) {
				js = fmt.Sprintf("the letter \"x\" repeated %s times", m[3:len(m)-1])
			}
			add(i, m, js, "the character U+"+strings.ToUpper(m[3:len(m)-1]))
			return len(m)
		}
	}
	return 1 + w
}

// instead says what to write for a construct so that both engines read
// it alike.
func instead(text string) string {
	switch {
	case text == `\A`:
		return "^ for the start of the text"
	case text == `\z`:
		return "$ for the end of the text"
	case text == `\a`:
		return `\x07 for the bell character, a for the letter`
	case strings.HasPrefix(text, `\p`), strings.HasPrefix(text, `\P`):
		return "the characters listed, such as [a-zA-Z] for letters"
	case strings.HasPrefix(text, `\Q`):
		return "each special character escaped with a backslash"
	case strings.HasPrefix(text, `\x{`):
		return `\uHHHH (four hex digits) for a character`
	case strings.HasPrefix(text, "[:"):
		return "the characters listed, such as [a-zA-Z] for [:alpha:]"
	case text == "[]":
		return `[\]] for the character "]"`
	case text == "[^]":
		return `[\s\S] for any character`
	}
	return ""
}

var (
	goHexBrace   = regexp.MustCompile(`^\\x\{[0-9A-Fa-f]+\}`)
	decimalBrace = regexp.MustCompile(`^\{[0-9]+\}$`)
	goUnicode    = regexp.MustCompile(`^\\[pP](?:\{\^?([A-Za-z_]+)\}|([A-Za-z]))`)
	posixClass   = regexp.MustCompile(`^\[:\^?([a-z]+):\]`)
)

// unicodeClass reads a Go Unicode class escape at the start of s.
func unicodeClass(s string) (text, name string, ok bool) {
	m := goUnicode.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[0], m[1] + m[2], true
}

// classDifferences records what a class between i and end holds that the
// engines read otherwise: an empty class, a POSIX class, a Unicode class.
func classDifferences(p string, i, end int, add func(int, string, string, string)) {
	body := p[i+1 : end]
	switch {
	case body == "]":
		add(i, "[]", "a class of no character, which never matches", `a class holding "]"`)
		return
	case body == "^]":
		add(i, "[^]", "any character, line breaks included", `any character but "]"`)
		return
	}
	for j := i + 1; j < end-1; {
		switch {
		case p[j] == '\\':
			if text, name, ok := unicodeClass(p[j:]); ok {
				add(j, text, fmt.Sprintf("the characters of %q", text[1:]), "the Unicode class "+name)
				j += len(text)
				continue
			}
			if j+1 < len(p) && p[j+1] == 'a' {
				add(j, `\a`, `the letter "a"`, "the bell character U+0007")
			}
			j += 2
		case p[j] == '[':
			if m := posixClass.FindString(p[j:]); m != "" {
				add(j, m, fmt.Sprintf("one of the characters of %q (JavaScript has no POSIX classes; its first \"]\" closes the class)", m[:len(m)-1]), "the POSIX class "+m)
				j += len(m)
				continue
			}
			j++
		default:
			j++
		}
	}
}
