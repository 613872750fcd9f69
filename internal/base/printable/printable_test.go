package printable

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r/releases/tag/a-1.0.0": "https://github.com/o/r/releases/tag/a-1.0.0",
		"héllo wörld ✓ 日本":                            "héllo wörld ✓ 日本",
		"a\nb\r\tc":                                   `a\nb\r\tc`,
		"\x1b[31mred\x1b[0m\a":                        `\x1b[31mred\x1b[0m\x07`,
		"\x1b]8;;https://evil/\x07link\x1b]8;;\x07":   `\x1b]8;;https://evil/\x07link\x1b]8;;\x07`,
		"\u009b2J":                 `\x9b2J`,
		"abc\u202edef\u200b\u2066": `abc\u202edef\u200b\u2066`,
		"bad \xff\xfe utf-8":       `bad \xff\xfe utf-8`,
		"\U000e0041 tag":           `\U000e0041 tag`,
		"\u2028line\u2029para":     `\u2028line\u2029para`,
		"nbsp\u00a0ok":             "nbsp\u00a0ok",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Lines("one\n\ttwo\r\n\x1b[2Jthree"); got != "one\n\ttwo\\r\n\\x1b[2Jthree" {
		t.Errorf("Lines kept %q", got)
	}
}

// Whatever a server says, Line prints one line with nothing a terminal
// would act on, and Lines nothing but line breaks and tabs.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"a\nb", "\x1b[31m", "\u202e", "\xff", "ok", "\t\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{false, true} {
			out := escape(s, lines)
			if !utf8.ValidString(out) {
				t.Fatalf("%q: not UTF-8: %q", s, out)
			}
			for _, r := range out {
				if (lines && (r == '\n' || r == '\t')) || (unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r)) {
					continue
				}
				t.Fatalf("escape(%q, %v) = %q holds %U", s, lines, out, r)
			}
			if safe(s, lines) != (out == s) {
				t.Fatalf("%q: safe says %v, escape changed it: %v", s, safe(s, lines), out != s)
			}
			if !lines && strings.ContainsAny(out, "\n\r") {
				t.Fatalf("%q: Line holds a line break", s)
			}
		}
	})
}
