package builder_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// releaseURLs is a PackageURL that names GitHub release assets, and the
// packages it was asked about.
type releaseURLs struct {
	mu    sync.Mutex
	asked []string
}

func (r *releaseURLs) url(name, version, file string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, name+" "+version+" "+file)
	return "https://github.com/example-org/catalog-ide/releases/download/" + name + "-" + version + "/" + file
}

func (r *releaseURLs) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.asked)
	slices.Sort(out)
	r.asked = nil
	return out
}

// helmIndex reads an output's index with Helm's own loader, as a client
// adding the repository does.
func helmIndex(t *testing.T, out string) *repo.IndexFile {
	t.Helper()
	idx, err := repo.LoadIndexFile(filepath.Join(out, "index.yaml"))
	if err != nil {
		t.Fatalf("Helm cannot read the index: %v", err)
	}
	return idx
}

func TestPackageURLMakesAbsoluteURLs(t *testing.T) {
	cat := example(t, "ide")
	out := filepath.Join(t.TempDir(), "site")
	urls := &releaseURLs{}
	res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1), PackageURL: urls.url, BaseURL: "https://example-org.github.io/catalog-ide/"})
	if res.Packaged != 2 {
		t.Fatalf("packaged %d charts, want 2", res.Packaged)
	}
	want := []string{"jupyter-pytorch-gpu 0.6.1 jupyter-pytorch-gpu-0.6.1.tgz", "vscode-python 1.2.0 vscode-python-1.2.0.tgz"}
	if got := urls.calls(); !slices.Equal(got, want) {
		t.Errorf("PackageURL asked about %q, want %q", got, want)
	}
	check := func(what string) {
		t.Helper()
		idx := helmIndex(t, out)
		for name, cvs := range idx.Entries {
			for _, cv := range cvs {
				file := name + "-" + cv.Version + ".tgz"
				wantURL := "https://github.com/example-org/catalog-ide/releases/download/" + name + "-" + cv.Version + "/" + file
				if len(cv.URLs) != 1 || cv.URLs[0] != wantURL {
					t.Errorf("%s: %s %s is listed at %q, want %q", what, name, cv.Version, cv.URLs, wantURL)
				}
				// The package is still written into the output, for
				// publish to upload from there.
				if got := chartrepo.FileDigest(filepath.Join(out, file)); !chartrepo.SameDigest(got, cv.Digest) {
					t.Errorf("%s: %s in the output has digest %q, the index says %q", what, file, got, cv.Digest)
				}
			}
		}
		if len(idx.Entries) != 2 {
			t.Errorf("%s: index lists %d charts, want 2", what, len(idx.Entries))
		}
		// The chart page links to the release asset, not to a file
		// beside the index.
		page, err := os.ReadFile(filepath.Join(out, "charts", "vscode-python", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(page, []byte(`href="https://github.com/example-org/catalog-ide/releases/download/vscode-python-1.2.0/vscode-python-1.2.0.tgz"`)) {
			t.Errorf("%s: the chart page does not link to the release asset", what)
		}
	}
	check("cold build")

	// An incremental build reuses the packages, asks again, and checks
	// the output in place without taking the URLs for files.
	res = build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2), PackageURL: urls.url, BaseURL: "https://example-org.github.io/catalog-ide/"})
	if res.Reused != 2 {
		t.Errorf("rebuild reused %d charts, want 2", res.Reused)
	}
	if got := urls.calls(); !slices.Equal(got, want) {
		t.Errorf("rebuild: PackageURL asked about %q, want %q", got, want)
	}
	check("incremental build")
}

func TestPackageURLKeepsPublishedURLs(t *testing.T) {
	cat := example(t, "ide")
	published := filepath.Join(t.TempDir(), "published")
	urls := &releaseURLs{}
	build(t, builder.Options{Catalog: cat, Out: published, Now: at(t1), PackageURL: urls.url})
	pub := helmIndex(t, published)
	old := pub.Entries["vscode-python"][0]

	replaceIn(t, filepath.Join(cat, "charts", "vscode-python", "Chart.yaml"), "version: 1.2.0", "version: 1.3.0")
	out := filepath.Join(t.TempDir(), "next")
	res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2), PackageURL: urls.url, Merge: published})
	urls.calls()
	idx := helmIndex(t, out)
	cvs := idx.Entries["vscode-python"]
	if len(cvs) != 2 || cvs[0].Version != "1.3.0" || cvs[1].Version != "1.2.0" {
		t.Fatalf("vscode-python versions after the merge: %v", cvs)
	}
	if !slices.Equal(cvs[1].URLs, old.URLs) || !cvs[1].Created.Equal(t1) {
		t.Errorf("the published version became %v (created %v), want %v (created %v)", cvs[1].URLs, cvs[1].Created, old.URLs, t1)
	}
	if !strings.HasSuffix(cvs[0].URLs[0], "/releases/download/vscode-python-1.3.0/vscode-python-1.3.0.tgz") {
		t.Errorf("the new version is listed at %v", cvs[0].URLs)
	}
	// A release asset is not carried: it is published where it is.
	if res.Carried != 1 {
		t.Errorf("carried %d versions, want 1", res.Carried)
	}
	if _, err := os.Stat(filepath.Join(out, "vscode-python-1.2.0.tgz")); !os.IsNotExist(err) {
		t.Errorf("the published release asset was copied into the output: %v", err)
	}
}

func TestPackageURLMustBeAbsolute(t *testing.T) {
	cat := example(t, "ide")
	out := filepath.Join(t.TempDir(), "site")
	var log bytes.Buffer
	_, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, Now: at(t1), Log: &log,
		PackageURL: func(name, version, file string) string { return "releases/" + file }})
	if err == nil || !strings.Contains(err.Error(), "not an absolute http(s) URL") || !strings.Contains(err.Error(), "Chart.yaml") {
		t.Fatalf("a relative package URL: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refused build wrote its output: %v", err)
	}
}
