package chartdocs

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// catalogDirs are the catalogs whose charts have golden sections: the
// fixtures, and the repository's examples.
func catalogDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, pattern := range []string{"testdata/catalogs/*/catalog.yaml", "../../../examples/*/catalog.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	if len(dirs) < 5 {
		t.Fatalf("found only the catalogs %v", dirs)
	}
	return dirs
}

func discover(t testing.TB, dir string) (*catalog.Catalog, schema.Env) {
	t.Helper()
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	env, err := schema.EnvFor(schema.Overrides{}, cat, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat, env
}

// Each chart's section, at the heading level its README gives it, is the
// golden file's (go test ./chartdocs -update rewrites them).
func TestGolden(t *testing.T) {
	charts := 0
	for _, dir := range catalogDirs(t) {
		cat, env := discover(t, dir)
		for _, ch := range cat.Charts {
			t.Run(filepath.Base(dir)+"/"+ch.Name, func(t *testing.T) {
				charts++
				d, err := Load(cat, ch, env)
				if err != nil {
					t.Fatal(err)
				}
				readme, err := os.ReadFile(filepath.Join(ch.Dir, "README.md"))
				if err != nil {
					t.Fatal(err)
				}
				s, err := locate("README.md", readme)
				if err != nil {
					t.Fatal(err)
				}
				got := d.Markdown(s.level, "\n")
				if again := d.Markdown(s.level, "\n"); again != got {
					t.Fatal("two renderings of the same chart differ")
				}
				golden := filepath.Join("testdata", "golden", filepath.Base(dir), ch.Name+".md")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (write it with go test ./chartdocs -update)", err)
				}
				if got != string(want) {
					t.Errorf("section of %s differs from %s from line %d (go test ./chartdocs -update rewrites it):\n%s", ch.Dir, golden, FirstDifference(want, []byte(got)), got)
				}
			})
		}
	}
	if charts < 10 {
		t.Errorf("documented %d charts", charts)
	}
}

// What the fixtures are there for, said in the words a reader of the
// README gets: a golden file rewritten by mistake cannot lose them.
func TestFeaturesSection(t *testing.T) {
	cat, env := discover(t, "testdata/catalogs/platform")
	d, err := Load(cat, chartNamed(t, cat, "features"), env)
	if err != nil {
		t.Fatal(err)
	}
	md := d.Markdown(3, "\n")
	for _, want := range []string{
		// Top-level options come first, outside any group.
		"<!-- Written by catalogist docs from values.schema.json: edit the schema, then run catalogist docs, rather than this section. -->\n\n| Option | Type | Default | Description |\n|---|---|---|---|\n| `replicas` | integer | `1` | **Replicas.** Number of pods. From 1 to 10. |\n",
		"| `weight` | number | `0.5` | **Weight.** At least 0. |",
		"| `fromValues` | string | `set in values.yaml` |",
		"| `release` | string | `stable` | **Release channel.** Fixed by the chart (const): the form does not show it. |",
		// Groups, nested one level down; a group's options before its
		// nested groups.
		"### Image (`image`)\n\nContainer image.\n\n| Option |",
		"| `auth.internal` | string | `x` | **Internal.** Always hidden in the form. |\n\n#### Single sign-on (`auth.oidc`)\n\nOpenID Connect. Hidden while `auth.enabled` is `false`.\n",
		"### Resources (`resources`)\n\n#### Requests (`resources.requests`)\n\n| Option |",
		// Selects, enum and listEnum.
		"| `image.tag` | string (select) | `1.2` | **Tag.** One of `1.2`, `1.1`, `1.0`. |",
		"| `image.pullPolicy` | string (select) | `IfNotPresent` | **Pull policy.** One of `Always`, `IfNotPresent`. |",
		"**Digest.** Read-only in the form.",
		// Secrets: a password option and a key named as a token.
		"| `auth.password` | string (password) | *secret* | **Password.** At least 8 characters. Pre-filled from `{{project.password}}`. Hidden while `auth.enabled` is `false`. |",
		"| `auth.apiToken` | string | *secret* |",
		// Pre-fill templates as written.
		"Pre-filled from `app-{{project.id}}.{{k8s.domain}}`.",
		// Sliders: region configuration over the catalog's or the chart's
		// bounds, range ends paired, plain chart bounds.
		"| `resources.requests.cpu` | string (range slider) | `100m` | **CPU.** Slider bounds: the region's `cpu` slider; catalog: 100m–4000m, step 100m. Lower end of the `cpu` range, whose upper end is `resources.limits.cpu`. Pre-filled from `region.resources.cpuRequest`. |",
		"Slider bounds: the region's `memory` slider; chart: 1Gi–64Gi, step 1Gi. Upper end of the `memory` range, whose lower end is `resources.requests.memory`.",
		"| `resources.limits.nvidia\\.com/gpu` | string (slider) | `0` | **GPU.** Slider: 0–4, step 1. Hidden while `resources.limits.cpu` is `100m`. |",
		// Arrays: the items' type, their options, a relative condition.
		"| `lists.tags` | array of string | `[\"a\",\"b\"]` | **Tags.** |\n| `lists.tags[]` | string | *none* | **Tag.** A label. |",
		"| `lists.volumes[].size` | string | `1Gi` | **Size.** Hidden while `lists.volumes[].mounted` is `false` in the same item. |",
		// Escaping: the cell and the code span hold what was written.
		"### Text \\| that needs \\*escaping\\* (`text`)\n\nLine one line two with \\`code\\`, &lt;b&gt;tags&lt;/b&gt;, a_b and \\_c\\_, \\[link\\](x), ~a\\~ and ~/path, \\&amp; R&D #.",
		"| `text.pipe` | string | ```a\\|b`c``d``` |",
		"| `text.multiline` | string (text area) | `\"first\\nsecond\"` |",
		"| `text.spaced` | string | `\" padded \"` |",
		"…` | **Long.** |",
		"| `text.config` | object (yaml) | `{\"a\":1,\"b\":[true,null]}` |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the section lacks\n%s\nin\n%s", want, md)
		}
	}
	for _, secret := range []string{"changeme", "tok-4f9a2b7c"} {
		if strings.Contains(md, secret) {
			t.Errorf("the section shows the secret %q", secret)
		}
	}
	if strings.Contains(md, "lists.volumes[]` |") {
		t.Error("items with nothing to say have a row")
	}
}

