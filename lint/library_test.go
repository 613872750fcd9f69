package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/lint"
)

// Every rule about what a user launches says so; the rules about the chart
// itself do not. A library chart is rendered through the charts using it.
func TestLaunchableRules(t *testing.T) {
	launch := []string{"template-render", "render-dependency", "kube-version", "manifest-yaml", "manifest-fields",
		"api-removed", "api-deprecated", "api-disabled", "manifest-names", "manifest-selector", "manifest-list-policy", "manifest-custom-kind"}
	for _, r := range lint.All {
		want := r.Scope == lint.PerSchema || r.Name == "chart-icon" || r.Name == "values-valid" || slices.Contains(launch, r.Name)
		if r.Launchable != want {
			t.Errorf("rule %s: Launchable = %v, want %v", r.Name, r.Launchable, want)
		}
	}
}

// The library chart of option-type's good fixture gets no finding only
// because it is a library: as an application, the same files break
// launchable-only rules, while chart-metadata still judges it either way.
func TestLibraryChartSkipped(t *testing.T) {
	src := filepath.Join(rulesDir, "option-type", "good", "charts", "library-base")
	dir := t.TempDir()
	files := map[string]string{}
	for _, name := range []string{"Chart.yaml", "values.schema.json", "values.yaml"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		files["charts/library-base/"+name] = string(data)
	}
	filetree.Write(t, dir, files)
	if res := lintDirs(t, dir); len(res.Findings) != 0 {
		t.Fatalf("the library chart has findings:\n%s", dump(res))
	}

	chart := files["charts/library-base/Chart.yaml"]
	filetree.Write(t, dir, map[string]string{"charts/library-base/Chart.yaml": strings.Replace(chart, "type: library", "type: application", 1)})
	var rules []string
	for _, f := range lintDirs(t, dir).Findings {
		rules = append(rules, f.Rule)
	}
	for _, want := range []string{"option-type", "slider-default", "values-valid", "chart-icon"} {
		if !slices.Contains(rules, want) {
			t.Errorf("as an application, the chart has no %s finding (findings: %v)", want, rules)
		}
	}

	// A library's Chart.yaml is still checked.
	filetree.Write(t, dir, map[string]string{"charts/library-base/Chart.yaml": strings.Replace(chart, "version: 1.0.0", "version: one", 1)})
	res := lintDirs(t, dir)
	if len(res.Findings) != 1 || res.Findings[0].Rule != "chart-metadata" {
		t.Errorf("want one chart-metadata finding for the library's bad version, got:\n%s", dump(res))
	}
}
