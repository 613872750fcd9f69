package editorschema_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/output/editorschema"
	"github.com/catalogist/catalogist/internal/target/catalogsfile"
	"github.com/catalogist/catalogist/lint"
)

func readCatalogYAML(data []byte) error {
	_, err := catalog.ParseConfig(data)
	return err
}

// The keys of catalog.yaml are those catalog.ParseConfig reads, and each
// takes the values it takes.
func TestCatalogSchemaAgreesWithTheReader(t *testing.T) {
	data, err := editorschema.Catalog("")
	if err != nil {
		t.Fatal(err)
	}
	ed := compile(t, editorschema.CatalogName, data)
	known := knownKeys(t, readCatalogYAML([]byte("zzzzzzzzzzzz: 1\n")), `\(known: ([^)]*)\)`)
	if got := schemaKeys(t, data, "properties"); !slices.Equal(got, known) {
		t.Errorf("catalog.yaml: the schema has the keys %v, the reader %v", got, known)
	}
	docs := append(keysProbe("{%s}", known), keysProbe("{%s}", []string{"zzzzzzzzzzzz"})...)
	docs = append(docs,
		"", "# only a comment\n", "[a]", "a",
		"extensionKey: x-onyxia", "extensionKey: platform", "extensionKey: ''",
		"platform: onyxia", "platform: catalogist", "platform: kubeflow",
		"schemaRegistry: schemas", "schemaRegistry: [schemas, ../shared]", "schemaRegistry: ['']", "schemaRegistry: [1]", "schemaRegistry: []",
		"sliders: {cpu: {sliderMin: 100, sliderMax: 4000, sliderStep: 100, sliderUnit: m}}",
		"sliders: {gpu: {sliderMin: 0, sliderMax: 2, sliderStep: 1, sliderUnit: }}",
		"sliders: {gpu: {sliderMin: 0, sliderMax: 2, sliderStep: 1}}",
		"sliders: {gpu: {sliderMin: 0, sliderMax: 2, sliderStep: 0, sliderUnit: ''}}",
		"sliders: {gpu: {sliderMin: '0', sliderMax: 2, sliderStep: 1, sliderUnit: ''}}",
		"sliders: {gpu: {sliderMin: 0, sliderMax: 2, sliderStep: 1, sliderUnit: 1}}",
		"sliders: {gpu: 1}",
		"sliders: {disk: {sliderMin: 3, sliderMax: 2, sliderStep: 1, sliderUnit: Gi}}",
		"lint: {rules: {slider-grid: off, context-path: error, bare-literal: warning}}",
		"lint: {rules: {slider-grid: 'on'}}", "lint: {rules: {slider-grid: 1}}", "lint: {rules: }", "lint: {ignore: }",
		"lint: {ignore: [{rule: context-path, charts: [jupyter-*], option: git/*}]}",
		"lint: {ignore: [{}]}", "lint: {ignore: [{rule: ''}]}", "lint: {ignore: [{charts: []}]}",
		"lint: {ignore: [{option: /git}]}", "lint: {ignore: [{option: ''}]}", "lint: {ignore: [{rules: x}]}",
		"lint: {ignore: [{charts: ['[']}]}", "lint: {ignores: []}", "lint: []",
		"artifacthub: {repositoryID: 5c1e3f0a-8d4b-4c59-9b43-3f3bd1a6e0a2, owners: [{name: jane, email: jane@example.org}]}",
		"artifacthub: {repositoryID: 5c1e3f0a}", "artifacthub: {}", "artifacthub: {owners: []}",
		"artifacthub: {owners: [{name: jane}]}", "artifacthub: {owners: [{email: jane}]}",
		"artifacthub: {owners: [{email: jane@example.org, team: x}]}", "artifacthub: {owner: []}",
		"{platformURL: 'https://datalab.example.org', platformCatalogID: ide}",
		"{platformURL: 'http://localhost:3000/onyxia/', platformCatalogID: ide-gpu_2.0}",
		"{platformURL: 'https://[::1]:8443', platformCatalogID: ide}",
		"platformURL: 'https://datalab.example.org'", "platformCatalogID: ide",
		"{platformURL: 'https://jane:pw@datalab.example.org', platformCatalogID: ide}",
		"{platformURL: 'ftp://datalab.example.org', platformCatalogID: ide}",
		"{platformURL: 'https://datalab.example.org/?a=1', platformCatalogID: ide}",
		"{platformURL: 'https://datalab.example.org/#a', platformCatalogID: ide}",
		"{platformURL: 'https://:443', platformCatalogID: ide}",
		"{platformURL: 'datalab.example.org', platformCatalogID: ide}",
		"{platformURL: 1, platformCatalogID: ide}",
		"{platformURL: 'https://datalab.example.org', platformCatalogID: 'a/b'}",
		"{platformURL: 'https://datalab.example.org', platformCatalogID: ''}",
		"{platformURL: 'https://datalab.example.org', platformCatalogID: [ide]}",
	)
	agree(t, ed, readCatalogYAML, docs, map[string]string{
		"sliders: {disk: {sliderMin: 3, sliderMax: 2, sliderStep: 1, sliderUnit: Gi}}": "sliderMin below sliderMax relates two values",
		"lint: {ignore: [{charts: ['[']}]}":                                            "a malformed glob: path.Match's syntax is no regular expression",
	})
}

