package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/lint"
)

// escapingCatalog is a catalog whose chart "leak" has a link out of it.
func escapingCatalog(t *testing.T, catalogYAML string) *catalog.Catalog {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"charts/leak/Chart.yaml":         "apiVersion: v2\nname: leak\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
		"charts/leak/values.schema.json": `{"type": "object", "properties": {"n": {"type": "string", "default": "x"}}}`,
	}
	if catalogYAML != "" {
		files["catalog.yaml"] = catalogYAML
	}
	filetree.Write(t, dir, files)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "charts", "leak", "values.yaml")); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// symlink-outside guards what build publishes: catalog.yaml cannot turn it
// off, lower it or ignore it, and a baseline cannot hold its findings back.
func TestSymlinkOutsideLocked(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"lint:\n  rules:\n    symlink-outside: off\n", "catalog.yaml:3:22: rule symlink-outside cannot be set to off"},
		{"lint:\n  rules:\n    symlink-outside: warning\n", "catalog.yaml:3:22: rule symlink-outside cannot be set to warning"},
		{"lint:\n  ignore:\n    - rule: symlink-outside\n", "catalog.yaml:3:13: the findings of rule symlink-outside cannot be ignored"},
	} {
		_, err := lint.Run([]*catalog.Catalog{escapingCatalog(t, tc.yaml)}, lint.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.want)
		}
	}
	// An entry ignoring every finding of the chart, or a stricter level,
	// leaves the finding alone.
	res, err := lint.Run([]*catalog.Catalog{escapingCatalog(t, "lint:\n  rules: {symlink-outside: error}\n  ignore:\n    - charts: [leak]\n")}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "symlink-outside" || res.Findings[0].Severity != lint.Error {
		t.Fatalf("findings %+v, want the one symlink-outside error", res.Findings)
	}
	// No other rule reads the chart: values.yaml is /etc/passwd.
	if !strings.Contains(res.Findings[0].Message, "symbolic link to /etc/passwd leads outside") || strings.Contains(res.Findings[0].Message, "root:") {
		t.Errorf("finding %q", res.Findings[0].Message)
	}
	base := filepath.Join(t.TempDir(), "baseline.json")
	if err := lint.WriteBaseline(base, res.Findings); err != nil {
		t.Fatal(err)
	}
	b, err := lint.ReadBaseline(base)
	if err != nil {
		t.Fatal(err)
	}
	if stale := b.Filter(res); stale != 0 || len(res.Findings) != 1 {
		t.Errorf("a baseline held back %d finding(s) of symlink-outside (stale %d), want none", 1-len(res.Findings), stale)
	}
}
