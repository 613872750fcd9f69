package builder

import (
	"os"
	"path/filepath"
	"testing"
)

// swap is how publish replaces the output where directories cannot be
// exchanged: the previous output must end up aside, whole, for the next
// build to recycle.
func TestSwapKeepsThePreviousOutput(t *testing.T) {
	dir := t.TempDir()
	stage, out, old := filepath.Join(dir, "stage"), filepath.Join(dir, "out"), filepath.Join(dir, "old")
	for p, content := range map[string]string{filepath.Join(stage, "f"): "new", filepath.Join(out, "f"): "previous"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := swap(stage, out, old); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{filepath.Join(out, "f"): "new", filepath.Join(old, "f"): "previous"} {
		if got, err := os.ReadFile(p); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
	if _, err := os.Stat(stage); !os.IsNotExist(err) {
		t.Errorf("the staging directory is still there: %v", err)
	}
}
