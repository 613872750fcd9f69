package chartdocs

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

var (
	featuresOnce sync.Once
	featuresDoc  *Doc
	featuresErr  error
)

// features is the fixture chart's doc, which has groups at every level.
func features(t testing.TB) *Doc {
	t.Helper()
	featuresOnce.Do(func() {
		cat, env := discover(t, "testdata/catalogs/platform")
		featuresDoc, featuresErr = Load(cat, chartNamed(t, cat, "features"), env)
	})
	if featuresErr != nil {
		t.Fatal(featuresErr)
	}
	return featuresDoc
}

// Only the bytes between the marker lines change: line endings, text
// around, marker lines in code blocks and an old section's replacement
// included; a second update changes nothing.
func TestUpdateKeepsEverythingElse(t *testing.T) {
	d := features(t)
	for _, tc := range []struct {
		name, before, old, after string
		// heading is how the first group's heading starts.
		heading string
	}{
		{"lf", "# chart\n\n## Options\n\n" + Begin + "\n", "", End + "\n\n## Install\n", "### Image"},
		{"crlf", "# chart\r\n\r\n## Options\r\n\r\n" + Begin + "\r\n", "old\r\n", End + "\r\n\r\nAfter.\r\n", "### Image"},
		{"no final newline", "Intro\n" + Begin + "\n", "", End, "## Image"},
		{"old section", "# t\n" + Begin + "\n", "| a | b |\n|---|---|\n\nanything, " + End + " inline\n", End + "\nrest", "## Image"},
		{"indented markers", "# t\n\n#### Deep\n   " + Begin + "  \n", "", "  " + End + "\t\n", "##### Image"},
		{"capped at six", "###### Deepest\n" + Begin + "\n", "", End + "\n", "###### Image"},
		{"setext heading", "Options\n-------\n\n" + Begin + "\n", "", End + "\n", "### Image"},
		{"setext title", "Title\n=====\n" + Begin + "\n", "", End + "\n", "## Image"},
		{"fenced markers", "# t\n\nAdd:\n\n```markdown\n## Fake\n" + Begin + "\n" + End + "\n```\n\n~~~~\n" + End + "\n~~~\n~~~~\n" + Begin + "\n", "", End + "\n", "## Image"},
		{"heading after", "x\n" + Begin + "\n", "", End + "\n# After\n", "## Image"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.before + tc.old + tc.after)
			out, err := Update("README.md", in, d)
			if err != nil {
				t.Fatal(err)
			}
			got := string(out)
			if !strings.HasPrefix(got, tc.before) || !strings.HasSuffix(got, tc.after) {
				t.Fatalf("text outside the markers changed:\n%q", got)
			}
			section := got[len(tc.before) : len(got)-len(tc.after)]
			eol := "\n"
			if strings.HasSuffix(tc.before, "\r\n") {
				eol = "\r\n"
			}
			if n := strings.Count(section, "\n"); n == 0 || strings.Count(section, eol) != n || (eol == "\n" && strings.Contains(section, "\r")) {
				t.Errorf("the section's line endings are not all the README's %q", eol)
			}
			if !strings.Contains(section, eol+eol+tc.heading+" (`image`)"+eol) {
				t.Errorf("the first group is not under %q", tc.heading)
			}
			again, err := Update("README.md", out, d)
			if err != nil || string(again) != got {
				t.Errorf("a second update changed the README (%v):\n%s", err, again)
			}
			if FirstDifference(out, again) != 0 {
				t.Error("FirstDifference of equal READMEs is not 0")
			}
		})
	}
}

func TestMarkerErrors(t *testing.T) {
	d := &Doc{}
	for _, tc := range []struct {
		name, readme string
		want         []string
		noMarkers    bool
	}{
		{"none", "# t\n\nText.\n", []string{"README.md: no options section: add these two lines", "\n  " + Begin + "\n  " + End}, true},
		{"inline only", "# t\n\nUse " + Begin + " here.\n", []string{"(line 3 holds a marker, but not alone at the start of its line)"}, true},
		{"fenced only", "```\n" + Begin + "\n" + End + "\n```\n", []string{"README.md: no options section"}, true},
		{"indented code", "Text\n\n    " + Begin + "\n    " + End + "\n", []string{"README.md: no options section"}, true},
		{"end before begin", "a\n" + End + "\nb\n" + Begin + "\n", []string{"README.md:4: " + Begin + " comes after " + End + " on line 2"}, false},
		{"second begin", Begin + "\n" + Begin + "\n" + End + "\n", []string{"README.md:2: a second " + Begin + " (the first is on line 1)"}, false},
		{"second end", Begin + "\n" + End + "\nx\n" + End + "\n", []string{"README.md:4: a second " + End + " (the first is on line 2)"}, false},
		{"no end", "x\n\n" + Begin + "\n", []string{"README.md:3: " + Begin + " has no " + End + " below it"}, false},
		{"no begin", End + "\n", []string{"README.md:1: " + End + " has no " + Begin + " above it"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Update("README.md", []byte(tc.readme), d)
			if err == nil {
				t.Fatalf("no error; wrote:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if errors.Is(err, ErrNoMarkers) != tc.noMarkers {
				t.Errorf("errors.Is(%v, ErrNoMarkers) = %v", err, !tc.noMarkers)
			}
		})
	}
}

func TestFirstDifference(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"a\nb\n", "a\nb\n", 0},
		{"a\nb\n", "a\nc\n", 2},
		{"a\n", "a\nb\n", 2},
		{"a\r\nb", "a\r\nb\r\n", 2},
		{"", "x", 1},
	} {
		if got := FirstDifference([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("FirstDifference(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"plain":  "`plain`",
		"a|b":    "`a\\|b`",
		"a`b":    "``a`b``",
		"`x":     "`` `x ``",
		"a``b`c": "```a``b`c```",
		" x ":    "`  x  `",
		"  ":     "`  `",
	} {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestParagraph(t *testing.T) {
	for in, want := range map[string]string{
		"# of pods":  `\# of pods`,
		"- a":        `\- a`,
		"+ a":        `\+ a`,
		"===":        `\===`,
		"1. first":   `1\. first`,
		"12) twelve": `12\) twelve`,
		"2024":       "2024",
		"Plain.":     "Plain.",
		"":           "",
	} {
		if got := paragraph(in); got != want {
			t.Errorf("paragraph(%q) = %q, want %q", in, got, want)
		}
	}
}