// The reference platform ignores useRegionSliderConfig and its context has
// no region resources: the section says the chart's bounds, and that the
// pre-fill never applies.
func TestReferencePlatform(t *testing.T) {
	cat, env := discover(t, "testdata/catalogs/onyxia")
	d, err := Load(cat, cat.Charts[0], env)
	if err != nil {
		t.Fatal(err)
	}
	md := d.Markdown(2, "\n")
	want := "| `cpu` | string (slider) | `1000m` | **CPU.** Slider: 100m–4000m, step 100m. Pre-filled from `region.resources.cpuLimit` (the platform's launch context has no `region.resources.cpuLimit`). |"
	if !strings.Contains(md, want) {
		t.Errorf("the section lacks\n%s\nin\n%s", want, md)
	}
	if !strings.Contains(md, "\n## Git (`git`)\n") {
		t.Errorf("groups are not at level 2:\n%s", md)
	}
}

// copyCatalog copies a fixture catalog into a temporary directory.
func copyCatalog(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "catalogs", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

func chartNamed(t testing.TB, cat *catalog.Catalog, name string) *catalog.Chart {
	t.Helper()
	for _, ch := range cat.Charts {
		if ch.Name == name {
			return ch
		}
	}
	t.Fatalf("no chart %s in %s", name, cat.Dir)
	return nil
}

// Sync checks, writes, and finds a README out of date again once the
// schema changes; it keeps the README's mode and never writes a README
// it cannot update.
func TestSync(t *testing.T) {
	dir := copyCatalog(t, "platform")
	cat, env := discover(t, dir)
	features := chartNamed(t, cat, "features")
	readme := filepath.Join(features.Dir, "README.md")
	if err := os.Chmod(readme, 0o600); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, readme)

	res, err := Sync(cat, features, env, true)
	if err != nil || res.Status != Stale || res.Line != 8 || res.README != readme {
		t.Fatalf("check of a README without its section: %+v, %v", res, err)
	}
	if got := readFile(t, readme); got != before {
		t.Fatal("a check wrote the README")
	}
	if res, err = Sync(cat, features, env, false); err != nil || res.Status != Written || res.Line != 8 {
		t.Fatalf("writing: %+v, %v", res, err)
	}
	after := readFile(t, readme)
	want := strings.Replace(before, Begin+"\n", Begin+"\n"+golden(t, "platform", "features"), 1)
	if after != want {
		t.Errorf("README after docs:\n%s\nwant:\n%s", after, want)
	}
	if info, err := os.Stat(readme); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the README's mode is not kept: %v, %v", info.Mode(), err)
	}
	if res, err = Sync(cat, features, env, true); err != nil || res.Status != UpToDate {
		t.Fatalf("check after docs: %+v, %v", res, err)
	}

	// A title changes in the schema: the README is out of date at its row.
	schemaFile := filepath.Join(features.Dir, "values.schema.json")
	writeFile(t, schemaFile, strings.Replace(readFile(t, schemaFile), `"title": "Replicas"`, `"title": "Pods"`, 1))
	res, err = Sync(cat, features, env, true)
	row := strings.Count(after[:strings.Index(after, "| `replicas`")], "\n") + 1
	if err != nil || res.Status != Stale || res.Line != row {
		t.Fatalf("check after the schema changed: %+v, %v (want line %d)", res, err, row)
	}

	// A chart without a README, or whose README has no section, is not
	// written, and the message says what to add.
	empty := chartNamed(t, cat, "empty")
	if err := os.Remove(filepath.Join(empty.Dir, "README.md")); err != nil {
		t.Fatal(err)
	}
	_, err = Sync(cat, empty, env, false)
	if err == nil || !strings.Contains(err.Error(), "has no README.md") || !strings.Contains(err.Error(), "\n  "+Begin+"\n  "+End) {
		t.Errorf("a chart without a README: %v", err)
	}
	if _, statErr := os.Stat(filepath.Join(empty.Dir, "README.md")); statErr == nil {
		t.Error("docs created a README")
	}
	// A README without markers gets the section at its end, under
	// ## Options; a check only says so.
	writeFile(t, readme, "# features\n\nNo section.")
	res, err = Sync(cat, features, env, true)
	if err != nil || res.Status != Stale || res.How != Appended || res.Line != 3 {
		t.Errorf("check of a README without markers: %+v, %v", res, err)
	}
	if got := readFile(t, readme); got != "# features\n\nNo section." {
		t.Errorf("a check wrote the README: %q", got)
	}
	if res, err = Sync(cat, features, env, false); err != nil || res.Status != Written || res.How != Appended {
		t.Errorf("a README without markers: %+v, %v", res, err)
	}
	d, err := Load(cat, features, env)
	if err != nil {
		t.Fatal(err)
	}
	appended := "# features\n\nNo section.\n\n## Options\n\n" + Begin + "\n" + d.Markdown(3, "\n") + End + "\n"
	if got := readFile(t, readme); got != appended {
		t.Errorf("a README without markers became:\n%s\nwant:\n%s", got, appended)
	}
	if res, err = Sync(cat, features, env, true); err != nil || res.Status != UpToDate || res.How != Section {
		t.Errorf("check after the section was added: %+v, %v", res, err)
	}
	// One ending inside a code block is refused, and left alone.
	writeFile(t, readme, "# features\n\n```\ncode")
	if _, err = Sync(cat, features, env, false); err == nil || !strings.HasPrefix(err.Error(), readme+": ") || !strings.Contains(err.Error(), Begin) {
		t.Errorf("a README ending in a code block: %v", err)
	}
	if got := readFile(t, readme); got != "# features\n\n```\ncode" {
		t.Errorf("a README ending in a code block was written: %q", got)
	}

	// A chart without a schema is left alone unless its README has the
	// section.
	library := chartNamed(t, cat, "library")
	libREADME := filepath.Join(library.Dir, "README.md")
	if res, err = Sync(cat, library, env, false); err != nil || res.Status != Written {
		t.Fatalf("library chart with a section: %+v, %v", res, err)
	}
	if !strings.Contains(readFile(t, libREADME), "This chart has no values.schema.json") {
		t.Error("the library chart's section does not say it has no form")
	}
	writeFile(t, libREADME, "# library\n")
	if res, err = Sync(cat, library, env, false); err != nil || res.Status != Skipped || readFile(t, libREADME) != "# library\n" {
		t.Errorf("library chart without a section: %+v, %v", res, err)
	}

	// So is a schema outside any chart, a hook may name.
	loose := filepath.Join(dir, "shared", "values.schema.json")
	if err := os.MkdirAll(filepath.Dir(loose), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, loose, `{"type": "object", "properties": {"a": {"type": "string", "default": ""}}}`)
	looseCat, err := catalog.Discover(loose)
	if err != nil {
		t.Fatal(err)
	}
	if res, err = Sync(looseCat, looseCat.Charts[0], env, false); err != nil || res.Status != Skipped {
		t.Errorf("a schema outside any chart: %+v, %v", res, err)
	}
}

