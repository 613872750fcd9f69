package site

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/catalogist/catalogist/internal/testkit/browsertest"
)

// The pages' layout, measured in Chromium at a phone's width and a
// desktop's: what a reader scans first is there, nothing covers a command,
// the option groups never wrap into rows of tabs, the options reference of
// a long schema opens folded, links wrap between words, and axe-core finds
// no serious or critical violation. Screenshots of both widths are kept as
// artifacts (browsertest.ArtifactsDir).

// viewports are the widths the pages are measured at: a phone held upright
// and a desktop.
var viewports = []struct{ width, height int }{{390, 844}, {1280, 900}}

// Height budgets of the generated chart's page, as it opens, at each
// width: about 6,000 px at 1280 px and 8,000 px at 390 px now, it was
// 21,500 px and 36,900 px with every option of the reference shown and the
// tabs in rows.
var pageHeightBudget = map[int]int{390: 12000, 1280: 8000}

// layoutDefects lists what is wrong with the layout of the page as it is
// shown now, each with where.
const layoutDefects = `(() => {
  const out = [];
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + Array.from(el.classList).map((c) => '.' + c).join('') +
    (el.getAttribute('aria-label') ? '[' + el.getAttribute('aria-label') + ']' : '');
  const px = (x) => Math.round(x);

  if (document.documentElement.scrollWidth > vw) out.push('the page is ' + document.documentElement.scrollWidth + ' px wide');

  for (const pre of document.querySelectorAll('pre.snippet')) {
    if (!pre.parentElement.matches('.snippet-wrap') || !pre.parentElement.querySelector(':scope > button.copy')) out.push(name(pre) + ' has no copy button');
  }
  // A copy button has a column of its own beside its snippet's text.
  for (const w of document.querySelectorAll('.snippet-wrap')) {
    const pre = w.querySelector(':scope > pre'), b = w.querySelector(':scope > button.copy');
    if (!pre || !b || !shown(pre)) continue;
    const p = pre.getBoundingClientRect(), r = b.getBoundingClientRect();
    const overlap = p.left < r.right && r.left < p.right && p.top < r.bottom && r.top < p.bottom;
    if (overlap || r.left - p.right < 4) {
      out.push('the copy button of ' + name(pre) + ' (' + px(r.left) + ' to ' + px(r.right) + ' px) is on its text (' + px(p.left) + ' to ' + px(p.right) + ' px)');
    }
  }

  // How to install comes first: above the form, on the first screen.
  const install = document.getElementById('chart-install') || document.querySelector('.repo-add');
  if (install) {
    const top = install.querySelector('pre').getBoundingClientRect().top + window.scrollY;
    if (top > vh) out.push('the first install command is ' + px(top) + ' px down, below the first screen (' + vh + ' px)');
    const form = document.getElementById('chart-form');
    if (form && install.getBoundingClientRect().bottom > form.getBoundingClientRect().top) out.push('the install commands come after the form');
  }

  // Tabs are one row, or one column, never rows that wrap.
  for (const list of document.querySelectorAll('[role=tablist]')) {
    const tabs = Array.from(list.querySelectorAll('[role=tab]')).filter(shown);
    if (tabs.length < 2) continue;
    const vertical = list.getAttribute('aria-orientation') === 'vertical';
    if ((getComputedStyle(list).flexDirection === 'column') !== vertical) out.push('the tabs say aria-orientation=' + list.getAttribute('aria-orientation') + ' but are laid out otherwise');
    const lines = new Set(tabs.map((t) => px(t.getBoundingClientRect()[vertical ? 'left' : 'top'])));
    if (lines.size > 1) out.push(tabs.length + ' tabs in ' + lines.size + (vertical ? ' columns' : ' rows'));
    const h = list.getBoundingClientRect().height, tallest = Math.max(...tabs.map((t) => t.getBoundingClientRect().height));
    if (!vertical && h > tallest + 20) out.push('the row of ' + tabs.length + ' tabs is ' + px(h) + ' px tall, for tabs of ' + px(tallest) + ' px');
  }

  // Links are labelled, show their address without its scheme, and wrap
  // after a separator, never inside a word.
  for (const dd of document.querySelectorAll('.links dd')) {
    let dt = dd.previousElementSibling;
    while (dt && dt.tagName !== 'DT') dt = dt.previousElementSibling;
    if (!dt || dt.textContent.trim() === '') out.push('the link ' + dd.textContent.trim() + ' has no label');
  }
  for (const a of document.querySelectorAll('.links a.web-link')) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(a.textContent)) out.push('the link ' + a.textContent + ' shows its scheme');
  }
  const separators = '/.-_?&=#';
  for (const a of document.querySelectorAll('.chart-side a')) {
    if (!shown(a)) continue;
    const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    let prev = '', prevTop = null;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const rects = r.getClientRects();
        if (rects.length === 0) continue;
        const ch = n.data[i], top = rects[0].top;
        if (prevTop !== null && top > prevTop + 2 && !separators.includes(prev) && !/\s/.test(prev + ch)) {
          out.push('the link ' + a.textContent + ' breaks between ' + JSON.stringify(prev) + ' and ' + JSON.stringify(ch));
        }
        prev = ch;
        prevTop = top;
      }
    }
  }

  // A boolean is drawn as a switch, with its label.
  for (const s of document.querySelectorAll('[data-form-root] input[type=checkbox]')) {
    if (!shown(s)) continue;
    const r = s.getBoundingClientRect(), st = getComputedStyle(s);
    if (s.getAttribute('role') !== 'switch' || st.appearance !== 'none' || r.width < 1.6 * r.height || s.labels.length === 0) {
      out.push('the boolean ' + (s.labels[0] ? s.labels[0].textContent : s.id) + ' is not a labelled switch (role ' + s.getAttribute('role') + ', appearance ' + st.appearance + ', ' + px(r.width) + 'x' + px(r.height) + ' px)');
    }
  }

  // The README is as wide as the page's other wide panels.
  const readme = document.getElementById('chart-readme'), options = document.getElementById('chart-options');
  if (readme && options && Math.abs(readme.getBoundingClientRect().width - options.getBoundingClientRect().width) > 1) {
    out.push('the README is ' + px(readme.getBoundingClientRect().width) + ' px wide, the options ' + px(options.getBoundingClientRect().width));
  }

  // A long options reference opens folded.
  const rows = Array.from(document.querySelectorAll('table.options tbody tr'));
  if (rows.length > 30 && rows.every(shown)) out.push('the options reference opens with its ' + rows.length + ' rows shown');
  return out;
})()`

