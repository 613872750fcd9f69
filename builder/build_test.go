package builder_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// example copies a bundled catalog into a temporary directory.
func example(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	filetree.Copy(t, filepath.Join("..", "examples", name), dir)
	return dir
}

func TestRebuildIsByteIdentical(t *testing.T) {
	cat := example(t, "databases")
	out := filepath.Join(t.TempDir(), "site")
	first := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	if first.Packaged != first.Charts || first.Charts < 2 {
		t.Fatalf("cold build packaged %d of %d charts", first.Packaged, first.Charts)
	}
	before := snapshot(t, out)
	// A later build of the same sources changes nothing, not even dates.
	second := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	if second.Reused != second.Charts || second.Packaged != 0 {
		t.Errorf("unchanged rebuild: %d packaged, %d reused of %d", second.Packaged, second.Reused, second.Charts)
	}
	sameTrees(t, before, snapshot(t, out))
	// Packaging from scratch elsewhere gives the same packages and index.
	fresh := filepath.Join(t.TempDir(), "fresh")
	build(t, builder.Options{Catalog: cat, Out: fresh, Now: at(t1)})
	sameTrees(t, before, snapshot(t, fresh))
}

func TestPackagesAreReproducible(t *testing.T) {
	cat := example(t, "ide")
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	build(t, builder.Options{Catalog: cat, Out: a, Now: at(t1)})
	// Touching every source file changes modification times, not packages.
	filepath.Walk(cat, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			os.Chtimes(p, t2, t2)
		}
		return nil
	})
	build(t, builder.Options{Catalog: cat, Out: b, Now: at(t2)})
	pa, _ := filepath.Glob(filepath.Join(a, "*.tgz"))
	if len(pa) < 2 {
		t.Fatalf("packages: %v", pa)
	}
	for _, p := range pa {
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, filepath.Base(p)))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds (%v)", filepath.Base(p), err)
		}
	}
}

func TestIncrementalRepackagesOnlyTheChangedChart(t *testing.T) {
	cat := example(t, "automation")
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	old := loadIndex(t, out)
	replaceIn(t, filepath.Join(cat, "charts", "mlflow", "Chart.yaml"), "version: ", "version: 9")
	res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	if res.Packaged != 1 || res.Reused != res.Charts-1 {
		t.Fatalf("after changing one chart: %d packaged, %d reused of %d", res.Packaged, res.Reused, res.Charts)
	}
	idx := loadIndex(t, out)
	if got := idx.Entries["mlflow"][0]; !got.Created.Equal(t2) || !strings.HasPrefix(got.Version, "9") {
		t.Errorf("changed chart: version %s created %v, want 9… at %v", got.Version, got.Created, t2)
	}
	if got := idx.Entries["airflow"][0]; !got.Created.Equal(old.Entries["airflow"][0].Created) {
		t.Errorf("unchanged chart lost its date: %v", got.Created)
	}
}

func TestMergeKeepsDatesAndCarriesPackages(t *testing.T) {
	cat := example(t, "automation")
	published := filepath.Join(t.TempDir(), "published")
	build(t, builder.Options{Catalog: cat, Out: published, Now: at(t1)})
	pub := loadIndex(t, published)
	oldVersion := pub.Entries["airflow"][0].Version

	// The next release bumps airflow; the old airflow package is only in
	// the published repository now.
	replaceIn(t, filepath.Join(cat, "charts", "airflow", "Chart.yaml"), "version: "+oldVersion, "version: 7.7.7")
	out := filepath.Join(t.TempDir(), "next")
	res := build(t, builder.Options{Catalog: cat, Out: out, Merge: published, Now: at(t2)})
	if res.Carried != 1 {
		t.Errorf("carried %d packages, want 1", res.Carried)
	}
	idx := loadIndex(t, out)
	versions := idx.Entries["airflow"]
	if len(versions) != 2 || versions[0].Version != "7.7.7" || versions[1].Version != oldVersion {
		t.Fatalf("airflow versions after merge: %+v", versions)
	}
	if !versions[1].Created.Equal(t1) || !versions[0].Created.Equal(t2) {
		t.Errorf("dates: published %v (want %v), new %v (want %v)", versions[1].Created, t1, versions[0].Created, t2)
	}
	if got := idx.Entries["mlflow"][0].Created; !got.Equal(t1) {
		t.Errorf("mlflow was published at %v, merge says %v", t1, got)
	}
	// Every URL of the new index resolves in the new output, and a real
	// client pulls the carried version.
	for name, cvs := range idx.Entries {
		for _, cv := range cvs {
			if _, err := os.Stat(filepath.Join(out, cv.URLs[0])); err != nil {
				t.Errorf("%s %s: %s does not resolve: %v", name, cv.Version, cv.URLs[0], err)
			}
		}
	}
	helm := tooltest.NewHelm(t, 4)
	helm.Run(t, "repo", "add", "next", repotest.Serve(t, out).URL)
	helm.Run(t, "pull", "next/airflow", "--version", oldVersion, "--destination", t.TempDir())

	// Pruning drops the version the sources no longer hold.
	pruned := filepath.Join(t.TempDir(), "pruned")
	build(t, builder.Options{Catalog: cat, Out: pruned, Merge: published, Prune: true, Now: at(t2)})
	if v := loadIndex(t, pruned).Entries["airflow"]; len(v) != 1 {
		t.Errorf("prune kept %d airflow versions", len(v))
	}

	// A merge from a URL downloads the carried packages.
	fromURL := filepath.Join(t.TempDir(), "from-url")
	res = build(t, builder.Options{Catalog: cat, Out: fromURL, Merge: repotest.Serve(t, published).URL, Now: at(t2)})
	if res.Carried != 1 {
		t.Errorf("merge from URL carried %d", res.Carried)
	}
	if _, err := os.Stat(filepath.Join(fromURL, "airflow-"+oldVersion+".tgz")); err != nil {
		t.Errorf("carried package not downloaded: %v", err)
	}
}

