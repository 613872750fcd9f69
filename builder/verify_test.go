package builder

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// meddle runs the pipeline with a step that damages the output between
// publish and verify, as another program could, until the function it
// returns is called.
func meddle(t *testing.T, damage func(out string)) (restore func()) {
	t.Helper()
	saved := pipeline
	restore = func() { pipeline = saved }
	t.Cleanup(restore)
	i := slices.IndexFunc(saved, func(s step) bool { return s.name == "verify" })
	if i < 0 {
		t.Fatal("no verify step")
	}
	pipeline = slices.Clone(saved)
	pipeline[i].needs = []string{"meddle"}
	pipeline = slices.Insert(pipeline, i, step{name: "meddle", needs: []string{"publish"}, run: func(_ context.Context, b *build) error {
		damage(b.in.Out)
		return nil
	}})
	return restore
}

// A build whose output is damaged once in place fails, and the next one
// starts cold and heals it.
func TestVerifyCatchesADamagedOutput(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "ide")
	if err := os.CopyFS(cat, os.DirFS(filepath.Join("..", "examples", "ide"))); err != nil {
		t.Fatal(err)
	}
	remove := func(rel string) func(string) {
		return func(out string) {
			if err := os.Remove(filepath.Join(out, rel)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name   string
		damage func(out string)
		want   string
	}{
		{"package deleted", remove("vscode-python-1.2.0.tgz"), "vscode-python-1.2.0.tgz is missing"},
		{"page deleted", remove("charts/vscode-python/index.html"), "charts/vscode-python/index.html is missing"},
		{"asset deleted", remove("assets/style.css"), "assets/style.css is missing"},
		{"index replaced", func(out string) {
			p := filepath.Join(out, "index.yaml")
			os.Remove(p)
			os.WriteFile(p, []byte("apiVersion: v1\nentries: {}\n"), 0o644)
		}, "index.yaml was replaced"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "site")
			if _, err := Build(t.Context(), Options{Catalog: cat, Out: out}); err != nil {
				t.Fatal(err)
			}
			restore := meddle(t, tc.damage)
			_, err := Build(t.Context(), Options{Catalog: cat, Out: out})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "is in place but is not what this build assembled") {
				t.Fatalf("want an error saying %q, got %v", tc.want, err)
			}
			if _, err := os.Stat(statePath(out)); !os.IsNotExist(err) {
				t.Errorf("the state of a damaged output is kept: %v", err)
			}
			restore()
			res, err := Build(t.Context(), Options{Catalog: cat, Out: out})
			if err != nil {
				t.Fatalf("the next build: %v", err)
			}
			if res.Packaged != res.Charts {
				t.Errorf("the next build packaged %d of %d charts; it should start cold", res.Packaged, res.Charts)
			}
		})
	}
}
