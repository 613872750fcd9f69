package lint

import "testing"

// A run over some charts neither reports the others' recorded findings as
// stale nor lets them hold back a finding of a chart it lints.
func TestBaselineKeep(t *testing.T) {
	b := NewBaseline([]Finding{
		{Rule: "context-path", Chart: "jupyter", Message: "m"},
		{Rule: "context-path", Chart: "rstudio", Message: "m"},
		{Rule: "region-file", Message: "r"},
	})
	b.Keep(func(chart string) bool { return chart == "jupyter" })
	if b.Len() != 2 {
		t.Fatalf("kept %d findings, want jupyter's and the region file's", b.Len())
	}
	res := &Result{Findings: []Finding{{Rule: "context-path", Chart: "jupyter", Message: "m"}, {Rule: "region-file", Message: "r"}}}
	if stale := b.Filter(res); stale != 0 || len(res.Findings) != 0 || res.Baselined != 2 {
		t.Errorf("stale %d, left %v, baselined %d", stale, res.Findings, res.Baselined)
	}
}
