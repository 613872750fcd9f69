package workflow_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"

	"github.com/catalogist/catalogist/internal/publish/workflow"
	"github.com/catalogist/catalogist/internal/publish/workflow/workflowtest"
	"github.com/catalogist/catalogist/lint"
)

// step is a job step's files: GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.
type step struct {
	output, summary string
	log             bytes.Buffer
	run             *workflow.Run
}

func newStep(t *testing.T) *step {
	t.Helper()
	dir := t.TempDir()
	s := &step{output: filepath.Join(dir, "output"), summary: filepath.Join(dir, "summary")}
	env := map[string]string{"GITHUB_OUTPUT": s.output, "GITHUB_STEP_SUMMARY": s.summary}
	s.run = workflow.New(&s.log, func(k string) string { return env[k] })
	return s
}

func (s *step) outputs(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(s.output)
	if err != nil {
		t.Fatal(err)
	}
	out, err := workflowtest.Outputs(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (s *step) summaryText(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(s.summary)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// row is a rendered row of a findings table.
type row struct{ severity, rule, ruleURL, chart, location, message string }

// renderedRows renders a summary as GitHub Flavored Markdown, raw HTML
// included (<br>, <details>), and returns the findings table's rows as a
// reader sees them.
func renderedRows(t *testing.T, markdown string) []row {
	t.Helper()
	var out bytes.Buffer
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := md.Convert([]byte(markdown), &out); err != nil {
		t.Fatal(err)
	}
	doc, err := xhtml.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode && n.Data == "tr" {
			var cells []*xhtml.Node
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == xhtml.ElementNode && c.Data == "td" {
					cells = append(cells, c)
				}
			}
			if len(cells) == 5 {
				r := row{severity: text(cells[0]), rule: text(cells[1]), chart: text(cells[2]), location: text(cells[3]), message: text(cells[4])}
				if a := cells[1].FirstChild; a != nil && a.Data == "a" {
					for _, at := range a.Attr {
						if at.Key == "href" {
							r.ruleURL = at.Val
						}
					}
				}
				rows = append(rows, r)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return rows
}

// text is what a cell shows: its text, a <br> as a line break.
func text(n *xhtml.Node) string {
	var b strings.Builder
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		switch {
		case n.Type == xhtml.TextNode:
			b.WriteString(n.Data)
		case n.Type == xhtml.ElementNode && n.Data == "br":
			b.WriteString("\n")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// Messages that would be markup, or break a table, show as they are.
var trickyMessages = []string{
	"a | b | c",
	"use `helm lint` first",
	"<script>alert(1)</script> & <b>bold</b>",
	"two\nlines\r\nand a CR\rhere",
	`back\slash \| and \* stars *x* _y_ ~~z~~`,
	"[a link](https://example.org) ![img](x.png) # not a heading",
	"100% of &amp; entities",
}

func lintResult() *lint.Result {
	res := &lint.Result{Charts: 3, Baselined: 2}
	for i, m := range trickyMessages {
		sev := lint.Warning
		if i%2 == 0 {
			sev = lint.Error
		}
		res.Findings = append(res.Findings, lint.Finding{Rule: "option-type", Severity: sev, File: "charts/c_1/values.schema.json",
			Line: i + 1, Column: 2, Chart: "c_1", Message: m})
	}
	res.Findings = append(res.Findings, lint.Finding{Rule: "region-file", Severity: lint.Note, File: "region.yaml", Line: 7, Column: 1, Message: "a note"})
	return res
}

// A lint run's outputs, and a summary that shows every finding as it is,
// most severe first, each rule linked to the rule table.
func TestReportLint(t *testing.T) {
	s := newStep(t)
	res := lintResult()
	if err := s.run.ReportLint(workflow.Lint{Result: res, Linted: []string{"zeta", "c_1", "alpha"}, SARIF: "out/catalogist.sarif", Took: 1500 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"errors": "4", "warnings": "3", "charts": "3", "changed_charts": `["alpha","c_1","zeta"]`, "sarif": "out/catalogist.sarif"}
	if got := s.outputs(t); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outputs %v, want %v", got, want)
	}
	sum := s.summaryText(t)
	if !strings.Contains(sum, "**4 errors, 3 warnings** in 3 charts (and 2 held back by the baseline) in 1.5 s.") {
		t.Errorf("summary lacks the totals:\n%s", sum)
	}
	rows := renderedRows(t, sum)
	if len(rows) != len(res.Findings) {
		t.Fatalf("%d rows for %d findings:\n%s", len(rows), len(res.Findings), sum)
	}
	// Errors first (messages 0, 2, 4, 6), then warnings, then the note.
	order := []int{0, 2, 4, 6, 1, 3, 5}
	for i, r := range rows[:len(order)] {
		f := res.Findings[order[i]]
		// A line break shows as one, whichever it was.
		shown := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(f.Message)
		if r.message != shown || r.severity != f.Severity.String() || r.rule != "option-type" || r.ruleURL != lint.RulesURL ||
			r.chart != "c_1" || r.location != fmt.Sprintf("charts/c_1/values.schema.json:%d:2", f.Line) {
			t.Errorf("row %d shows %+v\nfor %+v", i, r, f)
		}
	}
	if last := rows[len(rows)-1]; last.severity != "note" || last.chart != "" || last.location != "region.yaml:7:1" {
		t.Errorf("last row %+v, want the note of no chart", last)
	}
	if strings.Contains(sum, "left out") {
		t.Errorf("a short table says findings were left out:\n%s", sum)
	}

	// With --changed-since: the changed charts, not the linted ones.
	s = newStep(t)
	res.Changed = map[string]bool{"c_1": true, "b": true, "gone": false}
	if err := s.run.ReportLint(workflow.Lint{Result: res, Linted: []string{"c_1", "b", "d"}}); err != nil {
		t.Fatal(err)
	}
	out := s.outputs(t)
	if out["changed_charts"] != `["b","c_1"]` {
		t.Errorf("changed_charts = %q, want the charts changed", out["changed_charts"])
	}
	if _, ok := out["sarif"]; ok {
		t.Errorf("output sarif set without a SARIF file")
	}
	if sum := s.summaryText(t); !strings.Contains(sum, "Only the findings of the 2 charts changed (b, c\\_1) and of no chart are annotated") {
		t.Errorf("summary does not say which findings are annotated:\n%s", sum)
	}
}

// A summary that would pass GitHub's 1 MiB keeps the totals and as many
// rows as fit, the most severe ones, and says how many it left out and
// where they all are. What the step's summary held already counts.
func TestReportLintCutsTable(t *testing.T) {
	s := newStep(t)
	before := strings.Repeat("x", 100<<10) + "\n"
	if err := os.WriteFile(s.summary, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	res := &lint.Result{Charts: 1}
	long := strings.Repeat("m", 300)
	for i := range 6000 {
		sev := lint.Warning
		if i%3 == 0 {
			sev = lint.Error
		}
		res.Findings = append(res.Findings, lint.Finding{Rule: "slider-grid", Severity: sev, File: "c/values.schema.json", Line: i + 1, Column: 1, Chart: "c", Message: fmt.Sprintf("%s %d", long, i)})
	}
	if err := s.run.ReportLint(workflow.Lint{Result: res, SARIF: "catalogist.sarif"}); err != nil {
		t.Fatal(err)
	}
	sum := s.summaryText(t)
	if len(sum) > workflow.SummaryLimit {
		t.Fatalf("summary of %d bytes, over the limit of %d", len(sum), workflow.SummaryLimit)
	}
	if len(sum) < workflow.SummaryLimit-2048 {
		t.Errorf("summary of %d bytes leaves more than 2 KiB of the limit unused", len(sum))
	}
	rows := renderedRows(t, strings.TrimPrefix(sum, before))
	errs, _ := res.Count()
	if len(rows) < errs || len(rows) >= len(res.Findings) {
		t.Fatalf("%d rows kept of %d findings (%d errors): want every error and a cut", len(rows), len(res.Findings), errs)
	}
	for i, r := range rows[:errs] {
		if r.severity != "error" {
			t.Fatalf("row %d is a %s before all errors are listed", i, r.severity)
		}
	}
	want := fmt.Sprintf("%d findings left out: a step summary holds at most 1 MiB. The SARIF file catalogist.sarif (the step's `sarif` output) holds them all, and so does `catalogist lint --format json`.", len(res.Findings)-len(rows))
	if !strings.Contains(sum, want) {
		t.Errorf("summary does not end with %q:\n...%s", want, sum[len(sum)-400:])
	}
	if !strings.Contains(sum, "**2000 errors, 4000 warnings** in 1 chart") {
		t.Errorf("summary lacks the totals")
	}
}

func TestReportBuild(t *testing.T) {
	s := newStep(t)
	res := lintResult()
	b := workflow.Build{Out: "_site", Charts: 3, Packaged: 1, Reused: 2, Carried: 4, Took: 2300 * time.Millisecond,
		Steps: []workflow.Step{{Name: "lint", Took: time.Second}, {Name: "package", Took: 800 * time.Millisecond}}, Lint: res}
	if err := s.run.ReportBuild(b); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"charts": "3", "errors": "4", "warnings": "3"}
	if got := s.outputs(t); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outputs %v, want %v", got, want)
	}
	sum := s.summaryText(t)
	for _, w := range []string{"Built 3 charts into \\_site in 2.3 s: 1 packaged, 2 unchanged, 4 carried from the published index.", "| package | 0.8 s |", "Lint: **4 errors, 3 warnings**"} {
		if !strings.Contains(sum, w) {
			t.Errorf("build summary lacks %q:\n%s", w, sum)
		}
	}
	if rows := renderedRows(t, sum); len(rows) != len(res.Findings) {
		t.Errorf("%d rows for the build's %d findings", len(rows), len(res.Findings))
	}

	s = newStep(t)
	if err := s.run.ReportFailure("build", "lint found 2 error(s) | see <the log>"); err != nil {
		t.Fatal(err)
	}
	if sum := s.summaryText(t); !strings.Contains(sum, "**Failed:**\n\n```text\nlint found 2 error(s) | see <the log>\n```\n") {
		t.Errorf("failure summary:\n%s", sum)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }

// What the runner should have set but did not, a file that cannot be
// written, a log that cannot be written to: errors that say so, no panic.
func TestRunErrors(t *testing.T) {
	r := workflow.New(&bytes.Buffer{}, func(string) string { return "" })
	if err := r.SetOutput("errors", "1"); err == nil || !strings.Contains(err.Error(), "GITHUB_OUTPUT is not set") {
		t.Errorf("SetOutput without GITHUB_OUTPUT: %v", err)
	}
	if err := r.AddSummary("x"); err == nil || !strings.Contains(err.Error(), "GITHUB_STEP_SUMMARY is not set") {
		t.Errorf("AddSummary without GITHUB_STEP_SUMMARY: %v", err)
	}

	dir := t.TempDir()
	r = workflow.New(failingWriter{}, func(string) string { return dir })
	if err := r.SetOutput("errors", "1"); err == nil || !strings.Contains(err.Error(), "setting step output errors") {
		t.Errorf("SetOutput into a directory: %v", err)
	}
	if err := r.Mask("secret"); err == nil || !strings.Contains(err.Error(), "pipe closed") {
		t.Errorf("Mask on a failing log: %v", err)
	}

	s := newStep(t)
	if err := s.run.SetOutput("x", "a\n_GitHubActionsFileCommandDelimeter_\nevil<<y"); err == nil {
		t.Errorf("a value holding the delimiter was written")
	}
}

// The token is masked with a workflow command, and an empty one is not
// (the runner would mask nothing, or everything).
func TestMask(t *testing.T) {
	s := newStep(t)
	if err := s.run.Mask(""); err != nil {
		t.Fatal(err)
	}
	if err := s.run.Mask("ghs_abc%def"); err != nil {
		t.Fatal(err)
	}
	if got := s.log.String(); got != "::add-mask::ghs_abc%25def\n" {
		t.Errorf("log %q", got)
	}
}
