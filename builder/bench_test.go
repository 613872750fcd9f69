package builder_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/testkit/gencatalog"
)

// generated writes a catalog of n charts whose files are an hour old.
func generated(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "catalog")
	if err := gencatalog.Write(dir, n); err != nil {
		b.Fatal(err)
	}
	settle(b, dir)
	return dir
}

// BenchmarkBuildCold builds a generated 100-chart catalog into a fresh
// output: lint, package, index and site.
func BenchmarkBuildCold(b *testing.B) {
	cat := generated(b, 100)
	root := b.TempDir()
	b.ResetTimer()
	for i := range b.N {
		if _, err := builder.Build(b.Context(), builder.Options{Catalog: cat, Out: filepath.Join(root, fmt.Sprint(i)), Now: at(t1)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildIncremental rebuilds the same output after one chart
// changed, and reports each step's mean time. The cold build of its setup
// shows in a -cpuprofile; CATALOGIST_BENCH_CPUPROFILE=FILE profiles only
// the rebuilds.
func BenchmarkBuildIncremental(b *testing.B) {
	cat := generated(b, 100)
	out := filepath.Join(b.TempDir(), "out")
	// Two builds: the second leaves a previous output to recycle.
	for range 2 {
		if _, err := builder.Build(b.Context(), builder.Options{Catalog: cat, Out: out, Now: at(t1)}); err != nil {
			b.Fatal(err)
		}
	}
	values := filepath.Join(cat, "charts", gencatalog.ChartName(0), "values.yaml")
	if p := os.Getenv("CATALOGIST_BENCH_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	steps := map[string]time.Duration{}
	var names []string
	b.ResetTimer()
	for i := range b.N {
		f, err := os.OpenFile(values, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "# change %d\n", i)
		f.Close()
		res, err := builder.Build(b.Context(), builder.Options{Catalog: cat, Out: out, Now: at(t1)})
		if err != nil {
			b.Fatal(err)
		}
		if res.Packaged != 1 {
			b.Fatalf("packaged %d charts", res.Packaged)
		}
		for _, s := range res.Steps {
			if _, ok := steps[s.Name]; !ok {
				names = append(names, s.Name)
			}
			steps[s.Name] += s.Took
		}
	}
	b.StopTimer()
	for _, name := range names {
		b.ReportMetric(float64(steps[name].Microseconds())/1000/float64(b.N), strings.ReplaceAll(name, " ", "_")+"-ms/op")
	}
}
