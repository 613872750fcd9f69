// Package manifest judges one rendered Kubernetes manifest document offline,
// as the Kubernetes API server judges it when Helm 4 installs it
// (fieldValidation=Strict): its YAML, its fields against the k8s.io/api types
// of built-in kinds, its apiVersion against the API lifecycle of a target
// release, the names, labels and annotations the server refuses, and the
// selectors of workloads. Kinds that are not built in are only noted: their
// schema lives in a cluster, not here.
package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// Severity of a problem, in the order of lint's.
type Severity int

// Severities.
const (
	Note Severity = iota - 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// Check names what a Problem is about; lint maps each to a rule.
type Check string

// Checks.
const (
	// CheckYAML: not YAML, not a mapping, or no apiVersion, kind or
	// metadata.name (error).
	CheckYAML Check = "yaml"
	// CheckFields: strict decoding against the k8s.io/api types of a
	// built-in kind: wrong type, unknown field, duplicate field, bad
	// quantity (error).
	CheckFields Check = "fields"
	// CheckRemoved: an apiVersion of a built-in group that the target no
	// longer serves, or does not serve yet (error).
	CheckRemoved Check = "removed"
	// CheckDeprecated: deprecated in the target, still served (warning).
	CheckDeprecated Check = "deprecated"
	// CheckDisabled: an alpha API, or a beta one introduced since 1.24, that
	// the target's API server serves only when the cluster enables it
	// (a warning: a default API server refuses it, and a cluster that
	// enables it accepts it).
	CheckDisabled Check = "disabled"
	// CheckNames: a metadata.name, namespace, label or annotation the API
	// server refuses, pod templates' included (error).
	CheckNames Check = "names"
	// CheckSelector: an apps/v1 workload (or a Job) whose selector is
	// missing, empty, invalid, or does not select its pod template's labels
	// (error).
	CheckSelector Check = "selector"
	// CheckCustom: a kind that is not built in, or that the chart's CRDs
	// define: not decoded (note).
	CheckCustom Check = "custom"
	// CheckListPolicy: a List whose items carry the annotation
	// helm.sh/resource-policy, which Helm ignores there (error, as
	// `helm lint` reports it).
	CheckListPolicy Check = "list-policy"
)

// Problem is one thing the API server (or Helm) would refuse or warn about.
type Problem struct {
	Check    Check
	Severity Severity
	// Path is the field path inside the manifest in Kubernetes' notation
	// ("spec.ports[0].port", "metadata.labels[app.kubernetes.io/name]"), ""
	// for the whole document.
	Path string
	// Line is the line of that field within the document text (1-based), 0
	// when unknown.
	Line int
	// Msg is a sentence for a chart maintainer, without the document's
	// kind/name prefix (the caller adds it).
	Msg string
}

// Object is what identifies a document.
type Object struct{ APIVersion, Kind, Name, Namespace string }

// Checker judges documents for a target release. Its methods may be called
// concurrently.
type Checker struct {
	// Version is the target release; the zero Version means Default.
	Version Version
	// CRDs are the kinds a chart's crds/ directory (or templates) define, by
	// group and kind: not decoded, a CheckCustom note.
	CRDs map[schema.GroupKind]bool
}

// MaxDocumentSize bounds a document: rendered manifests are at most a few
// megabytes, and the API server refuses requests over 3 MiB anyway.
const MaxDocumentSize = 8 << 20

func (c *Checker) target() Version {
	if c.Version == (Version{}) {
		return Default
	}
	return c.Version
}

// run is one Check call: the document and what was found in it.
type run struct {
	c        *Checker
	doc      []byte
	t        *tree // parsed on first need
	problems []Problem
}

func (r *run) add(check Check, sev Severity, p fieldPath, msg string) {
	r.problems = append(r.problems, Problem{Check: check, Severity: sev, Path: string(p), Msg: msg})
}

// tree parses the document with positions, once.
func (r *run) tree() *tree {
	if r.t == nil {
		r.t = parseTree(r.doc)
	}
	return r.t
}

// Check judges one document. An empty document (only comments and
// whitespace) yields a zero Object and no problem.
func (c *Checker) Check(doc []byte) (Object, []Problem) {
	if blank(doc) {
		return Object{}, nil
	}
	r := &run{c: c, doc: doc}
	obj := r.document()
	lines := bytes.Count(doc, []byte("\n")) + 1
	for i := range r.problems {
		p := &r.problems[i]
		if p.Line == 0 && p.Path != "" {
			p.Line = r.tree().line(fieldPath(p.Path))
		}
		// The YAML parser's errors at the end of the text name the line
		// after it.
		p.Line = min(p.Line, lines)
	}
	sort.SliceStable(r.problems, func(i, j int) bool {
		a, b := r.problems[i], r.problems[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Path < b.Path
	})
	return obj, r.problems
}

func (r *run) document() Object {
	if len(r.doc) > MaxDocumentSize {
		r.add(CheckYAML, Error, "", fmt.Sprintf("the document is %d bytes, more than the %d this check reads (and the API server takes 3 MiB at most)", len(r.doc), MaxDocumentSize))
		return Object{}
	}
	if line := secondDocument(r.doc); line > 0 {
		r.problems = append(r.problems, Problem{Check: CheckYAML, Severity: Error, Line: line,
			Msg: "the text holds more than one YAML document (a line --- starts another): give one document at a time"})
		return Object{}
	}
	js, ok := r.toJSON()
	if !ok {
		return Object{}
	}
	return r.object(js, "", 0)
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// toJSON converts the document as Helm does (sigs.k8s.io/yaml), which is
// what the API server receives. A key given twice, which the conversion
// silently reduces to its last value, is reported as the API server's
// strict decoding reports a duplicate field.
func (r *run) toJSON() ([]byte, bool) {
	js, err := yaml.YAMLToJSONStrict(r.doc)
	if err == nil {
		return js, true
	}
	js, lenientErr := yaml.YAMLToJSON(r.doc)
	if lenientErr != nil {
		p := Problem{Check: CheckYAML, Severity: Error, Msg: "not valid YAML: " + lenientErr.Error()}
		if m := yamlLine.FindStringSubmatch(lenientErr.Error()); m != nil {
			p.Line, _ = strconv.Atoi(m[1])
		}
		r.problems = append(r.problems, p)
		return nil, false
	}
	if r.tree().root == nil { // yaml.v3 cannot show where: say what yaml.v2 says
		r.add(CheckFields, Error, "", "the YAML has a key given twice, which the API server's strict decoding refuses: "+err.Error())
		return js, true
	}
	for _, d := range r.tree().duplicates(rootType(js)) {
		r.problems = append(r.problems, Problem{Check: CheckFields, Severity: Error, Path: string(d.path), Line: d.line,
			Msg: fmt.Sprintf("duplicate field %q: the API server's strict decoding refuses a key given twice, and Helm, which converts the YAML first, silently keeps only the last value", string(d.path))})
	}
	return js, true
}

// rootType is the Go type of a built-in object given as JSON, nil for
// others.
func rootType(js []byte) reflect.Type {
	var h struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if json.Unmarshal(js, &h) != nil {
		return nil
	}
	return api().goType(schema.FromAPIVersionAndKind(h.APIVersion, h.Kind))
}

// blank reports a document of only comments and whitespace (and document
// markers), which Helm skips.
func blank(doc []byte) bool {
	for len(doc) > 0 {
		var line []byte
		line, doc, _ = bytes.Cut(doc, []byte("\n"))
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] != '#' && !bytes.Equal(line, []byte("---")) && !bytes.Equal(line, []byte("...")) {
			return false
		}
	}
	return true
}

// secondDocument returns the line of a "---" that starts a second
// document with content after some content, 0 when there is none (an empty
// document after the marker is one Helm skips).
func secondDocument(doc []byte) int {
	content, marker := false, 0
	for n := 1; len(doc) > 0; n++ {
		var line []byte
		line, doc, _ = bytes.Cut(doc, []byte("\n"))
		if bytes.HasPrefix(line, []byte("---")) && (len(line) == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r') {
			if content && marker == 0 {
				marker = n
			}
			line = line[3:]
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			if marker > 0 {
				return marker
			}
			content = true
		}
	}
	return 0
}
