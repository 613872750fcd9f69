//go:build corpus

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/output/chartdocs"
	"github.com/catalogist/catalogist/internal/testkit/corpustest"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// helm-docs' values table, and the options section (marker lines
// included) that takes its place.
var (
	helmDocsValues = regexp.MustCompile(`(?m)^\| Key \| Type \| Default \| Description \|\n(\|.*\n?)*`)
	optionsSection = regexp.MustCompile(`(?s)` + regexp.QuoteMeta(chartdocs.Begin) + `\n.*` + regexp.QuoteMeta(chartdocs.End) + `\n?`)
)

// docs on the reference catalog, whose READMEs helm-docs wrote from its
// default template, writes them again as committed, badges, requirements
// and footer included, but for the values table, which the options
// section replaces; a second run finds them up to date.
func TestCorpusDocs(t *testing.T) {
	src := corpustest.Catalog(t)
	dir := filepath.Join(t.TempDir(), "catalog")
	filetree.Copy(t, src, dir)
	args := []string{"docs", "--platform", "onyxia", "--schema-registry", corpustest.Registry(t), dir}
	r := catalogist(t, nil, args...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("docs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	charts, err := filepath.Glob(filepath.Join(src, "charts", "*", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	withValues := 0
	for _, committed := range charts {
		chart := filepath.Base(filepath.Dir(committed))
		want, err := os.ReadFile(committed)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "charts", chart, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		theirs := helmDocsValues.FindAllIndex(want, -1)
		ours := optionsSection.FindAllIndex(got, -1)
		if len(theirs) != len(ours) || len(ours) > 1 {
			t.Errorf("%s: %d values tables committed, %d options sections written:\n%s", chart, len(theirs), len(ours), got)
			continue
		}
		withValues += len(ours)
		outsideWant := helmDocsValues.ReplaceAllLiteralString(string(want), "<values>\n")
		outsideGot := optionsSection.ReplaceAllLiteralString(string(got), "<values>\n")
		if outsideGot != outsideWant {
			t.Errorf("%s: outside the values section, the README differs from the committed one from line %d:\n%s",
				chart, chartdocs.FirstDifference([]byte(outsideWant), []byte(outsideGot)), outsideGot)
		}
		if len(ours) == 1 && !strings.Contains(string(got), "\n## Values\n\n"+chartdocs.Begin+"\n") {
			t.Errorf("%s: the options section is not under ## Values:\n%s", chart, got)
		}
	}
	if len(charts) != 22 || withValues != 21 {
		t.Errorf("compared %d READMEs, %d with a values section; want 22 and 21 (all but library-chart)", len(charts), withValues)
	}
	r = catalogist(t, nil, append([]string{args[0], "--check"}, args[1:]...)...)
	if r.code != 0 || r.stdout != "22 README(s) up to date\n" {
		t.Errorf("docs --check after docs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
