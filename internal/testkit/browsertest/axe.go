package browsertest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// Violation is one rule of axe-core that the page breaks.
type Violation struct {
	ID string `json:"id"`
	// Impact is minor, moderate, serious or critical.
	Impact string `json:"impact"`
	Help   string `json:"help"`
	// HelpURL explains the rule and how to meet it.
	HelpURL string `json:"helpUrl"`
	// Nodes are the offending elements, as CSS selectors.
	Nodes []string `json:"nodes"`
}

// Severe reports whether the violation is serious or critical: what the
// site must never have.
func (v Violation) Severe() bool {
	return v.Impact == "serious" || v.Impact == "critical"
}

func (v Violation) String() string {
	nodes := v.Nodes
	more := ""
	if len(nodes) > 5 {
		nodes, more = nodes[:5], fmt.Sprintf(" and %d more", len(v.Nodes)-5)
	}
	return fmt.Sprintf("%s (%s): %s, at %s%s; see %s", v.ID, v.Impact, v.Help, strings.Join(nodes, ", "), more, v.HelpURL)
}

// axeRun checks the whole document against WCAG 2 A and AA and axe's best
// practices, and keeps only what a test reports.
const axeRun = `axe.run(document, {
  runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice']},
  resultTypes: ['violations'],
}).then((r) => r.violations.map((v) => ({
  id: v.id, impact: v.impact || '', help: v.help, helpUrl: v.helpUrl,
  nodes: v.nodes.map((n) => [].concat(n.target).flat(Infinity).join(' ')),
})))`

// Axe runs axe-core on the tab's current page and returns the rules it
// breaks. The script comes from $CATALOGIST_AXE; it is evaluated through
// DevTools, which the page's Content-Security-Policy (scripts from the site
// only) does not restrict, so the page is checked as published.
func Axe(t testing.TB, ctx context.Context) []Violation {
	t.Helper()
	path := tooltest.Tool(t, "CATALOGIST_AXE")
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.axe === 'object'`))
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	if !loaded {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("axe-core: %v; run `make tools` to install it", err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](string(src)+"\n;0")); err != nil {
			t.Fatalf("axe-core: evaluating %s: %v", path, err)
		}
	}
	vs, err := chromedp.Run(ctx, chromedp.Evaluate[[]Violation](axeRun, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe-core: running the checks: %v", err)
	}
	return vs
}

// Severe returns the serious and critical violations of vs.
func Severe(vs []Violation) []Violation {
	var out []Violation
	for _, v := range vs {
		if v.Severe() {
			out = append(out, v)
		}
	}
	return out
}
