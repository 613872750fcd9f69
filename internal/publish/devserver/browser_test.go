package devserver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catalogist/catalogist/internal/testkit/browsertest"
)

// In Chromium, under the pages' own policy: the chart page shows its
// findings in a banner, reloads once they are fixed, and shows a failed
// build without reloading, with no script error nor anything the policy
// blocks. It never skips: without Chromium it fails and says how to
// install it.
func TestBannersInBrowser(t *testing.T) {
	cat := newCatalog(t)
	write(t, cat, "charts/demo/values.schema.json", workersSchema)
	s, _ := serve(t, cat, Options{})
	evs := events(t, s)
	next(t, evs)
	ctx, cancel := context.WithTimeout(browsertest.New(t), 2*wait)
	defer cancel()
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	// until waits for a predicate to hold, across the page's reloads
	// (which end a poll).
	until := func(what, predicate string) {
		t.Helper()
		for {
			_, err := chromedp.Run(ctx, chromedp.Poll[bool](predicate, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(wait)))
			if err == nil {
				return
			}
			if ctx.Err() != nil {
				t.Fatalf("waiting for %s: %v", what, err)
			}
		}
	}
	const chartBanner = `.catalogist-live-banner[data-chart="demo"]`
	const failedBanner = `.catalogist-live-failed`

	if err := chromedp.Do(ctx, chromedp.Navigate(s.URL()+"charts/demo/")); err != nil {
		t.Fatal(err)
	}
	until("the findings banner", fmt.Sprintf(`!!document.querySelector(%q)`, chartBanner))
	text := eval(fmt.Sprintf(`document.querySelector(%q).textContent`, chartBanner))
	where := fmt.Sprintf("charts/demo/values.schema.json:%d:", lineOf(t, workersSchema, `"nothere"`))
	for _, want := range []string{"1 lint finding in chart demo", where, "warning", "nothere", "[hidden-path]"} {
		if !strings.Contains(text, want) {
			t.Errorf("the banner lacks %q: %q", want, text)
		}
	}
	// live.css applies: the page's policy lets it load.
	until("the banner's style", fmt.Sprintf(`getComputedStyle(document.querySelector(%q)).borderBottomStyle === 'solid'`, chartBanner))
	if errs := browsertest.Errors(ctx); len(errs) > 0 {
		t.Errorf("errors on the chart page (the policy blocking the live script?): %q", errs)
	}
	if got := eval(`document.querySelector('.catalogist-live-banner').parentNode.tagName`); got != "BODY" {
		t.Errorf("the banner is in %s", got)
	}
	browsertest.Screenshot(t, ctx, "serve-findings-banner")
	// A short banner opens unfolded.
	if open := eval(fmt.Sprintf(`String(document.querySelector(%q).open)`, chartBanner+" details")); open != "true" {
		t.Errorf("the banner of one finding is folded")
	}

	// Nineteen findings: the banner opens folded to its title, one line
	// that leaves the page in sight, and unfolds with a click.
	eval(`window.__before = 'many'`)
	write(t, cat, "charts/demo/values.schema.json", manyWarningsSchema(19))
	many := next(t, evs)
	until("the reload", fmt.Sprintf(`window.__before === undefined && document.querySelector('script[data-build]').dataset.build === %q`, many.Build))
	until("the findings banner", fmt.Sprintf(`!!document.querySelector(%q)`, chartBanner))
	height := func() int {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().height`, chartBanner)))
		if err != nil {
			t.Fatal(err)
		}
		return int(v)
	}
	if text := eval(fmt.Sprintf(`document.querySelector(%q).textContent`, chartBanner+" summary")); text != "19 lint findings in chart demo" {
		t.Errorf("the folded banner's title is %q", text)
	}
	if h := height(); h > 60 {
		t.Errorf("the folded banner of 19 findings is %d px tall", h)
	}
	browsertest.Screenshot(t, ctx, "serve-findings-folded")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(chartBanner+" summary"))); err != nil {
		t.Fatal(err)
	}
	if n := eval(fmt.Sprintf(`String(Array.from(document.querySelectorAll(%q)).filter((li) => li.offsetParent !== null).length)`, chartBanner+" li")); n != "19" {
		t.Errorf("the unfolded banner shows %s findings, want 19", n)
	}
	if h := height(); h < 200 {
		t.Errorf("the unfolded banner of 19 findings is %d px tall", h)
	}
	// Unfolded it stays across a reload, while the findings are the same.
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	until("the unfolded banner after a reload", fmt.Sprintf(`(d => !!d && d.open)(document.querySelector(%q))`, chartBanner+" details"))
	if errs := browsertest.Errors(ctx); len(errs) > 0 {
		t.Errorf("errors with the banner of 19 findings: %q", errs)
	}

	// Fixed: the page reloads, without the banner.
	eval(`window.__before = 'fix'`)
	write(t, cat, "charts/demo/values.schema.json", cleanSchema)
	fixed := next(t, evs)
	until("the reload", fmt.Sprintf(`window.__before === undefined && document.querySelector('script[data-build]').dataset.build === %q`, fixed.Build))
	if n := eval(`String(document.querySelectorAll('.catalogist-live-banner').length)`); n != "0" {
		t.Errorf("%s banners after the fix", n)
	}

	// Broken: no reload (the last good build is still served), a failure
	// banner naming the error.
	eval(`window.__before = 'break'`)
	write(t, cat, "charts/demo/values.schema.json", brokenSchema)
	next(t, evs)
	until("the failure banner", fmt.Sprintf(`!!document.querySelector(%q)`, failedBanner))
	text = eval(fmt.Sprintf(`document.querySelector(%q).textContent`, failedBanner))
	for _, want := range []string{"The last build failed", "lint found"} {
		if !strings.Contains(text, want) {
			t.Errorf("the failure banner lacks %q: %q", want, text)
		}
	}
	// The errors that failed it are the chart's: its banner lists them.
	text = eval(fmt.Sprintf(`document.querySelector(%q).textContent`, chartBanner))
	where = fmt.Sprintf("charts/demo/values.schema.json:%d:", lineOf(t, brokenSchema, `"integr"`))
	for _, want := range []string{where, "error", "integr", "[option-type]"} {
		if !strings.Contains(text, want) {
			t.Errorf("the chart's banner lacks %q: %q", want, text)
		}
	}
	browsertest.Screenshot(t, ctx, "serve-failure-banner")
	if eval(`String(window.__before)`) != "break" {
		t.Error("the page reloaded after a failed build")
	}
	if errs := browsertest.Errors(ctx); len(errs) > 0 {
		t.Errorf("errors after the reload and the failed build: %q", errs)
	}

	// Another page: the failure banner lists the errors, linking to their
	// chart.
	if err := chromedp.Do(ctx, chromedp.Navigate(s.URL())); err != nil {
		t.Fatal(err)
	}
	until("the failure banner on the index", fmt.Sprintf(`!!document.querySelector(%q)`, failedBanner))
	text = eval(fmt.Sprintf(`document.querySelector(%q).textContent`, failedBanner))
	if !strings.Contains(text, where) || !strings.Contains(text, "[option-type]") {
		t.Errorf("the failure banner on the index lacks the error at %s: %q", where, text)
	}
	if href := eval(fmt.Sprintf(`document.querySelector(%q).getAttribute('href')`, failedBanner+` a.catalogist-live-chart`)); href != "/charts/demo/" {
		t.Errorf("the error links to %q", href)
	}
	if n := eval(`String(document.querySelectorAll('.catalogist-live-banner[data-chart]').length)`); n != "0" {
		t.Errorf("the index shows %s chart banners", n)
	}
}
