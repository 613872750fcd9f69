package builder_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/catalogist/catalogist/builder"
)

// An edit that keeps a file's size is seen, by the file's times, and
// repackages its chart alone.
func TestSameSizeEditIsRepackaged(t *testing.T) {
	cat := example(t, "ide")
	settle(t, cat)
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	before := loadIndex(t, out).Entries["vscode-python"][0].Digest
	values := filepath.Join(cat, "charts", "vscode-python", "values.yaml")
	info, err := os.Stat(values)
	if err != nil {
		t.Fatal(err)
	}
	replaceIn(t, values, "# Default values", "# Default VALUES")
	if after, err := os.Stat(values); err != nil || after.Size() != info.Size() {
		t.Fatalf("the edit changed the size: %v", err)
	}
	res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	if res.Packaged != 1 || res.Reused != res.Charts-1 {
		t.Fatalf("after a same-size edit: %d packaged, %d reused of %d", res.Packaged, res.Reused, res.Charts)
	}
	if after := loadIndex(t, out).Entries["vscode-python"][0].Digest; after == before {
		t.Error("the edited chart kept its digest")
	}
}

// A file touched without being changed is read again, and its chart keeps
// its package: same digest, same date, nothing repackaged.
func TestTouchedFileKeepsThePackage(t *testing.T) {
	cat := example(t, "ide")
	settle(t, cat)
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	index, err := os.ReadFile(filepath.Join(out, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	touched := time.Now().Add(-30 * time.Minute)
	for _, name := range []string{"Chart.yaml", "values.yaml", "README.md"} {
		if err := os.Chtimes(filepath.Join(cat, "charts", "vscode-python", name), touched, touched); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
		if res.Packaged != 0 || res.Reused != res.Charts {
			t.Fatalf("after touching files: %d packaged, %d reused of %d", res.Packaged, res.Reused, res.Charts)
		}
		again, err := os.ReadFile(filepath.Join(out, "index.yaml"))
		if err != nil || !bytes.Equal(index, again) {
			t.Fatalf("the index changed (%v):\n%s", err, again)
		}
	}
}