// A README that leads out of the catalog repository is neither read nor
// written.
func TestSyncREADMEOutside(t *testing.T) {
	dir := copyCatalog(t, "platform")
	outside := filepath.Join(t.TempDir(), "README.md")
	content := "# elsewhere\n\n" + Begin + "\n" + End + "\n"
	writeFile(t, outside, content)
	cat, env := discover(t, dir)
	empty := chartNamed(t, cat, "empty")
	readme := filepath.Join(empty.Dir, "README.md")
	if err := os.Remove(readme); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, readme); err != nil {
		t.Fatal(err)
	}
	_, err := Sync(cat, empty, env, false)
	var esc *catalog.EscapeError
	if !errors.As(err, &esc) {
		t.Fatalf("a README leading outside the catalog: %v", err)
	}
	if readFile(t, outside) != content {
		t.Error("the file outside the catalog was written")
	}
}

func golden(t *testing.T, cat, chart string) string {
	t.Helper()
	return readFile(t, filepath.Join("testdata", "golden", cat, chart+".md"))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The section reads in a Markdown renderer (GitHub's flavour, as the
// catalog's site renders READMEs) as it was written: every row has its
// four cells, code spans hold the values as they are, and a chart's text
// makes no markup, no link and no HTML.
func TestMarkdownRenders(t *testing.T) {
	src := []byte(features(t).Markdown(2, "\n"))
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(src))
	var codes []string
	rows, strong := 0, 0
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *east.TableRow, *east.TableHeader:
			rows++
			if x.ChildCount() != 4 {
				t.Errorf("a row has %d cells: %q", x.ChildCount(), plain(x, src))
			}
		case *ast.CodeSpan:
			codes = append(codes, plain(x, src))
			return ast.WalkSkipChildren, nil
		case *ast.Emphasis:
			// A row's bold title, or a default that is none or a secret.
			switch {
			case x.Level == 2 && x.Parent().Kind() == east.KindTableCell:
				strong++
			case x.Level == 1 && (plain(x, src) == "none" || plain(x, src) == "secret"):
			default:
				t.Errorf("markup other than a row's bold title: %q", plain(x, src))
			}
		case *ast.Link, *ast.AutoLink, *ast.RawHTML, *east.Strikethrough:
			t.Errorf("a %s in the section: %q", n.Kind(), plain(x, src))
		case *ast.HTMLBlock:
			first := x.Lines().At(0)
			if x.Lines().Len() != 1 || !strings.HasPrefix(string(first.Value(src)), "<!-- Written by catalogist docs") {
				t.Errorf("an HTML block other than the notice: %q", first.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows < 30 || strong < 20 {
		t.Errorf("%d rows, %d bold titles", rows, strong)
	}
	for _, want := range []string{"a|b`c``d", `"first\nsecond"`, `" padded "`, `resources.limits.nvidia\.com/gpu`, "{{project.password}}", `{"a":1,"b":[true,null]}`} {
		if !slices.Contains(codes, want) {
			t.Errorf("no code span holds %q: %q", want, codes)
		}
	}
	var html bytes.Buffer
	if err := md.Renderer().Render(&html, src, doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<h2>Text | that needs *escaping* (<code>text</code>)</h2>",
		"<p>Line one line two with `code`, &lt;b&gt;tags&lt;/b&gt;, a_b and _c_, [link](x), ~a~ and ~/path, &amp;amp; R&amp;D #.</p>",
		"<h3>Single sign-on (<code>auth.oidc</code>)</h3>",
		"<td><strong>Issuer.</strong> Issuer URL | with a pipe.</td>",
		"<p># of lists, - not a heading nor a list.</p>",
	} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("the rendered section lacks %s:\n%s", want, html.String())
		}
	}
}

// plain is the text a node shows, code spans included.
func plain(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
		}
		if s, ok := c.(*ast.String); ok && entering {
			b.Write(s.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
