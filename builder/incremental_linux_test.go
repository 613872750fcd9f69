package builder_test

// Only Linux gives the builder a file's change time and inode.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/builder"
)

// An edit that keeps the size and puts the modification time back, as
// `cp -p` or `rsync -t` do, is seen by the file's change time and inode.
func TestEditWithTheTimeRestoredIsRepackaged(t *testing.T) {
	for _, replace := range []bool{false, true} {
		cat := example(t, "ide")
		settle(t, cat)
		out := filepath.Join(t.TempDir(), "out")
		build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
		values := filepath.Join(cat, "charts", "vscode-python", "values.yaml")
		info, err := os.Stat(values)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(values)
		if err != nil {
			t.Fatal(err)
		}
		data[0] = '#'
		data[1] = '#'
		if replace {
			// A new file renamed over the old one: another inode.
			tmp := values + ".new"
			if err := os.WriteFile(tmp, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, values); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(values, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(values, info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
		res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
		if res.Packaged != 1 {
			t.Errorf("replaced %v: an edit with the time restored packaged %d charts, want 1", replace, res.Packaged)
		}
	}
}
