//go:build unix

package chartrepo

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO would block its reader until a writer comes, a device never ends,
// a directory is not a package: each is refused for what it is, at once,
// and nothing is written.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.tgz")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("making a FIFO: %v", err)
	}
	cache := filepath.Join(dir, "cache")
	for src, want := range map[string]string{
		"file://" + fifo:          "a named pipe (FIFO), not a regular file",
		"file:///dev/zero":        "a character device, not a regular file",
		"file://" + dir:           "a directory, not a regular file",
		"file://" + dir + "/none": "no such file",
	} {
		err := plainClient(t).Cache(t.Context(), src, filepath.Join(cache, "p.tgz"), digestOf(nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	// The index too.
	if err := os.Mkdir(filepath.Join(dir, "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "repo", IndexFile), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, loc := range []string{filepath.Join(dir, "repo"), "/dev/zero"} {
		if _, err := plainClient(t).Index(t.Context(), loc); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("index %s: %v", loc, err)
		}
	}
	if entries, _ := os.ReadDir(cache); len(entries) > 0 {
		t.Errorf("refused reads left files: %v", entries)
	}
}
