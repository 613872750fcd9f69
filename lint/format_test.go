package lint_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogist/catalogist/internal/publish/workflow"
	"github.com/catalogist/catalogist/internal/publish/workflow/workflowtest"
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

// In a GitHub Actions step, at most 10 annotations of each severity are
// written, the most severe first: errors of rules that are errors by
// default before errors a catalog raised. A notice counts the others. Only
// the findings of changed charts, and of no chart, are annotated; every
// finding is in the log, one group per chart. Messages and file names
// survive the escaping the runner undoes.
func TestGitHubCapsAnnotations(t *testing.T) {
	tricky := "100% done:\r\nnext, line::error::injected"
	var fs []lint.Finding
	add := func(chart, rule string, sev lint.Severity, line int, msg string) {
		fs = append(fs, lint.Finding{Rule: rule, Severity: sev, File: "charts/" + chart + "/values.schema.json", Line: line, Column: 3, Chart: chart, Message: msg})
	}
	// Raised to errors by a catalog, listed first: annotated last.
	for i := range 7 {
		add("alpha", "context-path", lint.Error, 100+i, fmt.Sprintf("raised %d", i))
	}
	for i := range 8 {
		add("beta", "option-type", lint.Error, 10+i, fmt.Sprintf("no type %d", i))
	}
	for i := range 13 {
		add("beta", "slider-grid", lint.Warning, 50+i, fmt.Sprintf("off the grid %d", i))
	}
	add("alpha", "option-type", lint.Error, 1, tricky)
	fs = append(fs, lint.Finding{Rule: "region-file", Severity: lint.Warning, File: "odd dir/a,b:c.yaml", Line: 2, Column: 1, Message: "no chart"})
	// Not changed: listed, not annotated.
	add("gamma", "option-type", lint.Error, 5, "unchanged chart")
	for i := range 2 {
		add("beta", "schema-registry", lint.Note, 70+i, "a note")
	}
	res := &lint.Result{Charts: 3, Findings: fs, Changed: map[string]bool{"alpha": true, "beta": true}}

	var out bytes.Buffer
	if err := lint.Write(&out, res, "github"); err != nil {
		t.Fatal(err)
	}
	cmds, plain, err := workflowtest.Commands(out.String())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]workflowtest.Command{}
	for _, c := range cmds {
		byName[c.Name] = append(byName[c.Name], c)
	}
	errs, warns := byName["error"], byName["warning"]
	if len(errs) != 10 || len(warns) != 10 {
		t.Fatalf("%d error and %d warning annotations, want 10 of each:\n%s", len(errs), len(warns), out.String())
	}
	// 9 option-type errors of the changed charts, then the first raised one.
	for i, c := range errs {
		wantTitle := "catalogist option-type"
		if i == 9 {
			wantTitle = "catalogist context-path"
		}
		if c.Properties["title"] != wantTitle {
			t.Errorf("error annotation %d is %q (%s), want one of %s: errors of rules that are errors by default come first", i, c.Message, c.Properties["title"], wantTitle)
		}
		if c.Message == "unchanged chart" {
			t.Errorf("a finding of a chart not changed is annotated")
		}
		if c.Properties["file"] == "" || c.Properties["line"] == "" || c.Properties["col"] != "3" {
			t.Errorf("annotation without its position: %+v", c)
		}
	}
	if errs[0].Message != tricky || errs[0].Properties["file"] != "charts/alpha/values.schema.json" || errs[0].Properties["line"] != "1" {
		t.Errorf("first error annotation = %+v, want the alpha option-type finding with its message intact %q", errs[0], tricky)
	}
	if errs[9].Message != "raised 0" {
		t.Errorf("the raised error annotated is %q, want the first by position, raised 0", errs[9].Message)
	}
	if warns[0].Properties["file"] != "odd dir/a,b:c.yaml" || warns[0].Message != "no chart" {
		t.Errorf("the finding of no chart is not the first warning, with its file name intact: %+v", warns[0])
	}
	notices := byName["notice"]
	if len(notices) != 3 {
		t.Fatalf("%d notices, want the 2 notes and the count of what is left out:\n%s", len(notices), out.String())
	}
	want := "6 more errors and 4 more warnings not annotated: GitHub shows 10 annotations of each severity per step. This step's log lists every finding, grouped by chart, and so does its summary."
	if last := notices[2]; last.Message != want || last.Properties["file"] != "" {
		t.Errorf("last notice = %+v\nwant message %q", last, want)
	}

	// The log: one group per chart, every finding inside, none on two lines.
	wantGroups := []string{"alpha (8 errors, 0 warnings)", "beta (8 errors, 13 warnings)", "odd dir/a,b:c.yaml (0 errors, 1 warning)", "gamma (1 error, 0 warnings)"}
	var groups []string
	for _, c := range cmds {
		if c.Name == "group" {
			groups = append(groups, c.Message)
		}
	}
	if !slices.Equal(groups, wantGroups) || len(byName["endgroup"]) != len(wantGroups) {
		t.Errorf("groups %q (%d ends), want %q", groups, len(byName["endgroup"]), wantGroups)
	}
	if len(plain) != len(fs)+1 {
		t.Errorf("%d plain log lines, want one per finding and the summary line:\n%s", len(plain), strings.Join(plain, "\n"))
	}
	if !slices.Contains(plain, `charts/alpha/values.schema.json:1:3: error: 100% done:\r\nnext, line::error::injected [option-type]`) {
		t.Errorf("the log line of the tricky message is not on one line with its breaks shown:\n%s", strings.Join(plain, "\n"))
	}
	if last := plain[len(plain)-1]; last != "3 charts, 17 errors, 14 warnings" {
		t.Errorf("summary line %q", last)
	}
}

