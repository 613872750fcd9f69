package builder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
)

// FuzzLoadChartfile reads arbitrary Chart.yaml files as discovery does: no
// panic; a file beyond the limits (an alias bomb) is refused naming the
// file, its line and its column; what Helm's own reader accepts within the
// limits reads the same.
func FuzzLoadChartfile(f *testing.F) {
	f.Add([]byte("apiVersion: v2\nname: a\nversion: 1.0.0\n"))
	f.Add([]byte("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"))
	f.Add([]byte("name: [1\n"))
	file := filepath.Join(f.TempDir(), "Chart.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		md, err := loadChartfile(file)
		if err != nil {
			if !strings.HasPrefix(err.Error(), file+":") {
				t.Fatalf("refusal not naming %s: %v", file, err)
			}
			return
		}
		want, err := chartutil.LoadChartfile(file)
		if err != nil || want.Name != md.Name || want.Version != md.Version || want.Icon != md.Icon {
			t.Fatalf("read %+v, Helm reads %+v (%v)", md, want, err)
		}
	})
}
