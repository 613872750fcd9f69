package chartload_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

const repoURL = "https://example-org.github.io/catalog"

// catalog writes a catalog: web depends on lib by the catalog's address,
// on tools by file://, on db from another repository, and vendors cache
// under charts/ as a directory and queue as an archive.
func catalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"lib/Chart.yaml":         "apiVersion: v2\nname: lib\nversion: 2.1.0\ntype: library\n",
		"lib/templates/_x.tpl":   "{{- define \"lib.x\" }}x{{ end }}\n",
		"tools/Chart.yaml":       "apiVersion: v2\nname: tools\nversion: 0.3.0\n",
		"tools/templates/t.yaml": "kind: T\n",
		"web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 1.0.0\ndependencies:\n" +
			"  - {name: lib, version: ~2.1.0, repository: " + repoURL + "}\n" +
			"  - {name: tools, version: 0.3.0, repository: \"file://../tools\", alias: kit}\n" +
			"  - {name: cache, version: 1.0.0, repository: https://charts.example.org}\n" +
			"  - {name: queue, version: 3.0.0, repository: https://charts.example.org}\n",
		"web/charts/cache-dir/Chart.yaml":       "apiVersion: v2\nname: cache\nversion: 1.0.0\n",
		"web/charts/cache-dir/templates/c.yaml": "kind: C\n",
		"web/templates/w.yaml":                  "kind: W\n",
	})
	writeArchive(t, filepath.Join(dir, "web", "charts"), "queue", "3.0.0")
	return dir
}

