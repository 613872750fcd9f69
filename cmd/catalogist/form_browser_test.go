package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"gopkg.in/yaml.v3"

	"github.com/catalogist/catalogist/internal/testkit/browsertest"
)

// TestFormPage opens a chart page of a built example catalog in Chromium and
// uses its configuration form as a user would: the values it shows are the
// ones `catalogist form` computes; moving a slider, switching git off and on
// and typing a value the platform refuses each change the page as the form
// would. The page also fits a phone, and has no serious accessibility
// violation. Screenshots are saved as artifacts.
func TestFormPage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	if r := catalogist(t, nil, "build", "--region", "../../examples/region.yaml", "--out", out, "../../examples/ide"); r.code != 0 {
		t.Fatalf("build: exit %d\n%s", r.code, r.stderr)
	}
	base := browsertest.Serve(t, out)
	ctx := browsertest.New(t)
	page := base + "/charts/vscode-python/index.html"
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`[data-form-ready]`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Screenshot(t, ctx, "form-vscode-python.png")

	// The page's values are the form's in the page's context: no profile,
	// the build's region.
	empty := filepath.Join(t.TempDir(), "profile.yaml")
	if err := os.WriteFile(empty, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := catalogist(t, nil, "form", "--format", "json", "--show-secrets", "--profile", empty, "--region", "../../examples/region.yaml", "../../examples/ide/charts/vscode-python")
	if r.code != 0 {
		t.Fatalf("form: exit %d\n%s", r.code, r.stderr)
	}
	var form struct {
		Values  map[string]any
		Options []struct {
			Key     []string
			Context *struct {
				Paths, Missing []string
				Resolved       bool
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &form); err != nil {
		t.Fatal(err)
	}
	// The full document leaves out what a profile fills (git's name,
	// email...), which would overwrite the profile's at launch, and keeps
	// what the region pre-fills, or the chart's default where it has none.
	full := plain(t, form.Values)
	var left []string
	for _, o := range form.Options {
		c := o.Context
		if c == nil || c.Resolved || slices.Contains(o.Key, "[]") {
			continue
		}
		if slices.ContainsFunc(c.Paths, func(p string) bool { return !slices.Contains(c.Missing, p) && !strings.HasPrefix(p, "region.") }) {
			deleteAt(full, o.Key)
			left = append(left, strings.Join(o.Key, "."))
		}
	}
	if !slices.Contains(left, "git.name") || slices.ContainsFunc(left, func(k string) bool { return strings.HasPrefix(k, "resources.") }) {
		t.Fatalf("the options the profile fills: %q", left)
	}
	clickMode := func(mode string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-form-mode="`+mode+`"]`))); err != nil {
			t.Fatal(err)
		}
	}
	pageYAML := func() map[string]any {
		t.Helper()
		text, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(`[data-form-yaml]`)))
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := yaml.Unmarshal([]byte(text), &v); err != nil {
			t.Fatalf("the page's YAML does not parse: %v\n%s", err, text)
		}
		return plain(t, v)
	}
	clickMode("full")
	if got := pageYAML(); !reflect.DeepEqual(got, full) {
		t.Errorf("the page's full document differs from catalogist form's values but the profile's:\n page %v\n want %v", got, full)
	}
	note, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.form-modes + .field-note').textContent`))
	if err != nil || !strings.Contains(note, "git.name") || !strings.Contains(note, "would replace your profile's") {
		t.Errorf("the full document's note says %q (%v)", note, err)
	}
	clickMode("changes")
	if got := pageYAML(); len(got) != 0 {
		t.Errorf("changes before any edit = %v, want none", got)
	}

	// Move the memory limit slider one step up with the keyboard.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`[data-tab-key="resources"]`)),
		chromedp.Focus(chromedp.CSS(`[data-key="resources.limits.memory"] input[type="range"]`)),
		chromedp.KeyEvent(kb.ArrowRight),
	); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"resources": map[string]any{"limits": map[string]any{"memory": "9Gi"}}}
	if got := pageYAML(); !reflect.DeepEqual(got, want) {
		t.Errorf("after moving the memory limit one step: changes %v, want %v", got, want)
	}

	// git/enabled off hides the git fields; on shows them again.
	gitName := `[data-key="git.name"]`
	visible := func(sel string) bool {
		t.Helper()
		hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('`+sel+`').closest('[hidden]') !== null`))
		if err != nil {
			t.Fatal(err)
		}
		return !hidden
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-tab-key="git"]`))); err != nil {
		t.Fatal(err)
	}
	if !visible(gitName) {
		t.Fatal("git.name is hidden with git enabled")
	}
	gitSwitch := `[data-key="git.enabled"] input[role="switch"]`
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(gitSwitch))); err != nil {
		t.Fatal(err)
	}
	if visible(gitName) || visible(`[data-key="git.repository"]`) {
		t.Error("git fields still shown with git disabled")
	}
	browsertest.Screenshot(t, ctx, "form-git-off.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(gitSwitch))); err != nil {
		t.Fatal(err)
	}
	if !visible(gitName) {
		t.Error("git.name not shown again with git enabled")
	}

	// A CPU limit above the region's slider is refused beside the field,
	// with launch's reason.
	cpuText := `[data-key="resources.limits.cpu"] input.slider-text`
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-tab-key="resources"]`))); err != nil {
		t.Fatal(err)
	}
	// Selected, so that typing replaces the value as it does for a user.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(e => { e.focus(); e.select(); return true })(document.querySelector('`+cpuText+`'))`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent("9000m"),
	); err != nil {
		t.Fatal(err)
	}
	msg, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(`[data-key="resources.limits.cpu"] .field-error`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"9000m" is outside the slider range 100m to 8000m`; msg != want {
		t.Errorf("message beside the CPU limit = %q, want %q", msg, want)
	}
	browsertest.Screenshot(t, ctx, "form-refused.png")
	launch := catalogist(t, nil, "launch", "--dry-run", "--region", "../../examples/region.yaml", "--repo", base, "--set", "resources.limits.cpu=9000m", "vscode-python")
	if launch.code != 1 || !strings.Contains(launch.stderr, msg) {
		t.Errorf("launch with the same value: exit %d, want 1 with %q\n%s", launch.code, msg, launch.stderr)
	}
	if errs := browsertest.Errors(ctx); len(errs) > 0 {
		t.Errorf("script errors: %v", errs)
	}

	// The chart page and the index fit a phone, with no serious or critical
	// accessibility violation.
	for _, p := range []string{page, base + "/index.html"} {
		if err := browsertest.Viewport(ctx, 390, 844); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(p), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p, "charts/") {
			if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`[data-form-ready]`))); err != nil {
				t.Fatal(err)
			}
		}
		sw, cw, err := browsertest.HorizontalOverflow(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if sw > cw {
			wide, _ := browsertest.WideElements(ctx)
			t.Errorf("%s at 390 px: scroll width %d > %d; wide: %v", p, sw, cw, wide)
		}
		name := "phone-index.png"
		if strings.Contains(p, "charts/") {
			name = "phone-chart.png"
		}
		browsertest.Screenshot(t, ctx, name)
		if err := browsertest.Viewport(ctx, 1280, 900); err != nil {
			t.Fatal(err)
		}
		for _, v := range browsertest.Severe(browsertest.Axe(t, ctx)) {
			t.Errorf("%s: %s", p, v)
		}
		if errs := browsertest.Errors(ctx); len(errs) > 0 {
			t.Errorf("%s: script errors: %v", p, errs)
		}
	}
}

// deleteAt deletes the value at key, and the objects that leaves empty.
func deleteAt(m map[string]any, key []string) {
	if len(key) > 1 {
		if sub, ok := m[key[0]].(map[string]any); ok {
			if deleteAt(sub, key[1:]); len(sub) == 0 {
				delete(m, key[0])
			}
		}
		return
	}
	delete(m, key[0])
}

// plain turns decoded YAML or JSON into the same plain values (numbers as
// float64) so that the two can be compared.
func plain(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
