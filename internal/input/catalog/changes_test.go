package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// changeCatalog is a catalog whose charts share files in every way a
// change can reach a chart: a library two charts depend on (by file:// and
// by the catalog's own address), a chart depending on one of those, a
// helper linked from elsewhere in the repository, and catalog.yaml's
// registry and icons.
func changeCatalog(t *testing.T) (string, *Catalog) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	filetree.Write(t, dir, map[string]string{
		"catalog.yaml":                      "name: c\nbaseURL: https://example.org/c/\nschemaRegistry: schemas\n",
		"schemas/r.json":                    "{}",
		"icons/a.svg":                       "<svg/>",
		"shared/_helpers.tpl":               "{{/* shared */}}",
		"charts/lib/Chart.yaml":             "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n",
		"charts/lib/templates/_lib.tpl":     "x",
		"charts/a/Chart.yaml":               "apiVersion: v2\nname: a\nversion: 1.0.0\ndependencies:\n  - {name: lib, version: 1.0.0, repository: file://../lib}\n",
		"charts/b/Chart.yaml":               "apiVersion: v2\nname: b\nversion: 1.0.0\ndependencies:\n  - {name: lib, version: 1.0.0, repository: https://example.org/c}\n",
		"charts/c/Chart.yaml":               "apiVersion: v2\nname: c\nversion: 1.0.0\ndependencies:\n  - {name: a, version: 1.0.0, repository: file://../a}\n",
		"charts/d/Chart.yaml":               "apiVersion: v2\nname: d\nversion: 1.0.0\ndependencies:\n  - {name: lib, version: 1.0.0, repository: https://charts.example.com}\n",
		"charts/d/templates/_helpers.tpl":   "->../../../shared/_helpers.tpl",
		"charts/e/Chart.yaml":               "apiVersion: v2\nname: e\nversion: 1.0.0\n",
		"charts/e/templates/deployment.yml": "kind: Deployment",
	})
	cat, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, cat
}

func names(set map[*Chart]bool) []string {
	var out []string
	for ch, ok := range set {
		if ok {
			out = append(out, ch.Name)
		}
	}
	slices.Sort(out)
	return out
}

func TestTouched(t *testing.T) {
	dir, cat := changeCatalog(t)
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	all := []string{"a", "b", "c", "d", "e", "lib"}
	for _, tc := range []struct {
		name    string
		changed []string
		shared  []string
		want    []string
	}{
		{"a template", []string{p("charts/e/templates/deployment.yml")}, nil, []string{"e"}},
		{"a deleted file", []string{p("charts/e/templates/gone.yaml")}, nil, []string{"e"}},
		{"a new chart's files", []string{p("charts/lib/templates/_lib.tpl"), p("charts/a/Chart.yaml")}, nil, []string{"a", "lib"}},
		{"a linked helper", []string{p("shared/_helpers.tpl")}, nil, []string{"d"}},
		{"elsewhere", []string{p("README.md"), p("shared/other.tpl")}, nil, nil},
		{"catalog.yaml", []string{p("catalog.yaml")}, nil, all},
		{"the registry", []string{p("schemas/r.json")}, nil, all},
		{"an icon", []string{p("icons/a.svg")}, nil, all},
		{"a shared file", []string{p("region.yaml")}, []string{p("region.yaml")}, all},
		{"in a shared directory", []string{p("more/x.json")}, []string{p("more")}, all},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := cat.Touched(tc.changed, tc.shared)
			if err != nil {
				t.Fatal(err)
			}
			if n := names(got); !slices.Equal(n, tc.want) {
				t.Errorf("touched %q, want %q", n, tc.want)
			}
		})
	}

	// A chart reached through a link to its directory is matched by where
	// it is.
	if err := os.Symlink(p("charts/e"), p("e-link")); err != nil {
		t.Fatal(err)
	}
	linked, err := Discover(p("e-link"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := linked.Touched([]string{p("charts/e/templates/deployment.yml")}, nil)
	if err != nil || len(got) != 1 || !got[linked.Charts[0]] {
		t.Errorf("through a link: %q, %v", names(got), err)
	}
}

func TestWithDependents(t *testing.T) {
	_, cat := changeCatalog(t)
	by := map[string]*Chart{}
	for _, ch := range cat.Charts {
		by[ch.Name] = ch
	}
	for _, tc := range []struct {
		given, want []string
	}{
		// a by file://, b by the catalog's address, c through a; d takes
		// lib from another repository.
		{[]string{"lib"}, []string{"a", "b", "c", "lib"}},
		{[]string{"a"}, []string{"a", "c"}},
		{[]string{"c", "e"}, []string{"c", "e"}},
		{nil, nil},
	} {
		given := map[*Chart]bool{}
		for _, n := range tc.given {
			given[by[n]] = true
		}
		if got := names(cat.WithDependents(given)); !slices.Equal(got, tc.want) {
			t.Errorf("with the dependents of %q: %q, want %q", tc.given, got, tc.want)
		}
	}
	// A Chart.yaml that cannot be read may depend on anything.
	if err := os.WriteFile(by["e"].ChartFile, []byte("dependencies: {"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := names(cat.WithDependents(map[*Chart]bool{by["a"]: true})); !slices.Equal(got, []string{"a", "c", "e"}) {
		t.Errorf("with a broken Chart.yaml: %q", got)
	}
}

func TestLocalDependency(t *testing.T) {
	from := &Chart{Dir: "cat/charts/a"}
	dep := &Chart{Dir: "cat/charts/lib"}
	for _, tc := range []struct {
		repository, repoURL string
		want                bool
	}{
		{"file://../lib", "", true},
		{"file://../lib/", "", true},
		{"file://../../charts/lib", "", true},
		{"file://../other", "", false},
		{"https://example.org/c/", "https://example.org/c", true},
		{"https://example.org/c", "https://example.org/c/", true},
		{"https://example.org/c", "", false},
		{"", "", false},
		{"https://example.org/other", "https://example.org/c", false},
	} {
		if got := LocalDependency(from, dep, tc.repository, tc.repoURL); got != tc.want {
			t.Errorf("LocalDependency(%q, %q) = %v, want %v", tc.repository, tc.repoURL, got, tc.want)
		}
	}
}
