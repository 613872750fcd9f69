package filetree_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{"a/b.txt": "hello", "a/link": "->b.txt"})
	if data, err := os.ReadFile(filepath.Join(dir, "a", "link")); err != nil || string(data) != "hello" {
		t.Fatalf("through the link: %q, %v", data, err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "a", "link")); err != nil || target != "b.txt" {
		t.Fatalf("link target %q, %v", target, err)
	}
}
