package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/catalogist/catalogist/"

// layers is the order of docs/architecture.md: a package imports only
// packages of its own layer or of the layers before it.
var layers = []string{
	"internal/base", "internal/input", "internal/model", "lint",
	"internal/output", "builder", "internal/publish", "internal/target", "internal/action", "cmd",
}

func layerOf(pkg string) int {
	for i, l := range layers {
		if pkg == l || strings.HasPrefix(pkg, l+"/") {
			return i
		}
	}
	return -1
}

// TestImportsFollowTheLayers holds the promise of docs/architecture.md that
// nothing imports a package listed after its own.
func TestImportsFollowTheLayers(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "tools" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		from := layerOf(filepath.ToSlash(rel))
		if from < 0 {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			pkg, ok := strings.CutPrefix(p, module)
			if !ok {
				continue
			}
			if to := layerOf(pkg); to > from {
				t.Errorf("%s imports %s, which docs/architecture.md lists after it", filepath.ToSlash(rel), pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestArchitectureListsEveryPackage checks that docs/architecture.md gives
// each package under internal/ one line under its group's heading, and
// names none that is gone.
func TestArchitectureListsEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile("^### `(internal/[a-z]+)`")
	entry := regexp.MustCompile("^- `([a-z]+)`:")
	listed := map[string]bool{}
	group := ""
	for line := range strings.SplitSeq(string(data), "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			group = m[1]
		} else if strings.HasPrefix(line, "#") {
			group = ""
		} else if m := entry.FindStringSubmatch(line); m != nil && group != "" {
			listed[group+"/"+m[1]] = true
		}
	}
	groups, err := filepath.Glob(filepath.Join(root, "internal", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, g := range groups {
		if info, err := os.Stat(g); err == nil && info.IsDir() {
			rel, _ := filepath.Rel(root, g)
			have = append(have, filepath.ToSlash(rel))
		}
	}
	if len(have) == 0 {
		t.Fatal("no package under internal/*/")
	}
	// A group that is one package (internal/action) lists itself.
	singles, err := filepath.Glob(filepath.Join(root, "internal", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range singles {
		rel, _ := filepath.Rel(root, filepath.Dir(f))
		if p := filepath.ToSlash(rel) + "/" + filepath.Base(rel); !slices.Contains(have, p) {
			have = append(have, p)
		}
	}
	for _, p := range have {
		if !listed[p] {
			t.Errorf("docs/architecture.md does not list %s under the heading of its group", p)
		}
		delete(listed, p)
	}
	for p := range listed {
		t.Errorf("docs/architecture.md lists %s, which does not exist", p)
	}
}

// TestRootEntries keeps the repository's root short enough to read at a
// glance: at most 20 entries, the ones docs/architecture.md describes.
func TestRootEntries(t *testing.T) {
	out, err := exec.Command("git", "-C", filepath.Join("..", ".."), "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files at the module root: %v", err)
	}
	var entries []string
	for f := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		first, _, _ := strings.Cut(f, "/")
		if !slices.Contains(entries, first) {
			entries = append(entries, first)
		}
	}
	if len(entries) > 20 {
		t.Errorf("the root has %d entries, more than 20: %s", len(entries), strings.Join(entries, " "))
	}
}
