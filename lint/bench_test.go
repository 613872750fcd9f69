package lint_test

import (
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/testkit/gencatalog"
	"github.com/catalogist/catalogist/lint"
)

func benchLint(b *testing.B, dirs []string, reg *region.Region) {
	b.Helper()
	var cats []*catalog.Catalog
	for _, d := range dirs {
		c, err := catalog.Discover(d)
		if err != nil {
			b.Fatal(err)
		}
		cats = append(cats, c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		// Discovery is part of a user's run: rediscover each time.
		cats = cats[:0]
		for _, d := range dirs {
			c, err := catalog.Discover(d)
			if err != nil {
				b.Fatal(err)
			}
			cats = append(cats, c)
		}
		var opt lint.Options
		if reg != nil {
			opt.Regions = []*region.Region{reg}
		}
		res, err := lint.Run(cats, opt)
		if err != nil {
			b.Fatal(err)
		}
		if e, _ := res.Count(); e > 0 {
			b.Fatalf("%d errors in a clean catalog", e)
		}
	}
}

// BenchmarkLintGenerated100 lints a generated catalog of 100 charts with
// realistic schemas of about 60 KB each.
func BenchmarkLintGenerated100(b *testing.B) {
	dir := b.TempDir()
	if err := gencatalog.Write(dir, 100); err != nil {
		b.Fatal(err)
	}
	benchLint(b, []string{dir}, nil)
}

// BenchmarkLintExamples lints the bundled examples with their region (the
// README's main job; target: under 100 ms).
func BenchmarkLintExamples(b *testing.B) {
	reg, err := region.Load("../examples/region.yaml", "")
	if err != nil {
		b.Fatal(err)
	}
	dirs, _ := filepath.Glob("../examples/*/charts")
	var cats []string
	for _, d := range dirs {
		if _, err := catalog.Discover(d); err == nil {
			cats = append(cats, filepath.Dir(d))
		}
	}
	benchLint(b, cats, reg)
}