// writeArchive packages a small chart into dir as NAME-VERSION.tgz.
func writeArchive(t *testing.T, dir, name, version string) string {
	t.Helper()
	src := t.TempDir()
	filetree.Write(t, src, map[string]string{
		"Chart.yaml":       "apiVersion: v2\nname: " + name + "\nversion: " + version + "\n",
		"templates/q.yaml": "kind: Q\n",
	})
	hc, err := loader.LoadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := chartutil.Save(hc, dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// local designates the catalog's charts as a build does: by file:// path,
// or by name at the catalog's address.
func local(dir string) func(from, name, repository string) (string, bool) {
	return func(from, name, repository string) (string, bool) {
		if p, ok := strings.CutPrefix(repository, "file://"); ok {
			return filepath.Join(from, p), true
		}
		if repository == repoURL {
			return filepath.Join(dir, name), true
		}
		return "", false
	}
}

func repoDir(cache, repository string) string {
	sum := sha256.Sum256([]byte(repository))
	return filepath.Join(cache, hex.EncodeToString(sum[:8]))
}

func TestLoad(t *testing.T) {
	dir := catalog(t)
	cache := t.TempDir()
	writeArchive(t, repoDir(cache, "https://charts.example.org"), "db", "0.9.0")
	l := &chartload.Loader{Local: local(dir), Remote: chartload.Cache{Dir: cache}.Load}
	hc, origin, err := l.Load(context.Background(), filepath.Join(dir, "web"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range hc.Dependencies() {
		names = append(names, d.Name()+"@"+d.Metadata.Version)
	}
	// Helm's loader gives the vendored charts in no set order.
	slices.Sort(names)
	if strings.Join(names, " ") != "cache@1.0.0 lib@2.1.0 queue@3.0.0 tools@0.3.0" {
		t.Errorf("dependencies %v", names)
	}
	for _, tc := range []struct{ tpl, file, archive, in string }{
		{"web/templates/w.yaml", filepath.Join(dir, "web/templates/w.yaml"), "", "templates/w.yaml"},
		{"web/charts/lib/templates/_x.tpl", filepath.Join(dir, "lib/templates/_x.tpl"), "", "templates/_x.tpl"},
		{"web/charts/kit/templates/t.yaml", filepath.Join(dir, "tools/templates/t.yaml"), "", "templates/t.yaml"},
		{"web/charts/cache/templates/c.yaml", filepath.Join(dir, "web/charts/cache-dir/templates/c.yaml"), "", "templates/c.yaml"},
		{"web/charts/queue/templates/q.yaml", "", filepath.Join(dir, "web/charts/queue-3.0.0.tgz"), "templates/q.yaml"},
	} {
		file, archive, in, ok := origin.Locate(tc.tpl)
		if !ok || file != tc.file || archive != tc.archive || in != tc.in {
			t.Errorf("Locate(%s) = %q %q %q %v, want %q %q %q", tc.tpl, file, archive, in, ok, tc.file, tc.archive, tc.in)
		}
	}
	if _, _, _, ok := origin.Locate("web/charts/nothing/templates/x.yaml"); ok {
		t.Error("a template of no dependency was located")
	}
}

// The cache gives the version Chart.lock pins, else the newest within the
// range; what it lacks is a MissingError naming the cache.
func TestCache(t *testing.T) {
	cache := t.TempDir()
	const repo = "https://charts.example.org"
	for _, v := range []string{"1.2.0", "1.4.1", "2.0.0"} {
		writeArchive(t, repoDir(cache, repo), "db", v)
	}
	writeArchive(t, repoDir(cache, repo), "db-proxy", "1.9.0")
	c := chartload.Cache{Dir: cache}
	from := t.TempDir()
	get := func(version string) (*chart.Chart, error) {
		hc, _, err := c.Load(context.Background(), from, &chart.Dependency{Name: "db", Version: version, Repository: repo})
		return hc, err
	}
	if hc, err := get("~1.2 || ^1.3"); err != nil || hc.Metadata.Version != "1.4.1" {
		t.Errorf("newest within the range: %v %v", hc, err)
	}
	if hc, err := get(""); err != nil || hc.Metadata.Version != "2.0.0" {
		t.Errorf("any version: %v %v", hc, err)
	}
	_, err := get("^3")
	me, ok := chartload.IsMissing(err)
	if !ok || me.CacheDir != repoDir(cache, repo) || !strings.Contains(err.Error(), "dependency db ^3 from https://charts.example.org is not in the catalog nor in the dependency cache") {
		t.Errorf("missing: %v", err)
	}
	filetree.Write(t, from, map[string]string{"Chart.lock": "dependencies:\n- {name: db, version: 1.2.0, repository: " + repo + "/}\n"})
	if hc, err := get("^1"); err != nil || hc.Metadata.Version != "1.2.0" {
		t.Errorf("the locked version: %v %v", hc, err)
	}
	for _, r := range []string{"oci://registry.example.org/charts", "file://../elsewhere", "@stable"} {
		_, _, err := c.Load(context.Background(), from, &chart.Dependency{Name: "db", Repository: r})
		if _, missing := chartload.IsMissing(err); err == nil || missing {
			t.Errorf("%s: %v", r, err)
		}
	}
}

// A chart of the catalog is taken when it satisfies the range; an older
// version at the catalog's address comes from the published repository
// (here the cache), and a file:// dependency out of range is an error.
func TestLocalVersions(t *testing.T) {
	dir := catalog(t)
	cache := t.TempDir()
	writeArchive(t, repoDir(cache, "https://charts.example.org"), "db", "0.9.0")
	writeArchive(t, repoDir(cache, repoURL), "lib", "2.0.1")
	filetree.Write(t, dir, map[string]string{"old/Chart.yaml": "apiVersion: v2\nname: old\nversion: 1.0.0\ndependencies:\n  - {name: lib, version: 2.0.1, repository: " + repoURL + "}\n"})
	l := &chartload.Loader{Local: local(dir), Remote: chartload.Cache{Dir: cache}.Load}
	hc, origin, err := l.Load(context.Background(), filepath.Join(dir, "old"))
	if err != nil || hc.Dependencies()[0].Metadata.Version != "2.0.1" {
		t.Fatalf("the published version: %v", err)
	}
	if _, archive, _, _ := origin.Locate("old/charts/lib/templates/_x.tpl"); archive != filepath.Join(repoDir(cache, repoURL), "lib-2.0.1.tgz") {
		t.Errorf("archive %q", archive)
	}
	filetree.Write(t, dir, map[string]string{"pinned/Chart.yaml": "apiVersion: v2\nname: pinned\nversion: 1.0.0\ndependencies:\n  - {name: tools, version: 9.0.0, repository: \"file://../tools\"}\n"})
	_, _, err = l.Load(context.Background(), filepath.Join(dir, "pinned"))
	var de *chartload.DependencyError
	if !errors.As(err, &de) || de.Name != "tools" || !strings.Contains(err.Error(), "outside \"9.0.0\"") {
		t.Errorf("file:// out of range: %v", err)
	}
	filetree.Write(t, dir, map[string]string{"loop/Chart.yaml": "apiVersion: v2\nname: loop\nversion: 1.0.0\ndependencies:\n  - {name: loop, version: 1.0.0, repository: \"file://.\"}\n"})
	if _, _, err := l.Load(context.Background(), filepath.Join(dir, "loop")); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("a cycle: %v", err)
	}
}

// A name or a version from a catalog's Chart.yaml or Chart.lock never leads
// out of the cache.
func TestCacheStaysInside(t *testing.T) {
	cache := t.TempDir()
	from := t.TempDir()
	outside := writeArchive(t, t.TempDir(), "db", "1.0.0")
	filetree.Write(t, from, map[string]string{"Chart.lock": "dependencies:\n- {name: db, version: \"../../" + filepath.Base(filepath.Dir(outside)) + "/db-1.0.0\", repository: https://charts.example.org}\n"})
	_, _, err := chartload.Cache{Dir: cache}.Load(context.Background(), from, &chart.Dependency{Name: "db", Repository: "https://charts.example.org"})
	if err == nil || !strings.Contains(err.Error(), "does not name a package file") {
		t.Errorf("a locked version with a path: %v", err)
	}
	for _, tc := range [][2]string{{"../db", "1.0.0"}, {"db", "1.0.0/../../x"}, {`db\x`, "1"}, {"", "1"}} {
		if _, err := chartload.PackagePath(cache, tc[0], tc[1]); err == nil {
			t.Errorf("PackagePath(%q, %q) accepted", tc[0], tc[1])
		}
	}
	if p, err := chartload.PackagePath(cache, "db", "1.0.0+build.1"); err != nil || p != filepath.Join(cache, "db-1.0.0+build.1.tgz") {
		t.Errorf("a plain name and version: %q %v", p, err)
	}
}
