package jsregexp

import (
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// patternVectors are the shared pattern vectors: testdata/form/patterns.test.mjs
// checks them against JavaScript's own RegExp.
const patternVectors = "../../../testdata/form/patterns.json"

type patternCase struct {
	Pattern string   `json:"pattern"`
	Error   bool     `json:"error"`
	Matches []string `json:"matches"`
	Rejects []string `json:"rejects"`
}

func readVectors(t testing.TB) []patternCase {
	t.Helper()
	data, err := os.ReadFile(patternVectors)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Description string        `json:"description"`
		Cases       []patternCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) == 0 {
		t.Fatal("no pattern vectors")
	}
	return doc.Cases
}

func TestPatternVectors(t *testing.T) {
	for _, c := range readVectors(t) {
		re, err := Compile(c.Pattern)
		if c.Error {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%q compiles (%v), JavaScript refuses it", c.Pattern, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v, JavaScript compiles it", c.Pattern, err)
			continue
		}
		for want, inputs := range map[bool][]string{true: c.Matches, false: c.Rejects} {
			for _, s := range inputs {
				got, err := re.MatchString(s)
				if err != nil || got != want {
					t.Errorf("%q on %q = %v, %v; JavaScript gives %v", c.Pattern, s, got, err, want)
				}
			}
		}
	}
}

// ECMAScript 2025 syntax that browsers since 2024 compile: modifiers
// groups and a group name repeated in other alternatives. The node the
// shared vectors run on may predate it.
func TestECMAScript2025(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		ok      bool
		on      string
		match   bool
	}{
		{"^(?i:ab)c$", true, "ABc", true},
		{"^(?i:ab)c$", true, "ABC", false},
		{"^(?-i:a)$", true, "a", true},
		{"(?s:.)", true, "\n", true},
		{"(?<y>a)|(?<y>b)", true, "b", true},
		{"(?-:a)", false, "", false},
		{"(?ii:a)", false, "", false},
		{"(?i-i:a)", false, "", false},
		{"(?x:a)", false, "", false},
		{"(?i)a", false, "", false},
		{"a(?i)", false, "", false},
		{"(?<y>a)(?<y>b)", false, "", false},
	} {
		re, err := Compile(tc.pattern)
		if (err == nil) != tc.ok {
			t.Errorf("Compile(%q) = %v, want ok %v", tc.pattern, err, tc.ok)
			continue
		}
		if re == nil {
			continue
		}
		if got, err := re.MatchString(tc.on); err != nil || got != tc.match {
			t.Errorf("%q on %q = %v, %v; want %v", tc.pattern, tc.on, got, err, tc.match)
		}
	}
}

func TestSyntaxErrorsSayWhat(t *testing.T) {
	for pattern, want := range map[string]string{
		"(?i)abc":    "no inline flags",
		"(?P<n>a)":   `"(?P<n>"`,
		"a**":        "nested repetition",
		"abc\\":      `\ at end`,
		"x(?":        "invalid group",
		"(?#note)ab": "comments",
	} {
		_, err := Compile(pattern)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("Compile(%q) = %v, want a syntax error containing %q", pattern, err, want)
		}
	}
}

// A pattern that backtracks without end is abandoned, not waited for.
func TestCatastrophicPatternIsBounded(t *testing.T) {
	re, err := Compile(`^(a|aa)+$`)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = re.MatchString(strings.Repeat("a", 5000) + "b")
	if !errors.Is(err, ErrSlow) {
		t.Fatalf("err = %v, want ErrSlow", err)
	}
	if d := time.Since(start); d > 20*MatchTimeout {
		t.Fatalf("took %v", d)
	}
}

func TestUnsupported(t *testing.T) {
	_, err := Compile("a{99999999999}")
	var ue *UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want an UnsupportedError", err)
	}
}

func TestDifferences(t *testing.T) {
	for pattern, want := range map[string][]string{
		`\A[a-z]+\z`:          {`\A|the letter "A"|the start of the text`, `\z|the letter "z"|the end of the text`},
		`^[[:alpha:]]+$`:      {`[:alpha:]|one of the characters of "[:alpha:"`},
		`^\pL+$`:              {`\pL|the text "pL"|a character of the Unicode class L`},
		`^\P{Greek}$`:         {`\P{Greek}|the text "P{Greek}"|a character outside the Unicode class Greek`},
		`^[\p{L}\d]+$`:        {`\p{L}|the characters of "p{L}"|the Unicode class L`},
		`^\x{41}$`:            {`\x{41}|the letter "x" repeated 41 times|the character U+41`},
		`^\Q.*\E$`:            {`\Q.*\E|the letters "Q" and "E"`},
		`^\a$`:                {`\a|the letter "a"|the bell`},
		`[]a]`:                {`[]|a class of no character`},
		`^[a-zA-Z0-9_]+$`:     nil,
		`^\s*\S+\b\d\w$`:      nil,
		`(?i)abc`:             nil, // JavaScript refuses it: no difference, an error
		`(?=a)a`:              nil, // Go refuses it: Helm refuses the schema
		`^(?P<x>a)(?<y>b)\1$`: nil,
	} {
		var got []string
		for _, d := range Differences(pattern) {
			got = append(got, d.Text+"|"+d.JS+"|"+d.Go)
			if !strings.HasPrefix(pattern[d.Offset:], d.Text) {
				t.Errorf("%q: difference %q not at offset %d", pattern, d.Text, d.Offset)
			}
		}
		if len(got) != len(want) {
			t.Errorf("Differences(%q) = %q, want %d like %q", pattern, got, len(want), want)
			continue
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("Differences(%q)[%d] = %q, want prefix %q", pattern, i, got[i], want[i])
			}
		}
	}
}

// FuzzCompile: any pattern compiles or is refused with a SyntaxError or an
// UnsupportedError, matching never panics, and Differences only names
// constructs at their place in patterns both engines compile.
func FuzzCompile(f *testing.F) {
	for _, c := range readVectors(f) {
		f.Add(c.Pattern, "abc")
	}
	f.Add(`\A\z[[:alpha:]]\pL\Q(\E\x{41}[]`, "A")
	f.Add("(?i-m:a)|(?<n>b)\\k<n>", "😀")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		re, err := Compile(pattern)
		if err != nil {
			var se *SyntaxError
			var ue *UnsupportedError
			if !errors.As(err, &se) && !errors.As(err, &ue) {
				t.Fatalf("Compile(%q): %T %v", pattern, err, err)
			}
			if len(Differences(pattern)) > 0 {
				t.Fatalf("Differences of a pattern JavaScript refuses: %q", pattern)
			}
			return
		}
		if _, err := re.MatchString(s); err != nil && !errors.Is(err, ErrSlow) {
			t.Fatalf("%q on %q: %v", pattern, s, err)
		}
		ds := Differences(pattern)
		if len(ds) > 0 {
			if _, err := regexp.Compile(pattern); err != nil {
				t.Fatalf("Differences of a pattern Go refuses: %q", pattern)
			}
		}
		for _, d := range ds {
			if d.Offset < 0 || d.Offset > len(pattern) || !strings.HasPrefix(pattern[d.Offset:], d.Text) || d.JS == "" || d.Go == "" {
				t.Fatalf("%q: difference %+v", pattern, d)
			}
		}
	})
}
