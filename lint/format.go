package lint

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/sethvargo/go-githubactions"
)

// Formats lists the output formats of Write.
var Formats = []string{"text", "json", "github", "sarif"}

// Write prints a result in a format.
func Write(w io.Writer, res *Result, format string) error {
	switch format {
	case "text", "":
		return writeText(w, res)
	case "json":
		return writeJSON(w, res)
	case "github":
		return writeGitHub(w, res)
	case "sarif":
		return writeSARIF(w, res)
	}
	return fmt.Errorf("unknown format %q (known: text, json, github, sarif)", format)
}

// writeText prints one line per finding, except that a finding repeated in
// several charts (same rule, severity, option and message) is printed once,
// at its first position, with the other charts on the line below: a
// catalog of twenty charts sharing one schema pattern would otherwise
// repeat the same message twenty times.
func writeText(w io.Writer, res *Result) error {
	for _, g := range groupByChart(res.Findings) {
		f := g.first
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", f.File, f.Line, f.Column, f.Severity, f.Message, f.Rule)
		if len(g.others) > 0 {
			fmt.Fprintf(w, "  also in %s: %s\n", plural(len(g.others), "chart"), chartList(g.others))
		}
	}
	return writeSummary(w, res)
}

// group is a finding and the other charts that have the same one.
type group struct {
	first  Finding
	others []string
	charts map[string]bool
}

// groupByChart groups findings in order. A finding joins the first group
// of its kind that does not hold its chart yet, so two identical findings
// in one chart stay two entries.
func groupByChart(fs []Finding) []*group {
	type kind struct {
		rule, option, message string
		severity              Severity
	}
	var out []*group
	byKind := map[kind][]*group{}
	for _, f := range fs {
		k := kind{f.Rule, f.Option, f.Message, f.Severity}
		if f.Chart != "" {
			if g := firstWithout(byKind[k], f.Chart); g != nil {
				g.others = append(g.others, f.Chart)
				g.charts[f.Chart] = true
				continue
			}
		}
		g := &group{first: f, charts: map[string]bool{f.Chart: true}}
		out = append(out, g)
		if f.Chart != "" {
			byKind[k] = append(byKind[k], g)
		}
	}
	return out
}

func firstWithout(gs []*group, chart string) *group {
	for _, g := range gs {
		if !g.charts[chart] {
			return g
		}
	}
	return nil
}

// maxListed caps the charts named after "also in", so that the entry stays
// a couple of terminal lines however large the catalog.
const maxListed = 8

func chartList(charts []string) string {
	names := slices.Clone(charts)
	slices.Sort(names)
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxListed-1], ", "), len(names)-(maxListed-1))
}

