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
		inline     = `<code class="path">resources/<wbr>inlineCpu</code>`
		registered = `<code class="path">resources/<wbr>registryCpu</code>`
		ignored    = "on the onyxia platform useRegionSliderConfig is ignored"
		fromRegion = "Bounds from the region (slider configuration <code>cpu</code>)"
	)

	build(t, builder.Options{Catalog: cat, Out: out, RegionFile: regionFile, Now: at(t1)})
	pageHas(t, "without a registry", readPage(t, out, "jupyter"),
		[]string{
			inline,
			`id="option/limits/nvidia.com~2Fgpu"`,
			`href="#option/limits/nvidia.com~2Fgpu"`,
			`<code>{&#34;flag&#34;:<wbr>&#34;on&#34;}</code><span class="opt-source">from values.<wbr>yaml</span>`,
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

// A chart's page shows the changes of every published version (an older
// one's from the published index it merges), the latest version's
// dependencies, linked when they are charts of the catalog, and its
// default values.yaml. A dependency's link comes when its chart joins the
// catalog, though the chart that depends on it is unchanged.
func TestSiteChangelogDependenciesValues(t *testing.T) {
	cat := t.TempDir()
	writeFile(t, filepath.Join(cat, "catalog.yaml"), "name: ide\nbaseURL: https://example.org/ide\n")
	writeFile(t, filepath.Join(cat, "charts", "base", "Chart.yaml"), "apiVersion: v2\nname: base\nversion: 0.4.0\ntype: library\ndescription: Shared templates.\n")
	writeFile(t, filepath.Join(cat, "charts", "base", "templates", "_helpers.tpl"), "{{- define \"base.name\" -}}{{ .Chart.Name }}{{- end -}}\n")
	appYAML := func(version, change string) string {
		return "apiVersion: v2\nname: app\nversion: " + version + "\ndescription: An application.\n" +
			"annotations:\n  artifacthub.io/changes: |\n    - kind: added\n      description: " + change + "\n" +
			"dependencies:\n" +
			"  - name: base\n    version: 0.4.0\n    repository: file://../base\n" +
			"  - name: redis\n    version: ~18.1.0\n    repository: https://charts.example.org/stable\n    condition: cache.enabled\n    alias: cache\n" +
			"  - name: tools\n    version: 1.x\n    repository: https://example.org/ide\n"
	}
	app := filepath.Join(cat, "charts", "app")
	writeFile(t, filepath.Join(app, "Chart.yaml"), appYAML("1.0.0", "First release"))
	writeFile(t, filepath.Join(app, "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include \"base.name\" . }}\n")
	writeFile(t, filepath.Join(app, "values.yaml"), "replicas: 1\ncache:\n  enabled: false\n# not markup: <script>alert(1)</script>\n")
	// Vendored: the build needs no network.
	writeFile(t, filepath.Join(app, "charts", "redis", "Chart.yaml"), "apiVersion: v2\nname: redis\nversion: 18.1.5\n")
	writeFile(t, filepath.Join(app, "charts", "tools", "Chart.yaml"), "apiVersion: v2\nname: tools\nversion: 1.2.0\n")

	published := filepath.Join(t.TempDir(), "published")
	build(t, builder.Options{Catalog: cat, Out: published, Now: at(t1)})
	writeFile(t, filepath.Join(app, "Chart.yaml"), appYAML("1.1.0", "Second release"))
	out := filepath.Join(t.TempDir(), "site")
	build(t, builder.Options{Catalog: cat, Out: out, Merge: published, Now: at(t2)})

	page := readPage(t, out, "app")
	pageHas(t, "app", page, []string{
		`<h2>Changelog</h2>`,
		`<h3>v1.1.0 <span class="badge">latest</span> <time class="muted" datetime="2026-09-01">2026-09-01</time></h3>`,
		`<span>Second release</span>`,
		`<h3>v1.0.0 <time class="muted" datetime="2026-03-01">2026-03-01</time></h3>`,
		`<span>First release</span>`,
		`<a class="dep-name" href="../../charts/base/index.html">base</a> <code>0.4.0</code> <span class="dep-meta">from this catalog</span>`,
		`<span class="dep-name">redis</span> <code>~18.1.0</code> <span class="muted">as cache</span> <span class="dep-meta">from <a class="web-link" href="https://charts.example.org/stable" rel="noopener noreferrer">https://charts.<wbr>example.<wbr>org/<wbr>stable</a></span> <span class="dep-meta">when <code>cache.enabled</code> is true</span>`,
		`<span class="dep-name">tools</span>`,
		`<details id="chart-values" class="panel fold wide">`,
		"replicas: 1\ncache:\n  enabled: false\n# not markup: &lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>",
	}, []string{`href="../../charts/tools/index.html"`, "<script>alert(1)"})
	if strings.Index(page, "Second release") > strings.Index(page, "First release") {
		t.Error("the changelog is not newest first")
	}

	// The tools chart joins the catalog: app's page, app unchanged, links
	// to it.
	writeFile(t, filepath.Join(cat, "charts", "tools", "Chart.yaml"), "apiVersion: v2\nname: tools\nversion: 1.2.0\ndescription: Tools.\n")
	writeFile(t, filepath.Join(cat, "charts", "tools", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tools\n")
	build(t, builder.Options{Catalog: cat, Out: out, Merge: published, Now: at(t2)})
	pageHas(t, "app, once tools is a chart of the catalog", readPage(t, out, "app"),
		[]string{`<a class="dep-name" href="../../charts/tools/index.html">tools</a> <code>1.x</code> <span class="dep-meta">from this catalog</span>`}, nil)
}
