package invisible

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestIs(t *testing.T) {
	for _, r := range "\x00\t\n\r\x1b\x7f\u0085\u009f\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029" {
		if !Is(r) {
			t.Errorf("%U shows as itself?", r)
		}
	}
	for _, r := range " azAZ09<>|`é\u00a0\u200d😀\ufffd" {
		if Is(r) {
			t.Errorf("%U does not show as itself?", r)
		}
	}
}

// Escape writes what JSON writes for the characters JSON escapes, and the
// same \u form for those it leaves (DEL, C1, bidirectional controls); a
// string JSON reads back from it is the string escaped.
func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain <b>":          "plain <b>",
		"a\nb\r\tc":          `a\nb\r\tc`,
		"\x00\x1b[31m":       `\u0000\u001b[31m`,
		"x\x7f\u0085\u202ey": `x\u007f\u0085\u202ey`,
		"\u2028\u2029":       `\u2028\u2029`,
		"é\u00a0\u200d😀 end": "é\u00a0\u200d😀 end",
	} {
		got := Escape(in)
		if got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsFunc(got, Is) {
			t.Errorf("Escape(%q) = %q holds a character Is reports", in, got)
		}
		var back string
		if err := json.Unmarshal([]byte(`"`+strings.ReplaceAll(got, `"`, `\"`)+`"`), &back); err != nil || back != in {
			t.Errorf("JSON reads %q as %q (%v), want %q", got, back, err, in)
		}
	}
}

func TestName(t *testing.T) {
	for r, want := range map[rune]string{
		'\n':     "a new line",
		'\r':     "a new line",
		'\t':     "a tab",
		'\x1b':   "a control character U+001B",
		'\u0085': "a control character U+0085",
		'\u202e': "a bidirectional control U+202E",
		'\u2028': "a line separator U+2028",
	} {
		if got := Name(r); got != want {
			t.Errorf("Name(%U) = %q, want %q", r, got, want)
		}
	}
}
