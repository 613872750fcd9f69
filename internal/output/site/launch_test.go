package site

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"golang.org/x/net/html"

	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/testkit/browsertest"
	"github.com/catalogist/catalogist/internal/testkit/launcherroute"
)

const (
	launchPlatform = "https://datalab.example.org"
	// launchBase is spark-lab's link with no change.
	launchBase = launchPlatform + "/launcher/ide/spark-lab?version=1.0.0&autoLaunch=false"
)

// launchCatalog is a catalog served by an onyxia platform (catalog.yaml's
// platformURL and platformCatalogID) with one chart of that platform,
// spark-lab (testdata/launch: sliders, a key holding dots, a password, a
// list, a Spark configuration), and vscode, whose schema is the catalogist
// platform's.
func launchCatalog(t *testing.T) *Catalog {
	t.Helper()
	s, err := schema.Load(filepath.Join("testdata", "launch", "values.schema.json"), "x-onyxia")
	if err != nil {
		t.Fatal(err)
	}
	if s.Platform != schema.Onyxia {
		t.Fatalf("the fixture is read for the %s platform", s.Platform.Name)
	}
	vs, err := schema.Load(filepath.Join("testdata", "normal", "charts", "vscode", "values.schema.json"), schema.DefaultExtensionKey)
	if err != nil {
		t.Fatal(err)
	}
	return &Catalog{
		Name: "ide", Title: "Spark environments", RepoURL: normalRepo,
		PlatformURL: launchPlatform + "/", PlatformCatalogID: "ide",
		Charts: []*Chart{
			{
				Name: "spark-lab", Description: "Spark with a notebook.",
				Versions: []Version{{Version: "1.0.0", Created: day("2026-03-02T10:00:00Z"), Digest: strings.Repeat("ab", 32), URL: "spark-lab-1.0.0.tgz"}},
				Schema:   s, Form: schema.Compute(s, schema.NewContext(nil, nil, nil, ""), nil), ExtKey: "x-onyxia",
			},
			{
				Name:     "vscode",
				Versions: []Version{{Version: "2.1.0", Created: day("2026-02-11T09:30:00Z"), Digest: strings.Repeat("cd", 32), URL: "vscode-2.1.0.tgz"}},
				Schema:   vs, Form: schema.Compute(vs, schema.NewContext(nil, nil, nil, ""), nil), ExtKey: schema.DefaultExtensionKey,
			},
		},
	}
}

// The form of a chart of the onyxia platform links to its launcher on the
// catalog's platform, with no change until the script adds them; a form of
// the catalogist platform, or a catalog that names no platform, has no
// such link.
func TestLaunchLinkRendered(t *testing.T) {
	cat := launchCatalog(t)
	dir := render(t, cat, Options{})
	doc := checkPage(t, dir, "charts/spark-lab/index.html")
	links := find(doc, func(n *html.Node) bool { _, ok := attr(n, "data-form-launch"); return ok })
	if len(links) != 1 {
		t.Fatalf("%d launch links on spark-lab's page", len(links))
	}
	if href, _ := attr(links[0], "href"); href != launchBase {
		t.Errorf("href %q, want %q", href, launchBase)
	}
	if text := strings.TrimSpace(textOf(links[0])); text != "Open in Onyxia" {
		t.Errorf("the link says %q", text)
	}
	noLink := func(page string) {
		t.Helper()
		doc := checkPage(t, dir, page)
		if n := find(doc, func(n *html.Node) bool { _, ok := attr(n, "data-form-launch"); return ok }); len(n) != 0 {
			t.Errorf("%s links to the platform's launcher", page)
		}
	}
	noLink("charts/vscode/index.html")
	cat.PlatformURL, cat.PlatformCatalogID = "", ""
	dir = render(t, cat, Options{})
	noLink("charts/spark-lab/index.html")
}

