package editorschema_test

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/editorschema"
	"github.com/catalogist/catalogist/lint"
)

const rulesDir = "../../../testdata/rules"

// The rule fixtures (see lint/rules_test.go) whose planted mistakes the
// editor schemas reject: every finding their want.txt lists is a
// rejection at the same position, but for the findings listed in
// notExpressed.
var rejected = []string{
	"json-schema", "root-object", "option-type", "option-text", "render", "schema-shape",
	"overwrite-type", "ext-boolean", "slider-extremity", "slider-fields",
}

// notExpressed says, for each finding of a fixture a JSON Schema cannot
// reject, why. A key is a rule (all its fixtures), a fixture directory
// (rule/bad-what) or a finding (rule/bad:FILE:LINE:COL).
var notExpressed = map[string]string{
	// Warnings: the platform accepts what they report. Editors show some
	// of them as deprecation warnings, which validators ignore.
	"bare-literal":         "a warning about what a context path resolves to",
	"context-path":         "a warning about the platform's launch context, which the schema does not know",
	"default-valid":        "a warning about a default against the option's own schema, a relation between two values",
	"duplicate-key":        "a warning; a decoded JSON document has no duplicate keys left to validate",
	"option-key":           "a warning about how READMEs and terminals show a key; an editor schema would make it an error",
	"ext-foreign-key":      "a warning (an editor shows a deprecation warning on the other platform's key)",
	"ext-unknown-key":      "a warning (an editor shows a deprecation warning on an unknown or misplaced key)",
	"form-hidden-crash":    "a warning about the form computed with the values (a hidden option that crashes once shown)",
	"hidden-never":         "a warning relating a condition's value to the allowed values of the option it looks at",
	"hidden-path":          "a warning relating hidden.path to the options of the whole document",
	"hidden-value":         "a warning relating hidden.value to the type of the option it looks at",
	"region-default":       "a warning relating a default to the bounds of a region or catalog slider",
	"region-fallback":      "a warning relating the region's values to the options they fill",
	"region-file":          "a warning relating the region's resources to its sliders' units and bounds",
	"region-slider-config": "a warning: the platform ignores a configuration it does not know",
	"pattern-readings":     "a warning about how two regular expression engines read a pattern, which a schema cannot parse",
	"schema-registry":      "a warning about the names the platform API's registry holds",
	"select-options":       "a warning relating a select's choices to the option's type",
	"slider-default":       "a warning relating a slider's default to its bounds and unit",
	"slider-grid":          "a warning relating a slider's default to its step grid",
	"slider-range":         "a warning relating sliderMin to sliderMax",
	"slider-text":          "a warning: the platform shows a text field",
	"chart-advice":         "a warning about Chart.yaml, which has no editor schema here",
	"chart-icon":           "a warning about Chart.yaml and the icons directory",
	// Errors beyond a schema's reach.
	"artifacthub-annotations": "Chart.yaml's annotations, which have no editor schema here",
	"chart-metadata":          "Chart.yaml, which has no editor schema here",
	"form-opens":              "an error of the form computed from the values, the context and values.yaml",
	"json-syntax":             "a file that is not JSON: the editor's parser reports it, before any schema",
	"slider-pair":             "an error relating range ends to each other in the form's order",
	"symlink-outside":         "an error about the file system, not a file's content",
	"values-valid":            "an error about values files, validated with the chart's own schema",
	"version-bump":            "an error comparing a package with the published one",
	"chart-api-version":       "Chart.yaml, which has no editor schema here",
	"chart-field-type":        "Chart.yaml, which has no editor schema here",
	"chart-files":             "the chart's files and directories, not a document's content",
	"chart-maintainers":       "Chart.yaml, which has no editor schema here",
	"chart-urls":              "Chart.yaml, which has no editor schema here",
	"chart-version":           "Chart.yaml, which has no editor schema here",
	// What the templates render: no schema of a values file knows them.
	"template-render":      "an error of the templates rendered with sets of values",
	"render-dependency":    "a note about the dependencies a chart is rendered with",
	"kube-version":         "Chart.yaml's kubeVersion against the target Kubernetes version",
	"manifest-yaml":        "an error of the rendered manifests",
	"manifest-fields":      "an error of the rendered manifests against the Kubernetes API types",
	"api-removed":          "an error of the rendered manifests' API versions",
	"api-deprecated":       "a warning about the rendered manifests' API versions",
	"api-disabled":         "a warning about the rendered manifests' API versions",
	"manifest-names":       "an error of the rendered manifests' names and labels",
	"manifest-selector":    "an error of the rendered workloads' selectors",
	"manifest-list-policy": "an error of a rendered List's annotations",
	"manifest-custom-kind": "a note about the rendered kinds that are not built in",
	// The planted mistakes of rules otherwise rejected that need more than
	// the document.
	"option-type/bad-registry":                                    "a $ref the platform's API does not resolve: the schema cannot know the registry, and Helm resolves #/$defs",
	"json-schema/bad:charts/missing-ref/values.schema.json:21:15": "a $ref to nothing: references resolve when a schema is compiled, not in the document",
	"json-schema/bad:charts/remote-ref/values.schema.json:8:15":   "a remote $ref, which only fetching it can check",
	"slider-fields/bad:charts/workspace/values.schema.json:8:9":   "a slider without sliderMin that the form shows, on the catalogist platform: the form decides what is a slider",
	"slider-fields/bad:charts/workspace/values.schema.json:21:24": "a slider without sliderMax that the form shows: a select or a hidden option does not crash",
	"slider-fields/bad:charts/workspace/values.schema.json:17:9":  "a sliderStep the catalogist platform requires unless a region or catalog slider configuration supplies it",
	"slider-fields/bad:charts/workspace/values.schema.json:24:9":  "a sliderUnit the catalogist platform requires unless a region or catalog slider configuration supplies it",
	"slider-fields/bad:charts/workspace/values.schema.json:45:19": "an integer slider that the form shows: a select or a hidden option does not crash",
	"slider-fields/bad:charts/workspace/values.schema.json:58:25": "a number slider with sliderUnit that the form shows: a select or a hidden option does not crash",
}

