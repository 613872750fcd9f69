package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/catalogist/catalogist/templates"
)

// cspFor is the Content-Security-Policy of a page: images from the site
// only, and from https hosts too on a page that shows a remote image.
func cspFor(remoteImages bool) string {
	img := "img-src 'self' data:"
	if remoteImages {
		img += " https:"
	}
	return "default-src 'none'; script-src 'self'; style-src 'self'; " + img + "; connect-src 'self'; base-uri 'none'; form-action 'none'"
}

// wantCSP is the policy of a page without remote images.
var wantCSP = cspFor(false)

func iconName(t *testing.T, file string) string {
	t.Helper()
	sum := sha256.Sum256(readFile(t, file))
	return "icons/" + hex.EncodeToString(sum[:])[:16] + strings.ToLower(filepath.Ext(file))
}

// embeddedAssets lists the assets/ files of a site rendered with the
// embedded templates: every embedded file but the templates.
func embeddedAssets(t *testing.T) []string {
	t.Helper()
	entries, err := fs.ReadDir(templates.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if ext := path.Ext(e.Name()); ext != ".html" && ext != ".go" {
			out = append(out, "assets/"+e.Name())
		}
	}
	return out
}

func TestRenderFiles(t *testing.T) {
	dir := render(t, normalCatalog(t), Options{})
	for _, a := range []string{"assets/catalog.js", "assets/copy.js", "assets/options.js", "assets/icons.js", "assets/style.css", "assets/default-icon.svg"} {
		if !slices.Contains(embeddedAssets(t), a) {
			t.Errorf("%s is not among the embedded assets", a)
		}
	}
	want := append(embeddedAssets(t),
		"charts/jupyter/index.html",
		"charts/postgresql/index.html",
		"charts/python-base/index.html",
		"charts/vscode/index.html",
		iconName(t, filepath.Join("testdata", "normal", "icons", "jupyter.svg")),
		iconName(t, filepath.Join("testdata", "normal", "icons", "vscode.svg")),
		"index.html",
	)
	slices.Sort(want)
	if got := siteFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("files:\n got %q\nwant %q", got, want)
	}
	if got := readFile(t, filepath.Join(dir, iconName(t, filepath.Join("testdata", "normal", "icons", "jupyter.svg")))); !bytes.Equal(got, readFile(t, filepath.Join("testdata", "normal", "icons", "jupyter.svg"))) {
		t.Error("the icon copy differs from the icon file")
	}
}

// checkPage applies the rules every page follows: the CSP and referrer
// meta tags (the CSP allows https images exactly when the page shows one),
// no inline script (JSON data blocks, which run nothing, aside) or style,
// scripts from the site's assets only, no event handler attribute, only
// relative links to the site (which must exist) or http(s)/mailto links
// with rel="noopener noreferrer" on external anchors, and no dangerous
// element.
func checkPage(t *testing.T, dir, page string) *html.Node {
	t.Helper()
	doc := parseHTML(t, readFile(t, filepath.Join(dir, page)))
	var csp, referrer int
	var policy string
	remote := false
	walk(doc, func(n *html.Node) {
		where := page + ": <" + n.Data + ">"
		switch n.Data {
		case "img":
			if src, _ := attr(n, "src"); strings.HasPrefix(src, "https:") {
				remote = true
			}
		case "meta":
			if v, _ := attr(n, "http-equiv"); strings.EqualFold(v, "Content-Security-Policy") {
				csp++
				policy, _ = attr(n, "content")
			}
			if v, _ := attr(n, "http-equiv"); strings.EqualFold(v, "refresh") {
				t.Errorf("%s: meta refresh", where)
			}
			if v, _ := attr(n, "name"); v == "referrer" {
				referrer++
				if c, _ := attr(n, "content"); c != "no-referrer" {
					t.Errorf("%s: referrer %q", where, c)
				}
			}
		case "script":
			src, ok := attr(n, "src")
			if typ, _ := attr(n, "type"); !ok && strings.EqualFold(typ, "application/json") {
				break // data, which no browser runs
			}
			if !ok || textOf(n) != "" {
				t.Errorf("%s: inline script %q", where, textOf(n))
			}
			if p := path.Join(path.Dir(page), src); path.Dir(p) != "assets" || path.Ext(p) != ".js" {
				t.Errorf("%s: script %q is not one of the site's assets", where, src)
			}
		case "style", "iframe", "object", "embed", "form", "base", "frame", "frameset", "svg", "math", "template":
			t.Errorf("%s: element not allowed", where)
		}
		// What scrolls sideways (snippets, tables) is reachable with the
		// keyboard and says what it holds (axe's
		// scrollable-region-focusable).
		if (n.Data == "pre" && hasClass(n, "snippet")) || hasClass(n, "table-scroll") || hasClass(n, "code-scroll") {
			tab, _ := attr(n, "tabindex")
			role, _ := attr(n, "role")
			label, _ := attr(n, "aria-label")
			if tab != "0" || role != "region" || strings.TrimSpace(label) == "" {
				t.Errorf("%s: a box that scrolls with tabindex=%q role=%q aria-label=%q, want 0, region and a label", where, tab, role, label)
			}
		}
		for _, a := range n.Attr {
			k := strings.ToLower(a.Key)
			if strings.HasPrefix(k, "on") || k == "style" || k == "formaction" || k == "srcdoc" || k == "srcset" {
				t.Errorf("%s: attribute %s=%q", where, a.Key, a.Val)
			}
		}
		for _, k := range []string{"href", "src", "action", "data", "poster", "cite"} {
			v, ok := attr(n, k)
			if !ok {
				continue
			}
			checkURL(t, dir, page, n, where, v)
		}
	})
	if csp != 1 || referrer != 1 {
		t.Errorf("%s: %d CSP and %d referrer meta tags, want 1 each", page, csp, referrer)
	}
	if want := cspFor(remote); policy != want {
		t.Errorf("%s: CSP %q, want %q", page, policy, want)
	}
	return doc
}

func checkURL(t *testing.T, dir, page string, n *html.Node, where, v string) {
	t.Helper()
	if strings.HasPrefix(v, "#") {
		return
	}
	u, err := url.Parse(v)
	if err != nil {
		t.Errorf("%s: bad URL %q: %v", where, v, err)
		return
	}
	switch strings.ToLower(u.Scheme) {
	case "":
		if u.Host != "" || strings.HasPrefix(v, "/") || strings.Contains(v, "\\") {
			t.Errorf("%s: link %q is not relative to the page", where, v)
			return
		}
		if v == "" {
			t.Errorf("%s: empty URL", where)
			return
		}
		target := path.Join(path.Dir(page), u.Path)
		if strings.HasPrefix(target, "../") {
			t.Errorf("%s: link %q leaves the site", where, v)
			return
		}
		if strings.HasSuffix(target, ".tgz") {
			return // packages live next to the site, published by the builder
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
			t.Errorf("%s: link %q is broken: %v", where, v, err)
		}
	case "https", "http":
		if u.Host == "" {
			t.Errorf("%s: URL %q without a host", where, v)
		}
		if n.Data == "a" {
			rel, _ := attr(n, "rel")
			if !strings.Contains(rel, "noopener") || !strings.Contains(rel, "noreferrer") {
				t.Errorf("%s: external link %q with rel=%q", where, v, rel)
			}
		}
		if n.Data == "img" && u.Scheme != "https" {
			t.Errorf("%s: image over http %q", where, v)
		}
	case "mailto":
		if n.Data != "a" {
			t.Errorf("%s: mailto URL %q", where, v)
		}
	default:
		t.Errorf("%s: URL %q", where, v)
	}
}

