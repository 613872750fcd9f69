package lint_test

import (
	"sync"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/lint"
)

// TestProgress checks that Options.Progress is told of every chart once,
// from the parallel workers, with the chart's own findings counted.
func TestProgress(t *testing.T) {
	var cats []*catalog.Catalog
	for _, dir := range []string{"../examples/ide", rulesDir + "/chart-metadata/bad"} {
		cat, err := catalog.Discover(dir)
		if err != nil {
			t.Fatal(err)
		}
		cats = append(cats, cat)
	}
	var mu sync.Mutex
	got := map[string]lint.ChartDone{}
	calls := 0
	res, err := lint.Run(cats, lint.Options{Progress: func(d lint.ChartDone) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		got[d.Chart] = d
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != res.Charts || len(got) != res.Charts || res.Charts != 6 {
		t.Fatalf("%d calls for %d charts (%d named), want 6", calls, res.Charts, len(got))
	}
	perChart := map[string][2]int{}
	for _, f := range res.Findings {
		c := perChart[f.Chart]
		switch f.Severity {
		case lint.Error:
			c[0]++
		case lint.Warning:
			c[1]++
		}
		perChart[f.Chart] = c
	}
	for _, cat := range cats {
		for _, ch := range cat.Charts {
			d, ok := got[ch.Name]
			if !ok {
				t.Errorf("no progress for %s", ch.Name)
				continue
			}
			if d.Of != 6 || d.Took <= 0 {
				t.Errorf("%s: of %d in %v", ch.Name, d.Of, d.Took)
			}
			// These charts share no file: the counts are the result's.
			if c := perChart[ch.Name]; d.Errors != c[0] || d.Warnings != c[1] {
				t.Errorf("%s: told %d errors, %d warnings; the result has %d, %d", ch.Name, d.Errors, d.Warnings, c[0], c[1])
			}
		}
	}
	if got["web_ui"].Errors == 0 {
		t.Errorf("web_ui, which Helm refuses, was told of no error")
	}
}