// readmeTablesCut lists the README's tables that do not fit their box.
const readmeTablesCut = `Array.from(document.querySelectorAll('.readme .table-scroll')).filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.getAttribute('aria-label') + ': ' + b.scrollWidth + ' px in ' + b.clientWidth)`

// layoutTab is a tab in which pages are opened and their layout checked.
type layoutTab struct {
	t   *testing.T
	ctx context.Context
}

func newLayoutTab(t *testing.T) *layoutTab {
	return &layoutTab{t: t, ctx: browsertest.New(t)}
}

// eval evaluates a script expression into out.
func (lt *layoutTab) eval(expr string, out any) {
	lt.t.Helper()
	v, err := chromedp.Run(lt.ctx, chromedp.Evaluate[json.RawMessage](expr))
	if err != nil {
		lt.t.Fatalf("%s: %v", expr, err)
	}
	if err := json.Unmarshal(v, out); err != nil {
		lt.t.Fatalf("%s: %v", expr, err)
	}
}

// open loads a page and waits for its form, if it has one.
func (lt *layoutTab) open(page string) {
	lt.t.Helper()
	if err := chromedp.Do(lt.ctx, chromedp.Navigate(page)); err != nil {
		lt.t.Fatal(err)
	}
	var form bool
	lt.eval(`!!document.querySelector('[data-form-root]')`, &form)
	if form {
		if err := chromedp.Do(lt.ctx, chromedp.WaitVisible(chromedp.CSS(`[data-form-ready]`))); err != nil {
			lt.t.Fatalf("%s: the form does not render: %v", page, err)
		}
	}
}

