package lint_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/lint"
)

// flawedSchema gives each chart the same three findings: option-type
// errors on nickname and resources/limits/cpu, a duplicate-key warning on
// dup.
const flawedSchema = `{
  "type": "object",
  "properties": {
    "nickname": {"title": "Nickname", "default": "x"},
    "resources": {"type": "object", "properties": {"limits": {"type": "object", "properties": {"cpu": {"title": "CPU", "default": "1"}}}}},
    "dup": {"type": "string", "type": "string", "default": "x"}
  }
}
`

// flawedCatalog writes a catalog of charts sharing flawedSchema, with
// catalogYAML as its catalog.yaml when not empty, and returns its
// directory.
func flawedCatalog(t *testing.T, catalogYAML string, charts ...string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	if catalogYAML != "" {
		files["catalog.yaml"] = catalogYAML
	}
	for _, c := range charts {
		files["charts/"+c+"/Chart.yaml"] = "apiVersion: v2\nname: " + c + "\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n"
		files["charts/"+c+"/values.schema.json"] = flawedSchema
	}
	filetree.Write(t, dir, files)
	return dir
}

func lintDirs(t *testing.T, dirs ...string) *lint.Result {
	t.Helper()
	res, err := lintDirsErr(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func lintDirsErr(dirs ...string) (*lint.Result, error) {
	var cats []*catalog.Catalog
	for _, d := range dirs {
		cat, err := catalog.Discover(d)
		if err != nil {
			return nil, err
		}
		cats = append(cats, cat)
	}
	return lint.Run(cats, lint.Options{})
}

// summary lists findings as "chart rule option severity", sorted.
func summary(fs []lint.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, strings.Join([]string{f.Chart, f.Rule, f.Option, f.Severity.String()}, " "))
	}
	slices.Sort(out)
	return out
}

// Findings in the schema carry their chart and the option they are about,
// found from the reported node up.
func TestFindingChartAndOption(t *testing.T) {
	res := lintDirs(t, flawedCatalog(t, "", "jupyter"))
	want := []string{
		"jupyter duplicate-key dup warning",
		"jupyter option-type nickname error",
		"jupyter option-type resources/limits/cpu error",
	}
	if got := summary(res.Findings); !slices.Equal(got, want) {
		t.Errorf("findings:\n got  %q\n want %q", got, want)
	}
	// A finding at the schema's root is about no option.
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"charts/demo/Chart.yaml":         "apiVersion: v2\nname: demo\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
		"charts/demo/values.schema.json": `{"properties": {}}`,
	})
	res = lintDirs(t, dir)
	if len(res.Findings) == 0 || !slices.ContainsFunc(res.Findings, func(f lint.Finding) bool { return f.Rule == "root-object" }) {
		t.Fatalf("no root-object finding:\n%s", dump(res))
	}
	for _, f := range res.Findings {
		if f.Option != "" || f.Chart != "demo" {
			t.Errorf("root finding with option %q, chart %q: %+v", f.Option, f.Chart, f)
		}
	}
}

func TestConfigLevels(t *testing.T) {
	dir := flawedCatalog(t, "lint:\n  rules:\n    option-type: warning\n    duplicate-key: off\n", "jupyter", "rstudio")
	want := []string{
		"jupyter option-type nickname warning",
		"jupyter option-type resources/limits/cpu warning",
		"rstudio option-type nickname warning",
		"rstudio option-type resources/limits/cpu warning",
	}
	res := lintDirs(t, dir)
	if got := summary(res.Findings); !slices.Equal(got, want) {
		t.Errorf("findings:\n got  %q\n want %q", got, want)
	}
	if e, w := res.Count(); e != 0 || w != 4 {
		t.Errorf("Count = %d errors, %d warnings; want 0, 4", e, w)
	}
	// And a warning rule raised to an error.
	res = lintDirs(t, flawedCatalog(t, "lint:\n  rules:\n    duplicate-key: error\n", "jupyter"))
	if got := summary(res.Findings); !slices.Contains(got, "jupyter duplicate-key dup error") {
		t.Errorf("duplicate-key not raised to error: %q", got)
	}
}