// In a job step, where the github format is written to the step's
// Stream: a finding whose option key, message and file name hold
// workflow commands (legacy ##[ anywhere, :: after white space, a stop) is
// shown in the log as it is and read as no command, while catalogist's
// groups and annotations are all carried out, with messages and file names
// intact through the runner's unescaping.
func TestGitHubFormatInAStepLog(t *testing.T) {
	key := "x ##[error]FORGED ##[add-mask]word"
	hostile := "https://x/\n::error::forged ##[add-mask]tok [link](javascript:alert(1)) <img src=x>"
	res := &lint.Result{Charts: 1, Findings: []lint.Finding{
		{Rule: "option-type", Severity: lint.Error, File: "charts/a/values.schema.json", Line: 3, Column: 5, Chart: "a",
			Message: fmt.Sprintf("option %q has no type", key)},
		{Rule: "slider-grid", Severity: lint.Warning, File: "charts/a/##[stop-commands]x,y:z.json", Line: 1, Column: 1, Chart: "a",
			Message: hostile},
		{Rule: "option-type", Severity: lint.Note, File: "  ::error::f", Line: 2, Column: 1, Chart: "::warning::chart",
			Message: "\t::add-mask::word"},
	}}
	var buf bytes.Buffer
	steps := workflow.NewLog()
	stdout := steps.Stream(&buf)
	if err := lint.Write(stdout, res, "github"); err != nil {
		t.Fatal(err)
	}
	if err := stdout.Flush(); err != nil {
		t.Fatal(err)
	}
	cmds, plain, err := workflowtest.Commands(buf.String())
	if err != nil {
		t.Fatal(err)
	}
	var carried []workflowtest.Command
	for _, c := range cmds {
		if c.Name != "stop-commands" && !c.Resume {
			carried = append(carried, c)
		}
	}
	var names []string
	for _, c := range carried {
		names = append(names, c.Name)
	}
	if want := []string{"group", "endgroup", "group", "endgroup", "error", "warning", "notice"}; !slices.Equal(names, want) {
		t.Fatalf("commands carried out %q, want %q:\n%s", names, want, buf.String())
	}
	for i, f := range res.Findings {
		c := carried[4+i]
		if c.Message != f.Message || c.Properties["file"] != f.File || c.Properties["title"] != "catalogist "+f.Rule || c.Legacy {
			t.Errorf("annotation %+v, want the message %q at %s", c, f.Message, f.File)
		}
	}
	if carried[0].Message != "a (1 error, 1 warning)" || carried[2].Message != "::warning::chart (0 errors, 0 warnings)" {
		t.Errorf("groups %q and %q", carried[0].Message, carried[2].Message)
	}
	for _, f := range res.Findings {
		line := fmt.Sprintf("%s:%d:%d: %s: %s [%s]", f.File, f.Line, f.Column, f.Severity, strings.ReplaceAll(f.Message, "\n", `\n`), f.Rule)
		if !slices.Contains(plain, line) {
			t.Errorf("the log does not show %q as it is:\n%s", line, strings.Join(plain, "\n"))
		}
	}
}

