package lint_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/lint"
	"github.com/catalogist/catalogist/region"
)

// Each rule has testdata/rules/<rule>/bad and testdata/rules/<rule>/good:
// catalog directories (charts under charts/). A region.yaml at the fixture's
// root is used as the region. bad/want.txt lists, one per line, every
// finding of the rule as "file:line:col" relative to the fixture; good must
// produce no finding of any rule.
const rulesDir = "../testdata/rules"

func lintFixture(t *testing.T, dir string) *lint.Result {
	t.Helper()
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatalf("discover %s: %v", dir, err)
	}
	opt := lint.Options{}
	if rf := filepath.Join(dir, "region.yaml"); fileExists(rf) {
		r, err := region.Load(rf, "")
		if err != nil {
			t.Fatalf("region: %v", err)
		}
		opt.Region = r
	}
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

func readWant(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("every bad fixture needs a want.txt: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

func TestRuleFixtures(t *testing.T) {
	for _, r := range lint.All {
		t.Run(r.Name, func(t *testing.T) {
			bad := filepath.Join(rulesDir, r.Name, "bad")
			good := filepath.Join(rulesDir, r.Name, "good")
			for _, d := range []string{bad, good} {
				if !fileExists(d) {
					t.Fatalf("rule %s has no fixture %s", r.Name, d)
				}
			}
			var got []string
			res := lintFixture(t, bad)
			for _, f := range res.Findings {
				if f.Rule != r.Name {
					continue
				}
				rel, err := filepath.Rel(bad, f.File)
				if err != nil {
					rel = f.File
				}
				got = append(got, fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), f.Line, f.Column))
				if f.Severity != r.Severity {
					t.Errorf("finding has severity %s, rule says %s", f.Severity, r.Severity)
				}
			}
			want := readWant(t, filepath.Join(bad, "want.txt"))
			slices.Sort(got)
			slices.Sort(want)
			if len(want) == 0 {
				t.Fatalf("want.txt of %s lists no finding", bad)
			}
			if !slices.Equal(got, want) {
				t.Errorf("findings of %s in %s:\n got  %v\n want %v\nall findings:\n%s", r.Name, bad, got, want, dump(res))
			}
			if res := lintFixture(t, good); len(res.Findings) > 0 {
				t.Errorf("good fixture %s has findings:\n%s", good, dump(res))
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

// TestREADMEListsRules keeps the README's rule table in step with the code.
func TestREADMEListsRules(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lint.All {
		row := fmt.Sprintf("| `%s` | %s |", r.Name, r.Severity)
		if !strings.Contains(string(data), row) {
			t.Errorf("README has no row starting %q", row)
		}
	}
}