func TestConfigIgnore(t *testing.T) {
	all := []string{
		"jupyter duplicate-key dup warning",
		"jupyter option-type nickname error",
		"jupyter option-type resources/limits/cpu error",
		"jupyter-gpu duplicate-key dup warning",
		"jupyter-gpu option-type nickname error",
		"jupyter-gpu option-type resources/limits/cpu error",
		"rstudio duplicate-key dup warning",
		"rstudio option-type nickname error",
		"rstudio option-type resources/limits/cpu error",
	}
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return slices.Contains(drop, s) })
	}
	for _, tc := range []struct {
		name, ignore string
		want         []string
	}{
		{"by rule", "{rule: duplicate-key}", without(all[0], all[3], all[6])},
		{"by chart glob", `{charts: ["jupyter*"]}`, all[6:]},
		{"by exact chart", "{charts: [rstudio, nothing-*]}", all[:6]},
		{"by rule and chart", "{rule: option-type, charts: [jupyter-gpu]}", without(all[4], all[5])},
		{"by option", "{option: nickname}", without(all[1], all[4], all[7])},
		// * stops at a slash, as path.Match has it.
		{"by option glob", "{option: resources/*}", all},
		{"by deep option glob", "{option: resources/*/*}", without(all[2], all[5], all[8])},
		{"by option star", `{option: "*"}`, without(all[0], all[1], all[3], all[4], all[6], all[7])},
		{"by every field", `{rule: option-type, charts: ["*-gpu"], option: "resources/limits/c?u"}`, without(all[5])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := lintDirs(t, flawedCatalog(t, "lint:\n  ignore:\n    - "+tc.ignore+"\n", "jupyter", "jupyter-gpu", "rstudio"))
			if got := summary(res.Findings); !slices.Equal(got, tc.want) {
				t.Errorf("findings:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

// An option glob matches only findings about an option: "*" keeps the
// findings of Chart.yaml.
func TestConfigIgnoreOptionNeedsOption(t *testing.T) {
	dir := flawedCatalog(t, "lint:\n  ignore:\n    - {option: \"*\"}\n", "demo")
	filetree.Write(t, dir, map[string]string{"charts/demo/Chart.yaml": "apiVersion: v2\nname: demo\nversion: one\ndescription: d\nicon: https://example.org/i.svg\n"})
	res := lintDirs(t, dir)
	if got := summary(res.Findings); !slices.Equal(got, []string{"demo chart-metadata  error", "demo option-type resources/limits/cpu error"}) {
		t.Errorf("findings: %q", got)
	}
}

// Each catalog's settings apply to its own charts only.
func TestConfigPerCatalog(t *testing.T) {
	quiet := flawedCatalog(t, "lint:\n  rules:\n    option-type: off\n    duplicate-key: off\n", "jupyter")
	loud := flawedCatalog(t, "", "jupyter")
	res := lintDirs(t, quiet, loud)
	for _, f := range res.Findings {
		if strings.HasPrefix(f.File, quiet) {
			t.Errorf("finding of the quiet catalog: %+v", f)
		}
	}
	if len(res.Findings) != 3 {
		t.Errorf("want the 3 findings of the other catalog, got %d", len(res.Findings))
	}
}

func TestConfigUnknownRule(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, pos string
		want            []string
	}{
		{"in rules", "lint:\n  rules:\n    slider-grid: off\n    option-typ: error\n", ":4:5: ", []string{`unknown rule "option-typ" in lint.rules`, `did you mean "option-type"?`, "lint --rules"}},
		{"in ignore", "lint:\n  ignore:\n    - rule: context-paths\n", ":3:13: ", []string{`unknown rule "context-paths" in lint.ignore`, `did you mean "context-path"?`}},
		{"far from any", "lint:\n  rules:\n    everything: off\n", ":3:5: ", []string{`unknown rule "everything"`}},
		{"region rule", "lint:\n  rules:\n    region-file: off\n", ":3:5: ", []string{"region-file", "belongs to no catalog"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := flawedCatalog(t, tc.yaml, "demo")
			_, err := lintDirsErr(dir)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, "catalog.yaml")+tc.pos) {
				t.Errorf("error %q does not name catalog.yaml%s", err, tc.pos)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(tc.name, "far") && strings.Contains(err.Error(), "did you mean") {
				t.Errorf("a suggestion for a name close to no rule: %q", err)
			}
		})
	}
}
