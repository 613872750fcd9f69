package lint_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/lint"
)

// TestChartCasesSplit checks that the rules judging one value of
// Chart.yaml, or one file, leave each case to one of them: over their
// fixtures and the side-by-side charts, no place is reported by both rules
// of a pair.
func TestChartCasesSplit(t *testing.T) {
	pairs := [][2]string{
		{"chart-icon", "chart-urls"},
		{"chart-advice", "chart-api-version"},
		{"chart-metadata", "chart-api-version"},
		{"chart-metadata", "chart-version"},
		{"chart-metadata", "chart-field-type"},
		{"chart-version", "chart-field-type"},
		{"chart-maintainers", "chart-field-type"},
		{"chart-urls", "chart-field-type"},
		{"chart-files", "template-render"},
	}
	for _, pair := range pairs {
		t.Run(pair[0]+","+pair[1], func(t *testing.T) {
			rules := []*lint.Rule{lint.Lookup(pair[0]), lint.Lookup(pair[1])}
			dirs := []string{helmLintDir}
			for _, name := range pair {
				dirs = append(dirs, badFixtures(t, name)...)
			}
			reported := 0
			for _, dir := range dirs {
				by := map[string]string{}
				for _, f := range lintFixtureWith(t, dir, lint.Options{Rules: rules}).Findings {
					reported++
					at := fmt.Sprintf("%s:%d:%d", filepath.ToSlash(f.File), f.Line, f.Column)
					if r, ok := by[at]; ok && r != f.Rule {
						t.Errorf("%s is reported by both %s and %s", at, r, f.Rule)
					}
					by[at] = f.Rule
				}
			}
			if reported == 0 {
				t.Fatal("the fixtures gave no finding: nothing was checked")
			}
		})
	}
}