// A fixtureFile is one file of a fixture and the editor schema it is
// checked with.
type fixtureFile struct {
	rel    string // slash path from the fixture
	editor *editor
}

// fixtureFiles lists the files of a fixture that have an editor schema:
// each launchable chart's values.schema.json, with the schema of the key and platform
// the fixture's catalog.yaml gives, the registry schemas it names (each a
// property's schema), catalog.yaml and region.yaml.
func fixtureFiles(t *testing.T, dir string) []fixtureFile {
	t.Helper()
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	env, err := schema.EnvFor(schema.Overrides{}, cat, nil, &schema.Registries{})
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	ed := schemas(t, env.ExtKey, env.Platform)
	rel := func(p string) string {
		r, err := filepath.Rel(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(r)
	}
	var out []fixtureFile
	for _, ch := range cat.Charts {
		// The platform never launches a library chart: lint checks nothing
		// of the form in its schema, and neither does the vocabulary.
		if library(t, ch.ChartFile) {
			continue
		}
		if info, err := os.Lstat(ch.SchemaFile); ch.SchemaFile != "" && err == nil && info.Mode().IsRegular() {
			out = append(out, fixtureFile{rel(ch.SchemaFile), ed[editorschema.ValuesName]})
		}
	}
	if cat.Config != nil {
		option := ed[editorschema.ValuesName].sub(t, "/definitions/option")
		for _, reg := range cat.Config.SchemaRegistry {
			filepath.WalkDir(reg, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".json") {
					out = append(out, fixtureFile{rel(p), option})
				}
				return err
			})
		}
	}
	for name, e := range map[string]*editor{"catalog.yaml": ed[editorschema.CatalogName], "region.yaml": ed[editorschema.RegionName]} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			out = append(out, fixtureFile{name, e})
		}
	}
	return out
}

// library reports whether a Chart.yaml is a library chart's.
func library(t *testing.T, chartFile string) bool {
	t.Helper()
	data, err := os.ReadFile(chartFile)
	if err != nil {
		t.Fatal(err)
	}
	root, err := parseData(chartFile, data)
	if err != nil {
		return false // chart-metadata reports it
	}
	typ := root.Get("type")
	return typ != nil && typ.Text == "library"
}

// A wantFinding is one line of a want.txt.
type wantFinding struct {
	file, pos string // the file, slash-separated, and LINE:COL
}

var wantLine = regexp.MustCompile(`^(.+?):([0-9]+:[0-9]+):`)

func readWant(t *testing.T, path string) []wantFinding {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []wantFinding
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := wantLine.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "#") {
			out = append(out, wantFinding{m[1], m[2]})
		}
	}
	return out
}

