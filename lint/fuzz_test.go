package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// FuzzBaseline reads arbitrary baseline files: no panic, and what it reads
// it writes back to the same findings.
func FuzzBaseline(f *testing.F) {
	f.Add([]byte(`{"version": 1, "findings": [{"rule":"context-path","chart":"jupyter","option":"git/name","message":"m","count":2}]}`))
	f.Add([]byte(`{"version": 1, "findings": [{"rule":"a","count":-3}, {}, 3]}`))
	f.Add([]byte(`{"version": 2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parseBaseline(data)
		if err != nil {
			return
		}
		again, err := parseBaseline(b.Encode())
		if err != nil || again.Len() != b.Len() {
			t.Fatalf("a baseline read back differs: %v, %d != %d", err, again.Len(), b.Len())
		}
	})
}

// FuzzRules runs every rule on arbitrary schemas and values files, on both
// platforms, with a schema registry: whatever the chart, no rule panics and
// every finding has a file, a position and a message.
func FuzzRules(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/rules/*/bad*/charts/*/values.schema.json")
	for i, s := range seeds {
		if i%3 != 0 {
			continue // a third of the fixtures seed enough shapes
		}
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		values, _ := os.ReadFile(filepath.Join(filepath.Dir(s), "values.yaml"))
		f.Add(data, values, i%2 == 0)
	}
	f.Add([]byte(`{"type":"object","properties":{"r":{"type":"object","x-onyxia":{"overwriteSchemaWith":"r.json"}},"l":{"$ref":"#/definitions/l"}},"definitions":{"l":{"$ref":"#/definitions/l"}}}`), []byte("r: {a: null}\n"), true)
	dir := f.TempDir()
	registry := filepath.Join(dir, "registry")
	if err := os.MkdirAll(registry, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(registry, "r.json"), []byte(`{"type":"object","properties":{"a":{"type":"string","render":"list","x-onyxia":{"overwriteSchemaWith":"r.json"}}}}`), 0o644); err != nil {
		f.Fatal(err)
	}
	reg, err := schema.LoadRegistry(registry)
	if err != nil {
		f.Fatal(err)
	}
	chart := filepath.Join(dir, "charts", "c")
	if err := os.MkdirAll(chart, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(chart, "Chart.yaml"), []byte("apiVersion: v2\nname: c\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	// The rules that only relay Helm's own compiler and validator are left
	// out: they spend most of the time, on code Helm fuzzes.
	var ours []*Rule
	for _, r := range All {
		if r != RuleJSONSchema && r != RuleValuesValid && r != RuleDefaultValid {
			ours = append(ours, r)
		}
	}
	f.Fuzz(func(t *testing.T, schemaData, values []byte, onyxia bool) {
		if err := os.WriteFile(filepath.Join(chart, "values.schema.json"), schemaData, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(chart, "values.yaml"), values, 0o644); err != nil {
			t.Fatal(err)
		}
		cat, err := catalog.Discover(dir)
		if err != nil {
			t.Fatal(err)
		}
		ov := schema.Overrides{Registry: reg, ExtensionKey: "x-onyxia", Platform: "catalogist"}
		if onyxia {
			ov.Platform = "onyxia"
		}
		res, err := Run([]*catalog.Catalog{cat}, Options{Overrides: ov, Rules: ours})
		if err != nil {
			return // a file beyond the limits is refused, not linted
		}
		for _, fd := range res.Findings {
			if fd.File == "" || fd.Line < 1 || fd.Column < 1 || fd.Message == "" {
				t.Fatalf("finding without a place or a message: %+v", fd)
			}
		}
	})
}

// FuzzChartYAML lints a chart with an arbitrary Chart.yaml: no panic; a
// file refused outright (beyond the limits, such as an alias bomb) is named
// with its line and column, and every finding has a place and a message.
func FuzzChartYAML(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/rules/chart-*/bad*/charts/*/Chart.yaml")
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"))
	f.Add([]byte("apiVersion: v2\nname: c\nversion: 1.0.0\nicon: ../../../../x.png\n"))
	dir := f.TempDir()
	chart := filepath.Join(dir, "charts", "c")
	if err := os.MkdirAll(chart, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(chart, "values.schema.json"), []byte(`{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`), 0o644); err != nil {
		f.Fatal(err)
	}
	var perChart []*Rule
	for _, r := range All {
		if r.Scope == PerChart {
			perChart = append(perChart, r)
		}
	}
	file := filepath.Join(chart, "Chart.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cat, err := catalog.Discover(dir)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run([]*catalog.Catalog{cat}, Options{Rules: perChart})
		if err != nil {
			if !strings.HasPrefix(err.Error(), file) {
				t.Fatalf("refusal not naming %s: %v", file, err)
			}
			return
		}
		for _, fd := range res.Findings {
			if fd.File == "" || fd.Line < 1 || fd.Column < 1 || fd.Message == "" {
				t.Fatalf("finding without a place or a message: %+v", fd)
			}
		}
	})
}