func writeSummary(w io.Writer, res *Result) error {
	e, wn := res.Count()
	more := ""
	if res.Baselined > 0 {
		more = fmt.Sprintf(" (and %d in the baseline)", res.Baselined)
	}
	_, err := fmt.Fprintf(w, "%s, %s, %s%s\n", plural(res.Charts, "chart"), plural(e, "error"), plural(wn, "warning"), more)
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

type jsonFinding struct {
	Finding
	Severity string `json:"severity"`
}

func writeJSON(w io.Writer, res *Result) error {
	out := struct {
		Findings  []jsonFinding `json:"findings"`
		Charts    int           `json:"charts"`
		Baselined int           `json:"baselined,omitempty"`
	}{Findings: []jsonFinding{}, Charts: res.Charts, Baselined: res.Baselined}
	for _, f := range res.Findings {
		out.Findings = append(out.Findings, jsonFinding{f, f.Severity.String()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// AnnotationsPerSeverity is how many annotations of one severity GitHub
// shows for a step: it drops the others without a word.
const AnnotationsPerSeverity = 10

// Annotated reports whether a finding belongs on a pull request's lines:
// one of a chart changed since the --changed-since ref (every chart
// without it), or of no chart.
func (r *Result) Annotated(f Finding) bool {
	return f.Chart == "" || r.Changed == nil || r.Changed[f.Chart]
}

// BySeverity orders findings most severe first: errors, then warnings,
// then notes; within a severity, the findings of rules that are errors by
// default first, then by chart, file, line and column, so that the same
// findings always come out in the same order.
func BySeverity(a, b Finding) int {
	if c := cmp.Compare(b.Severity, a.Severity); c != 0 {
		return c
	}
	if c := cmp.Compare(defaultSeverity(b.Rule), defaultSeverity(a.Rule)); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.Chart, b.Chart), cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
}

// defaultSeverity is a rule's severity before a catalog changes it; a
// finding of an unknown rule ranks as a warning.
func defaultSeverity(rule string) Severity {
	if r := Lookup(rule); r != nil {
		return r.Severity
	}
	return Warning
}

// writeGitHub prints a GitHub Actions step's view of the findings: in the
// log, one collapsible group per chart with the text format's lines; then
// annotations, which GitHub shows on the pull request's lines, for at most
// AnnotationsPerSeverity findings of each severity, the most severe first,
// and a notice counting those left out; then the summary line. Only the
// findings Result.Annotated accepts are annotated.
func writeGitHub(w io.Writer, res *Result) error {
	gl := newGitHubLog(w)
	for _, g := range groupsOf(res.Findings) {
		e, wn := (&Result{Findings: g.findings}).Count()
		gl.command("group", nil, fmt.Sprintf("%s (%s, %s)", g.title, plural(e, "error"), plural(wn, "warning")))
		for _, f := range g.findings {
			// These lines quote the catalog. In a job step, the step's
			// Stream keeps the runner from reading a command in them (a
			// leading space would not: the runner trims it).
			fmt.Fprintln(gl.text, logEscaper.Replace(fmt.Sprintf("%s:%d:%d: %s: %s [%s]", f.File, f.Line, f.Column, f.Severity, f.Message, f.Rule)))
		}
		gl.command("endgroup", nil, "")
	}

	var annotated []Finding
	for _, f := range res.Findings {
		if res.Annotated(f) {
			annotated = append(annotated, f)
		}
	}
	slices.SortStableFunc(annotated, BySeverity)
	total := map[Severity]int{}
	for _, f := range annotated {
		total[f.Severity]++
	}
	limit := map[Severity]int{Error: AnnotationsPerSeverity, Warning: AnnotationsPerSeverity, Note: AnnotationsPerSeverity}
	over := total[Error] > AnnotationsPerSeverity || total[Warning] > AnnotationsPerSeverity || total[Note] > AnnotationsPerSeverity
	if over {
		// The notice counting what is left out is a notice too.
		limit[Note]--
	}
	shown := map[Severity]int{}
	for _, f := range annotated {
		if shown[f.Severity] == limit[f.Severity] {
			continue
		}
		shown[f.Severity]++
		name := map[Severity]string{Error: "error", Warning: "warning", Note: "notice"}[f.Severity]
		gl.command(name, githubactions.CommandProperties{
			"file": filepath.ToSlash(f.File), "line": strconv.Itoa(f.Line), "col": strconv.Itoa(f.Column),
			"title": "catalogist " + f.Rule,
		}, f.Message)
	}
	if over {
		var left []string
		for _, s := range []Severity{Error, Warning, Note} {
			if n := total[s] - shown[s]; n > 0 {
				left = append(left, plural(n, "more "+s.String()))
			}
		}
		gl.command("notice", githubactions.CommandProperties{"title": "catalogist: more findings than annotations"},
			fmt.Sprintf("%s not annotated: GitHub shows %d annotations of each severity per step. "+
				"This step's log lists every finding, grouped by chart, and so does its summary.",
				strings.Join(left, " and "), AnnotationsPerSeverity))
	}
	if err := writeSummary(gl.text, res); err != nil {
		return err
	}
	return gl.flush()
}

// logEscaper keeps a finding on its line of the log: a line break in its
// message or file name would let the rest pass for a line of its own.
var logEscaper = strings.NewReplacer("\r", `\r`, "\n", `\n`)

// commandWriter is a log that tells workflow commands from text: the
// Stream a job step's standard output and error are (package workflow),
// which never lets the runner read text as a command.
type commandWriter interface{ WriteCommand(line string) error }

// gitHubLog writes the github format: text through a buffer, and commands,
// escaped by go-githubactions as the runner unescapes them, as commands
// when w tells them from text. Write errors stick and surface at flush.
type gitHubLog struct {
	text *bufio.Writer
	cw   commandWriter
	err  error
}

func newGitHubLog(w io.Writer) *gitHubLog {
	gl := &gitHubLog{text: bufio.NewWriter(w)}
	gl.cw, _ = w.(commandWriter)
	return gl
}

func (gl *gitHubLog) command(name string, props githubactions.CommandProperties, message string) {
	line := (&githubactions.Command{Name: name, Properties: props, Message: message}).String()
	if gl.cw == nil {
		gl.text.WriteString(line)
		gl.text.WriteByte('\n')
		return
	}
	// The text before the command comes before it.
	if err := gl.text.Flush(); err != nil && gl.err == nil {
		gl.err = err
	}
	if err := gl.cw.WriteCommand(line); err != nil && gl.err == nil {
		gl.err = err
	}
}

func (gl *gitHubLog) flush() error {
	if err := gl.text.Flush(); err != nil && gl.err == nil {
		gl.err = err
	}
	return gl.err
}

// chartGroup is the findings of one chart, or of one file that belongs to
// no chart, in their order.
type chartGroup struct {
	title    string
	findings []Finding
}

func groupsOf(fs []Finding) []*chartGroup {
	var out []*chartGroup
	byTitle := map[string]*chartGroup{}
	for _, f := range fs {
		title := f.Chart
		if title == "" {
			title = filepath.ToSlash(f.File)
		}
		g := byTitle[title]
		if g == nil {
			g = &chartGroup{title: title}
			byTitle[title] = g
			out = append(out, g)
		}
		g.findings = append(g.findings, f)
	}
	return out
}

// SARIF 2.1.0, the subset code-scanning tools read. The types are small
// enough that a dependency would add more than it saves.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifText    `json:"shortDescription"`
	HelpURI              string       `json:"helpUri"`
	Help                 sarifHelp    `json:"help"`
	DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
}

// sarifHelp is what code scanning shows under an alert.
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	// Properties carry the chart and option, which SARIF has no field for.
	Properties *sarifProperties `json:"properties,omitempty"`
}

type sarifProperties struct {
	Chart  string `json:"chart,omitempty"`
	Option string `json:"option,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
}

func writeSARIF(w io.Writer, res *Result) error {
	drv := sarifDriver{Name: "catalogist", Version: toolVersion(res), InformationURI: ProjectURL, Rules: []sarifRule{}}
	if v, err := semver.StrictNewVersion(strings.TrimPrefix(drv.Version, "v")); err == nil {
		drv.SemanticVersion = v.String()
	}
	index := map[string]int{}
	for i, r := range All {
		index[r.Name] = i
		drv.Rules = append(drv.Rules, sarifRule{
			ID: r.Name, ShortDescription: sarifText{r.Doc}, HelpURI: RulesURL,
			Help: sarifHelp{
				Text:     fmt.Sprintf("%s checks that %s. The rules are described at %s", r.Name, r.Doc, RulesURL),
				Markdown: fmt.Sprintf("`%s` checks that %s. See [the rules](%s).", r.Name, r.Doc, RulesURL),
			},
			DefaultConfiguration: sarifDefault{r.Severity.String()},
		})
	}
	run := sarifRun{Tool: sarifTool{drv}, Results: []sarifResult{}}
	for _, f := range res.Findings {
		r := sarifResult{
			RuleID: f.Rule, RuleIndex: -1, Level: f.Severity.String(), Message: sarifText{f.Message},
			Locations: []sarifLocation{{sarifPhysical{sarifArtifact{fileURI(f.File)}, sarifRegion{f.Line, f.Column}}}},
		}
		if i, ok := index[f.Rule]; ok {
			r.RuleIndex = i
		}
		if f.Chart != "" || f.Option != "" {
			r.Properties = &sarifProperties{Chart: f.Chart, Option: f.Option}
		}
		run.Results = append(run.Results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// fileURI turns a path into the relative URI reference SARIF wants: with
// forward slashes, and a space or a % escaped as they must be in a URI.
func fileURI(path string) string {
	return (&url.URL{Path: filepath.ToSlash(path)}).String()
}

// ProjectURL is catalogist's home page, which SARIF and step summaries
// point at.
const ProjectURL = "https://github.com/catalogist/catalogist"

// RulesURL is where the rules are described: the page of the rule table,
// docs/rules.md. The table's rows carry no anchor of their own, so every
// rule points at the page.
const RulesURL = ProjectURL + "/blob/main/docs/rules.md"

// toolVersion is the version SARIF reports: the result's ToolVersion,
// else the module's ("(devel)" for a build without a version), "" when the
// binary holds no build information.
func toolVersion(res *Result) string {
	if res.ToolVersion != "" {
		return res.ToolVersion
	}
	return moduleVersion()
}

func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	const module = "github.com/catalogist/catalogist"
	if bi.Main.Path == module {
		return bi.Main.Version
	}
	// Built into another program, catalogist is one of its dependencies.
	for _, d := range bi.Deps {
		if d.Path == module {
			return d.Version
		}
	}
	return ""
}
