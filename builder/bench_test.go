package builder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/gencatalog"
)

func generated(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "catalog")
	if err := gencatalog.Write(dir, n); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkBuildCold builds a generated 100-chart catalog into a fresh
// output: lint, package, index and site.
func BenchmarkBuildCold(b *testing.B) {
	cat := generated(b, 100)
	root := b.TempDir()
	b.ResetTimer()
	for i := range b.N {
		if _, err := builder.Build(builder.Options{Catalog: cat, Out: filepath.Join(root, fmt.Sprint(i)), Now: at(t1)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildIncremental rebuilds the same output after one chart
// changed.
func BenchmarkBuildIncremental(b *testing.B) {
	cat := generated(b, 100)
	out := filepath.Join(b.TempDir(), "out")
	if _, err := builder.Build(builder.Options{Catalog: cat, Out: out, Now: at(t1)}); err != nil {
		b.Fatal(err)
	}
	values := filepath.Join(cat, "charts", gencatalog.ChartName(0), "values.yaml")
	b.ResetTimer()
	for i := range b.N {
		f, err := os.OpenFile(values, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "# change %d\n", i)
		f.Close()
		res, err := builder.Build(builder.Options{Catalog: cat, Out: out, Now: at(t1)})
		if err != nil {
			b.Fatal(err)
		}
		if res.Packaged != 1 {
			b.Fatalf("packaged %d charts", res.Packaged)
		}
	}
}