func TestMergeRefusesAChangedPublishedVersion(t *testing.T) {
	cat := example(t, "databases")
	published := filepath.Join(t.TempDir(), "published")
	build(t, builder.Options{Catalog: cat, Out: published, Now: at(t1)})
	before := snapshot(t, published)
	// Same version, different content: what chart-releaser would publish
	// silently over the old package.
	writeFile(t, filepath.Join(cat, "charts", "redis", "templates", "extra.yaml"), "# changed\n")
	var log bytes.Buffer
	_, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: published, Merge: published, Now: at(t2), Log: &log})
	var conflict *repoindex.ConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("want a conflict, got %v", err)
	}
	msg := err.Error()
	version := loadIndex(t, published).Entries["redis"][0]
	for _, want := range []string{"redis", version.Version, "redis-" + version.Version + ".tgz", "templates/extra.yaml differs", "bump the chart version"} {
		if !strings.Contains(msg, want) {
			t.Errorf("conflict message %q does not name %q", msg, want)
		}
	}
	sameTrees(t, before, snapshot(t, published))
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(published), ".catalogist-stage-*"))
	old, _ := filepath.Glob(filepath.Join(filepath.Dir(published), ".catalogist-old-*"))
	leftovers = append(leftovers, old...)
	if len(leftovers) > 0 {
		t.Errorf("a failed build left %v", leftovers)
	}
}

func TestLintErrorsStopTheBuild(t *testing.T) {
	cat := example(t, "ide")
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	before := snapshot(t, out)
	replaceIn(t, filepath.Join(cat, "charts", "vscode-python", "values.schema.json"), `"type": "object"`, `"type": "objet"`)
	var log bytes.Buffer
	_, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, Now: at(t2), Log: &log})
	var le *builder.ErrLint
	if !errors.As(err, &le) {
		t.Fatalf("want a lint error, got %v", err)
	}
	if !strings.Contains(log.String(), "values.schema.json:") || !strings.Contains(log.String(), "error") {
		t.Errorf("the lint report is not in the log:\n%s", log.String())
	}
	sameTrees(t, before, snapshot(t, out))
}

// Lint runs alongside the later steps; its error still comes first when
// one of them fails too.
func TestLintErrorComesFirst(t *testing.T) {
	cat := example(t, "ide")
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	before := snapshot(t, out)
	replaceIn(t, filepath.Join(cat, "charts", "vscode-python", "values.schema.json"), `"type": "object"`, `"type": "objet"`)
	tpl := t.TempDir()
	writeFile(t, filepath.Join(tpl, "index.html"), "{{ .Broken ")
	res, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, Now: at(t2), Templates: tpl, Log: &bytes.Buffer{}})
	var le *builder.ErrLint
	if !errors.As(err, &le) {
		t.Fatalf("want the lint error, got %v", err)
	}
	if res == nil || res.Lint == nil || len(res.Lint.Findings) == 0 {
		t.Errorf("the result lacks the findings: %+v", res)
	}
	sameTrees(t, before, snapshot(t, out))
}

func TestFailedBuildLeavesOutputIntact(t *testing.T) {
	cat := example(t, "ide")
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	before := snapshot(t, out)
	// A build killed midway leaves a staging directory behind...
	stale := filepath.Join(filepath.Dir(out), ".catalogist-stage-out-123")
	writeFile(t, filepath.Join(stale, "index.yaml"), "half")
	// ...and a build that fails late (here, in the site step) must not
	// touch the output.
	tpl := t.TempDir()
	writeFile(t, filepath.Join(tpl, "index.html"), "{{ .Broken ")
	_, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, Now: at(t2), Templates: tpl, Log: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "index.html") {
		t.Fatalf("want a template error naming index.html, got %v", err)
	}
	sameTrees(t, before, snapshot(t, out))
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale staging directory not removed: %v", err)
	}
}

