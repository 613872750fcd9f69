package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

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

// writeGitHub prints workflow commands, which GitHub turns into annotations
// on the pull request's lines, then the summary line.
func writeGitHub(w io.Writer, res *Result) error {
	a := githubactions.New(githubactions.WithWriter(w))
	for _, f := range res.Findings {
		fa := a.WithFieldsMap(map[string]string{
			"file": filepath.ToSlash(f.File), "line": strconv.Itoa(f.Line), "col": strconv.Itoa(f.Column),
			"title": "catalogist " + f.Rule,
		})
		if f.Severity == Error {
			fa.Errorf("%s", f.Message)
		} else {
			fa.Warningf("%s", f.Message)
		}
	}
	return writeSummary(w, res)
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
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifText    `json:"shortDescription"`
	DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
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
	drv := sarifDriver{Name: "catalogist", Rules: []sarifRule{}}
	index := map[string]int{}
	for i, r := range All {
		index[r.Name] = i
		drv.Rules = append(drv.Rules, sarifRule{ID: r.Name, ShortDescription: sarifText{r.Doc}, DefaultConfiguration: sarifDefault{r.Severity.String()}})
	}
	run := sarifRun{Tool: sarifTool{drv}, Results: []sarifResult{}}
	for _, f := range res.Findings {
		r := sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: f.Severity.String(), Message: sarifText{f.Message},
			Locations: []sarifLocation{{sarifPhysical{sarifArtifact{filepath.ToSlash(f.File)}, sarifRegion{f.Line, f.Column}}}},
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
