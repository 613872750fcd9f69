package browsertest_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/catalogist/catalogist/internal/testkit/browsertest"
)

// csp is as strict as the site's pages: scripts and styles from the site
// only, nothing inline.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"

// page is a small HTML document under csp.
func page(title, body string) string {
	return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="` + csp + `">
<title>` + title + `</title>
<link rel="stylesheet" href="style.css">
</head><body>
<main>
<h1>` + title + `</h1>
` + body + `
</main>
</body></html>
`
}

// site writes the test pages and returns their directory.
func site(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var dot bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range 8 {
		img.Set(i, i, color.Black)
	}
	if err := png.Encode(&dot, img); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"dot.png":   dot.String(),
		"style.css": "body { margin: 0; font: 16px sans-serif; }\n.wide { width: 1000px; height: 20px; background: #036; }\n.hide { display: none; }\n",
		"clean.html": page("Clean", `<p>Nothing wrong here.</p>
<img src="dot.png" alt="A diagonal line" width="8" height="8">`),
		"noalt.html": page("No alt", `<p>An image without a text alternative.</p>
<img src="dot.png" width="8" height="8">
<script>window.inlineRan = true;</script>`),
		"wide.html": page("Wide", `<div class="wide" id="banner"></div>`),
		"errors.html": page("Errors", `<p>Scripts that fail.</p>
<script>window.inlineRan = true;</script>
<script src="errors.js"></script>
<script src="dialog.js"></script>`),
		"errors.js": "console.error('boom from the page', 42);\nthrow new Error('uncaught on purpose');\n",
		"dialog.js": "alert('hello');\nwindow.afterDialog = true;\n",
		"filter.html": page("Filter", `<label for="q">Search</label> <input id="q" type="search">
<ul id="items"><li>alpha</li><li>beta</li><li>gamma</li><li>delta</li></ul>
<script src="filter.js"></script>`),
		"filter.js": `document.getElementById('q').addEventListener('input', function (e) {
  const q = e.target.value;
  for (const li of document.querySelectorAll('#items li')) {
    li.classList.toggle('hide', !li.textContent.includes(q));
  }
});
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
}

