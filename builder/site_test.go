package builder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/builder"
)

// registryCatalog writes a catalog of the reference platform (x-onyxia)
// whose chart has its resources replaced by the registry schema
// ide/resources.json, a GPU limit keyed nvidia.com/gpu, and a YAML field
// that values.yaml fills. It returns the catalog, a registry directory
// holding ide/resources.json and a region file.
func registryCatalog(t *testing.T) (cat, registry, regionFile string) {
	t.Helper()
	root := t.TempDir()
	cat = filepath.Join(root, "catalog")
	writeFile(t, filepath.Join(cat, "catalog.yaml"), "name: ide\nextensionKey: x-onyxia\nbaseURL: https://example.org/ide\n")
	chart := filepath.Join(cat, "charts", "jupyter")
	writeFile(t, filepath.Join(chart, "Chart.yaml"), "apiVersion: v2\nname: jupyter\nversion: 1.0.0\ndescription: Notebooks.\nicon: https://example.org/icon.svg\n")
	writeFile(t, filepath.Join(chart, "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n")
	writeFile(t, filepath.Join(chart, "values.schema.json"), `{
  "type": "object",
  "properties": {
    "resources": {
      "title": "Resources", "type": "object",
      "x-onyxia": {"overwriteSchemaWith": "ide/resources.json"},
      "properties": {
        "inlineCpu": {"title": "Inline CPU", "type": "string", "default": "1"}
      }
    },
    "limits": {
      "title": "Limits", "type": "object",
      "properties": {
        "nvidia.com/gpu": {"title": "GPU", "type": "string", "default": "0"}
      }
    },
    "extra": {"title": "Extra settings", "type": "object"}
  }
}
`)
	// "on" is a string to the form's YAML 1.2 reader, true to Helm's.
	writeFile(t, filepath.Join(chart, "values.yaml"), "extra:\n  flag: on\n")
	registry = filepath.Join(root, "registry")
	writeFile(t, filepath.Join(registry, "ide", "resources.json"), registryResources("CPU from the registry"))
	regionFile = filepath.Join(root, "region.yaml")
	writeFile(t, regionFile, "sliders:\n  cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}\n")
	return cat, registry, regionFile
}

func registryResources(title string) string {
	return `{
  "title": "Resources", "type": "object",
  "properties": {
    "registryCpu": {
      "title": "` + title + `", "type": "string", "default": "2000m",
      "render": "slider", "sliderMin": 100, "sliderMax": 16000, "sliderStep": 100, "sliderUnit": "m",
      "x-onyxia": {"useRegionSliderConfig": "cpu"}
    }
  }
}
`
}

func readPage(t *testing.T, out, chart string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "charts", chart, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func pageHas(t *testing.T, what, page string, want, bad []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("%s: the page lacks %s", what, w)
		}
	}
	for _, b := range bad {
		if strings.Contains(page, b) {
			t.Errorf("%s: the page holds %s", what, b)
		}
	}
}

