// Package filetree writes directory trees for tests: files and symbolic
// links, described as a map, so that a test states the tree it needs in
// one literal.
package filetree

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Write writes files (slash path -> content) and symbolic links (slash
// path -> "->target") below dir, making directories as needed.
func Write(t testing.TB, dir string, entries map[string]string) {
	t.Helper()
	for name, content := range entries {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Copy copies a file, or a directory and what it holds, to dst: symbolic
// links as links, files with their permissions and writable by their
// owner, so that a test may change a copy of read-only data.
func Copy(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		return CopyEntry(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// CopyEntry copies one file or symbolic link as Copy does, making the
// directories above dst.
func CopyEntry(src, dst string) error {
	info, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, info.Mode().Perm()|0o200)
}