// The rules catalog.yaml's lint section names are lint's, as lint checks
// them when it reads the section: a region rule belongs to no catalog, and
// a locked rule is always an error.
func TestCatalogSchemaKnowsTheRules(t *testing.T) {
	data, err := editorschema.Catalog("")
	if err != nil {
		t.Fatal(err)
	}
	ed := compile(t, editorschema.CatalogName, data)
	for _, r := range lint.All {
		for _, level := range []catalog.Level{catalog.LevelOff, catalog.LevelWarning, catalog.LevelError} {
			want := r.Scope != lint.PerRegion && (!r.Locked || level == catalog.LevelError)
			doc := fmt.Sprintf("lint: {rules: {%s: %s}}", r.Name, level)
			if got := len(ed.check(parseYAML(t, doc))) == 0; got != want {
				t.Errorf("%q: the schema accepts it: %t, lint: %t", doc, got, want)
			}
		}
		want := r.Scope != lint.PerRegion && !r.Locked
		doc := fmt.Sprintf("lint: {ignore: [{rule: %s}]}", r.Name)
		if got := len(ed.check(parseYAML(t, doc))) == 0; got != want {
			t.Errorf("%q: the schema accepts it: %t, lint: %t", doc, got, want)
		}
	}
	if rs := ed.check(parseYAML(t, "lint: {rules: {slider-gird: off}}")); len(rs) == 0 {
		t.Error("the schema accepts an unknown rule")
	}
}

func readRegion(data []byte) error {
	root, err := parseData("region.yaml", data)
	if err != nil {
		return err
	}
	// A regions.json is read one region at a time: each must be readable.
	if regions := root.Get("regions"); regions != nil && regions.Kind == srcpos.Array && len(regions.Items) > 1 {
		for _, r := range regions.Items {
			if id := r.Get("id"); id != nil {
				if _, err := region.Parse(data, id.Text); err != nil {
					return err
				}
			}
		}
		return nil
	}
	_, err = region.Parse(data, "")
	return err
}

