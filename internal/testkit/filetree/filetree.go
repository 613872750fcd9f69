// Package filetree writes directory trees for tests: files and symbolic
// links, described as a map, so that a test states the tree it needs in
// one literal.
package filetree

import (
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