func TestLocalDependencies(t *testing.T) {
	cat := t.TempDir()
	writeFile(t, filepath.Join(cat, "catalog.yaml"), "name: deps\nbaseURL: https://example.org/deps\n")
	lib := `apiVersion: v2
name: %s
version: 1.2.0
description: A shared chart.
icon: https://example.org/icon.svg
`
	writeFile(t, filepath.Join(cat, "charts", "base", "Chart.yaml"), strings.Replace(lib, "%s", "base", 1))
	writeFile(t, filepath.Join(cat, "charts", "base", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-base\n")
	writeFile(t, filepath.Join(cat, "charts", "extra", "Chart.yaml"), strings.Replace(lib, "%s", "extra", 1))
	writeFile(t, filepath.Join(cat, "charts", "extra", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-extra\n")
	writeFile(t, filepath.Join(cat, "charts", "app", "Chart.yaml"), `apiVersion: v2
name: app
version: 0.1.0
description: Uses base from the sources and extra from the catalog's own URL.
icon: https://example.org/icon.svg
dependencies:
  - name: base
    version: ^1.0.0
    repository: file://../base
  - name: extra
    version: 1.x
    repository: https://example.org/deps/
`)
	writeFile(t, filepath.Join(cat, "charts", "app", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-app\n")
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	names := tarNames(t, filepath.Join(out, "app-0.1.0.tgz"))
	for _, want := range []string{"app/charts/base/Chart.yaml", "app/charts/extra/templates/cm.yaml"} {
		if !slices.Contains(names, want) {
			t.Errorf("app package lacks %s: %v", want, names)
		}
	}
	helm := tooltest.NewHelm(t, 4)
	manifest := helm.Run(t, "template", "rel", filepath.Join(out, "app-0.1.0.tgz"))
	for _, want := range []string{"rel-app", "rel-base", "rel-extra"} {
		if !strings.Contains(manifest, want) {
			t.Errorf("helm template lacks %s:\n%s", want, manifest)
		}
	}
	// A range the catalog's chart does not satisfy is an error naming both.
	replaceIn(t, filepath.Join(cat, "charts", "app", "Chart.yaml"), "^1.0.0", "^2.0.0")
	_, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, Now: at(t1), Log: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "1.2.0") || !strings.Contains(err.Error(), "^2.0.0") {
		t.Errorf("want an error naming the version and the range, got %v", err)
	}
}

func TestRemoteDependencyIsCached(t *testing.T) {
	// The remote repository is a catalog we build and serve.
	upstream := t.TempDir()
	writeFile(t, filepath.Join(upstream, "charts", "common", "Chart.yaml"), "apiVersion: v2\nname: common\nversion: 2.1.0\ndescription: Upstream.\nicon: https://example.org/i.svg\n")
	writeFile(t, filepath.Join(upstream, "charts", "common", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-common\n")
	repoDir := filepath.Join(t.TempDir(), "repo")
	build(t, builder.Options{Catalog: upstream, Out: repoDir, Now: at(t1)})
	srv := repotest.Serve(t, repoDir).URL

	cat := t.TempDir()
	chartYAML := "apiVersion: v2\nname: svc\nversion: 1.0.0\ndescription: Depends on a remote chart.\nicon: https://example.org/i.svg\ndependencies:\n  - name: common\n    version: ~2.1.0\n    repository: " + srv + "\n"
	writeFile(t, filepath.Join(cat, "charts", "svc", "Chart.yaml"), chartYAML)
	writeFile(t, filepath.Join(cat, "charts", "svc", "Chart.lock"), "dependencies:\n- name: common\n  repository: "+srv+"\n  version: 2.1.0\ndigest: sha256:0\ngenerated: \"2026-01-01T00:00:00Z\"\n")
	writeFile(t, filepath.Join(cat, "charts", "svc", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
	cache := t.TempDir()
	out := filepath.Join(t.TempDir(), "out")
	build(t, builder.Options{Catalog: cat, Out: out, CacheDir: cache, Now: at(t1)})
	if names := tarNames(t, filepath.Join(out, "svc-1.0.0.tgz")); !slices.Contains(names, "svc/charts/common/Chart.yaml") {
		t.Fatalf("svc package lacks its dependency: %v", names)
	}
	first, _ := os.ReadFile(filepath.Join(out, "svc-1.0.0.tgz"))

	// Offline: the cache is enough, and the package is the same.
	offline := filepath.Join(t.TempDir(), "offline")
	os.RemoveAll(repoDir)
	build(t, builder.Options{Catalog: cat, Out: offline, CacheDir: cache, Now: at(t1)})
	again, _ := os.ReadFile(filepath.Join(offline, "svc-1.0.0.tgz"))
	if !bytes.Equal(first, again) {
		t.Error("the package built from the cache differs")
	}
	// Offline with an empty cache: a clear error.
	_, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: filepath.Join(t.TempDir(), "x"), CacheDir: t.TempDir(), Now: at(t1), Log: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "common") || !strings.Contains(err.Error(), "network") {
		t.Errorf("want an error naming the dependency and the network, got %v", err)
	}
}

// The catalog's slider bounds are published in the index for launches, in
// an annotation Helm's own index loader reads past; dropping them from
// catalog.yaml drops them from the next build's index.
func TestCatalogSlidersArePublished(t *testing.T) {
	cat := example(t, "databases")
	out := filepath.Join(t.TempDir(), "site")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	idx, err := repo.LoadIndexFile(filepath.Join(out, builder.IndexFile))
	if err != nil {
		t.Fatalf("Helm cannot load the index: %v", err)
	}
	sliders, err := catalog.DecodeSliders(idx.Annotations[catalog.SlidersAnnotation])
	if err != nil {
		t.Fatal(err)
	}
	if s := sliders["cpu"]; s == nil || s.Min != 100 || s.Max != 4000 || s.Step != 100 || s.Unit != "m" {
		t.Errorf("published cpu slider %+v, want catalog.yaml's 100 to 4000 step 100 m", s)
	}
	if s := sliders["memory"]; s == nil || s.Max != 16 || s.Unit != "Gi" {
		t.Errorf("published memory slider %+v, want catalog.yaml's up to 16 Gi", s)
	}

	data, err := os.ReadFile(filepath.Join(cat, "catalog.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("\nsliders:"))
	if i < 0 {
		t.Fatal("examples/databases/catalog.yaml has no sliders")
	}
	writeFile(t, filepath.Join(cat, "catalog.yaml"), string(data[:i+1]))
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	idx, err = repo.LoadIndexFile(filepath.Join(out, builder.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := idx.Annotations[catalog.SlidersAnnotation]; ok {
		t.Errorf("sliders removed from catalog.yaml are still published: %s", v)
	}
}

// Lint renders the charts with the dependencies the build fetches: a
// template of an upstream chart that fails with the catalog chart's values
// stops the build, at the place Helm names (for a required value, the
// template including it), and nothing is written.
func TestBuildRendersWithFetchedDependencies(t *testing.T) {
	upstream := t.TempDir()
	writeFile(t, filepath.Join(upstream, "charts", "common", "Chart.yaml"), "apiVersion: v2\nname: common\nversion: 2.1.0\ndescription: Upstream.\nicon: https://example.org/i.svg\ntype: library\n")
	writeFile(t, filepath.Join(upstream, "charts", "common", "templates", "_cm.tpl"), "{{- define \"common.cm\" -}}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  size: {{ required \"common.size is required\" .Values.size | quote }}\n{{- end }}\n")
	repoDir := filepath.Join(t.TempDir(), "repo")
	build(t, builder.Options{Catalog: upstream, Out: repoDir, Now: at(t1)})
	srv := repotest.Serve(t, repoDir).URL

	cat := t.TempDir()
	writeFile(t, filepath.Join(cat, "charts", "svc", "Chart.yaml"), "apiVersion: v2\nname: svc\nversion: 1.0.0\ndescription: Depends on a remote chart.\nicon: https://example.org/i.svg\ndependencies:\n  - name: common\n    version: ~2.1.0\n    repository: "+srv+"\n")
	writeFile(t, filepath.Join(cat, "charts", "svc", "templates", "cm.yaml"), "{{ include \"common.cm\" . }}\n")
	writeFile(t, filepath.Join(cat, "charts", "svc", "values.yaml"), "size: \"\"\n")
	out := filepath.Join(t.TempDir(), "out")
	var log bytes.Buffer
	_, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, CacheDir: t.TempDir(), Now: at(t1), Log: &log})
	var le *builder.ErrLint
	want := "charts/svc/templates/cm.yaml:1:4: error: does not render with values.yaml alone: common.size is required [template-render]"
	if !errors.As(err, &le) || !strings.Contains(log.String(), want) {
		t.Fatalf("want the build refused with\n%s\ngot %v\n%s", want, err, log.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refused build wrote its output: %v", err)
	}
	writeFile(t, filepath.Join(cat, "charts", "svc", "values.yaml"), "size: \"3\"\n")
	build(t, builder.Options{Catalog: cat, Out: out, CacheDir: t.TempDir(), Now: at(t1)})
}
