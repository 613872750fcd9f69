package builder_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// releasedCatalog is the databases example with a library chart and a
// chart depending on it, as reference catalogs depend on theirs.
func releasedCatalog(t *testing.T) string {
	t.Helper()
	cat := example(t, "databases")
	filetree.Write(t, cat, map[string]string{
		"charts/lib/Chart.yaml":         "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\ndescription: Shared templates.\nicon: https://example.org/i.svg\n",
		"charts/lib/templates/_lib.tpl": `{{- define "lib.name" -}}lib{{- end -}}`,
		"charts/app/Chart.yaml":         "apiVersion: v2\nname: app\nversion: 2.0.0\ndescription: An app.\nicon: https://example.org/i.svg\nkeywords: [app]\ndependencies:\n  - name: lib\n    version: ^1.0.0\n    repository: file://../lib\n",
		"charts/app/templates/cm.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include \"lib.name\" . }}\n",
	})
	return cat
}

// sameEntries fails unless every version of want is in got with the same
// URLs, digest and creation date.
func sameEntries(t *testing.T, got, want *repo.IndexFile) {
	t.Helper()
	n := 0
	for name, cvs := range want.Entries {
		for _, w := range cvs {
			n++
			g, err := got.Get(name, w.Version)
			if err != nil || g.Version != w.Version {
				t.Errorf("%s %s: not kept (%v)", name, w.Version, err)
				continue
			}
			if strings.Join(g.URLs, " ") != strings.Join(w.URLs, " ") || g.Digest != w.Digest || !g.Created.Equal(w.Created) {
				t.Errorf("%s %s: kept as %v %s %v, published as %v %s %v", name, w.Version, g.URLs, g.Digest, g.Created, w.URLs, w.Digest, w.Created)
			}
		}
	}
	if n < 4 {
		t.Fatalf("%d versions published, want the four charts'", n)
	}
}