// The options table is the form the platform shows: registry schemas
// replace the inline properties that name them, values.yaml is read as the
// platform reads it, and region slider configurations apply only on a
// platform that has them. A change of the registry or of the platform
// renders the page again though the chart itself is unchanged.
func TestSiteShowsTheFormThePlatformShows(t *testing.T) {
	cat, registry, regionFile := registryCatalog(t)
	out := filepath.Join(t.TempDir(), "site")
	const (
		inline     = `<code class="path">resources/inlineCpu</code>`
		registered = `<code class="path">resources/registryCpu</code>`
		ignored    = "on the onyxia platform useRegionSliderConfig is ignored"
		fromRegion = "Bounds from the region (slider configuration <code>cpu</code>)"
	)

	build(t, builder.Options{Catalog: cat, Out: out, RegionFile: regionFile, Now: at(t1)})
	pageHas(t, "without a registry", readPage(t, out, "jupyter"),
		[]string{
			inline,
			`id="option/limits/nvidia.com~2Fgpu"`,
			`href="#option/limits/nvidia.com~2Fgpu"`,
			`<code>{&#34;flag&#34;:&#34;on&#34;}</code><span class="opt-source">from values.yaml</span>`,
			"What the onyxia platform's configuration form shows",
		},
		[]string{registered, `{&#34;flag&#34;:true}`})

	res := build(t, builder.Options{Catalog: cat, Out: out, RegionFile: regionFile, SchemaRegistry: []string{registry}, Now: at(t2)})
	if res.Reused != res.Charts {
		t.Errorf("a registry changes no package: %d reused of %d", res.Reused, res.Charts)
	}
	pageHas(t, "with the registry", readPage(t, out, "jupyter"),
		[]string{registered, `<span class="opt-title">CPU from the registry</span>`, ignored, "Slider <code>100m – 16000m, step 100m</code>", `id="option/resources/registryCpu"`},
		[]string{inline, fromRegion})

	writeFile(t, filepath.Join(registry, "ide", "resources.json"), registryResources("CPU, as the registry now says"))
	build(t, builder.Options{Catalog: cat, Out: out, RegionFile: regionFile, SchemaRegistry: []string{registry}, Now: at(t2)})
	pageHas(t, "after the registry changed", readPage(t, out, "jupyter"),
		[]string{`<span class="opt-title">CPU, as the registry now says</span>`},
		[]string{"CPU from the registry"})

	build(t, builder.Options{Catalog: cat, Out: out, RegionFile: regionFile, SchemaRegistry: []string{registry}, Platform: "catalogist", Now: at(t2)})
	pageHas(t, "on catalogist's platform", readPage(t, out, "jupyter"),
		[]string{registered, fromRegion, "Slider <code>100m – 8000m, step 100m</code>", "What the catalogist platform's configuration form shows"},
		[]string{ignored})

	// catalog.yaml's schemaRegistry is the registry when no option names
	// one, relative to the catalog.
	if err := os.Rename(registry, filepath.Join(cat, "schemas")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(cat, "catalog.yaml"), "name: ide\nextensionKey: x-onyxia\nbaseURL: https://example.org/ide\nschemaRegistry: schemas\n")
	build(t, builder.Options{Catalog: cat, Out: out, RegionFile: regionFile, Now: at(t2)})
	pageHas(t, "with catalog.yaml's registry", readPage(t, out, "jupyter"),
		[]string{registered, ignored},
		[]string{inline})
}

// A library chart gets a page with its README and versions but no install
// snippet and no form, and the index lists it apart from the cards.
func TestLibraryChartSite(t *testing.T) {
	cat := t.TempDir()
	writeFile(t, filepath.Join(cat, "catalog.yaml"), "name: ide\nbaseURL: https://example.org/ide\n")
	writeFile(t, filepath.Join(cat, "charts", "base", "Chart.yaml"), "apiVersion: v2\nname: base\nversion: 0.4.0\ntype: library\ndescription: Shared templates.\n")
	writeFile(t, filepath.Join(cat, "charts", "base", "templates", "_helpers.tpl"), "{{- define \"base.name\" -}}{{ .Chart.Name }}{{- end -}}\n")
	writeFile(t, filepath.Join(cat, "charts", "base", "README.md"), "# base\n\nThe templates every chart of the catalog shares.\n")
	// Nothing launches a library chart, so an option the form could not
	// fill is no matter.
	writeFile(t, filepath.Join(cat, "charts", "base", "values.schema.json"), `{"type": "object", "properties": {"name": {"type": "string"}}}`)
	writeFile(t, filepath.Join(cat, "charts", "app", "Chart.yaml"), "apiVersion: v2\nname: app\nversion: 1.0.0\ndescription: An application.\nicon: https://example.org/icon.svg\ndependencies:\n  - name: base\n    version: 0.4.0\n    repository: file://../base\n")
	writeFile(t, filepath.Join(cat, "charts", "app", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include \"base.name\" . }}\n")
	out := filepath.Join(t.TempDir(), "site")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})

	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	pageHas(t, "index", string(index),
		[]string{`data-name="app"`, `<section class="libraries" id="library-charts"`, `<a href="charts/base/index.html">base</a> <span class="badge">v0.4.0</span>`},
		[]string{`data-name="base"`})
	pageHas(t, "library chart", readPage(t, out, "base"),
		[]string{"helm repo add ide https://example.org/ide", "The templates every chart of the catalog shares.", `href="../../base-0.4.0.tgz"`, "the platform shows no configuration form for it"},
		[]string{"helm install", "catalogist launch", `class="options"`})
	pageHas(t, "application chart", readPage(t, out, "app"),
		[]string{"helm install my-app ide/app --version 1.0.0", "catalogist launch app \\\n  --repo"},
		nil)
}