// defects reports the layout's defects on the page as it is shown now.
func (lt *layoutTab) defects(where string) {
	lt.t.Helper()
	var defects []string
	lt.eval(layoutDefects, &defects)
	for _, d := range defects {
		lt.t.Errorf("%s: %s", where, d)
	}
}

// check opens a page at the tab's viewport of the given width, reports its
// layout's defects, saves it as the screenshot shot (none when ""), runs
// then (when not nil), opens its folded panels, as a reader would, and
// reports what axe-core finds serious or critical, README tables cut on a
// desktop's screen and script errors.
func (lt *layoutTab) check(page, where, shot string, width int, then func()) {
	lt.t.Helper()
	lt.open(page)
	lt.defects(where)
	if shot != "" {
		browsertest.Screenshot(lt.t, lt.ctx, fmt.Sprintf("%s-%d", shot, width))
	}
	if then != nil {
		then()
	}
	lt.eval(`document.querySelectorAll('details.fold').forEach((d) => { d.open = true; }); true`, new(bool))
	if width >= 1280 {
		var cut []string
		lt.eval(readmeTablesCut, &cut)
		for _, c := range cut {
			lt.t.Errorf("%s: a README table is cut: %s", where, c)
		}
	}
	for _, v := range browsertest.Severe(browsertest.Axe(lt.t, lt.ctx)) {
		lt.t.Errorf("%s: %s", where, v)
	}
	if errs := browsertest.Errors(lt.ctx); len(errs) > 0 {
		lt.t.Errorf("%s: script errors: %v", where, errs)
	}
}

// TestPageLayout checks a generated chart of a real chart's size and its
// catalog's index at both widths (TestCorpusPageLayout, of make
// check-corpus, sweeps every page of the example catalogs and the corpus's
// largest charts). On the chart, beyond the defects every page is checked
// for, the page's height stays within budget, the tabs answer the
// keyboard, a switch toggles with Space, the folded options open on a
// search.
func TestPageLayout(t *testing.T) {
	cat := largeCatalog(t)
	base := browsertest.Serve(t, render(t, cat, Options{}))
	lt := newLayoutTab(t)
	for _, vp := range viewports {
		if err := browsertest.Viewport(lt.ctx, vp.width, vp.height); err != nil {
			t.Fatal(err)
		}
		where := fmt.Sprintf("the generated chart at %d px", vp.width)
		lt.check(base+"/charts/"+cat.Charts[0].Name+"/index.html", where, "layout-generated-chart", vp.width, func() { lt.largeChart(where, vp.width) })
		lt.check(base+"/index.html", fmt.Sprintf("the index at %d px", vp.width), "", vp.width, nil)
	}
}

