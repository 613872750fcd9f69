package lint_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/lint"
)

// A finding repeated across charts is printed once in text, with the other
// charts below; the summary, JSON and GitHub annotations count each one.
func TestTextGroupsRepeatedFindings(t *testing.T) {
	at := func(chart string, line int, rule, option, msg string, sev lint.Severity) lint.Finding {
		return lint.Finding{Rule: rule, Severity: sev, File: "charts/" + chart + "/values.schema.json", Line: line, Column: 5, Chart: chart, Option: option, Message: msg}
	}
	res := &lint.Result{Charts: 4, Findings: []lint.Finding{
		at("jupyter", 3, "context-path", "git/name", `names "git.nmae"`, lint.Warning),
		// Same message, other option: not the same finding.
		at("jupyter", 9, "context-path", "git/email", `names "git.nmae"`, lint.Warning),
		at("jupyter-gpu", 4, "context-path", "git/name", `names "git.nmae"`, lint.Warning),
		// Same finding, other severity (set by a catalog): printed apart.
		at("other", 3, "context-path", "git/name", `names "git.nmae"`, lint.Error),
		at("rstudio", 3, "context-path", "git/name", `names "git.nmae"`, lint.Warning),
		// Twice in one chart: two entries, each with its own position.
		at("rstudio", 20, "slider-grid", "cpu", "off the grid", lint.Warning),
		at("rstudio", 30, "slider-grid", "cpu", "off the grid", lint.Warning),
	}}
	var out bytes.Buffer
	if err := lint.Write(&out, res, "text"); err != nil {
		t.Fatal(err)
	}
	want := `charts/jupyter/values.schema.json:3:5: warning: names "git.nmae" [context-path]
  also in 2 charts: jupyter-gpu, rstudio
charts/jupyter/values.schema.json:9:5: warning: names "git.nmae" [context-path]
charts/other/values.schema.json:3:5: error: names "git.nmae" [context-path]
charts/rstudio/values.schema.json:20:5: warning: off the grid [slider-grid]
charts/rstudio/values.schema.json:30:5: warning: off the grid [slider-grid]
4 charts, 1 error, 6 warnings
`
	if out.String() != want {
		t.Errorf("text output:\n%s\nwant:\n%s", out.String(), want)
	}

	out.Reset()
	if err := lint.Write(&out, res, "github"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "::warning ") + strings.Count(out.String(), "::error "); n != len(res.Findings) {
		t.Errorf("github format: %d annotations for %d findings:\n%s", n, len(res.Findings), out.String())
	}

	out.Reset()
	if err := lint.Write(&out, res, "json"); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []struct{ Chart, Option string }
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != len(res.Findings) || doc.Findings[2].Chart != "jupyter-gpu" || doc.Findings[2].Option != "git/name" {
		t.Errorf("JSON findings lack chart or option: %+v", doc.Findings)
	}

	out.Reset()
	if err := lint.Write(&out, res, "sarif"); err != nil {
		t.Fatal(err)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				Properties struct{ Chart, Option string }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &sarif); err != nil {
		t.Fatal(err)
	}
	if r := sarif.Runs[0].Results; len(r) != len(res.Findings) || r[2].Properties.Chart != "jupyter-gpu" || r[2].Properties.Option != "git/name" {
		t.Errorf("SARIF results do not carry chart and option:\n%s", out.String())
	}
}

// A long list of charts is cut so that the entry stays short.
func TestTextCapsChartList(t *testing.T) {
	res := &lint.Result{Charts: 15}
	for i := range 15 {
		c := fmt.Sprintf("chart-%02d", i)
		res.Findings = append(res.Findings, lint.Finding{Rule: "context-path", Severity: lint.Warning, File: c + "/values.schema.json", Line: 1, Column: 1, Chart: c, Option: "a", Message: "m"})
	}
	var out bytes.Buffer
	if err := lint.Write(&out, res, "text"); err != nil {
		t.Fatal(err)
	}
	want := `chart-00/values.schema.json:1:1: warning: m [context-path]
  also in 14 charts: chart-01, chart-02, chart-03, chart-04, chart-05, chart-06, chart-07 and 7 more
15 charts, 0 errors, 15 warnings
`
	if out.String() != want {
		t.Errorf("text output:\n%s\nwant:\n%s", out.String(), want)
	}
	res.Baselined = 3
	out.Reset()
	lint.Write(&out, res, "text")
	if !strings.HasSuffix(out.String(), "15 charts, 0 errors, 15 warnings (and 3 in the baseline)\n") {
		t.Errorf("summary does not count the baselined findings:\n%s", out.String())
	}
}
