package builder_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

// digestCatalog is a catalog where app takes base from the sources.
func digestCatalog(t *testing.T) string {
	t.Helper()
	cat := t.TempDir()
	chart := func(name, deps string) {
		writeFile(t, filepath.Join(cat, "charts", name, "Chart.yaml"), "apiVersion: v2\nname: "+name+"\nversion: 1.0.0\ndescription: A chart.\nicon: https://example.org/i.svg\n"+deps)
		writeFile(t, filepath.Join(cat, "charts", name, "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-"+name+"\n")
	}
	chart("base", "")
	chart("app", "dependencies:\n  - {name: base, version: 1.0.0, repository: file://../base}\n")
	chart("other", "")
	return cat
}

// The digests PackageDigests gives are those of the packages a build
// publishes, dependencies included; only the charts asked for are
// packaged, and nothing is left behind.
func TestPackageDigests(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cat := digestCatalog(t)
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})

	published, found, err := builder.PublishedDigests(t.Context(), nil, out)
	if err != nil || !found {
		t.Fatalf("published digests of %s: %v (found %v)", out, err, found)
	}
	idx := loadIndex(t, out)
	for _, name := range []string{"app", "base", "other"} {
		cv, err := idx.Get(name, "1.0.0")
		if err != nil || published[name]["1.0.0"] != cv.Digest || cv.Digest == "" {
			t.Fatalf("published %s 1.0.0 = %q, index says %v %v", name, published[name]["1.0.0"], cv, err)
		}
	}

	all, err := builder.PackageDigests(t.Context(), builder.Options{Catalog: cat}, func(string, string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 {
		t.Errorf("digests of every chart: %v", all)
	}
	for name, d := range all {
		if !strings.HasSuffix(published[name]["1.0.0"], d) || d == "" {
			t.Errorf("%s: packaged again %s, published %s", name, d, published[name]["1.0.0"])
		}
	}

	// A chart that cannot be packaged is not packaged unless asked for.
	writeFile(t, filepath.Join(cat, "charts", "broken", "Chart.yaml"), "apiVersion: v2\nname: broken\nversion: 1.0.0\ndependencies:\n  - {name: nowhere, version: 1.0.0, repository: file://../nowhere}\n")
	onlyApp := func(name, version string) bool { return name == "app" && version == "1.0.0" }
	got, err := builder.PackageDigests(t.Context(), builder.Options{Catalog: cat}, onlyApp)
	if err != nil {
		t.Fatalf("packaging app alone: %v", err)
	}
	if !slices.Equal(slices.Sorted(maps.Keys(got)), []string{"app"}) || got["app"] != all["app"] {
		t.Errorf("app alone: %v, want app's %s", got, all["app"])
	}
	_, err = builder.PackageDigests(t.Context(), builder.Options{Catalog: cat}, func(name, _ string) bool { return name == "broken" })
	if err == nil || !strings.Contains(err.Error(), filepath.Join("charts", "broken")) || !strings.Contains(err.Error(), "file://../nowhere") {
		t.Errorf("packaging broken: %v", err)
	}

	// A change to a dependency changes the package depending on it.
	writeFile(t, filepath.Join(cat, "charts", "base", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: changed\n")
	changed, err := builder.PackageDigests(t.Context(), builder.Options{Catalog: cat}, onlyApp)
	if err != nil || changed["app"] == "" || changed["app"] == all["app"] {
		t.Errorf("after base changed, app's digest is %q (was %q): %v", changed["app"], all["app"], err)
	}

	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}

func TestPublishedDigestsFromAServer(t *testing.T) {
	cat := digestCatalog(t)
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	srv := repotest.Serve(t, out)
	got, found, err := builder.PublishedDigests(t.Context(), nil, srv.URL)
	if err != nil || !found || len(got) != 3 || got["app"]["1.0.0"] == "" {
		t.Errorf("from %s: %v, found %v, %v", srv.URL, got, found, err)
	}
	// Nothing published yet: no index, and no error.
	empty := repotest.Serve(t, t.TempDir())
	got, found, err = builder.PublishedDigests(t.Context(), nil, empty.URL)
	if err != nil || found || len(got) != 0 {
		t.Errorf("from an empty server: %v, found %v, %v", got, found, err)
	}
	// A file that is not there is a mistake, not a first publication.
	_, _, err = builder.PublishedDigests(t.Context(), nil, filepath.Join(t.TempDir(), "index.yaml"))
	if err == nil || !strings.Contains(err.Error(), "published index") {
		t.Errorf("a missing file: %v", err)
	}
}