func TestRenderNormalPages(t *testing.T) {
	dir := render(t, normalCatalog(t), Options{})
	for _, p := range pages(t, dir) {
		checkPage(t, dir, p)
	}

	index := string(readFile(t, filepath.Join(dir, "index.html")))
	for _, want := range []string{
		`<title>Data science environments</title>`,
		`href="charts/jupyter/index.html"`,
		`href="assets/style.css"`,
		`<script src="assets/catalog.js" defer></script>`,
		`<script src="assets/copy.js" defer></script>`,
		// Chips for the keywords two cards share, and only those.
		`data-keyword="python"`,
		`data-keyword="ide"`,
		`<span class="badge">v1.4.0</span>`,
		`src="` + iconName(t, filepath.Join("testdata", "normal", "icons", "jupyter.svg")) + `"`,
		`src="` + unreachableIcon + `"`, // replaced by the default icon when it fails to load
		`href="https://github.com/example-org/catalog-ide" rel="noopener noreferrer"`,
		// Usable without JavaScript: the filter bar is hidden, the cards are not.
		`data-filters hidden>`,
		// How to add the catalog to Helm, as every chart page says it.
		`<pre class="snippet" tabindex="0" role="region" aria-label="Helm command"><code>helm repo add ide ` + normalRepo + `</code></pre>`,
	} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	for _, bad := range []string{`data-keyword="gpu"`, `data-keyword="database"`, `data-keyword="library"`} {
		if strings.Contains(index, bad) {
			t.Errorf("index.html holds the chip %s of a keyword one card has", bad)
		}
	}
	doc := parseHTML(t, []byte(index))
	cards := find(doc, isCard)
	var names []string
	for _, c := range cards {
		if _, hidden := attr(c, "hidden"); hidden {
			t.Errorf("card %v hidden without JavaScript", c.Attr)
		}
		name, _ := attr(c, "data-name")
		names = append(names, name)
	}
	if want := []string{"jupyter", "postgresql", "vscode"}; !slices.Equal(names, want) {
		t.Errorf("cards %q, want %q (sorted)", names, want)
	}

	chart := string(readFile(t, filepath.Join(dir, "charts", "jupyter", "index.html")))
	for _, want := range []string{
		`<title>jupyter · Data science environments</title>`,
		`href="../../assets/style.css"`,
		`href="../../index.html"`,
		`src="../../` + iconName(t, filepath.Join("testdata", "normal", "icons", "jupyter.svg")) + `"`,
		// Install snippets.
		"helm repo add ide " + normalRepo + "\nhelm install my-jupyter ide/jupyter --version 1.4.0",
		"catalogist launch jupyter \\\n  --repo " + normalRepo + " \\\n  --version 1.4.0",
		// README: GFM table, code block, heading anchors, relative link to the repository.
		`<h2 id="getting-started">Getting started</h2>`,
		`<th>Resource</th>`,
		`<code class="language-sh">helm repo add ide`,
		`href="https://github.com/example-org/catalog-ide/blob/main/charts/jupyter/values.schema.json" rel="nofollow noopener noreferrer"`,
		`<a href="#resources">changelog</a>`,
		// Options: slash paths, effective defaults from the form, bounds.
		`<code class="path">resources/<wbr>requests/<wbr>cpu</code>`,
		`<code>500m</code><span class="opt-source">from region.<wbr>resources.<wbr>cpuRequest</span>`,
		`Slider <code>100m – 8000m, step 100m</code> (unit <code>m</code>)`,
		`Bounds from the region (slider configuration <code>cpu</code>); the chart&#39;s own are <code>100m – 16000m, step 100m</code>`,
		`Lower end (guaranteed) of the range <code>cpu</code>`,
		`Upper end (Maximum) of the range <code>memory</code>`,
		`Slider <code>0 – 2, step 1</code>`, // GPU, region
		`Slider <code>1Gi – 50Gi, step 1Gi</code> (unit <code>Gi</code>)`,
		`Bounds from the catalog (slider configuration <code>disk</code>)`,
		`Hidden when <code>persistence/<wbr>enabled</code> is <code>false</code>`,
		`Hidden when <code>git/<wbr>enabled</code> is <code>false</code>`,
		`Hidden when <code>git/<wbr>repository</code> is <code>&#34;&#34;</code> (hidden with the defaults)`,
		`Always hidden`,
		`Pre-filled from <code>user.<wbr>name</code>`,
		`Pre-filled from <code>user.<wbr>email</code></li>`,
		`Pre-filled from <code>project.<wbr>password</code>`,
		`<code>user.<wbr>idep</code>, <code>project.<wbr>id</code>`,
		`One of <code>lab</code>, <code>notebook</code>`,
		`<code>true</code>`, // boolean default, JSON
		// Versions: UTC dates, short digests with the full one in a title, links.
		`<time datetime="2026-03-03">2026-03-03</time>`,
		`<code class="digest" title="3f1c0a5e9b7d2c4f6a8e0b1d3c5e7f9a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e">3f1c0a5e9b7d</code>`,
		`href="` + normalSource + `/releases/download/jupyter-1.4.0/jupyter-1.4.0.tgz"`,
		`href="../../charts/jupyter-1.3.2.tgz"`,
		// Changelog and links.
		`<span class="kind kind-added">added</span>`,
		`<a href="https://github.com/example-org/catalog-ide/pull/42" rel="noopener noreferrer">Pull request #42</a>`,
		`<a href="mailto:ide@example.org">ide@example.org</a>`,
		`<span class="nolink">ftp://example.org/jupyter</span>`,
		`href="https://github.com/example-org/catalog-ide/tree/main/charts/jupyter"`,
	} {
		if !strings.Contains(chart, want) {
			t.Errorf("charts/jupyter/index.html lacks %s", want)
		}
	}
	if strings.Contains(chart, "http://example.org/jupyter-1.3.1.tgz") {
		t.Error("an http package URL is linked")
	}
	if strings.Contains(chart, "RepoPlaceholder") || strings.Contains(chart, "&lt;owner&gt;") {
		t.Error("the repository placeholder is shown although the URL is known")
	}
	// A chart without a schema says so.
	pg := string(readFile(t, filepath.Join(dir, "charts", "postgresql", "index.html")))
	if !strings.Contains(pg, "This chart has no <code>values.schema.json</code>") {
		t.Error("postgresql page does not say it has no schema")
	}
}

