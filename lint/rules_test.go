// The rule fixtures: each rule has testdata/rules/<rule>/bad and
// testdata/rules/<rule>/good, catalog directories (charts under charts/); a
// region.yaml at a fixture's root is used as the region, a kube-version
// file's version as the target Kubernetes version (--kube-version), and a
// published/ directory holding an index.yaml as the published index
// (--published). Charts are rendered with an empty dependency cache.
// good must produce no finding of any rule. bad/want.txt states every
// finding of the rule in bad, one a line, as analysistest's "// want"
// comments do:
//
//	FILE:LINE:COL: REGEXP
//
// FILE is relative to the fixture, with slashes; REGEXP (Go syntax, up to
// the end of the line) must match the finding's message, and not the empty
// message. Each finding needs its own want line at its position, so two
// findings at one position need two lines. Blank lines and lines starting
// with # are ignored. A finding that suggests a name (did you mean "x"?)
// needs a REGEXP that fails once the name is changed: the suggestion is
// part of what is asserted.
//
// A case that needs another setting than bad's (no region, another
// registry) has a fixture of its own beside it, bad-<what>, with its own
// want.txt.

package lint_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/lint"
)

const rulesDir = "../testdata/rules"

func lintFixture(t *testing.T, dir string) *lint.Result {
	t.Helper()
	return lintFixtureWith(t, dir, lint.Options{})
}

// lintFixtureWith lints a fixture with options, and its region.yaml when
// it has one.
func lintFixtureWith(t *testing.T, dir string, opt lint.Options) *lint.Result {
	t.Helper()
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatalf("discover %s: %v", dir, err)
	}
	if rf := filepath.Join(dir, "region.yaml"); fileExists(rf) {
		r, err := region.Load(rf, "")
		if err != nil {
			t.Fatalf("region: %v", err)
		}
		opt.Regions = []*region.Region{r}
	}
	if kf := filepath.Join(dir, "kube-version"); fileExists(kf) {
		data, err := os.ReadFile(kf)
		if err != nil {
			t.Fatal(err)
		}
		if opt.KubeVersion, err = manifest.ParseVersion(strings.TrimSpace(string(data))); err != nil {
			t.Fatalf("%s: %v", kf, err)
		}
	}
	if opt.CacheDir == "" {
		opt.CacheDir = t.TempDir()
	}
	opt = withPublished(t, dir, cat, opt)
	res, err := lint.Run([]*catalog.Catalog{cat}, opt)
	if err != nil {
		t.Fatalf("lint %s: %v", dir, err)
	}
	return res
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// A want is one line of a want.txt.
type want struct {
	line int    // line number in want.txt
	pos  string // FILE:LINE:COL
	re   *regexp.Regexp
}

var wantLine = regexp.MustCompile(`^(.+?:[0-9]+:[0-9]+):(.*)$`)

// readWant parses a want.txt; a line it cannot use is an error naming it.
func readWant(t *testing.T, path string) []want {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("every bad fixture needs a want.txt: %v", err)
	}
	defer f.Close()
	var out []want
	bad := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := wantLine.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("%s:%d: want FILE:LINE:COL: REGEXP, got %q", path, n, line)
			bad = true
			continue
		}
		pat := strings.TrimSpace(m[2])
		if pat == "" {
			t.Errorf("%s:%d: %s has no pattern for the message", path, n, m[1])
			bad = true
			continue
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			t.Errorf("%s:%d: %v", path, n, err)
			bad = true
			continue
		}
		if re.MatchString("") {
			t.Errorf("%s:%d: pattern %q matches any message; write the words the message must hold", path, n, pat)
			bad = true
			continue
		}
		out = append(out, want{line: n, pos: m[1], re: re})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if bad {
		t.FailNow()
	}
	return out
}

// match pairs findings with want lines at the same position so that each
// want line matches its finding's message, pairing as many as it can (one
// pattern may match several messages, so a first-fit pairing could miss a
// complete one). It returns the want line of each paired finding (-1 for
// none), and the findings and want lines left unpaired.
func match(got []lint.Finding, pos []string, wants []want) (wantOf []int, extra []int, missing []int) {
	gotOf := make([]int, len(wants)) // want -> finding index, or -1
	for j := range gotOf {
		gotOf[j] = -1
	}
	// Augmenting paths (Kuhn's algorithm): small inputs, so simple.
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for j, w := range wants {
			if seen[j] || w.pos != pos[i] || !w.re.MatchString(got[i].Message) {
				continue
			}
			seen[j] = true
			if gotOf[j] < 0 || try(gotOf[j], seen) {
				gotOf[j] = i
				return true
			}
		}
		return false
	}
	for i := range got {
		if !try(i, make([]bool, len(wants))) {
			extra = append(extra, i)
		}
	}
	wantOf = make([]int, len(got))
	for i := range wantOf {
		wantOf[i] = -1
	}
	for j := range wants {
		if gotOf[j] < 0 {
			missing = append(missing, j)
		} else {
			wantOf[gotOf[j]] = j
		}
	}
	return wantOf, extra, missing
}

var suggestion = regexp.MustCompile(`did you mean "([^"]*)"`)

// assertsSuggestion reports whether a pattern that matches msg also checks
// the name msg suggests: it must not match msg with another name there.
func assertsSuggestion(re *regexp.Regexp, msg string) bool {
	m := suggestion.FindStringSubmatchIndex(msg)
	if m == nil {
		return true
	}
	other := msg[:m[2]] + "x" + msg[m[2]:m[3]] + "x" + msg[m[3]:]
	return !re.MatchString(other)
}

