package site

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/testkit/corpustest"
	"github.com/catalogist/catalogist/internal/testkit/gencatalog"
)

// The fixtures of the site tests: a realistic catalog (testdata/normal) and
// a hostile one (testdata/hostile) whose every field tries to run script.

const (
	normalRepo   = "https://example-org.github.io/catalog-ide"
	normalSource = "https://github.com/example-org/catalog-ide"

	// hostileTitle is the hostile catalog's title: the index page's title
	// must be exactly this text.
	hostileTitle = `<script>document.title='pwned';window.__pwned=1</script>Evil catalog`
	// hostileText is written into most fields of the hostile catalog.
	hostileText = `<script>window.__pwned=1;alert(1)</script>"><img src=x onerror="window.__pwned=1;alert(1)">`
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// jupyterForm loads the normal fixture's jupyter schema and computes its
// form in the fixture's region, with a catalog-level disk slider.
func jupyterForm(t *testing.T) (*schema.Schema, *schema.Form) {
	t.Helper()
	reg, err := region.Load(filepath.Join("testdata", "normal", "region.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	catalogSliders := map[string]*region.Slider{
		"disk": {Name: "disk", Config: slider.Config{Min: 1, Max: 50, Step: 1, Unit: "Gi"}},
	}
	s, err := schema.Load(filepath.Join("testdata", "normal", "charts", "jupyter", "values.schema.json"), schema.DefaultExtensionKey)
	if err != nil {
		t.Fatal(err)
	}
	return s, schema.Compute(s, schema.NewContext(nil, reg, catalogSliders, "catalog.yaml"), nil)
}

func day(s string) time.Time {
	d, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return d
}

// normalCatalog is a realistic catalog: jupyter (README with headings, a
// table and code, a schema with range sliders, region and catalog bounds,
// profile pre-fills and hidden conditions), vscode, postgresql (an icon
// URL that cannot load, no schema) and python-base, a library chart.
// unreachableIcon is an https icon URL that fails to load.
const unreachableIcon = "https://127.0.0.1:9/postgresql.svg"

func normalCatalog(t *testing.T) *Catalog {
	t.Helper()
	dir := filepath.Join("testdata", "normal")
	js, jf := jupyterForm(t)
	vs, err := schema.Load(filepath.Join(dir, "charts", "vscode", "values.schema.json"), schema.DefaultExtensionKey)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := region.Load(filepath.Join(dir, "region.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	return &Catalog{
		Name:        "ide",
		Title:       "Data science environments",
		Description: "Interactive development environments (Jupyter, VS Code) with a homogeneous Python stack, with or without GPU, and a database to experiment with.",
		Source:      normalSource,
		RepoURL:     normalRepo,
		Charts: []*Chart{
			{
				Name:        "vscode",
				Description: "VS Code in the browser with Python, git and the Kubernetes tools.",
				Keywords:    []string{"vscode", "python", "ide"},
				Home:        "https://github.com/coder/code-server",
				Sources:     []string{"https://github.com/coder/code-server"},
				Maintainers: []Maintainer{{Name: "IDE maintainers", Email: "ide@example.org"}},
				AppVersion:  "4.93.1",
				IconFile:    filepath.Join(dir, "icons", "vscode.svg"),
				README:      readFile(t, filepath.Join(dir, "charts", "vscode", "README.md")),
				SourcePath:  "charts/vscode",
				Versions: []Version{
					{Version: "2.1.0", AppVersion: "4.93.1", Created: day("2026-02-11T09:30:00+01:00"), Digest: strings.Repeat("ab", 32), URL: "vscode-2.1.0.tgz"},
				},
				Schema: vs,
				Form:   schema.Compute(vs, schema.NewContext(nil, reg, nil, ""), nil),
				ExtKey: schema.DefaultExtensionKey,
			},
			{
				Name:        "jupyter",
				Description: "JupyterLab with the scientific Python stack or PyTorch on an NVIDIA GPU; git and credentials pre-filled from your profile.",
				Keywords:    []string{"jupyter", "python", "gpu", "ide"},
				Home:        "https://jupyter.org",
				Sources:     []string{"https://github.com/jupyter/docker-stacks", "ftp://example.org/jupyter"},
				Maintainers: []Maintainer{
					{Name: "IDE maintainers", Email: "ide@example.org", URL: "https://example.org/team"},
					{Name: "Ada Lovelace", URL: "https://github.com/ada"},
				},
				AppVersion: "4.2.5",
				IconFile:   filepath.Join(dir, "icons", "jupyter.svg"),
				README:     readFile(t, filepath.Join(dir, "charts", "jupyter", "README.md")),
				Changes: []Change{
					{Kind: "added", Description: "GPU slider bounded by the region's gpu configuration"},
					{Kind: "changed", Description: "JupyterLab 4.2.5 images by default"},
					{Kind: "fixed", Description: "The git branch is no longer asked for when no repository is set", Links: []Link{
						{Name: "Pull request #42", URL: "https://github.com/example-org/catalog-ide/pull/42"},
					}},
					{Kind: "security", Description: "The notebook token is stored in a Secret"},
				},
				SourcePath: "charts/jupyter",
				Values:     readFile(t, filepath.Join(dir, "charts", "jupyter", "values.yaml")),
				Versions: []Version{
					{Version: "1.4.0", AppVersion: "4.2.5", Created: day("2026-03-02T23:30:00-02:00"), Digest: "3f1c0a5e9b7d2c4f6a8e0b1d3c5e7f9a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e", URL: normalSource + "/releases/download/jupyter-1.4.0/jupyter-1.4.0.tgz",
						Dependencies: []Dependency{
							{Name: "python-base", Version: "0.4.x", Repository: "file://../python-base"},
							{Name: "postgresql", Version: "~15.2.0", Repository: "oci://registry.example.org/charts", Condition: "postgresql.enabled", Alias: "db"},
							{Name: "vscode", Version: "2.1.0", Repository: "https://charts.example.org/other"},
						}},
					{Version: "1.3.2", AppVersion: "4.2.4", Created: day("2026-01-20T08:00:00Z"), Digest: "9e8d7c6b5a49382716059f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a", URL: "charts/jupyter-1.3.2.tgz",
						Changes: []Change{{Kind: "fixed", Description: "The token is no longer written to the logs"}},
						Dependencies: []Dependency{
							{Name: "python-base", Version: "0.3.x", Repository: normalRepo + "/"},
						}},
					{Version: "1.3.1", AppVersion: "4.2.4", Created: day("2025-12-05T08:00:00Z"), Digest: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", URL: "http://example.org/jupyter-1.3.1.tgz"},
				},
				Schema: js,
				Form:   jf,
				ExtKey: schema.DefaultExtensionKey,
			},
			{
				Name:        "postgresql",
				Description: "A PostgreSQL server for experiments, with a persistent volume.",
				// Nothing listens there: the page must show the default
				// icon instead of a broken image.
				IconURL:     unreachableIcon,
				Keywords:    []string{"database", "sql"},
				Maintainers: []Maintainer{{Name: "Database maintainers", Email: "db@example.org"}},
				AppVersion:  "16.4",
				README:      readFile(t, filepath.Join(dir, "charts", "postgresql", "README.md")),
				SourcePath:  "charts/postgresql",
				Versions: []Version{
					{Version: "0.3.0", AppVersion: "16.4", Created: day("2025-11-30T12:00:00Z"), Digest: strings.Repeat("cd", 32), URL: "postgresql-0.3.0.tgz"},
				},
			},
			{
				Name:        "python-base",
				Description: "Templates shared by the Python environments.",
				Keywords:    []string{"library", "python"},
				Maintainers: []Maintainer{{Name: "IDE maintainers", Email: "ide@example.org"}},
				README:      readFile(t, filepath.Join(dir, "charts", "python-base", "README.md")),
				SourcePath:  "charts/python-base",
				Library:     true,
				Versions: []Version{
					{Version: "0.4.0", Created: day("2026-02-01T10:00:00Z"), Digest: strings.Repeat("ef", 32), URL: "python-base-0.4.0.tgz"},
					{Version: "0.3.1", Created: day("2025-10-01T10:00:00Z"), Digest: strings.Repeat("12", 32), URL: "python-base-0.3.1.tgz"},
				},
			},
		},
	}
}

// hostileCatalog tries every field: script tags, attribute break-outs and
// javascript: URLs in the catalog, two hostile charts (one with an SVG icon
// holding a script, one whose icon URL is javascript:) and a normal one.
func hostileCatalog(t *testing.T) *Catalog {
	t.Helper()
	dir := filepath.Join("testdata", "hostile")
	hs, err := schema.Load(filepath.Join(dir, "values.schema.json"), schema.DefaultExtensionKey)
	if err != nil {
		t.Fatal(err)
	}
	normal := normalCatalog(t)
	var jupyter *Chart
	for _, c := range normal.Charts {
		if c.Name == "jupyter" {
			jupyter = c
		}
	}
	evil := func(name string) *Chart {
		return &Chart{
			Name:        name,
			Description: hostileText,
			Keywords:    []string{"<script>window.__pwned=1;alert(1)</script>", `"><img src=x onerror="window.__pwned=1;alert(1)">`, "evil"},
			Home:        "javascript:window.__pwned=1;alert(1)",
			Sources:     []string{"javascript:alert(1)", `https://example.org/"><script>alert(1)</script>`, "data:text/html,<script>alert(1)</script>"},
			Maintainers: []Maintainer{
				{Name: hostileText, Email: `"><script>alert(1)</script>@example.org`, URL: "javascript:alert(1)"},
				{Name: "Bob", Email: "javascript:alert(1)//@example.org", URL: "http://insecure.example.org"},
			},
			AppVersion: "<script>alert(1)</script>",
			README:     readFile(t, filepath.Join(dir, "README.md")),
			Changes: []Change{
				{Kind: "<script>alert(1)</script>", Description: hostileText, Links: []Link{
					{Name: hostileText, URL: "javascript:window.__pwned=1;alert(1)"},
					{Name: "vb", URL: "vbscript:msgbox(1)"},
				}},
			},
			SourcePath: "../../../etc",
			Versions: []Version{
				{Version: `1.0.0"><script>alert(1)</script>`, AppVersion: hostileText, Created: day("2026-01-01T00:00:00Z"), Digest: hostileText, URL: "javascript:window.__pwned=1;alert(1)"},
				{Version: "0.9.0", URL: "//evil.example/x.tgz"},
				{Version: "0.8.0", URL: `\\evil.example\x.tgz`},
			},
			Schema: hs,
			Form:   schema.Compute(hs, nil, nil),
			ExtKey: `x-"><script>alert(1)</script>`,
		}
	}
	withFile := evil("evil")
	withFile.IconFile = filepath.Join(dir, "icons", "evil.svg")
	withURL := evil("evil-url")
	withURL.IconURL = "javascript:window.__pwned=1;alert(1)"
	return &Catalog{
		Name:         `evil'; alert(1); echo '`,
		Title:        hostileTitle,
		Description:  hostileText,
		Source:       "javascript:window.__pwned=1;alert(1)",
		SourceBranch: `"><script>alert(1)</script>`,
		RepoURL:      "",
		Charts:       []*Chart{withFile, withURL, jupyter},
	}
}

// render renders cat into a new temporary directory.
func render(t *testing.T, cat *Catalog, opt Options) string {
	t.Helper()
	dir := t.TempDir()
	if err := Render(dir, cat, opt); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return dir
}

// siteFiles lists the files of a rendered site, slash paths, sorted.
func siteFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// pages lists the HTML pages of a rendered site.
func pages(t *testing.T, dir string) []string {
	var out []string
	for _, f := range siteFiles(t, dir) {
		if strings.HasSuffix(f, ".html") {
			out = append(out, f)
		}
	}
	return out
}

func parseHTML(t *testing.T, data []byte) *html.Node {
	t.Helper()
	n, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// walk calls f on every element.
func walk(n *html.Node, f func(*html.Node)) {
	if n.Type == html.ElementNode {
		f(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// textOf is the text content of a node.
func textOf(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
	}
	f(n)
	return b.String()
}

// find returns the elements matching f.
func find(root *html.Node, f func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	walk(root, func(n *html.Node) {
		if f(n) {
			out = append(out, n)
		}
	})
	return out
}

// isCard tells the index's chart cards.
func isCard(n *html.Node) bool { return n.Data == "li" && hasClass(n, "card") }

// isKeyword tells the items of a keyword list.
func isKeyword(n *html.Node) bool {
	return n.Data == "li" && n.Parent != nil && hasClass(n.Parent, "tags")
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	for _, c := range strings.Fields(v) {
		if c == class {
			return true
		}
	}
	return false
}

// exampleCatalog is the repository's example catalog examples/ide as the
// builder gives it to Render (each chart's Chart.yaml, README, values.yaml
// and form in the examples' region), with extra charts from the public
// corpus, whose extension key is x-onyxia.
func exampleCatalog(t *testing.T, corpus ...string) *Catalog {
	t.Helper()
	return exampleCatalogOf(t, "ide", corpus...)
}

// exampleCatalogOf is the example catalog examples/<name>, as
// exampleCatalog describes, named and titled by its catalog.yaml.
func exampleCatalogOf(t *testing.T, name string, corpus ...string) *Catalog {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "examples", name)
	reg, err := region.Load(filepath.Join("..", "..", "..", "examples", "region.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Name, Title, Description, Source string
		BaseURL                          string `json:"baseURL"`
	}
	if err := yaml.Unmarshal(readFile(t, filepath.Join(dir, "catalog.yaml")), &settings); err != nil {
		t.Fatal(err)
	}
	cat := &Catalog{
		Name: settings.Name, Title: settings.Title, Description: settings.Description, Source: settings.Source,
		RepoURL: settings.BaseURL,
	}
	add := func(chartDir, extKey, icon string) {
		cat.Charts = append(cat.Charts, chartFromDir(t, chartDir, extKey, icon, reg))
	}
	entries, err := os.ReadDir(filepath.Join(dir, "charts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		add(filepath.Join(dir, "charts", e.Name()), schema.DefaultExtensionKey, filepath.Join(dir, "icons", e.Name()+".svg"))
	}
	for _, name := range corpus {
		add(corpustest.Chart(t, name), "x-onyxia", "")
	}
	return cat
}

// chartFromDir is the chart of a directory as the builder gives it to
// Render: its Chart.yaml, README, values.yaml and form in the region.
func chartFromDir(t *testing.T, chartDir, extKey, icon string, reg *region.Region) *Chart {
	t.Helper()
	var md chart.Metadata
	if err := yaml.Unmarshal(readFile(t, filepath.Join(chartDir, "Chart.yaml")), &md); err != nil {
		t.Fatal(err)
	}
	s, err := schema.Load(filepath.Join(chartDir, "values.schema.json"), extKey)
	if err != nil {
		t.Fatal(err)
	}
	c := &Chart{
		Name: md.Name, Description: md.Description, Keywords: md.Keywords, Home: md.Home, Sources: md.Sources,
		AppVersion: md.AppVersion, IconFile: icon, SourcePath: "charts/" + md.Name,
		Values: readFile(t, filepath.Join(chartDir, "values.yaml")),
		Schema: s, Form: schema.Compute(s, schema.NewContext(nil, reg, nil, ""), nil), ExtKey: extKey,
		Versions: []Version{{Version: md.Version, AppVersion: md.AppVersion, Created: day("2026-04-01T10:00:00Z"), URL: md.Name + "-" + md.Version + ".tgz"}},
	}
	if data, err := os.ReadFile(filepath.Join(chartDir, "README.md")); err == nil {
		c.README = data
	}
	for _, d := range md.Dependencies {
		c.Versions[0].Dependencies = append(c.Versions[0].Dependencies, Dependency{Name: d.Name, Version: d.Version, Repository: d.Repository, Condition: d.Condition, Alias: d.Alias})
	}
	return c
}

// largeCatalog holds one generated chart (gencatalog's first): a schema of
// a real chart's size, with two dozen top-level groups, sliders and
// switches, a README with a table, a home page and two sources.
func largeCatalog(t *testing.T) *Catalog {
	t.Helper()
	dir := t.TempDir()
	if err := gencatalog.Write(dir, 1); err != nil {
		t.Fatal(err)
	}
	name := gencatalog.ChartName(0)
	reg, err := region.Load(filepath.Join("..", "..", "..", "examples", "region.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	return &Catalog{
		Name: "generated", Title: "Generated catalog", Source: "https://git.example.org/datalab/catalog-generated",
		RepoURL: "https://catalogs.example.org/generated",
		Charts:  []*Chart{chartFromDir(t, filepath.Join(dir, "charts", name), "x-platform", filepath.Join(dir, "icons", name+".svg"), reg)},
	}
}

// generatedCatalog is a catalog of n charts of 30 versions each, from
// gencatalog's index, with the default icon: the index page's size and
// filter speed on a large catalog.
func generatedCatalog(n int) *Catalog {
	idx := gencatalog.Index(n * 30)
	cat := &Catalog{Name: "generated", Title: "Generated catalog", RepoURL: "https://catalogs.example.org/generated"}
	names := make([]string, 0, len(idx.Entries))
	for name := range idx.Entries {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		cvs := idx.Entries[name]
		md := cvs[0].Metadata
		c := &Chart{Name: name, Description: md.Description, Keywords: md.Keywords, Home: md.Home, Sources: md.Sources, AppVersion: md.AppVersion}
		for _, cv := range cvs {
			c.Versions = append(c.Versions, Version{Version: cv.Version, AppVersion: cv.AppVersion, Created: cv.Created, Digest: cv.Digest, URL: cv.URLs[0]})
		}
		cat.Charts = append(cat.Charts, c)
	}
	return cat
}
