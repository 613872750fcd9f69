package repoindex

import (
	"strings"
	"testing"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

func TestPickVersion(t *testing.T) {
	vs := []*repo.ChartVersion{}
	for _, v := range []string{"3.0.0-rc.1", "2.1.0", "2.0.1", "1.9.0"} {
		vs = append(vs, &repo.ChartVersion{Metadata: &chart.Metadata{Name: "c", Version: v}})
	}
	for want, got := range map[string]string{"": "2.1.0", "2.0.1": "2.0.1", "~2.0": "2.0.1", "<2": "1.9.0", "3.0.0-rc.1": "3.0.0-rc.1", ">=3.0.0-0": "3.0.0-rc.1"} {
		cv, err := PickVersion(vs, want)
		if err != nil || cv.Version != got {
			t.Errorf("PickVersion(%q) = %v, %v; want %s", want, cv, err, got)
		}
	}
	if _, err := PickVersion(vs[:1], ""); err == nil || !strings.Contains(err.Error(), "only pre-releases") {
		t.Errorf("only pre-releases: %v", err)
	}
	if _, err := PickVersion(vs, "not a version"); err == nil || !strings.Contains(err.Error(), "neither a published version nor a SemVer constraint") {
		t.Errorf("bad constraint: %v", err)
	}
}