func TestRenderDeterministic(t *testing.T) {
	a := normalCatalog(t)
	b := normalCatalog(t)
	slices.Reverse(b.Charts)
	da, db := render(t, a, Options{}), render(t, b, Options{})
	fa, fb := siteFiles(t, da), siteFiles(t, db)
	if !slices.Equal(fa, fb) {
		t.Fatalf("file lists differ: %q, %q", fa, fb)
	}
	for _, f := range fa {
		if !bytes.Equal(readFile(t, filepath.Join(da, f)), readFile(t, filepath.Join(db, f))) {
			t.Errorf("%s differs between two renderings", f)
		}
	}
	index := string(readFile(t, filepath.Join(da, "index.html")))
	if regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}`).MatchString(index) {
		t.Error("index.html holds a time although Generated is zero")
	}
	a.Generated = time.Date(2026, 5, 4, 12, 30, 0, 0, time.FixedZone("CEST", 2*3600))
	dg := render(t, a, Options{})
	if want := `<time datetime="2026-05-04T10:30:00Z">2026-05-04 10:30 UTC</time>`; !strings.Contains(string(readFile(t, filepath.Join(dg, "index.html"))), want) {
		t.Errorf("index.html lacks %s", want)
	}
}

func TestRenderHostile(t *testing.T) {
	cat := hostileCatalog(t)
	dir := render(t, cat, Options{})
	for _, p := range pages(t, dir) {
		doc := checkPage(t, dir, p)
		// No text of the page may have been read as markup: the only
		// scripts are ours, and no element carries an attribute that the
		// hostile strings try to add.
		walk(doc, func(n *html.Node) {
			if n.Data == "img" {
				if src, _ := attr(n, "src"); src == "x" {
					t.Errorf("%s: injected <img src=x>", p)
				}
			}
		})
		raw := string(readFile(t, filepath.Join(dir, p)))
		for _, bad := range []string{"<script>", "<img src=x", "<iframe", "onerror=\"", "<svg", "<base", "<form"} {
			if strings.Contains(raw, bad) {
				t.Errorf("%s holds %q unescaped", p, bad)
			}
		}
		// The only folds are the page's own.
		for _, d := range find(doc, func(n *html.Node) bool { return n.Data == "details" }) {
			if id, _ := attr(d, "id"); id != "chart-readme" && id != "chart-values" {
				t.Errorf("%s holds a <details id=%q> of the hostile content", p, id)
			}
		}
	}

	index := parseHTML(t, readFile(t, filepath.Join(dir, "index.html")))
	titles := find(index, func(n *html.Node) bool { return n.Data == "title" })
	if len(titles) != 1 || textOf(titles[0]) != hostileTitle {
		t.Errorf("index title %q, want the hostile title as text", textOf(titles[0]))
	}
	// Hostile text is shown as text, not dropped.
	var descs []string
	for _, n := range find(index, func(n *html.Node) bool { return hasClass(n, "card-desc") }) {
		descs = append(descs, textOf(n))
	}
	if !slices.Contains(descs, hostileText) {
		t.Errorf("card descriptions %q lack the hostile text", descs)
	}
	var tags []string
	for _, n := range find(index, isKeyword) {
		tags = append(tags, textOf(n))
	}
	if !slices.Contains(tags, "<script>window.__pwned=1;alert(1)</script>") {
		t.Errorf("keywords %q lack the hostile one as text", tags)
	}

	// Icons: an SVG holding a script is not published (opened directly it
	// would run on the site's origin) and a javascript: icon URL is not
	// used: both get the default icon.
	evilIcon := "assets/default-icon.svg"
	if _, err := os.Stat(filepath.Join(dir, iconName(t, filepath.Join("testdata", "hostile", "icons", "evil.svg")))); !os.IsNotExist(err) {
		t.Errorf("the SVG icon with a script was published: %v", err)
	}
	icons := map[string]string{}
	for _, n := range find(index, func(n *html.Node) bool { return hasClass(n, "card") }) {
		name, _ := attr(n, "data-name")
		for _, img := range find(n, func(n *html.Node) bool { return n.Data == "img" }) {
			icons[name], _ = attr(img, "src")
		}
	}
	if icons["evil"] != evilIcon || icons["evil-url"] != "assets/default-icon.svg" {
		t.Errorf("icons %q", icons)
	}

	page := string(readFile(t, filepath.Join(dir, "charts", "evil", "index.html")))
	for _, want := range []string{
		// Unknown repository: a placeholder, explained.
		"https://&lt;owner&gt;.github.io/&lt;repo&gt;",
		"is not known yet",
		// The hostile catalog name is quoted for the shell.
		`helm repo add &#39;evil&#39;\&#39;&#39;; alert(1); echo &#39;\&#39;&#39;&#39; https://`,
		// Unsafe URLs are shown as text.
		`<span class="nolink">javascript:window.__pwned=1;alert(1)</span>`,
		`<span class="nolink">http://insecure.example.org</span>`,
		`<span class="nolink">javascript:alert(1)//@example.org</span>`,
		// README: what stays of the hostile links is their text.
		"Markdown links: click me,",
		`<a href="https://example.org/docs" rel="nofollow noopener noreferrer">the docs</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("charts/evil/index.html lacks %s", want)
		}
	}
	for _, bad := range []string{"Contribute", "mailto:", "Download</a>"} {
		if strings.Contains(page, bad) {
			t.Errorf("charts/evil/index.html holds %q", bad)
		}
	}
}

func TestMarkdownSanitize(t *testing.T) {
	tree, _ := newSourceTree(normalSource, "dev/next", "charts/x")
	cases := []struct {
		name, src string
		want      []string
		bad       []string
	}{
		{"script", "<script>alert(1)</script>\n\ntext", []string{"<p>text</p>"}, []string{"<script", "alert"}},
		{"img onerror", `<img src=x onerror="alert(1)">`, nil, []string{"<img", "onerror"}},
		{"inline html", `a <b onmouseover="alert(1)">b</b>`, []string{"b"}, []string{"<b", "onmouseover"}},
		{"iframe", `<iframe src="https://evil.example"></iframe>`, nil, []string{"<iframe"}},
		{"raw anchor", `<a href="javascript:alert(1)">x</a>`, nil, []string{"<a", "javascript"}},
		{"javascript link", "[x](javascript:alert(1))", []string{"<p>x</p>"}, []string{"<a", "javascript"}},
		{"mixed case", "[x](JaVaScRiPt:alert(1))", []string{"<p>x</p>"}, []string{"<a", "avascript"}},
		{"entity", "[x](&#106;avascript:alert(1))", []string{"<p>x</p>"}, []string{"<a", "avascript"}},
		{"vbscript", "[x](vbscript:msgbox)", []string{"<p>x</p>"}, []string{"<a", "vbscript"}},
		{"data", "[x](data:text/html;base64,AAAA)", []string{"<p>x</p>"}, []string{"<a", "data:"}},
		{"reference", "[x][r]\n\n[r]: javascript:alert(1)", []string{"<p>x</p>"}, []string{"<a", "javascript"}},
		{"autolink", "<javascript:alert(1)>", []string{"<p>javascript:alert(1)</p>"}, []string{"<a"}},
		{"image", "![alt](javascript:alert(1))", []string{"<p>alt</p>"}, []string{"<img", "javascript"}},
		{"svg data image", "![alt](data:image/svg+xml;base64,PHN2Zz4=)", []string{"<p>alt</p>"}, []string{"<img", "data:"}},
		{"tab in scheme", "[x](<java\tscript:alert(1)>)", []string{"x"}, []string{"<a", "script:"}},
		{"https", "[x](https://example.org/a?b=1#c)", []string{`<a href="https://example.org/a?b=1#c" rel="nofollow noopener noreferrer">x</a>`}, nil},
		{"linkify", "see www.example.org now", []string{`rel="nofollow noopener noreferrer"`}, nil},
		{"mailto", "[mail](mailto:a@example.org)", []string{`<a href="mailto:a@example.org">mail</a>`}, nil},
		{"anchor", "# Hello World\n\n[up](#hello-world)", []string{`<h1 id="hello-world">Hello World</h1>`, `<a href="#hello-world">up</a>`}, nil},
		{"relative", "[values](values.yaml) ![shot](docs/shot.png) [root](/README.md)", []string{
			`href="https://github.com/example-org/catalog-ide/blob/dev/next/charts/x/values.yaml"`,
			`src="https://github.com/example-org/catalog-ide/raw/dev/next/charts/x/docs/shot.png"`,
			`href="https://github.com/example-org/catalog-ide/blob/dev/next/README.md"`,
		}, nil},
		{"escape the repository", "[x](../../../../etc/passwd)", []string{"<p>x</p>"}, []string{"<a"}},
		{"protocol relative", "[x](//evil.example/a)", []string{`href="https://evil.example/a"`}, nil},
		{"backslash", `[x](\\evil.example\a)`, nil, []string{"<a"}},
		// A table scrolls in a box the keyboard reaches, labelled with the
		// heading above it, as text.
		{"tables", "| a |\n|---|\n| 1 |\n\n## Values `x` \"<b>\" & y\n\n| b |\n|---|\n| 2 |\n", []string{
			`<div class="table-scroll" tabindex="0" role="region" aria-label="README table 1">` + "\n<table>",
			`<div class="table-scroll" tabindex="0" role="region" aria-label="README table 2, under Values x &#34;&#34; &amp; y">` + "\n<table>",
			"</table>\n</div>",
		}, []string{"<b>"}},
		{"code", "```sh\nhelm repo add\n```\n\n    indented\n", []string{
			`<div class="code-scroll" tabindex="0" role="region" aria-label="README code 1">` + "\n<pre><code class=\"language-sh\">helm repo add\n</code></pre>\n</div>",
			`<div class="code-scroll" tabindex="0" role="region" aria-label="README code 2">` + "\n<pre><code>indented\n</code></pre>\n</div>",
		}, nil},
	}
	md := newMarkdown()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _, err := renderMarkdown(md, []byte(c.src), tree, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("%q renders %q, which lacks %q", c.src, out, w)
				}
			}
			for _, b := range c.bad {
				if strings.Contains(strings.ToLower(string(out)), strings.ToLower(b)) {
					t.Errorf("%q renders %q, which holds %q", c.src, out, b)
				}
			}
		})
	}
	// Without a known repository, relative links are dropped (they would
	// be broken on the site).
	out, _, err := renderMarkdown(md, []byte("[values](values.yaml)"), sourceTree{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "<p>values</p>\n" {
		t.Errorf("relative link without a repository: %q", out)
	}
}

func writePNG(t *testing.T, p string, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for x := range 4 {
		for y := range 4 {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestIcons(t *testing.T) {
	src := t.TempDir()
	pngData := writePNG(t, filepath.Join(src, "a.PNG"), color.RGBA{R: 200, A: 255})
	writePNG(t, filepath.Join(src, "same.png"), color.RGBA{R: 200, A: 255})
	if err := os.WriteFile(filepath.Join(src, "icon.bmp"), pngData, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "fake.png"), []byte("<html>not an image</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "empty.svg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The prefix s is bound to the SVG namespace: the element is a script.
	nsScript := `<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(document.domain)</s:script></svg>`
	if err := os.WriteFile(filepath.Join(src, "ns-script.svg"), []byte(nsScript), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pngData)
	hashed := "icons/" + hex.EncodeToString(sum[:])[:16] + ".png"
	cases := []struct {
		chart Chart
		want  string
	}{
		{Chart{IconFile: filepath.Join(src, "a.PNG")}, hashed},
		{Chart{IconFile: filepath.Join(src, "same.png")}, hashed},
		{Chart{IconFile: filepath.Join(src, "icon.bmp")}, "assets/default-icon.svg"},
		{Chart{IconFile: filepath.Join(src, "icon.bmp"), IconURL: "https://example.org/i.png"}, "https://example.org/i.png"},
		{Chart{IconFile: filepath.Join(src, "fake.png")}, "assets/default-icon.svg"},
		{Chart{IconFile: filepath.Join(src, "empty.svg")}, "assets/default-icon.svg"},
		{Chart{IconFile: filepath.Join(src, "ns-script.svg")}, "assets/default-icon.svg"},
		{Chart{IconURL: "https://example.org/icon.svg"}, "https://example.org/icon.svg"},
		{Chart{IconURL: "http://example.org/icon.svg"}, "assets/default-icon.svg"},
		{Chart{IconURL: "javascript:alert(1)"}, "assets/default-icon.svg"},
		{Chart{IconURL: "//example.org/icon.svg"}, "assets/default-icon.svg"},
		{Chart{IconURL: "icon.svg"}, "assets/default-icon.svg"},
		{Chart{}, "assets/default-icon.svg"},
	}
	cat := &Catalog{Name: "c"}
	for i := range cases {
		c := cases[i].chart
		c.Name = "chart" + string(rune('a'+i))
		cat.Charts = append(cat.Charts, &c)
	}
	dir := render(t, cat, Options{})
	index := parseHTML(t, readFile(t, filepath.Join(dir, "index.html")))
	got := map[string]string{}
	for _, n := range find(index, func(n *html.Node) bool { return hasClass(n, "card") }) {
		name, _ := attr(n, "data-name")
		for _, img := range find(n, func(n *html.Node) bool { return n.Data == "img" }) {
			got[name], _ = attr(img, "src")
		}
	}
	for i, c := range cases {
		name := "chart" + string(rune('a'+i))
		if got[name] != c.want {
			t.Errorf("icon of %+v: %q, want %q", c.chart, got[name], c.want)
		}
	}
	if !bytes.Equal(readFile(t, filepath.Join(dir, hashed)), pngData) {
		t.Error("the copied icon differs")
	}
	var icons []string
	for _, f := range siteFiles(t, dir) {
		if strings.HasPrefix(f, "icons/") {
			icons = append(icons, f)
		}
	}
	if !slices.Equal(icons, []string{hashed}) {
		t.Errorf("icons %q, want only %s", icons, hashed)
	}
	// The chart page shows it relative to its own folder.
	page := string(readFile(t, filepath.Join(dir, "charts", "charta", "index.html")))
	if !strings.Contains(page, `src="../../`+hashed+`"`) {
		t.Errorf("chart page lacks the icon ../../%s", hashed)
	}

	// An icon file that cannot be read fails the rendering.
	out := t.TempDir()
	err := Render(out, &Catalog{Charts: []*Chart{{Name: "x", IconFile: filepath.Join(src, "missing.png")}}}, Options{})
	if err == nil || !strings.Contains(err.Error(), "missing.png") || !strings.Contains(err.Error(), "chart x") {
		t.Errorf("missing icon: %v", err)
	}
	if files := siteFiles(t, out); len(files) != 0 {
		t.Errorf("a failed rendering wrote %q", files)
	}
}

func TestLinkFilters(t *testing.T) {
	cat := &Catalog{
		Name:         "c",
		Source:       "https://github.com/o/r.git/",
		SourceBranch: "release/2.x",
		Charts: []*Chart{{
			Name:       "a",
			Home:       "http://example.org/home",
			Sources:    []string{"https://example.org/src", "git@github.com:o/r.git", "javascript:alert(1)"},
			SourcePath: "charts/a b",
			Maintainers: []Maintainer{
				{Name: "Good", Email: "good@example.org", URL: "https://example.org/good"},
				{Name: "Bad", Email: "bad@example", URL: "http://example.org/bad"},
				{Name: "Worse", Email: "x@example.org?cc=y@example.org", URL: "javascript:alert(1)"},
				{Email: "anon@example.org"},
				{},
			},
			Versions: []Version{
				{Version: "1", URL: "a-1.tgz"},
				{Version: "2", URL: "/a-2.tgz"},
				{Version: "3", URL: "ftp://example.org/a-3.tgz"},
				{Version: "4", URL: "https://example.org/a-4.tgz"},
				{Version: "5", URL: ""},
				{Version: "6", URL: "../../outside.tgz"},
				{Version: "7", URL: "./sub/../a-7.tgz"},
			},
		}},
	}
	dir := render(t, cat, Options{})
	checkPage(t, dir, "charts/a/index.html")
	page := string(readFile(t, filepath.Join(dir, "charts", "a", "index.html")))
	for _, want := range []string{
		// Links show their host and path, cut after separators.
		`<dt>Home</dt>
      <dd><a class="web-link" href="http://example.org/home" rel="noopener noreferrer">example.<wbr>org/<wbr>home</a></dd>`,
		`<dt>Sources</dt>
      <dd><a class="web-link" href="https://example.org/src" rel="noopener noreferrer">example.<wbr>org/<wbr>src</a></dd>`,
		`<span class="nolink">git@github.com:o/r.git</span>`,
		`<a href="mailto:good@example.org">good@example.org</a>`,
		`<a href="https://example.org/good" rel="noopener noreferrer">`,
		`<span class="nolink">bad@example</span>`,
		`<span class="nolink">http://example.org/bad</span>`,
		`<span class="nolink">x@example.org?cc=y@example.org</span>`,
		`<span>Maintainer</span> <a href="mailto:anon@example.org">`,
		`href="https://github.com/o/r/tree/release/2.x/charts/a%20b"`,
		`href="../../a-1.tgz"`,
		`href="https://example.org/a-4.tgz"`,
		"helm repo add c https://&lt;owner&gt;.github.io/&lt;repo&gt;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	var hrefs []string
	walk(parseHTML(t, []byte(page)), func(n *html.Node) {
		if v, ok := attr(n, "href"); ok {
			hrefs = append(hrefs, v)
		}
	})
	for _, bad := range []string{"a-2.tgz", "ftp:", "javascript:", "outside.tgz", "a-3.tgz"} {
		for _, h := range hrefs {
			if strings.Contains(h, bad) {
				t.Errorf("page links %s", h)
			}
		}
	}
	if !slices.Contains(hrefs, "../.././sub/../a-7.tgz") {
		t.Errorf("links %q lack ../.././sub/../a-7.tgz", hrefs)
	}
	if n := strings.Count(page, "Download</a>"); n != 3 {
		t.Errorf("%d download links, want 3", n)
	}
	if strings.Count(page, "<li><span>") != 4 {
		t.Errorf("want 4 maintainers (the empty one dropped)")
	}

	// The index says how to add the catalog, and that its address is
	// not known yet.
	index := string(readFile(t, filepath.Join(dir, "index.html")))
	for _, want := range []string{"<code>helm repo add c https://&lt;owner&gt;.github.io/&lt;repo&gt;</code>", `<p class="note-box">The address of this catalog's chart repository is not known yet`} {
		if !strings.Contains(index, want) {
			t.Errorf("index lacks %s", want)
		}
	}

	// A path outside the repository gives a link to the branch only.
	if tr, ok := newSourceTree("https://github.com/o/r", "", "../x"); !ok || tr.url("tree", tr.dir) != "https://github.com/o/r/tree/main" {
		t.Errorf("source tree %+v", tr)
	}
	// Only https sources give contribute links.
	for _, s := range []string{"http://github.com/o/r", "git@github.com:o/r.git", "javascript:alert(1)", ""} {
		if _, ok := newSourceTree(s, "", "charts/a"); ok {
			t.Errorf("source %q gives a contribute link", s)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	for _, name := range []string{"../x", "a/b", "", ".hidden", "a b", `a"b`} {
		out := t.TempDir()
		err := Render(out, &Catalog{Charts: []*Chart{{Name: "ok"}, {Name: name}}}, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "render "+out) {
			t.Errorf("chart name %q: %v", name, err)
		}
		if files := siteFiles(t, out); len(files) != 0 {
			t.Errorf("chart name %q: wrote %q", name, files)
		}
	}
	out := t.TempDir()
	if err := Render(out, &Catalog{Charts: []*Chart{{Name: "a"}, {Name: "a"}}}, Options{}); err == nil {
		t.Error("two charts of the same name render")
	}
	if err := Render(filepath.Join(out, "missing"), &Catalog{}, Options{}); err == nil {
		t.Error("rendering into a missing directory succeeds")
	}
	if err := Render(out, nil, Options{}); err == nil {
		t.Error("rendering no catalog succeeds")
	}
	if err := Render(out, &Catalog{}, Options{Templates: filepath.Join(out, "nope")}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("missing templates directory: %v", err)
	}
	// An empty catalog still renders a usable index.
	dir := render(t, &Catalog{Name: "empty"}, Options{})
	checkPage(t, dir, "index.html")
	if !strings.Contains(string(readFile(t, filepath.Join(dir, "index.html"))), "This catalog has no charts yet.") {
		t.Error("empty catalog index lacks its message")
	}
}

func TestTemplateOverride(t *testing.T) {
	tmpl := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(tmpl, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("style.css", "body { color: rebeccapurple; }\n")
	write("logo.png", string(writePNG(t, filepath.Join(t.TempDir(), "l.png"), color.Black)))
	write("notes.md", "not a template")
	write("index.html", `{{template "layout" .}}{{define "content"}}<p class="custom">{{.Catalog.Title}} has {{.Index.Count}} charts</p>{{template "extra" .}}{{end}}`)
	write("extra.html", `{{define "extra"}}<p class="extra">extra partial</p>{{end}}`)

	cat := normalCatalog(t)
	cat.Title = "<b>Custom</b>"
	dir := render(t, cat, Options{Templates: tmpl})
	if got := string(readFile(t, filepath.Join(dir, "assets", "style.css"))); got != "body { color: rebeccapurple; }\n" {
		t.Errorf("style.css not overridden: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "assets", "logo.png")); err != nil {
		t.Errorf("extra asset not copied: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "assets", "notes.md")); err == nil {
		t.Error("a non-asset file was copied")
	}
	index := string(readFile(t, filepath.Join(dir, "index.html")))
	for _, want := range []string{`<p class="custom">&lt;b&gt;Custom&lt;/b&gt; has 3 charts</p>`, `<p class="extra">extra partial</p>`, cspFor(true)} {
		if !strings.Contains(index, want) {
			t.Errorf("overridden index lacks %s", want)
		}
	}
	// The chart pages keep the embedded template.
	if !strings.Contains(string(readFile(t, filepath.Join(dir, "charts", "jupyter", "index.html"))), `id="chart-options"`) {
		t.Error("chart page lost the embedded template")
	}
	embedded, err := os.ReadFile(filepath.Join("..", "..", "..", "templates", "catalog.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, filepath.Join(dir, "assets", "catalog.js")), embedded) {
		t.Error("catalog.js is not the embedded one")
	}
}

func TestTemplateOverrideErrors(t *testing.T) {
	cases := []struct {
		file, content, want string
	}{
		{"chart.html", `{{template "layout" .}}{{define "content"}}{{.Chart.Name`, "unclosed action"},
		{"layout.html", `{{define "layout"}}{{if}}{{end}}`, "missing value for if"},
		{"index.html", `{{template "layout" .}}{{define "content"}}{{.NoSuchField}}{{end}}`, "NoSuchField"},
		{"chart.html", `{{template "layout" .}}{{define "content"}}<a href="{{.Chart.Name}}{{end}}`, "chart.html"},
	}
	for _, c := range cases {
		tmpl := t.TempDir()
		p := filepath.Join(tmpl, c.file)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		err := Render(out, normalCatalog(t), Options{Templates: tmpl})
		if err == nil {
			t.Errorf("%s %q: no error", c.file, c.content)
			continue
		}
		if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %q does not name %s and %q", c.file, c.content, err, p, c.want)
		}
		if files := siteFiles(t, out); len(files) != 0 {
			t.Errorf("%s: a failed rendering wrote %q", c.file, files)
		}
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"ide":                     "ide",
		"https://x.github.io/r":   "https://x.github.io/r",
		"1.2.3+build":             "1.2.3+build",
		"a b":                     "'a b'",
		"it's":                    `'it'\''s'`,
		"$(rm -rf ~)":             "'$(rm -rf ~)'",
		"":                        "''",
		"x;y":                     "'x;y'",
		"https://x/?a=1&b=2":      "'https://x/?a=1&b=2'",
		"https://example.org/ok~": "'https://example.org/ok~'",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

// A library chart is not launchable: the index gives it no card (nor its
// keywords a filter chip) but lists it apart, linking to its page, which
// keeps the README and the versions but shows no install snippet and no
// form.
func TestLibraryChart(t *testing.T) {
	dir := render(t, normalCatalog(t), Options{})
	index := parseHTML(t, readFile(t, filepath.Join(dir, "index.html")))
	for _, c := range find(index, isCard) {
		if name, _ := attr(c, "data-name"); name == "python-base" {
			t.Error("the library chart has a card")
		}
	}
	if chips := find(index, func(n *html.Node) bool { k, _ := attr(n, "data-keyword"); return k == "library" }); len(chips) > 0 {
		t.Error("a keyword only the library chart has is a filter chip")
	}
	sections := find(index, func(n *html.Node) bool { id, _ := attr(n, "id"); return id == "library-charts" })
	if len(sections) != 1 {
		t.Fatalf("%d library sections on the index, want 1", len(sections))
	}
	var hrefs []string
	for _, a := range find(sections[0], func(n *html.Node) bool { return n.Data == "a" }) {
		h, _ := attr(a, "href")
		hrefs = append(hrefs, h)
	}
	if want := []string{"charts/python-base/index.html"}; !slices.Equal(hrefs, want) {
		t.Errorf("library section links %q, want %q", hrefs, want)
	}
	text := strings.Join(strings.Fields(textOf(sections[0])), " ")
	for _, want := range []string{"Library charts", "python-base v0.4.0 Templates shared by the Python environments."} {
		if !strings.Contains(text, want) {
			t.Errorf("library section %q lacks %q", text, want)
		}
	}
	meta := find(index, func(n *html.Node) bool { return hasClass(n, "hero-meta") })
	if len(meta) != 1 || !strings.Contains(strings.Join(strings.Fields(textOf(meta[0])), " "), "3 charts · 1 library chart") {
		t.Errorf("the index does not count the launchable and the library charts apart")
	}

	page := checkPage(t, dir, "charts/python-base/index.html")
	raw := string(readFile(t, filepath.Join(dir, "charts", "python-base", "index.html")))
	for _, want := range []string{
		"helm repo add ide " + normalRepo,
		`<span class="badge badge-muted">library</span>`,
		`<h2 id="using-it">Using it</h2>`,
		`href="../../python-base-0.4.0.tgz"`,
		`<strong>0.3.1</strong>`,
		"the platform shows no configuration form for it",
	} {
		if !strings.Contains(raw, want) {
			t.Errorf("the library chart's page lacks %s", want)
		}
	}
	for _, bad := range []string{"helm install", "catalogist launch", `class="options"`} {
		if strings.Contains(raw, bad) {
			t.Errorf("the library chart's page holds %q", bad)
		}
	}
	install := find(page, func(n *html.Node) bool { id, _ := attr(n, "id"); return id == "chart-install" })
	if len(install) != 1 || !strings.Contains(textOf(install[0]), "dependencies:\n  - name: \"python-base\"\n    version: \"0.4.0\"\n    repository: \""+normalRepo+"\"") {
		t.Errorf("the library chart's page lacks the dependency snippet")
	}

	// A catalog of library charts only says it has nothing to launch.
	cat := normalCatalog(t)
	cat.Charts = slices.DeleteFunc(cat.Charts, func(c *Chart) bool { return !c.Library })
	only := string(readFile(t, filepath.Join(render(t, cat, Options{}), "index.html")))
	if !strings.Contains(only, "This catalog has no charts to launch, only library charts.") || strings.Contains(only, `<li class="card`) {
		t.Error("an index of library charts only does not say so")
	}
}

// idsInOrder lists the ids of the element children of n.
func childIDs(n *html.Node) []string {
	var out []string
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			id, _ := attr(c, "id")
			out = append(out, c.Data+"#"+id)
		}
	}
	return out
}

func byID(t *testing.T, doc *html.Node, id string) *html.Node {
	t.Helper()
	found := find(doc, func(n *html.Node) bool { v, _ := attr(n, "id"); return v == id })
	if len(found) != 1 {
		t.Fatalf("%d elements with id %q, want 1", len(found), id)
	}
	return found[0]
}

// The main column of a chart page starts with the install snippets, as a
// chart repository's page does, then the live form (the "chart-form"
// partial, called with the chart). The README and the default values come
// after, folded and as wide as the page, so that a README's tables have
// room; then the options. A library chart, never launched, has no form.
func TestChartPageOrder(t *testing.T) {
	tmpl := t.TempDir()
	hook := `{{define "chart-form"}}<section id="form-hook" data-chart="{{.Name}}" data-root="{{.Root}}"></section>{{end}}`
	if err := os.WriteFile(filepath.Join(tmpl, "form.html"), []byte(hook), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := render(t, normalCatalog(t), Options{Templates: tmpl})
	doc := checkPage(t, dir, "charts/jupyter/index.html")
	main := find(doc, func(n *html.Node) bool { return hasClass(n, "chart-main") })
	if len(main) != 1 {
		t.Fatalf("%d main columns", len(main))
	}
	want := []string{"section#chart-install", "section#form-hook"}
	if got := childIDs(main[0]); !slices.Equal(got, want) {
		t.Errorf("main column %q, want %q", got, want)
	}
	var wide []string
	for _, id := range childIDs(main[0].Parent.Parent) {
		if id != "nav#" && id != "section#" && id != "div#" {
			wide = append(wide, id)
		}
	}
	if want := []string{"details#chart-readme", "details#chart-values", "section#chart-options", "section#chart-changelog", "section#chart-versions"}; !slices.Equal(wide, want) {
		t.Errorf("below the columns %q, want %q", wide, want)
	}
	form := byID(t, doc, "form-hook")
	if name, _ := attr(form, "data-chart"); name != "jupyter" {
		t.Errorf("the form partial is given the chart %q", name)
	}
	if root, _ := attr(form, "data-root"); root != "../../" {
		t.Errorf("the form partial is given the root %q", root)
	}
	for _, id := range []string{"chart-readme", "chart-values"} {
		d := byID(t, doc, id)
		if _, open := attr(d, "open"); open {
			t.Errorf("%s is not folded", id)
		}
		sums := find(d, func(n *html.Node) bool { return n.Data == "summary" })
		if len(sums) != 1 {
			t.Errorf("%s has %d summaries", id, len(sums))
		}
	}
	if got := strings.TrimSpace(textOf(find(byID(t, doc, "chart-readme"), func(n *html.Node) bool { return n.Data == "summary" })[0])); got != "README" {
		t.Errorf("README summary %q", got)
	}
	lib := checkPage(t, dir, "charts/python-base/index.html")
	if hooks := find(lib, func(n *html.Node) bool { id, _ := attr(n, "id"); return id == "form-hook" }); len(hooks) != 0 {
		t.Error("the library chart's page calls the form")
	}
}

// The changelog lists every version that has changes, newest first; the
// latest takes the chart's own changes when its index entry has none.
func TestChangelog(t *testing.T) {
	dir := render(t, normalCatalog(t), Options{})
	doc := checkPage(t, dir, "charts/jupyter/index.html")
	log := byID(t, doc, "chart-changelog")
	var got []string
	for _, r := range find(log, func(n *html.Node) bool { return hasClass(n, "release") }) {
		h := find(r, func(n *html.Node) bool { return n.Data == "h3" })
		var items []string
		for _, li := range find(r, func(n *html.Node) bool { return n.Data == "li" && n.Parent != nil && hasClass(n.Parent, "changes") }) {
			items = append(items, strings.Join(strings.Fields(textOf(li)), " "))
		}
		got = append(got, strings.Join(strings.Fields(textOf(h[0])), " ")+": "+strings.Join(items, " | "))
	}
	want := []string{
		"v1.4.0 latest 2026-03-03: added GPU slider bounded by the region's gpu configuration | changed JupyterLab 4.2.5 images by default | fixed The git branch is no longer asked for when no repository is set Pull request #42 | security The notebook token is stored in a Secret",
		"v1.3.2 2026-01-20: fixed The token is no longer written to the logs",
	}
	if !slices.Equal(got, want) {
		t.Errorf("changelog:\n got %q\nwant %q", got, want)
	}

	// An entry's own changes win over the chart's.
	cat := &Catalog{Name: "c", Charts: []*Chart{{
		Name:    "a",
		Changes: []Change{{Description: "from the source"}},
		Versions: []Version{
			{Version: "2.0.0", Changes: []Change{{Kind: "removed", Description: "from the index"}}},
			{Version: "1.0.0"},
		},
	}, {Name: "unreleased", Changes: []Change{{Description: "coming"}}}, {Name: "quiet", Versions: []Version{{Version: "1.0.0"}}}}}
	out := render(t, cat, Options{})
	page := string(readFile(t, filepath.Join(out, "charts", "a", "index.html")))
	if !strings.Contains(page, "from the index") || strings.Contains(page, "from the source") {
		t.Error("the latest version's own changes do not win over the chart's")
	}
	if page := string(readFile(t, filepath.Join(out, "charts", "unreleased", "index.html"))); !strings.Contains(page, "Not released yet") || !strings.Contains(page, "coming") {
		t.Error("the changes of a chart without a version are not shown")
	}
	if page := string(readFile(t, filepath.Join(out, "charts", "quiet", "index.html"))); strings.Contains(page, "chart-changelog") {
		t.Error("a chart without changes has a changelog")
	}
}

// The latest version's dependencies are listed; one that is a chart of
// this catalog (from its folder or its published address) links to its
// page, others say where they come from.
func TestDependencies(t *testing.T) {
	dir := render(t, normalCatalog(t), Options{})
	doc := checkPage(t, dir, "charts/jupyter/index.html")
	deps := byID(t, doc, "chart-dependencies")
	var got []string
	for _, li := range find(deps, func(n *html.Node) bool { return n.Data == "li" }) {
		href := ""
		for _, a := range find(li, func(n *html.Node) bool { return n.Data == "a" }) {
			h, _ := attr(a, "href")
			href += " <" + h + ">"
		}
		got = append(got, strings.Join(strings.Fields(textOf(li)), " ")+href)
	}
	want := []string{
		"python-base 0.4.x from this catalog <../../charts/python-base/index.html>",
		"postgresql ~15.2.0 as db from oci://registry.example.org/charts when postgresql.enabled is true",
		"vscode 2.1.0 from https://charts.example.org/other <https://charts.example.org/other>",
	}
	if !slices.Equal(got, want) {
		t.Errorf("dependencies:\n got %q\nwant %q", got, want)
	}

	b := &renderer{cat: &Catalog{RepoURL: normalRepo}}
	for repo, same := range map[string]bool{
		"file://../python-base": true, "FILE://../x": true, normalRepo: true, normalRepo + "/": true,
		"": false, "https://example-org.github.io/catalog-ide-2": false, "oci://example-org.github.io/catalog-ide": false, "@ide": false,
	} {
		if got := b.sameRepository(repo); got != same {
			t.Errorf("sameRepository(%q) = %v", repo, got)
		}
	}
	if (&renderer{cat: &Catalog{}}).sameRepository("") {
		t.Error("an empty repository is the catalog's when its address is unknown")
	}
}

// The default values.yaml is shown as text, folded and copyable, cut at a
// line end beyond MaxValuesSize.
func TestDefaultValues(t *testing.T) {
	dir := render(t, normalCatalog(t), Options{})
	doc := checkPage(t, dir, "charts/jupyter/index.html")
	values := byID(t, doc, "chart-values")
	pres := find(values, func(n *html.Node) bool { return n.Data == "pre" && hasClass(n, "snippet") })
	if len(pres) != 1 {
		t.Fatalf("%d snippets in the default values", len(pres))
	}
	if got, want := textOf(pres[0]), string(readFile(t, filepath.Join("testdata", "normal", "charts", "jupyter", "values.yaml"))); got != want {
		t.Errorf("default values %q, want the file %q", got, want)
	}
	if strings.Contains(textOf(values), "Only its beginning") {
		t.Error("a small values.yaml is said to be cut")
	}
	if page := string(readFile(t, filepath.Join(dir, "charts", "postgresql", "index.html"))); strings.Contains(page, "chart-values") {
		t.Error("a chart without values.yaml shows default values")
	}

	line := "key: " + strings.Repeat("v", 90) + "\n"
	big := []byte(strings.Repeat(line, MaxValuesSize/len(line)+10))
	text, cut := valuesText(big)
	if !cut || len(text) > MaxValuesSize || !strings.HasSuffix(text, "\n") || len(text)%len(line) != 0 {
		t.Errorf("a large values.yaml is cut to %d bytes (cut %v), not at a line end", len(text), cut)
	}
	if text, cut := valuesText([]byte("a: \xff\n")); cut || text != "a: \uFFFD\n" {
		t.Errorf("invalid UTF-8 gives %q", text)
	}
	out := render(t, &Catalog{Name: "c", Charts: []*Chart{{Name: "big", Values: big}}}, Options{})
	if page := string(readFile(t, filepath.Join(out, "charts", "big", "index.html"))); !strings.Contains(page, "Only its beginning is shown") {
		t.Error("a cut values.yaml is not said to be cut")
	}
}

// A page allows remote images only when it shows one: an https icon, or a
// README image from another host (relative README images are the catalog
// repository's). Every page lets scripts fetch from the site.
func TestPageCSP(t *testing.T) {
	cat := &Catalog{Name: "c", Source: normalSource, Charts: []*Chart{
		{Name: "plain", README: []byte("# Plain\n\nNo image.")},
		{Name: "remote-icon", IconURL: "https://example.org/icon.svg"},
		{Name: "remote-image", README: []byte("![shot](https://img.example.org/shot.png)")},
		{Name: "repo-image", README: []byte("![shot](docs/shot.png)"), SourcePath: "charts/repo-image"},
		{Name: "http-image", README: []byte("![shot](http://img.example.org/shot.png)")},
		{Name: "bad-image", README: []byte("![shot](javascript:alert(1))")},
	}}
	// The index shows no icon of a library chart.
	lib := &Catalog{Name: "c", Charts: []*Chart{{Name: "lib", Library: true, IconURL: "https://example.org/lib.svg"}, {Name: "app"}}}
	if got := csp2(t, render(t, lib, Options{})); got != wantCSP {
		t.Errorf("an index whose only remote icon is a library chart's: CSP %q", got)
	}
	dir := render(t, cat, Options{})
	csp := func(page string) string {
		doc := checkPage(t, dir, page)
		for _, m := range find(doc, func(n *html.Node) bool { v, _ := attr(n, "http-equiv"); return v == "Content-Security-Policy" }) {
			c, _ := attr(m, "content")
			return c
		}
		return ""
	}
	for page, remote := range map[string]bool{
		"index.html":                     true,
		"charts/plain/index.html":        false,
		"charts/remote-icon/index.html":  true,
		"charts/remote-image/index.html": true,
		"charts/repo-image/index.html":   true,
		"charts/http-image/index.html":   false,
		"charts/bad-image/index.html":    false,
	} {
		if got := csp(page); got != cspFor(remote) {
			t.Errorf("%s: CSP %q, want %q", page, got, cspFor(remote))
		}
	}
	// An image over http would be blocked: its alternative text is shown.
	if page := string(readFile(t, filepath.Join(dir, "charts", "http-image", "index.html"))); strings.Contains(page, "img.example.org") || !strings.Contains(page, "<p>shot</p>") {
		t.Error("an http README image is not replaced by its text")
	}
	cat.Charts = cat.Charts[:1]
	if got := csp2(t, render(t, cat, Options{})); got != wantCSP {
		t.Errorf("an index without remote icons: CSP %q", got)
	}
}

func csp2(t *testing.T, dir string) string {
	t.Helper()
	doc := checkPage(t, dir, "index.html")
	for _, m := range find(doc, func(n *html.Node) bool { v, _ := attr(n, "http-equiv"); return v == "Content-Security-Policy" }) {
		c, _ := attr(m, "content")
		return c
	}
	return ""
}

// Filter chips are the keywords two or more launchable charts share
// (whatever their case); every card still lists all of its keywords.
func TestKeywordChips(t *testing.T) {
	cat := &Catalog{Name: "c", Charts: []*Chart{
		{Name: "a", Keywords: []string{"Data", "gpu", " solo "}},
		{Name: "b", Keywords: []string{"data", "GPU", "gpu"}},
		{Name: "c", Keywords: []string{"lib"}},
		{Name: "d", Keywords: []string{"lib"}, Library: true},
	}}
	dir := render(t, cat, Options{})
	doc := checkPage(t, dir, "index.html")
	var chips []string
	for _, n := range find(doc, func(n *html.Node) bool { _, ok := attr(n, "data-keyword"); return ok }) {
		k, _ := attr(n, "data-keyword")
		chips = append(chips, k+"="+strings.Join(strings.Fields(textOf(n)), " "))
	}
	if want := []string{"data=Data 2", "gpu=gpu 2"}; !slices.Equal(chips, want) {
		t.Errorf("chips %q, want %q", chips, want)
	}
	var tags []string
	for _, n := range find(doc, isKeyword) {
		tags = append(tags, textOf(n))
	}
	if want := []string{"Data", "gpu", "solo", "data", "GPU", "lib"}; !slices.Equal(tags, want) {
		t.Errorf("card keywords %q, want %q", tags, want)
	}
}

// The index of a catalog of 500 charts stays small: cards carry each
// text once.
func TestLargeIndexSize(t *testing.T) {
	cat := generatedCatalog(500)
	if len(cat.Charts) != 500 {
		t.Fatalf("%d charts generated", len(cat.Charts))
	}
	dir := render(t, cat, Options{})
	data := readFile(t, filepath.Join(dir, "index.html"))
	t.Logf("index of 500 charts: %d bytes", len(data))
	if len(data) > 300<<10 {
		t.Errorf("index of 500 charts: %d bytes, want under 300 KiB", len(data))
	}
	doc := checkPage(t, dir, "index.html")
	if cards := find(doc, isCard); len(cards) != 500 {
		t.Errorf("%d cards", len(cards))
	}
}

// A link shows its address without the scheme and a trailing slash, cut
// after separators only; a URL not safe to link stays text, as written.
func TestAddressLinks(t *testing.T) {
	for _, c := range []struct {
		in, url string
		parts   []string
	}{
		{"https://github.com/InseeFrLab/helm-charts-interactive-services", "https://github.com/InseeFrLab/helm-charts-interactive-services",
			[]string{"github.", "com/", "InseeFrLab/", "helm-", "charts-", "interactive-", "services"}},
		{"https://jupyter.org/", "https://jupyter.org/", []string{"jupyter.", "org"}},
		{"HTTP://Example.ORG/a_b?c=1&d=2", "HTTP://Example.ORG/a_b?c=1&d=2", []string{"example.", "org/", "a_", "b?", "c=", "1&", "d=", "2"}},
		{"ftp://example.org/x", "", []string{"ftp://example.org/x"}},
		{"javascript:alert(1)", "", []string{"javascript:alert(1)"}},
	} {
		l := addressLinkOf(c.in)
		if l.URL != c.url || !slices.Equal(l.Parts, c.parts) || l.Text != strings.Join(c.parts, "") {
			t.Errorf("addressLinkOf(%q) = %+v, want the URL %q and the parts %q", c.in, l, c.url, c.parts)
		}
	}
	if got, want := addressParts("https://charts.example.org/stable"), []string{"https://charts.", "example.", "org/", "stable"}; !slices.Equal(got, want) {
		t.Errorf("addressParts cuts %q", got)
	}
}
