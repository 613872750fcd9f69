package catalog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// FuzzParseConfig reads arbitrary catalog.yaml documents: no panic, and a
// refusal is a positioned error (what the CLI prints as file:line:col).
func FuzzParseConfig(f *testing.F) {
	matches, _ := filepath.Glob("../../../testdata/*/catalog.yaml")
	more, _ := filepath.Glob("../../../examples/*/catalog.yaml")
	for _, m := range append(matches, more...) {
		if data, err := os.ReadFile(m); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("platform: onyxia\nschemaRegistry: [a, b]\nlint:\n  rules: {slider-grid: off}\n  ignore:\n    - {rule: x, charts: [\"*\"], option: \"a/[b\"}\n"))
	f.Add([]byte("lint: {ignore: [{}], rules: [1]}\nplatform: [onyxia]\n"))
	f.Add([]byte("artifacthub:\n  repositoryID: 5c1e3f0a-8d4b-4c59-9b43-3f3bd1a6e0a2\n  owners:\n    - {name: jane, email: jane@example.org}\n    - email: [x]\n"))
	f.Add([]byte("artifacthub: {owners: [a, {mail: b}, {}], repositoryId: 1}\n"))
	f.Add([]byte("platformURL: https://datalab.example.org\nplatformCatalogID: ide\n"))
	f.Add([]byte("platformURL: https://u:p@x\nplatformCatalogID: [a]\n"))
	f.Add([]byte("platformCatalogID: ide\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data)
		if err != nil {
			var de *srcpos.Error
			if !errors.As(err, &de) || !de.Pos.IsValid() {
				t.Fatalf("refusal without a position: %v", err)
			}
			return
		}
		if cfg == nil {
			t.Fatal("no config and no error")
		}
	})
}

// FuzzContain makes symbolic links with arbitrary targets in a catalog and
// asks Contain about arbitrary paths, and ChartFiles about a chart: neither
// may ever accept a file that is not, physically, below the catalog's root,
// and ChartFiles must end whatever the links.
func FuzzContain(f *testing.F) {
	f.Add("charts/a/env.txt", "/proc/self/environ", "charts/a/t/up", "..", "charts/a/env.txt")
	f.Add("charts/a/h.tpl", "../../../../shared/h.tpl", "shared/out", "../../outside", "shared/out/s.txt")
	f.Add("charts/a/o", "../../../outside", "charts/a/t/l", "../o/d", "charts/a/t/l/f.txt")
	f.Add("charts/a/t/x", "../../../shared", "shared/back", "../charts/a/t", "../outside/s.txt")
	f.Add("icons", "../outside/d", "charts/a/self", "self", "icons/../charts/a/Chart.yaml")
	f.Add("charts/a/t/abs", "/", "charts/a/t/dot", ".", "charts/a/t/abs/etc/passwd")
	f.Fuzz(func(t *testing.T, link1, target1, link2, target2, query string) {
		top := t.TempDir()
		filetree.Write(t, top, map[string]string{
			"outside/s.txt":           "secret",
			"outside/d/f.txt":         "secret",
			"cat/catalog.yaml":        "name: c\n",
			"cat/shared/h.tpl":        "h",
			"cat/charts/a/Chart.yaml": "apiVersion: v2\nname: a\nversion: 1.0.0\n",
			"cat/charts/a/t/x.tpl":    "x",
		})
		root, err := filepath.EvalSymlinks(filepath.Join(top, "cat"))
		if err != nil {
			t.Fatal(err)
		}
		realTop, err := filepath.EvalSymlinks(top)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range [][2]string{{link1, target1}, {link2, target2}} {
			name, target := l[0], l[1]
			if !filepath.IsLocal(name) || len(name) > 64 || len(target) > 64 || strings.ContainsRune(target, 0) || target == "" {
				continue
			}
			// Links are only made in directories of the test's own tree,
			// whatever the links made before lead to.
			parent, err := filepath.EvalSymlinks(filepath.Dir(filepath.Join(root, name)))
			if err != nil || !within(realTop, parent) {
				continue
			}
			_ = os.Symlink(target, filepath.Join(parent, filepath.Base(name)))
		}
		var inside []os.FileInfo
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				if info, err := os.Lstat(p); err == nil {
					inside = append(inside, info)
				}
			}
			return nil
		})
		below := func(p string) bool {
			info, err := os.Stat(p)
			if err != nil {
				return false
			}
			for _, in := range inside {
				if os.SameFile(in, info) {
					return true
				}
			}
			return false
		}
		cat := &Catalog{Dir: filepath.Join(top, "cat")}
		if len(query) <= 128 && !strings.ContainsRune(query, 0) {
			q := filepath.Join(top, "cat", query)
			resolved, err := cat.Contain(q)
			if err == nil && (!below(q) || !below(resolved) || !within(root, resolved)) {
				t.Fatalf("Contain(%s) accepted %s, which is not below the catalog %s", q, resolved, root)
			}
			var esc *EscapeError
			if errors.As(err, &esc) && esc.Reason == Outside && esc.Resolved != "" && below(esc.Resolved) {
				t.Fatalf("Contain(%s) refused %s as outside, yet it is below the catalog", q, esc.Resolved)
			}
		}
		files, _, err := cat.ChartFiles(filepath.Join(top, "cat", "charts", "a"))
		if err != nil {
			return
		}
		for _, cf := range files {
			if !below(cf.Path) {
				t.Fatalf("ChartFiles listed %s (%s), which is not below the catalog", cf.Rel, cf.Path)
			}
		}
	})
}

// FuzzDiscover reads a catalog with an arbitrary catalog.yaml: a refusal
// names catalog.yaml with a line and a column, and an accepted icons
// directory does not lead outside the catalog.
func FuzzDiscover(f *testing.F) {
	f.Add([]byte("iconsDir: ../..\n"))
	f.Add([]byte("iconsDir: /\n"))
	f.Add([]byte("iconsDir: out/icons\n"))
	f.Add([]byte("iconsDir: icons\nname: x\n"))
	f.Add([]byte("iconsDir: [a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		top := t.TempDir()
		filetree.Write(t, top, map[string]string{
			"outside/icons/a.svg":     "<svg/>",
			"cat/out":                 "->../outside",
			"cat/icons/a.svg":         "<svg/>",
			"cat/charts/a/Chart.yaml": "apiVersion: v2\nname: a\nversion: 1.0.0\n",
		})
		dir := filepath.Join(top, "cat")
		if err := os.WriteFile(filepath.Join(dir, ConfigFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		cat, err := Discover(dir)
		if err != nil {
			prefix := filepath.Join(dir, ConfigFile) + ":"
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Fatalf("refusal without catalog.yaml's position: %v", err)
			}
			return
		}
		// Other failures (a path through a file) only mean no icons.
		var esc *EscapeError
		if _, err := cat.Contain(cat.IconsDir()); errors.As(err, &esc) {
			t.Fatalf("accepted iconsDir %q: %v", cat.Config.IconsDir, err)
		}
	})
}
