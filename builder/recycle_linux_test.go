package builder_test

// The output directory is identified (device and inode) only on Linux, so
// this test is built only there.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/builder"
)

// A build killed after publishing but before recording its state leaves
// the state of the output before: its packages, pages and dates must not be
// taken for the published output's.
func TestStaleStateIsNotTrusted(t *testing.T) {
	cat := example(t, "automation")
	out := filepath.Join(t.TempDir(), "out")
	opt := builder.Options{Catalog: cat, Out: out, Now: at(t1)}
	build(t, opt)
	statePath := filepath.Join(filepath.Dir(out), ".catalogist-state-out.json")
	first, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	values := filepath.Join(cat, "charts", "mlflow", "values.yaml")
	original, err := os.ReadFile(values)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, values, string(original)+"# changed\n")
	build(t, opt)
	// The state of the first build, and its sources again: the package
	// of the same name in the output is the second build's.
	writeFile(t, statePath, string(first))
	writeFile(t, values, string(original))
	build(t, opt)
	cold := filepath.Join(t.TempDir(), "cold")
	build(t, builder.Options{Catalog: cat, Out: cold, Now: at(t1)})
	sameListing(t, "after a stale state", listing(t, cold), listing(t, out))
}

// Icons are not examined again while unchanged, and a changed one shows.