// badFixtures returns a rule's bad fixture and those beside it
// (bad-<what>).
func badFixtures(t *testing.T, rule string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(rulesDir, rule, "bad-*"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(rulesDir, rule, "bad")}, dirs...)
}

func TestRuleFixtures(t *testing.T) {
	for _, r := range lint.All {
		t.Run(r.Name, func(t *testing.T) {
			good := filepath.Join(rulesDir, r.Name, "good")
			bads := badFixtures(t, r.Name)
			for _, d := range []string{bads[0], good} {
				if !fileExists(d) {
					t.Fatalf("rule %s has no fixture %s", r.Name, d)
				}
			}
			for _, bad := range bads {
				checkBad(t, r, bad)
			}
			if res := lintFixture(t, good); len(res.Findings) > 0 {
				t.Errorf("good fixture %s has findings:\n%s", good, dump(res))
			}
		})
	}
}

// checkBad checks the findings of rule r in a bad fixture against its
// want.txt.
func checkBad(t *testing.T, r *lint.Rule, bad string) {
	t.Helper()
	wantFile := filepath.Join(bad, "want.txt")
	wants := readWant(t, wantFile)
	if len(wants) == 0 {
		t.Fatalf("%s lists no finding", wantFile)
	}
	var got []lint.Finding
	var pos []string
	res := lintFixture(t, bad)
	for _, f := range res.Findings {
		if f.Rule != r.Name {
			continue
		}
		rel, err := filepath.Rel(bad, f.File)
		if err != nil {
			rel = f.File
		}
		got = append(got, f)
		pos = append(pos, filepath.ToSlash(rel)+":"+strconv.Itoa(f.Line)+":"+strconv.Itoa(f.Column))
		if f.Severity != r.Severity {
			t.Errorf("%s: finding has severity %s, rule says %s", pos[len(pos)-1], f.Severity, r.Severity)
		}
	}
	wantOf, extra, missing := match(got, pos, wants)
	if len(extra) > 0 || len(missing) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "findings of %s in %s do not match %s\n", r.Name, bad, wantFile)
		if len(extra) > 0 {
			b.WriteString("findings no want line matches:\n")
			for _, i := range extra {
				fmt.Fprintf(&b, "  %s: %s\n", pos[i], got[i].Message)
			}
		}
		if len(missing) > 0 {
			b.WriteString("want lines no finding matches:\n")
			for _, j := range missing {
				fmt.Fprintf(&b, "  want.txt:%d: %s: %s\n", wants[j].line, wants[j].pos, wants[j].re)
			}
		}
		t.Error(strings.TrimSuffix(b.String(), "\n"))
	}
	for i, j := range wantOf {
		if j >= 0 && !assertsSuggestion(wants[j].re, got[i].Message) {
			t.Errorf("%s:%d: %s: the pattern does not assert the suggestion of %q", wantFile, wants[j].line, pos[i], got[i].Message)
		}
	}
}

// TestSharedDerivedSplit checks that the rules reading one derived result
// never report one case twice: over their fixtures, on either platform, no case
// is reported by two rules of a group.
func TestSharedDerivedSplit(t *testing.T) {
	groups := []struct {
		rules []string
		// caseOf names what a finding is about: an option has one hidden
		// condition, and a context path is written at one place.
		caseOf func(lint.Finding) string
	}{
		{[]string{"hidden-path", "hidden-value", "hidden-never"}, func(f lint.Finding) string { return f.File + " " + f.Option }},
		{[]string{"bare-literal", "context-path"}, func(f lint.Finding) string {
			return fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)
		}},
	}
	for _, g := range groups {
		t.Run(strings.Join(g.rules, ","), func(t *testing.T) {
			var rules []*lint.Rule
			for _, name := range g.rules {
				rules = append(rules, lint.Lookup(name))
			}
			reported := 0
			for _, name := range g.rules {
				for _, dir := range badFixtures(t, name) {
					for _, platform := range []string{"onyxia", "catalogist"} {
						opt := lint.Options{Rules: rules}
						opt.Overrides.Platform = platform
						by := map[string]string{}
						for _, f := range lintFixtureWith(t, dir, opt).Findings {
							reported++
							k := g.caseOf(f)
							if r, ok := by[k]; ok && r != f.Rule {
								t.Errorf("%s (platform %s): %s is reported by both %s and %s", dir, platform, k, r, f.Rule)
							}
							by[k] = f.Rule
						}
					}
				}
			}
			if reported == 0 {
				t.Fatal("the fixtures gave no finding: nothing was checked")
			}
		})
	}
}

func dump(res *lint.Result) string {
	var b strings.Builder
	for _, f := range res.Findings {
		fmt.Fprintf(&b, "  %s:%d:%d: %s: %s [%s]\n", f.File, f.Line, f.Column, f.Severity, f.Message, f.Rule)
	}
	return b.String()
}

// TestRulesDocumented keeps the registry tidy: unique names, a doc line each.
func TestRulesDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range lint.All {
		if seen[r.Name] {
			t.Errorf("duplicate rule %s", r.Name)
		}
		seen[r.Name] = true
		if r.Doc == "" || strings.Contains(r.Doc, "\n") {
			t.Errorf("rule %s needs a one-line doc", r.Name)
		}
		if lint.Lookup(r.Name) != r {
			t.Errorf("Lookup(%s) does not find the rule", r.Name)
		}
	}
}

// TestRulesPageListsRules keeps the rule table (docs/rules.md) in step
// with the code.
func TestRulesPageListsRules(t *testing.T) {
	data, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lint.All {
		row := fmt.Sprintf("| `%s` | %s |", r.Name, r.Severity)
		if !strings.Contains(string(data), row) {
			t.Errorf("docs/rules.md has no row starting %q", row)
		}
	}
}
