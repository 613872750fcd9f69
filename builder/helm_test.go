package builder_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// TestExamplesServedToHelm builds every bundled catalog, serves the outputs
// under sub-paths of one loopback server, as GitHub Pages would, and has
// the real Helm 4 and Helm 3 clients add, search, pull and template every
// chart.
func TestExamplesServedToHelm(t *testing.T) {
	cats, err := filepath.Glob("../examples/*/catalog.yaml")
	if err != nil || len(cats) < 3 {
		t.Fatalf("want the three example catalogs, got %v (%v)", cats, err)
	}
	root := t.TempDir()
	type built struct {
		name   string
		charts map[string]string // name -> version
	}
	var all []built
	for i, c := range cats {
		dir := filepath.Dir(c)
		name := filepath.Base(dir)
		opt := builder.Options{Catalog: dir, Out: filepath.Join(root, name), RegionFile: "../examples/region.yaml", Now: at(t1)}
		if i == 1 {
			// Helm reads a JSON index.yaml too; prove it on one catalog.
			opt.IndexFormat = "json"
		}
		build(t, opt)
		b := built{name: name, charts: map[string]string{}}
		for chart, versions := range loadIndex(t, opt.Out).Entries {
			b.charts[chart] = versions[0].Version
		}
		if len(b.charts) < 2 {
			t.Fatalf("%s: %d charts in the index, want at least 2", name, len(b.charts))
		}
		all = append(all, b)
	}
	url := repotest.Serve(t, root).URL
	for _, b := range all {
		for _, page := range []string{"index.html", "index.yaml"} {
			resp, err := http.Get(url + "/" + b.name + "/" + page)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("GET %s/%s: %v %v", b.name, page, err, resp)
			}
			resp.Body.Close()
		}
	}
	for _, major := range []int{4, 3} {
		t.Run(fmt.Sprintf("helm%d", major), func(t *testing.T) {
			helm := tooltest.NewHelm(t, major)
			dest := t.TempDir()
			for _, b := range all {
				repoName := "cat-" + b.name
				helm.Run(t, "repo", "add", repoName, url+"/"+b.name)
				out := helm.Run(t, "search", "repo", repoName+"/", "--output", "json")
				for chart, version := range b.charts {
					if !strings.Contains(out, fmt.Sprintf(`"name":"%s/%s","version":"%s"`, repoName, chart, version)) {
						t.Errorf("helm search repo does not list %s/%s %s:\n%s", repoName, chart, version, out)
					}
					helm.Run(t, "pull", repoName+"/"+chart, "--version", version, "--destination", dest)
					pkg := filepath.Join(dest, chart+"-"+version+".tgz")
					if _, err := os.Stat(pkg); err != nil {
						t.Fatalf("helm pull %s: %v", chart, err)
					}
					manifest := helm.Run(t, "template", "rel", pkg)
					if !strings.Contains(manifest, "kind:") {
						t.Errorf("helm template %s rendered no object:\n%s", chart, manifest)
					}
				}
			}
		})
	}
}
