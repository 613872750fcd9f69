package render

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Kind sorts render failures by what fails.
type Kind int

const (
	// KindTemplate is a template that does not parse or execute, a fail
	// or required included.
	KindTemplate Kind = iota
	// KindYAML is a rendered document that is not YAML: Helm refuses the
	// release before anything reaches the cluster.
	KindYAML
	// KindKubeVersion is Chart.yaml's kubeVersion, which the target
	// Kubernetes version does not satisfy.
	KindKubeVersion
	// KindReleaseName is a release name Helm refuses.
	KindReleaseName
	// KindOther is any other refusal of Helm's install action.
	KindOther
)

// Location is a place in a template that Helm names.
type Location struct {
	// Template is Helm's name of the template ("web/templates/a.yaml").
	Template string
	// Line and Col are 1-based (Helm counts columns from 0); 0 when Helm
	// gives none.
	Line, Col int
}

// String writes a location as NAME:LINE:COL.
func (l Location) String() string {
	switch {
	case l.Col > 0:
		return fmt.Sprintf("%s:%d:%d", l.Template, l.Line, l.Col)
	case l.Line > 0:
		return fmt.Sprintf("%s:%d", l.Template, l.Line)
	}
	return l.Template
}

// Failure is a render error read back.
type Failure struct {
	Kind Kind
	// Trace is where Helm says it failed, outermost first: a template
	// including another is followed by the included one. The last is
	// where the failure is. Empty when Helm names no template.
	Trace []Location
	// Msg is Helm's message without the locations: a fail or required
	// message as the chart's author wrote it.
	Msg string
}

// Detail is the message with the templates that included the failing one,
// as lint and launch both say it.
func (f *Failure) Detail() string {
	if len(f.Trace) < 2 {
		return f.Msg
	}
	from := make([]string, 0, len(f.Trace)-1)
	for _, loc := range f.Trace[:len(f.Trace)-1] {
		from = append(from, loc.String())
	}
	return f.Msg + " (included from " + strings.Join(from, ", included from ") + ")"
}

// At is where the failure is, the zero Location when Helm names none.
func (f *Failure) At() Location {
	if len(f.Trace) == 0 {
		return Location{}
	}
	return f.Trace[len(f.Trace)-1]
}

var (
	// "web/templates/a.yaml:3:12" or "web/templates/a.yaml:3", as the
	// first line of each step of Helm's reformatted execution errors.
	traceLoc = regexp.MustCompile(`^(\S+?):([0-9]+)(?::([0-9]+))?$`)
	// "execution error at (LOC): MSG" (fail, required), "parse error at
	// (LOC): MSG", "... in (NAME): MSG".
	atLoc = regexp.MustCompile(`^(?:execution|parse) error (?:at|in) \(([^()]*)\): ((?s).*)$`)
	// text/template's own form: "template: NAME:LINE:COL: MSG".
	templateLoc = regexp.MustCompile(`^template: (\S+?):([0-9]+)(?::([0-9]+))?: ((?s).*)$`)
	yamlOn      = regexp.MustCompile(`^YAML parse error on (\S+): ((?s).*)$`)
)

// ParseFailure reads the error of Render into the places and message Helm
// gives.
func ParseFailure(err error) *Failure {
	msg := strings.TrimSpace(err.Error())
	switch {
	case strings.HasPrefix(msg, "chart requires kubeVersion"):
		return &Failure{Kind: KindKubeVersion, Msg: msg}
	case strings.HasPrefix(msg, "release name check failed"):
		return &Failure{Kind: KindReleaseName, Msg: strings.TrimPrefix(msg, "release name check failed: ")}
	}
	if m := yamlOn.FindStringSubmatch(msg); m != nil {
		return &Failure{Kind: KindYAML, Trace: []Location{{Template: m[1]}}, Msg: m[2]}
	}
	if m := atLoc.FindStringSubmatch(msg); m != nil {
		return &Failure{Kind: KindTemplate, Trace: []Location{location(m[1])}, Msg: strings.TrimSpace(m[2])}
	}
	if m := templateLoc.FindStringSubmatch(msg); m != nil {
		return &Failure{Kind: KindTemplate, Trace: []Location{newLocation(m[1], m[2], m[3])}, Msg: m[4]}
	}
	if f := parseTrace(msg); f != nil {
		return f
	}
	return &Failure{Kind: KindOther, Msg: msg}
}

// parseTrace reads Helm's multi-line execution errors:
//
//	web/templates/a.yaml:1:3
//	  executing "web/templates/a.yaml" at <include "lib.cm" .>:
//	    error calling include:
//	web/charts/lib/templates/_x.tpl:7:15
//	  executing "lib.cm" at <.Values.deep.er.value>:
//	    nil pointer evaluating interface {}.value
//
// The message is what follows the last location's "executing" line.
func parseTrace(msg string) *Failure {
	lines := strings.Split(msg, "\n")
	if len(lines) == 0 || !traceLoc.MatchString(lines[0]) {
		return nil
	}
	f := &Failure{Kind: KindTemplate}
	var last []string
	for _, l := range lines {
		if m := traceLoc.FindStringSubmatch(l); m != nil {
			f.Trace = append(f.Trace, newLocation(m[1], m[2], m[3]))
			last = last[:0]
			continue
		}
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "executing ") || t == "" {
			continue
		}
		last = append(last, t)
	}
	f.Msg = strings.Join(last, " ")
	if f.Msg == "" {
		f.Msg = msg
	}
	return f
}

// location reads "NAME:LINE:COL", "NAME:LINE" or "NAME".
func location(s string) Location {
	if m := traceLoc.FindStringSubmatch(s); m != nil {
		return newLocation(m[1], m[2], m[3])
	}
	return Location{Template: s}
}

// newLocation reads a line and a column Helm gives, the column counted
// from 0; a column without a line that can be read is dropped.
func newLocation(name, line, col string) Location {
	l := Location{Template: name, Line: atoi(line)}
	if l.Line > 0 && col != "" {
		l.Col = atoi(col) + 1
	}
	return l
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
