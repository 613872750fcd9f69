package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNew runs new catalog and new chart as a user does, lints the result,
// and checks the exit status and message of a refusal. Package scaffold
// tests the files themselves.
func TestNew(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "team-catalog")
	r := catalogist(t, nil, "new", "catalog", dir, "--platform", "onyxia")
	if r.code != 0 || !strings.Contains(r.stdout, "for platform onyxia (extension key x-onyxia)") || !strings.Contains(r.stdout, "catalogist new chart NAME") {
		t.Fatalf("new catalog: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = catalogist(t, nil, "new", "chart", "rstudio", "--catalog", dir)
	if r.code != 0 || !strings.Contains(r.stdout, filepath.Join(dir, "charts", "rstudio", "values.schema.json")) || !strings.Contains(r.stdout, filepath.Join(dir, "icons", "rstudio.svg")) {
		t.Fatalf("new chart: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = catalogist(t, nil, "lint", "--strict", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "1 chart, 0 errors, 0 warnings") {
		t.Fatalf("lint of the new catalog: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"new", "catalog", dir}, dir + " already exists and is not empty"},
		{[]string{"new", "chart", "RStudio", "--catalog", dir}, `chart name "RStudio" is not valid`},
		{[]string{"new", "chart"}, "write catalogist new chart NAME"},
		{[]string{"new"}, "catalogist new catalog DIR, or catalogist new chart NAME"},
	} {
		r := catalogist(t, nil, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("catalogist %s: exit %d, want 2 and %q\n%s%s", strings.Join(c.args, " "), r.code, c.want, r.stdout, r.stderr)
		}
	}
}