// TestLaunchLinkInBrowser edits spark-lab's form in Chromium as a visitor
// would and reads the link's href as the platform does: it holds exactly
// the edits (a moved slider, the GPU slider whose key holds a dot, a
// repository address with dots and spaces, a list item changed and one
// added, a Spark setting whose key holds dots), follows each edit, and
// never the password typed, which the page lists as left out.
func TestLaunchLinkInBrowser(t *testing.T) {
	base := browsertest.Serve(t, render(t, launchCatalog(t), Options{}))
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/charts/spark-lab/index.html"), chromedp.WaitVisible(chromedp.CSS(`[data-form-ready]`))); err != nil {
		t.Fatal(err)
	}
	patch := func() []launcherroute.Entry {
		t.Helper()
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-form-launch]').href`))
		if err != nil {
			t.Fatal(err)
		}
		r, err := launcherroute.Parse(href)
		if err != nil {
			t.Fatalf("the platform cannot read the link: %v", err)
		}
		if r.Base != launchPlatform || r.CatalogID != "ide" || r.Chart != "spark-lab" || !reflect.DeepEqual(r.Params, map[string]string{"version": "1.0.0", "autoLaunch": "false"}) {
			t.Errorf("%s: the launcher of %q %q %q %v", href, r.Base, r.CatalogID, r.Chart, r.Params)
		}
		if strings.Contains(href, "s3cr3t") {
			t.Errorf("the link carries the password: %s", href)
		}
		return r.Patch
	}
	if p := patch(); len(p) != 0 {
		t.Errorf("before any edit the link sets %v", p)
	}
	// el finds a field's input by its values path, as data-key writes it.
	el := func(key, sel string) string {
		b, _ := json.Marshal(key)
		return `Array.from(document.querySelectorAll('[data-key]')).find(e => e.dataset.key === ` + string(b) + `).querySelector('` + sel + `')`
	}
	typeInto := func(expr, text string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(e => { e.focus(); e.select(); return true })(`+expr+`)`)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(text)); err != nil {
			t.Fatal(err)
		}
	}
	tab := func(key string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-tab-key="`+key+`"]`))); err != nil {
			t.Fatal(err)
		}
	}
	want := []launcherroute.Entry{}
	expect := func(what string, e ...launcherroute.Entry) {
		t.Helper()
		want = append(want, e...)
		if got := patch(); !reflect.DeepEqual(got, want) {
			t.Errorf("after %s the link sets\n %#v\nwant\n %#v", what, got, want)
		}
	}

	tab("resources")
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`[data-key="resources.limits.memory"] input[type="range"]`)), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	expect("moving the memory slider", launcherroute.Entry{Path: []any{"resources", "limits", "memory"}, Value: "9Gi"})
	typeInto(el(`resources.limits.nvidia\.com/gpu`, "input.slider-text"), "2")
	expect("setting the GPUs", launcherroute.Entry{Path: []any{"resources", "limits", "nvidia.com/gpu"}, Value: "2"})

	tab("git")
	typeInto(el("git.repository", "input"), "https://gitlab.example.org/team/my repo.v2.git")
	typeInto(el("git.token", "input"), "s3cr3t-token")
	want = append([]launcherroute.Entry{{Path: []any{"git", "repository"}, Value: "https://gitlab.example.org/team/my repo.v2.git"}}, want...)
	expect("typing a repository and a token")
	left, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(e => e.hidden ? '' : e.textContent)(document.querySelector('[data-form-launch-left]'))`))
	if err != nil || !strings.Contains(left, "git.token: a secret, which a link never carries") {
		t.Errorf("the page does not say the token is left out: %q (%v)", left, err)
	}

	tab("environment")
	typeInto(el("environment.variables.0.value", "input"), "en_US.UTF-8 x")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[aria-label="Add an item to Variables"]`))); err != nil {
		t.Fatal(err)
	}
	typeInto(el("environment.variables.1.name", "input"), "MODE")
	want = append([]launcherroute.Entry{
		{Path: []any{"environment", "variables", 0, "value"}, Value: "en_US.UTF-8 x"},
		{Path: []any{"environment", "variables", 1, "name"}, Value: "MODE"},
		{Path: []any{"environment", "variables", 1, "value"}, Value: ""},
	}, want...)
	expect("changing a variable and adding one")

	tab("spark")
	typeInto(el("spark.userConfig", "textarea"), `{"spark.driver.memory": "5g", "spark.executor.memory": "2g"}`)
	expect("setting the driver's memory", launcherroute.Entry{Path: []any{"spark", "userConfig", "spark.driver.memory"}, Value: "5g"})

	// Undoing an edit takes it out of the link.
	tab("resources")
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`[data-key="resources.limits.memory"] input[type="range"]`)), chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	want = append(want[:4], want[5:]...)
	expect("moving the memory slider back")

	browsertest.Screenshot(t, ctx, "form-launch-link.png")
	if errs := browsertest.Errors(ctx); len(errs) > 0 {
		t.Errorf("script errors: %v", errs)
	}
	// The link and its notes fit a phone and pass axe at both widths (what
	// axe finds elsewhere on the page is the other tests' to judge).
	inLaunch := func(sel string) bool {
		t.Helper()
		b, _ := json.Marshal(sel)
		in, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(e => !!(e && e.closest('.form-launch')))(document.querySelector(`+string(b)+`))`))
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	for _, w := range [][2]int{{390, 844}, {1280, 900}} {
		if err := browsertest.Viewport(ctx, w[0], w[1]); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if sw, cw, err := browsertest.HorizontalOverflow(ctx); err != nil || sw > cw {
			wide, _ := browsertest.WideElements(ctx)
			t.Errorf("at %d px: scroll width %d > %d (%v); wide: %v", w[0], sw, cw, err, wide)
		}
		for _, v := range browsertest.Severe(browsertest.Axe(t, ctx)) {
			for _, n := range v.Nodes {
				if inLaunch(n) {
					t.Errorf("at %d px: %s: %s", w[0], n, v)
				}
			}
		}
	}
}
