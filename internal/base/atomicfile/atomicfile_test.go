package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "index.yaml")
	if err := WriteBytes(p, 0o644, []byte("first")); err != nil {
		t.Fatal(err)
	}
	// A failing writer leaves the previous file whole and no temporary file.
	boom := errors.New("boom")
	err := Write(p, 0o644, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want boom", err)
	}
	if data, _ := os.ReadFile(p); string(data) != "first" {
		t.Errorf("after a failed write the file holds %q", data)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	if err := WriteBytes(p, 0o600, []byte("second")); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	if data, _ := os.ReadFile(p); string(data) != "second" || st.Mode().Perm() != 0o600 {
		t.Errorf("file %q mode %v", data, st.Mode().Perm())
	}
	if err := WriteBytes(filepath.Join(dir, "missing", "x"), 0o644, nil); err == nil {
		t.Errorf("a write into a missing directory succeeded")
	}
}