// largeChart checks the generated chart's page as it opens, then uses it:
// its height, the tabs with the keyboard, a switch, the options' search
// and folding.
func (lt *layoutTab) largeChart(where string, width int) {
	t, ctx, eval := lt.t, lt.ctx, lt.eval
	t.Helper()
	var height int
	eval(`document.documentElement.scrollHeight`, &height)
	t.Logf("%s: the page is %d px tall (budget %d)", where, height, pageHeightBudget[width])
	if height > pageHeightBudget[width] {
		t.Errorf("%s: the page is %d px tall, over %d", where, height, pageHeightBudget[width])
	}
	var tabs struct {
		Count       int
		Orientation string
		RowHeight   float64
	}
	eval(`(l => ({count: l.querySelectorAll('[role=tab]').length, orientation: l.getAttribute('aria-orientation'), rowHeight: l.getBoundingClientRect().height}))(document.querySelector('[role=tablist]'))`, &tabs)
	wantOrientation := "horizontal"
	if width >= 1280 {
		wantOrientation = "vertical"
	}
	if tabs.Count < 20 || tabs.Orientation != wantOrientation {
		t.Errorf("%s: %d tabs, laid out %s, want 20 or more, %s", where, tabs.Count, tabs.Orientation, wantOrientation)
	}
	if tabs.Orientation == "horizontal" && tabs.RowHeight > 60 {
		t.Errorf("%s: the row of tabs is %.0f px tall", where, tabs.RowHeight)
	}
	selected := func() (label string, inView bool) {
		t.Helper()
		var got struct {
			Label  string
			InView bool
		}
		eval(`(() => {
  const l = document.querySelector('[role=tablist]'), s = l.querySelector('[aria-selected=true]');
  const a = l.getBoundingClientRect(), b = s.getBoundingClientRect();
  return {label: s === document.activeElement ? s.textContent : '(not focused) ' + s.textContent,
    inView: b.left >= a.left - 1 && b.right <= a.right + 1 && b.top >= a.top - 1 && b.bottom <= a.bottom + 1};
})()`, &got)
		return got.Label, got.InView
	}
	var labels []string
	eval(`Array.from(document.querySelectorAll('[role=tab]')).map((t) => t.textContent)`, &labels)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`[role=tab][aria-selected=true]`))); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		key, want string
	}{{kb.End, labels[len(labels)-1]}, {kb.Home, labels[0]}, {kb.ArrowRight, labels[1]}, {kb.ArrowDown, labels[2]}, {kb.ArrowLeft, labels[1]}, {kb.ArrowUp, labels[0]}} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(step.key)); err != nil {
			t.Fatal(err)
		}
		if got, inView := selected(); got != step.want || !inView {
			t.Errorf("%s: after %q the selected tab is %q (in the row's view: %v), want %q", where, step.key, got, inView, step.want)
		}
	}
	// A boolean, in its tab: a switch, which the keyboard toggles.
	var sw struct {
		Label   string
		Checked bool
	}
	toggle := `(s => ({label: s.labels[0].textContent, checked: s.checked}))(document.querySelector('[data-form-root] input[type=checkbox]'))`
	eval(`(s => { document.getElementById(s.closest('[role=tabpanel]').getAttribute('aria-labelledby')).click(); s.focus(); return true; })(document.querySelector('[data-form-root] input[type=checkbox]'))`, new(bool))
	eval(toggle, &sw)
	lt.defects(where + ", in the tab of the switch " + sw.Label)
	before := sw.Checked
	if err := chromedp.Do(ctx, chromedp.KeyEvent(" ")); err != nil {
		t.Fatal(err)
	}
	if eval(toggle, &sw); sw.Checked == before {
		t.Errorf("%s: Space leaves the switch %s as it was", where, sw.Label)
	}
	var rows struct{ All, Shown int }
	countRows := func() {
		t.Helper()
		eval(`(r => ({all: r.length, shown: r.filter((x) => x.offsetParent !== null).length}))(Array.from(document.querySelectorAll('table.options tbody tr')))`, &rows)
	}
	countRows()
	folded := rows.Shown
	if folded >= rows.All/2 {
		t.Errorf("%s: the options reference opens with %d of its %d rows", where, folded, rows.All)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("opt-filter"), "cpu")); err != nil {
		t.Fatal(err)
	}
	var cpu []string
	eval(`Array.from(document.querySelectorAll('table.options tbody tr')).filter((x) => x.offsetParent !== null).map((x) => x.id)`, &cpu)
	if !slices.Contains(cpu, "option/resources") || !slices.Contains(cpu, "option/resources/requests/cpu") || !slices.Contains(cpu, "option/resources/limits/cpu") {
		t.Errorf("%s: searching cpu shows %q", where, cpu)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("opt-filter"), kb.Escape)); err != nil {
		t.Fatal(err)
	}
	if countRows(); rows.Shown != folded {
		t.Errorf("%s: after the search, %d rows shown, want the %d folded ones", where, rows.Shown, folded)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-opt-all="expand"]`))); err != nil {
		t.Fatal(err)
	}
	if countRows(); rows.Shown != rows.All {
		t.Errorf("%s: Expand all shows %d of %d rows", where, rows.Shown, rows.All)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-opt-all="collapse"]`))); err != nil {
		t.Fatal(err)
	}
	if countRows(); rows.Shown != folded {
		t.Errorf("%s: Collapse all shows %d rows, want the %d folded ones", where, rows.Shown, folded)
	}
}