// A catalog chart-releaser published, with Helm 3 or Helm 4, is taken over
// as it is: build --merge and lint --published keep every untouched
// published version with its URL, digest and creation date, fetching each
// package once; a chart changed without a version bump is refused, naming
// the file changed and the published package; a package that cannot be
// fetched is an error, never the same content.
func TestChartReleaserCatalogIsTakenOver(t *testing.T) {
	for _, major := range []int{3, 4} {
		t.Run(fmt.Sprintf("helm%d", major), func(t *testing.T) {
			cat := releasedCatalog(t)
			root := t.TempDir()
			assets, pages := filepath.Join(root, "assets"), filepath.Join(root, "pages")
			if err := os.MkdirAll(assets, 0o755); err != nil {
				t.Fatal(err)
			}
			gh := repotest.Serve(t, assets)
			tooltest.NewHelm(t, major).ChartRelease(t, cat, filepath.Join(pages, "index.yaml"),
				func(tag string) string { return gh.URL + "/releases/download/" + tag },
				func(tag, file string, data []byte) {
					writeFile(t, filepath.Join(assets, "releases", "download", tag, file), string(data))
				})
			site := repotest.Serve(t, pages)
			published := loadIndex(t, pages)
			cache := t.TempDir()

			out := filepath.Join(t.TempDir(), "site")
			opt := builder.Options{Catalog: cat, Out: out, Merge: site.URL, CacheDir: cache, Now: at(t2)}
			build(t, opt)
			sameEntries(t, loadIndex(t, out), published)
			fetched := len(gh.Requests())
			if fetched != 4 {
				t.Errorf("%d requests for packages, want one for each of the 4: %v", fetched, gh.Requests())
			}
			// Again, from scratch: the packages compared are in the cache.
			build(t, builder.Options{Catalog: cat, Out: filepath.Join(t.TempDir(), "again"), Merge: site.URL, CacheDir: cache, Now: at(t2)})
			if len(gh.Requests()) != fetched {
				t.Errorf("packages fetched again: %v", gh.Requests()[fetched:])
			}

			c, err := catalog.Discover(cat)
			if err != nil {
				t.Fatal(err)
			}
			compared, found, err := builder.ComparePublished(t.Context(), []*catalog.Catalog{c}, site.URL, builder.Options{CacheDir: cache})
			if err != nil || !found || len(compared) != 4 {
				t.Fatalf("compared %v, found %v: %v", compared, found, err)
			}
			for ch, pv := range compared {
				if pv.File != "" || !strings.HasPrefix(pv.URL, gh.URL+"/releases/download/") {
					t.Errorf("%s: %+v, want the same content", ch.Name, pv)
				}
			}

			// The library changes without a bump: it and the chart
			// packaging it are refused, naming the file.
			writeFile(t, filepath.Join(cat, "charts", "lib", "templates", "_lib.tpl"), `{{- define "lib.name" -}}library{{- end -}}`)
			_, err = builder.Build(t.Context(), opt)
			var ce *repoindex.ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("a changed library: %v, want a conflict", err)
			}
			for _, want := range []string{
				`chart "app" version 2.0.0 is already published (` + gh.URL + `/releases/download/app-2.0.0/app-2.0.0.tgz) with other content: charts/lib/templates/_lib.tpl differs`,
				`chart "lib" version 1.0.0 is already published (` + gh.URL + `/releases/download/lib-1.0.0/lib-1.0.0.tgz) with other content: templates/_lib.tpl differs`,
				"bump the chart version",
			} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%v\ndoes not say %q", err, want)
				}
			}
			sameEntries(t, loadIndex(t, out), published)
			compared, _, err = builder.ComparePublished(t.Context(), []*catalog.Catalog{c}, site.URL, builder.Options{CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			for ch, pv := range compared {
				want := map[string]string{"lib": "templates/_lib.tpl", "app": "charts/lib/templates/_lib.tpl"}[ch.Name]
				if pv.File != want {
					t.Errorf("%s: differs by %q, want %q", ch.Name, pv.File, want)
				}
			}

			// A published package that is not there, or a server that
			// does not answer: an error naming the package, never the
			// same content.
			if err := os.Remove(filepath.Join(assets, "releases", "download", "lib-1.0.0", "lib-1.0.0.tgz")); err != nil {
				t.Fatal(err)
			}
			opt.CacheDir = t.TempDir()
			_, err = builder.Build(t.Context(), opt)
			if !chartrepo.NotFound(err) || !strings.Contains(err.Error(), "/releases/download/lib-1.0.0/lib-1.0.0.tgz") || !strings.Contains(err.Error(), "not there") {
				t.Errorf("a missing package: %v", err)
			}
			gh.Close()
			_, _, err = builder.ComparePublished(t.Context(), []*catalog.Catalog{c}, site.URL, builder.Options{CacheDir: t.TempDir()})
			var ne *chartrepo.NetworkError
			if !errors.As(err, &ne) {
				t.Errorf("a server down: %v, want a network error", err)
			}
		})
	}
}

// A catalog whose packages are published beside its index, as `helm repo
// index` lists them (relative URLs), keeps them: the output holds the
// published packages, not its own, so the index's digests are the files',
// and a build into the same output without merging keeps them too.
func TestRelativePublishedPackagesAreKept(t *testing.T) {
	cat := releasedCatalog(t)
	helm := tooltest.NewHelm(t, 4)
	work := filepath.Join(t.TempDir(), "work")
	filetree.Copy(t, cat, work)
	pages := t.TempDir()
	helm.Run(t, "dependency", "build", filepath.Join(work, "charts", "app"))
	for _, name := range []string{"app", "lib", "postgresql", "redis"} {
		helm.Run(t, "package", filepath.Join(work, "charts", name), "--destination", pages)
	}
	helm.Run(t, "repo", "index", pages)
	published := loadIndex(t, pages)

	out := filepath.Join(t.TempDir(), "site")
	build(t, builder.Options{Catalog: cat, Out: out, Merge: pages, CacheDir: t.TempDir(), Now: at(t2)})
	sameEntries(t, loadIndex(t, out), published)
	for _, cvs := range published.Entries {
		for _, cv := range cvs {
			if got := chartrepo.FileDigest(filepath.Join(out, cv.URLs[0])); got != cv.Digest {
				t.Errorf("%s in the output has digest %s, the index says %s", cv.URLs[0], got, cv.Digest)
			}
		}
	}
	// Without merging, the packages kept are reused as the charts'.
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	sameEntries(t, loadIndex(t, out), published)
}
