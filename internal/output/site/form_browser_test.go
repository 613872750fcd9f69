package site

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/testkit/browsertest"
)

// refusalsSchema has a range slider, a list of objects with a pattern and
// a field hidden by a switch: the places a refused value shows.
const refusalsSchema = `{"type": "object", "properties": {
  "volumes": {"type": "array", "title": "Volumes", "default": [{"name": "data", "size": "1Gi"}], "items": {"type": "object", "properties": {
    "name": {"type": "string", "title": "Name", "default": "new", "pattern": "^[a-z]+$"},
    "size": {"type": "string", "title": "Size", "default": "1Gi"}}}},
  "resources": {"type": "object", "properties": {
    "requests": {"type": "object", "properties": {"cpu": {"type": "string", "title": "CPU request", "default": "500m", "render": "slider",
      "sliderMin": 100, "sliderMax": 4000, "sliderStep": 100, "sliderUnit": "m", "sliderExtremity": "down", "sliderRangeId": "cpu"}}},
    "limits": {"type": "object", "properties": {"cpu": {"type": "string", "title": "CPU limit", "default": "1000m", "render": "slider",
      "sliderMin": 100, "sliderMax": 4000, "sliderStep": 100, "sliderUnit": "m", "sliderExtremity": "up", "sliderRangeId": "cpu"}}}}},
  "git": {"type": "object", "title": "Git", "properties": {
    "enabled": {"type": "boolean", "title": "Enabled", "default": true},
    "name": {"type": "string", "title": "Name", "default": "", "pattern": "^[A-Za-z ]*$", "hidden": {"path": "git/enabled", "value": false}}}}
}}`

// The form's refusals as a user meets them: each refused value counted
// once (a range's down end too), a list item's refusal beside the item's
// field with only that field marked, and a hidden field's listed apart,
// by its labels.
func TestFormRefusalsInBrowser(t *testing.T) {
	s := parseSchema(t, refusalsSchema)
	dir := render(t, &Catalog{Name: "refusals", Charts: []*Chart{{
		Name: "refusals", Versions: []Version{{Version: "1.0.0"}}, Schema: s, Form: schema.Compute(s, nil, nil),
	}}}, Options{})
	base := browsertest.Serve(t, dir)
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/charts/refusals/index.html"), chromedp.WaitVisible(chromedp.CSS(`[data-form-ready]`))); err != nil {
		t.Fatal(err)
	}
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	text := func(sel string) string {
		t.Helper()
		return eval(`(e => e ? (e.hidden ? '(hidden)' : e.textContent) : '(none)')(document.querySelector('` + sel + `'))`)
	}
	// Selected, so that typing replaces the value as it does for a user.
	typeInto := func(sel, value string) {
		t.Helper()
		eval(`(e => { e.focus(); e.select(); return '' })(document.querySelector('` + sel + `'))`)
		if err := chromedp.Do(ctx, chromedp.KeyEvent(value)); err != nil {
			t.Fatal(err)
		}
	}
	click := func(sel string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
	count := func(want string) {
		t.Helper()
		if got := text(`[data-form-count]`); got != want {
			t.Errorf("count %q, want %q", got, want)
		}
	}
	count("")

	// A range's down end above its up end: one value, one message that
	// names it.
	click(`[data-tab-key="resources"]`)
	down := `.range-end[data-key="resources.requests.cpu"]`
	typeInto(down+` input.slider-text`, "2000m")
	if got, want := text(down+` > .field-error`), `"2000m" is above resources.limits.cpu, the other end of the "cpu" range`; got != want {
		t.Errorf("the down end says %q, want %q", got, want)
	}
	count("1 value would be refused at launch.")

	// A second volume whose name is refused: the message is beside that
	// name, in the item labelled 2; the size beside it and the list stay
	// as they are.
	click(`[role="tab"]:first-child`)
	click(`[data-key="volumes"] > button[aria-label="Add an item to Volumes"]`)
	name := `[data-key="volumes.1.name"]`
	typeInto(name+` > input`, "Bad Name")
	if got, want := text(name+` > .field-error`), `"Bad Name" does not match the pattern "^[a-z]+$"`; got != want {
		t.Errorf("the item's name says %q, want %q", got, want)
	}
	if got := eval(`document.querySelector('` + name + `').closest('.form-item').querySelector('.form-item-head span').textContent`); got != "Volumes 2" {
		t.Errorf("the refused name is in the item labelled %q, want Volumes 2", got)
	}
	if got := text(`[data-key="volumes"] > .field-error`); got != "(hidden)" {
		t.Errorf("the list's own message says %q", got)
	}
	const red = "rgb(180, 35, 24)"
	for sel, invalid := range map[string]bool{name + ` > input`: true, `[data-key="volumes.1.size"] > input`: false, `[data-key="volumes.0.name"] > input`: false} {
		aria := eval(`document.querySelector('` + sel + `').getAttribute('aria-invalid') || ''`)
		border := eval(`getComputedStyle(document.querySelector('` + sel + `')).borderTopColor`)
		if (aria == "true") != invalid || (border == red) != invalid {
			t.Errorf("%s: aria-invalid %q, border %s; want it marked invalid: %v", sel, aria, border, invalid)
		}
	}
	count("2 values would be refused at launch.")
	browsertest.Screenshot(t, ctx, "form-refusals.png")

	// A refused git name, then git switched off: the field is hidden, yet
	// its value is sent, so its refusal is listed apart, by its labels.
	click(`[data-tab-key="git"]`)
	typeInto(`[data-key="git.name"] > input`, "J0hn")
	count("3 values would be refused at launch.")
	if got := text(`.form-elsewhere`); got != "(hidden)" {
		t.Errorf("with every refusal beside its field, the list apart shows %q", got)
	}
	click(`[data-key="git.enabled"] input[role="switch"]`)
	if got, want := text(`.form-elsewhere`), `Git › Name (not shown): "J0hn" does not match the pattern "^[A-Za-z ]*$"`; got != want {
		t.Errorf("the hidden field's refusal is listed as %q, want %q", got, want)
	}
	count("3 values would be refused at launch.")
	if errs := browsertest.Errors(ctx); len(errs) > 0 {
		t.Errorf("script errors: %v", errs)
	}

	// A hostname only a launch context fills: the page says so at the
	// field, refuses nothing, and its full document leaves the hostname
	// and the git name to the profile (git, emptied, goes too), saying so.
	dir = render(t, &Catalog{Name: "verdicts", Charts: verdictCharts(t)}, Options{})
	base = browsertest.Serve(t, dir)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/charts/profile/index.html"), chromedp.WaitVisible(chromedp.CSS(`[data-form-ready]`))); err != nil {
		t.Fatal(err)
	}
	if got, want := text(`[data-key="host"] .field-note`), "Pre-filled from project.id, k8s.domain when you launch: the platform fills it from your profile. Without one, this page has no value for it"; got != want {
		t.Errorf("the hostname's note says %q, want %q", got, want)
	}
	count("")
	click(`[data-form-mode="full"]`)
	if got, want := text(`[data-form-yaml]`), "{}\n"; got != want {
		t.Errorf("the full document is %q, want %q", got, want)
	}
	if got := text(`.form-modes + .field-note`); !strings.HasPrefix(got, "Left out, as your profile fills them: git.name.") {
		t.Errorf("the full document's note says %q", got)
	}
	if errs := browsertest.Errors(ctx); len(errs) > 0 {
		t.Errorf("script errors: %v", errs)
	}
}