// A region file is what region.Load reads: a plain region file, the
// platform's regions.json or one region of it.
func TestRegionSchemaAgreesWithTheReader(t *testing.T) {
	data, err := editorschema.Region("")
	if err != nil {
		t.Fatal(err)
	}
	ed := compile(t, editorschema.RegionName, data)
	const dc = `{resources: {cpuLimit: 4000m}, sliders: {cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}}}`
	docs := []string{
		"resources: {cpuRequest: 100m, cpuLimit: 4000m, gpu: 1, storage: 10Gi}",
		"resources: {cpuLimit: true}", "resources: []", "resources: ", "sliders: ", "sliders: []",
		"sliders: {cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}}",
		"sliders: {cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100}}",
		"sliders: {cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: -1, sliderUnit: m}}",
		"defaultNetworkPolicy: true\ncustomValues: {a: 1}", "[]", "a",
		"services: {defaultConfiguration: " + dc + "}",
		"services: {defaultConfiguration: {}, allowedURIPattern: x}",
		"services: {}", "services: 1",
		"services: {defaultConfiguration: {resources: {cpuLimit: [1]}}}",
		`{"regions": [{"id": "paris", "services": {"defaultConfiguration": ` + dc + `}}]}`,
		`{"regions": [{"id": "paris", "services": {"defaultConfiguration": {}}}, {"id": "lyon", "services": {"defaultConfiguration": {"sliders": {"gpu": {"sliderMin": 0, "sliderMax": 2, "sliderStep": 1, "sliderUnit": ""}}}}}]}`,
		`{"regions": [{"id": "paris", "services": {}}]}`,
		`{"regions": []}`, `{"regions": {}}`,
		`{"regions": [{"id": "paris", "services": {"defaultConfiguration": {"sliders": {"gpu": 1}}}}]}`,
	}
	agree(t, ed, readRegion, docs, map[string]string{})
}

// The fields of the catalogs file are those catalogsfile.Parse reads.
func TestCatalogsSchemaAgreesWithTheReader(t *testing.T) {
	data, err := editorschema.Catalogs("")
	if err != nil {
		t.Fatal(err)
	}
	ed := compile(t, editorschema.CatalogsName, data)
	read := func(data []byte) error {
		_, err := catalogsfile.Parse(data)
		return err
	}
	known := knownKeys(t, read([]byte("- {id: a, location: b, zzzzzzzzzzzz: 1}")), `\(known: ([^)]*)\)`)
	if got := schemaKeys(t, data, "definitions", "catalog", "properties"); !slices.Equal(got, known) {
		t.Errorf("catalogs file: the schema has the fields %v, the reader %v", got, known)
	}
	var docs []string
	for _, k := range append(known, "zzzzzzzzzzzz") {
		if k == "id" || k == "location" {
			docs = append(docs, keysProbe("catalogs: [{id: a, location: b, %s}]", []string{k})...)
			continue
		}
		docs = append(docs, keysProbe("catalogs: [{id: a, location: https://example.org/charts, %s}]", []string{k})...)
	}
	docs = append(docs,
		"", "a", "{}", "catalogs: ", "catalogs: []", "catalogs: {}", "{other: [], catalogs: []}",
		"- {id: ide, location: https://example.org/charts}", "- {id: ide}", "- {location: x}", "- 1",
		"- {id: ide, location: x, platform: onyxia}", "- {id: ide, location: x, platform: onyxa}",
		"- {id: ide, location: x, status: TEST}", "- {id: ide, location: x, status: prod}",
		"- {id: ide, location: x, excludedCharts: [a, 1]}",
		"- {id: a, location: x}\n- {id: a, location: y}",
	)
	agree(t, ed, read, docs, map[string]string{
		"- {id: a, location: x}\n- {id: a, location: y}": "unique ids: a JSON Schema can require unique items, not unique fields",
	})
	// The platform's defaults, written as a catalogs file.
	var b strings.Builder
	b.WriteString("catalogs:\n")
	for _, c := range catalogsfile.Defaults().Catalogs {
		fmt.Fprintf(&b, "  - {id: %q, name: %q, description: %q, location: %q, extensionKey: %q, status: %q}\n", c.ID, c.Name, c.Description, c.Location, c.ExtensionKey, c.Status)
	}
	agree(t, ed, read, []string{b.String()}, nil)
}

func parseYAML(t *testing.T, doc string) *srcpos.Node {
	t.Helper()
	root, err := parseData("doc.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return root
}