// rejections checks the files of a fixture, by file.
func rejections(t *testing.T, files []fixtureFile, dir string) map[string][]rejection {
	out := map[string][]rejection{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.rel)))
		if err != nil {
			t.Fatal(err)
		}
		root, err := parseData(f.rel, data)
		if err != nil {
			continue // json-syntax: no schema applies to a file that does not parse
		}
		out[f.rel] = f.editor.check(root)
	}
	return out
}

func TestRuleFixtures(t *testing.T) {
	rules, err := os.ReadDir(rulesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if !r.IsDir() {
			continue
		}
		if _, ok := notExpressed[r.Name()]; ok == slices.Contains(rejected, r.Name()) {
			t.Errorf("rule %s: list it in exactly one of rejected and notExpressed", r.Name())
		}
	}
	fixtures, err := filepath.Glob(filepath.Join(rulesDir, "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, dir := range fixtures {
		rule, variant := filepath.Base(filepath.Dir(dir)), filepath.Base(dir)
		fixture := rule + "/" + variant
		seen[fixture] = true
		t.Run(fixture, func(t *testing.T) {
			files := fixtureFiles(t, dir)
			got := rejections(t, files, dir)
			if strings.HasPrefix(variant, "good") {
				for file, rs := range got {
					for _, r := range rs {
						t.Errorf("the editor schema refuses a fixture lint finds nothing in: %s:%s", file, r)
					}
				}
				return
			}
			_, ruleNot := notExpressed[rule]
			_, fixtureNot := notExpressed[fixture]
			used := map[string]bool{}
			for _, w := range readWant(t, filepath.Join(dir, "want.txt")) {
				seen[fixture+":"+w.file+":"+w.pos] = true
				_, findingNot := notExpressed[fixture+":"+w.file+":"+w.pos]
				expressed := !ruleNot && !fixtureNot && !findingNot
				hit := false
				for i, r := range got[w.file] {
					if r.at(w.pos) {
						hit = true
						used[usedKey(w.file, i)] = true
					}
				}
				switch {
				case expressed && !hit:
					t.Errorf("%s:%s: the editor schema accepts this planted mistake of %s; reject it, or say in notExpressed why a JSON Schema cannot", w.file, w.pos, rule)
				case !expressed && hit:
					t.Errorf("%s:%s: the editor schema rejects this finding of %s, which notExpressed says it cannot", w.file, w.pos, rule)
				}
			}
			// Whatever else is refused must be a lint error: the editor
			// schemas are never stricter than lint.
			var extra []rejection
			var extraFile []string
			for file, rs := range got {
				for i, r := range rs {
					if !used[usedKey(file, i)] {
						extra, extraFile = append(extra, r), append(extraFile, file)
					}
				}
			}
			if len(extra) == 0 {
				return
			}
			errs := lintErrors(t, dir)
			for i, r := range extra {
				if !errs[extraFile[i]+":"+r.node.Pos.String()] && !(r.node.KeyPos.IsValid() && errs[extraFile[i]+":"+r.node.KeyPos.String()]) {
					t.Errorf("%s:%s: the editor schema refuses what lint accepts", extraFile[i], r)
				}
			}
		})
	}
	// What notExpressed names is still a rule, a fixture or a finding.
	for name := range notExpressed {
		if !seen[name] && !fileExists(filepath.Join(rulesDir, name)) {
			t.Errorf("notExpressed names %s, which is no rule, fixture or finding of want.txt", name)
		}
	}
}

// lintErrors lints a fixture as lint's own tests do and returns the
// positions of its errors, as FILE:LINE:COL relative to the fixture.
func lintErrors(t *testing.T, dir string) map[string]bool {
	t.Helper()
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	var opt lint.Options
	if rf := filepath.Join(dir, "region.yaml"); fileExists(rf) {
		r, err := region.Load(rf, "")
		if err != nil {
			t.Fatal(err)
		}
		opt.Regions = []*region.Region{r}
	}
	res, err := lint.Run([]*catalog.Catalog{cat}, opt)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, f := range res.Findings {
		if f.Severity != lint.Error {
			continue
		}
		file := f.File
		if a, err := filepath.Abs(file); err == nil {
			if r, err := filepath.Rel(abs, a); err == nil {
				file = filepath.ToSlash(r)
			}
		}
		out[fmt.Sprintf("%s:%d:%d", file, f.Line, f.Column)] = true
	}
	return out
}

// usedKey names the i-th rejection of a file.
func usedKey(file string, i int) string { return fmt.Sprintf("%s#%d", file, i) }

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