func TestBrowser(t *testing.T) {
	dir := site(t)
	base := browsertest.Serve(t, dir)
	ctx := browsertest.New(t)

	t.Run("errors", func(t *testing.T) {
		open(t, ctx, base+"/errors.html")
		errs := browsertest.Errors(ctx)
		joined := strings.Join(errs, "\n")
		for _, want := range []string{
			"console.error: boom from the page 42 (" + base + "/errors.js:1:9)",
			"exception: Uncaught Error: uncaught on purpose (" + base + "/errors.js:2:",
			"Content Security Policy",
			"dialog alert: hello",
		} {
			if !strings.Contains(joined, want) {
				t.Errorf("the errors do not include %q:\n%s", want, joined)
			}
		}
		// The dialog was answered: the script after it ran.
		after, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.afterDialog === true && window.inlineRan === undefined`))
		if err != nil || !after {
			t.Errorf("after the dialog, the page did not go on, or the inline script ran (%v)", err)
		}
		if again := browsertest.Errors(ctx); len(again) != 0 {
			t.Errorf("a second call reports the same errors again: %q", again)
		}
		open(t, ctx, base+"/clean.html")
		if errs := browsertest.Errors(ctx); len(errs) != 0 {
			t.Errorf("a clean page reports errors: %q", errs)
		}
	})

	t.Run("axe", func(t *testing.T) {
		open(t, ctx, base+"/noalt.html")
		// axe runs although the page's policy blocks every script but the
		// site's: the inline script did not run.
		if ran, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.inlineRan === true`)); err != nil || ran {
			t.Fatalf("the page's Content-Security-Policy is not in force (inline script ran: %v, %v)", ran, err)
		}
		severe := browsertest.Severe(browsertest.Axe(t, ctx))
		i := slices.IndexFunc(severe, func(v browsertest.Violation) bool { return v.ID == "image-alt" })
		if i < 0 {
			t.Fatalf("an image without alt gives no serious or critical image-alt violation: %v", severe)
		}
		if v := severe[i]; !slices.Equal(v.Nodes, []string{"img"}) || v.Help == "" || !strings.HasPrefix(v.HelpURL, "https://") {
			t.Errorf("image-alt violation: %+v", v)
		}
		if s := severe[i].String(); !strings.HasPrefix(s, "image-alt (critical): ") && !strings.HasPrefix(s, "image-alt (serious): ") {
			t.Errorf("violation text %q", s)
		}
		// Errors the CSP reported while axe ran would be ours, not the page's.
		browsertest.Errors(ctx)

		open(t, ctx, base+"/clean.html")
		if severe := browsertest.Severe(browsertest.Axe(t, ctx)); len(severe) != 0 {
			t.Errorf("the clean page has serious or critical violations: %v", severe)
		}
		// A second run on the same page reuses the injected script.
		if severe := browsertest.Severe(browsertest.Axe(t, ctx)); len(severe) != 0 {
			t.Errorf("the second run finds %v", severe)
		}
		if errs := browsertest.Errors(ctx); len(errs) != 0 {
			t.Errorf("running axe caused errors on the page: %q", errs)
		}
	})

	t.Run("overflow and screenshot", func(t *testing.T) {
		artifacts := t.TempDir()
		t.Setenv("CATALOGIST_ARTIFACTS", artifacts)
		if err := browsertest.Viewport(ctx, 390, 844); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := browsertest.Viewport(ctx, 1280, 900); err != nil {
				t.Error(err)
			}
		})

		open(t, ctx, base+"/clean.html")
		if sw, cw, err := browsertest.HorizontalOverflow(ctx); err != nil || sw != 390 || cw != 390 {
			t.Errorf("clean page at 390 px: scrollWidth %d, clientWidth %d (%v), want both 390", sw, cw, err)
		}
		if wide, err := browsertest.WideElements(ctx); err != nil || len(wide) != 0 {
			t.Errorf("clean page at 390 px: wide elements %q (%v)", wide, err)
		}

		open(t, ctx, base+"/wide.html")
		sw, cw, err := browsertest.HorizontalOverflow(ctx)
		// A phone widens its layout to the content, then zooms out: the
		// content may measure a pixel more after rounding.
		if err != nil || sw < 1000 || sw > 1001 || cw != 390 {
			t.Errorf("1000 px element at 390 px: scrollWidth %d, clientWidth %d (%v), want 1000 and 390", sw, cw, err)
		}
		if wide, err := browsertest.WideElements(ctx); err != nil || !slices.Equal(wide, []string{"div#banner.wide (0 to 1000 px)"}) {
			t.Errorf("wide elements %q (%v)", wide, err)
		}
		path := browsertest.Screenshot(t, ctx, "wide page")
		if path != filepath.Join(artifacts, "wide-page.png") {
			t.Errorf("screenshot written to %s", path)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cfg, err := png.DecodeConfig(f)
		if err != nil {
			t.Fatalf("the screenshot is not a PNG: %v", err)
		}
		// The whole page, beyond the phone's viewport.
		if cfg.Width < 1000 || cfg.Height < 100 {
			t.Errorf("screenshot is %dx%d, want the whole 1000 px wide page", cfg.Width, cfg.Height)
		}

		if err := browsertest.Viewport(ctx, 1280, 900); err != nil {
			t.Fatal(err)
		}
		if sw, cw, err := browsertest.HorizontalOverflow(ctx); err != nil || sw != 1280 || cw != 1280 {
			t.Errorf("1000 px element at 1280 px: scrollWidth %d, clientWidth %d (%v), want both 1280", sw, cw, err)
		}
	})

	t.Run("measures", func(t *testing.T) {
		open(t, ctx, base+"/clean.html")
		w, err := browsertest.PageWeight(ctx)
		if err != nil {
			t.Fatal(err)
		}
		size := func(name string) int64 {
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			return fi.Size()
		}
		want := browsertest.Weight{Document: size("clean.html"), Styles: size("style.css"), Images: size("dot.png"), Requests: 3}
		if w != want {
			t.Errorf("clean page weighs %v, want %v", w, want)
		}
		if w.WithoutImages() != want.Document+want.Styles {
			t.Errorf("without images: %d", w.WithoutImages())
		}

		open(t, ctx, base+"/filter.html")
		times, err := browsertest.KeystrokeTimes(ctx, "#q", "ta")
		if err != nil {
			t.Fatal(err)
		}
		if len(times) != 2 {
			t.Fatalf("%d keystroke times for 2 characters", len(times))
		}
		for _, d := range times {
			if d < 0 || d > 5e9 {
				t.Errorf("keystroke time %v", d)
			}
		}
		// The page's handler saw each keystroke: "ta" leaves beta and delta.
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
			`Array.from(document.querySelectorAll('#items li')).filter((li) => li.offsetParent !== null).map((li) => li.textContent)`))
		if err != nil || !slices.Equal(shown, []string{"beta", "delta"}) {
			t.Errorf("after typing ta, the list shows %q (%v)", shown, err)
		}
		if w, err := browsertest.PageWeight(ctx); err != nil || w.Scripts != size("filter.js") {
			t.Errorf("filter page: %v (%v), want %d bytes of scripts", w, err, size("filter.js"))
		}
		if _, err := browsertest.KeystrokeTimes(ctx, "#missing", "x"); err == nil || !strings.Contains(err.Error(), "no element matches #missing") {
			t.Errorf("typing into a missing field: %v", err)
		}
		if errs := browsertest.Errors(ctx); len(errs) != 0 {
			t.Errorf("errors: %q", errs)
		}
	})
}
