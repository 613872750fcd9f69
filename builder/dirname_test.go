package builder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// A chart in a directory of another name (cloudbeaver in
// cloudbeaver-chart) is packaged under its Chart.yaml name, as Helm
// packages it; lint warns. Two charts of one name are refused, both named.
func TestChartDirectoryOfAnotherName(t *testing.T) {
	chart := "apiVersion: v2\nname: cloudbeaver\nversion: 1.0.0\ndescription: d\nicon: data:image/svg+xml;base64,PHN2Zy8+\n"
	cat := t.TempDir()
	filetree.Write(t, cat, map[string]string{
		"catalog.yaml":                               "name: db\n",
		"charts/cloudbeaver-chart/Chart.yaml":        chart,
		"charts/cloudbeaver-chart/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n",
	})
	out := filepath.Join(t.TempDir(), "site")
	res := build(t, builder.Options{Catalog: cat, Out: out})
	if _, warns := res.Lint.Count(); warns == 0 {
		t.Error("lint did not warn of the directory's name")
	}
	idx, err := repo.LoadIndexFile(filepath.Join(out, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if cv, err := idx.Get("cloudbeaver", "1.0.0"); err != nil || len(cv.URLs) != 1 || cv.URLs[0] != "cloudbeaver-1.0.0.tgz" {
		t.Errorf("index entry %+v, %v", cv, err)
	}
	if _, err := os.Stat(filepath.Join(out, "charts", "cloudbeaver", "index.html")); err != nil {
		t.Errorf("no page under the chart's name: %v", err)
	}

	// lint --published compares it under that name too.
	c, err := catalog.Discover(cat)
	if err != nil {
		t.Fatal(err)
	}
	compared, found, err := builder.ComparePublished(t.Context(), []*catalog.Catalog{c}, out, builder.Options{})
	if pv := compared[c.Charts[0]]; err != nil || !found || pv == nil || pv.Name != "cloudbeaver" || pv.Version != "1.0.0" || pv.File != "" {
		t.Errorf("compared with the published index: %+v, %v, %v", pv, found, err)
	}

	filetree.Write(t, cat, map[string]string{"charts/cloudbeaver/Chart.yaml": chart})
	_, err = builder.Build(t.Context(), builder.Options{Catalog: cat, Out: filepath.Join(t.TempDir(), "site")})
	if err == nil || !strings.Contains(err.Error(), "both define chart \"cloudbeaver\"") || !strings.Contains(err.Error(), "cloudbeaver-chart") {
		t.Errorf("two charts of one name: %v", err)
	}
}