// Few findings: each is annotated, without a notice.
func TestGitHubAnnotatesAllWhenFew(t *testing.T) {
	res := &lint.Result{Charts: 1, Findings: []lint.Finding{
		{Rule: "slider-grid", Severity: lint.Warning, File: "c/values.schema.json", Line: 4, Column: 2, Chart: "c", Message: "off"},
		{Rule: "option-type", Severity: lint.Error, File: "c/values.schema.json", Line: 9, Column: 2, Chart: "c", Message: "no type"},
	}}
	var out bytes.Buffer
	if err := lint.Write(&out, res, "github"); err != nil {
		t.Fatal(err)
	}
	want := `::group::c (1 error, 1 warning)
c/values.schema.json:4:2: warning: off [slider-grid]
c/values.schema.json:9:2: error: no type [option-type]
::endgroup::
::error col=2,file=c/values.schema.json,line=9,title=catalogist option-type::no type
::warning col=2,file=c/values.schema.json,line=4,title=catalogist slider-grid::off
1 chart, 1 error, 1 warning
`
	if out.String() != want {
		t.Errorf("github output:\n%s\nwant:\n%s", out.String(), want)
	}
}

// The SARIF log validates against the SARIF 2.1.0 schema's definitions,
// and has what code scanning reads: the tool's name, version and home, a
// help address per rule, and for each result its rule, message and
// location.
func TestSARIFForCodeScanning(t *testing.T) {
	res := &lint.Result{Charts: 2, ToolVersion: "v1.4.2", Findings: []lint.Finding{
		{Rule: "option-type", Severity: lint.Error, File: "my charts/a%b/values.schema.json", Line: 3, Column: 7, Chart: "a", Message: "no type"},
		{Rule: "slider-grid", Severity: lint.Warning, File: "charts/b/values.schema.json", Line: 1, Column: 1, Chart: "b", Option: "cpu", Message: "off"},
		{Rule: "schema-registry", Severity: lint.Note, File: "charts/b/values.schema.json", Line: 2, Column: 1, Chart: "b", Message: "a note"},
	}}
	var out bytes.Buffer
	if err := lint.Write(&out, res, "sarif"); err != nil {
		t.Fatal(err)
	}

	schemaDoc, err := os.ReadFile("testdata/sarif-2.1.0-subset.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	sd, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaDoc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif.json", sd); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("the SARIF log does not validate: %v\n%s", err, out.String())
	}

	var doc struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name, Version, SemanticVersion, InformationURI string
					Rules                                          []struct {
						ID, HelpURI          string
						Help                 struct{ Text, Markdown string }
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	drv := doc.Runs[0].Tool.Driver
	if doc.Version != "2.1.0" || drv.Name != "catalogist" || drv.Version != "v1.4.2" || drv.SemanticVersion != "1.4.2" || drv.InformationURI != "https://github.com/catalogist/catalogist" {
		t.Errorf("driver %+v (log version %s)", drv, doc.Version)
	}
	if len(drv.Rules) != len(lint.All) {
		t.Fatalf("%d rules in the driver, want %d", len(drv.Rules), len(lint.All))
	}
	for i, r := range drv.Rules {
		if r.ID != lint.All[i].Name || r.HelpURI != lint.RulesURL || !strings.Contains(r.Help.Text, lint.All[i].Doc) || r.DefaultConfiguration.Level != lint.All[i].Severity.String() {
			t.Errorf("rule %d: %+v", i, r)
		}
	}
	wantURIs := []string{"my%20charts/a%25b/values.schema.json", "charts/b/values.schema.json", "charts/b/values.schema.json"}
	for i, r := range doc.Runs[0].Results {
		f := res.Findings[i]
		loc := r.Locations[0].PhysicalLocation
		if r.RuleID != f.Rule || drv.Rules[r.RuleIndex].ID != f.Rule || r.Level != f.Severity.String() || r.Message.Text != f.Message ||
			loc.ArtifactLocation.URI != wantURIs[i] || loc.Region.StartLine != f.Line || loc.Region.StartColumn != f.Column {
			t.Errorf("result %d = %+v, for finding %+v", i, r, f)
		}
	}

	// Without a version set, the module's is reported; never an empty one
	// in a binary with build information.
	res.ToolVersion = ""
	out.Reset()
	lint.Write(&out, res, "sarif")
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if v := doc.Runs[0].Tool.Driver.Version; v == "" {
		t.Errorf("no driver version without ToolVersion:\n%s", out.String())
	}
}

// The rules' help address is the rule table's page of this repository.
func TestRulesURLPage(t *testing.T) {
	page, ok := strings.CutPrefix(lint.RulesURL, lint.ProjectURL+"/blob/main/")
	if !ok {
		t.Fatalf("%s is not a page of %s", lint.RulesURL, lint.ProjectURL)
	}
	data, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(page)))
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(data), "\n"); first != "# Rules" {
		t.Errorf("%s starts with %q, not the rule table's heading", page, first)
	}
}
