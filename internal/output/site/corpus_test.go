//go:build corpus

package site

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/testkit/corpustest"
	"github.com/catalogist/catalogist/lint"
)

// corpusPages are the charts of the corpus TestSiteInBrowser adds to the
// example catalog: realistic pages, long schemas among them, that nobody
// wrote for these tests.
var corpusPages = []string{"jupyter-pyspark", "rstudio-gpu"}

// The page never contradicts the linter: an option pre-filled from a path
// the target's context lacks is said to fall back to its default, and
// exactly the options lint's context-path and bare-literal rules report
// are. On the corpus, the reference platform's context has no ai.*.
func TestCorpusPrefillFallbackAsLintSays(t *testing.T) {
	for _, name := range []string{"vscode-python", "jupyter-pyspark"} {
		t.Run(name, func(t *testing.T) {
			dir := corpustest.Chart(t, name)
			s, err := schema.Load(filepath.Join(dir, "values.schema.json"), "x-onyxia")
			if err != nil {
				t.Fatal(err)
			}
			if s.Platform != schema.Onyxia {
				t.Fatalf("platform %v, want onyxia", s.Platform.Name)
			}
			c := &Chart{Schema: s, Form: schema.Compute(s, nil, nil)}
			rows, _ := options(c, contextModels{}.of(c))
			fallback := map[string]string{}
			for _, r := range rows {
				for _, n := range r.Notes {
					if n.Kind == "fallback" {
						fallback[r.Path] = noteText(optionView{Notes: []note{n}})
					}
				}
			}

			cat, err := catalog.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			res, err := lint.Run([]*catalog.Catalog{cat}, lint.Options{
				Overrides: schema.Overrides{ExtensionKey: "x-onyxia", Platform: "onyxia"},
				Rules:     []*lint.Rule{lint.RuleContextPath, lint.RuleBareLiteral},
			})
			if err != nil {
				t.Fatal(err)
			}
			reported := map[string]bool{}
			for _, f := range res.Findings {
				reported[f.Option] = true
			}
			if len(reported) == 0 {
				t.Fatal("lint reports no context path on the corpus chart: the test proves nothing")
			}
			for p := range reported {
				if _, ok := fallback[p]; !ok {
					t.Errorf("lint reports %s, which the page says is pre-filled", p)
				}
			}
			for p, text := range fallback {
				if !reported[p] {
					t.Errorf("the page says %s falls back (%q), which lint does not report", p, text)
				}
			}
			want := "Pre-filled from ai.enabled when the context has it; the onyxia platform's context has no ai.enabled, so the value falls back to the default there"
			if got := fallback["ai/enabled"]; got != want {
				t.Errorf("ai/enabled: %q, want %q", got, want)
			}
			if got := fallback["ai/activeProvider/selectedModel"]; !strings.Contains(got, "Choices from ai.activeProvider.models when the context has it; the onyxia platform's context has no ai.activeProvider.models, so the choices fall back to listEnum there") {
				t.Errorf("ai/activeProvider/selectedModel: %q", got)
			}
			for _, r := range rows {
				for _, n := range r.Notes {
					if n.Kind == "prefill" && strings.Contains(noteText(optionView{Notes: []note{n}}), "ai.") {
						t.Errorf("%s: %q claims a pre-fill the context cannot give", r.Path, noteText(optionView{Notes: []note{n}}))
					}
				}
			}
		})
	}
}
