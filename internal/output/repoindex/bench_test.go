package repoindex

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/testkit/gencatalog"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// bigIndex is the 15,000-version index as Helm writes it, made once.
var bigIndex = sync.OnceValue(func() []byte { return helmWritten(gencatalog.Index(15000).WriteFile) })

// bigIndexJSON is the same index in JSON, as Helm writes it.
var bigIndexJSON = sync.OnceValue(func() []byte { return helmWritten(gencatalog.Index(15000).WriteJSONFile) })

// helmWritten returns what write, a writer of Helm's repo.IndexFile,
// writes.
func helmWritten(write func(path string, mode os.FileMode) error) []byte {
	dir, err := os.MkdirTemp("", "repoindex-bench")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "index")
	if err := write(p, 0o644); err != nil {
		panic(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		panic(err)
	}
	return data
}

// lookupChart is the chart the lookup benchmarks look for: one of the
// middle of bigIndex, which has 500 charts of 30 versions.
const lookupChart = "service-0250"

// newBuild is a build of one new version of a chart of bigIndex.
func newBuild() *repo.IndexFile {
	idx := &repo.IndexFile{APIVersion: repo.APIVersionV1, Entries: map[string]repo.ChartVersions{}}
	idx.Entries["service-0007"] = repo.ChartVersions{{
		Metadata: &chart.Metadata{APIVersion: "v2", Name: "service-0007", Version: "9.9.9", Description: "New."},
		URLs:     []string{"https://example.com/charts/service-0007-9.9.9.tgz"},
		Created:  time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		Digest:   "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	}}
	return idx
}

// BenchmarkMerge15000 is the builder's work on a large published index:
// read it, merge one new version, write the result.
func BenchmarkMerge15000(b *testing.B) {
	data := bigIndex()
	b.SetBytes(int64(len(data)))
	var out bytes.Buffer
	for b.Loop() {
		published, err := Read(data, "index.yaml")
		if err != nil {
			b.Fatal(err)
		}
		merged, _, err := Merge(newBuild(), published, false)
		if err != nil {
			b.Fatal(err)
		}
		out.Reset()
		if err := Encode(&out, merged, "yaml"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHelmMerge15000 is the same work with Helm's own code.
func BenchmarkHelmMerge15000(b *testing.B) {
	data := bigIndex()
	dir := b.TempDir()
	in, out := filepath.Join(dir, "in.yaml"), filepath.Join(dir, "out.yaml")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		idx, err := repo.LoadIndexFile(in)
		if err != nil {
			b.Fatal(err)
		}
		idx.Merge(newBuild())
		idx.SortEntries()
		if err := idx.WriteFile(out, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead15000(b *testing.B) {
	data := bigIndex()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Read(data, "index.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode15000(b *testing.B) {
	idx, err := Read(bigIndex(), "index.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Encode(io.Discard, idx, "yaml"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChartVersions15000 is what a launcher does with a published
// index: find the versions of one chart.
func BenchmarkChartVersions15000(b *testing.B) { benchChartVersions(b, bigIndex()) }

// BenchmarkHelmLoadIndex15000 is the same with Helm's loader, which reads
// the whole index.
func BenchmarkHelmLoadIndex15000(b *testing.B) { benchHelmLoadIndex(b, bigIndex()) }

func BenchmarkChartVersionsJSON15000(b *testing.B) { benchChartVersions(b, bigIndexJSON()) }

func BenchmarkHelmLoadIndexJSON15000(b *testing.B) { benchHelmLoadIndex(b, bigIndexJSON()) }

func benchChartVersions(b *testing.B, data []byte) {
	if o := outlineIndex(data); o == nil {
		b.Fatal("the index is not outlined: ChartVersions would read all of it")
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		cvs, err := ChartVersions(data, "index.yaml", lookupChart)
		if err != nil {
			b.Fatal(err)
		}
		if len(cvs) != 30 {
			b.Fatalf("%d versions of %s, want 30", len(cvs), lookupChart)
		}
	}
}

func benchHelmLoadIndex(b *testing.B, data []byte) {
	p := filepath.Join(b.TempDir(), "index.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		idx, err := repo.LoadIndexFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if cvs := idx.Entries[lookupChart]; len(cvs) != 30 {
			b.Fatalf("%d versions of %s, want 30", len(cvs), lookupChart)
		}
	}
}
