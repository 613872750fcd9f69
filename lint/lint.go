// Package lint checks catalogs offline: JSON Schema validity as Helm judges
// it, the vendor extension's semantics, sliders, hidden conditions, region
// and catalog bounds, and Chart.yaml. Each rule is a value with a name, a
// default severity, a one-line doc and a run function that reports findings
// at positions.
package lint

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"

	"helm.sh/helm/v4/pkg/chart/common"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/launchcontext"
	"github.com/catalogist/catalogist/region"
	"github.com/catalogist/catalogist/schema"
)

// Severity of a finding.
type Severity int

// Severities, in increasing order.
const (
	Warning Severity = iota
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Rule is one check.
type Rule struct {
	// Name is the rule's ID, as printed in brackets after each finding.
	Name     string
	Severity Severity
	// Doc is a one-line explanation.
	Doc string
	// Run checks one chart (or, for region rules, the region file).
	Run func(*Pass)
	// Scope says what Run is given.
	Scope Scope
}

// Scope of a rule.
type Scope int

// Scopes: a rule runs per chart whose schema parsed, per chart regardless of
// the schema, or once for the region file.
const (
	PerSchema Scope = iota
	PerChart
	PerRegion
)

// Finding is one reported problem.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"-"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	// Pointer is the JSON pointer of the value in File, when it has one.
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

// Options configure a lint run.
type Options struct {
	// ExtensionKey overrides the catalogs' own setting when not empty.
	ExtensionKey string
	// Region, when set, injects its values and bounds.
	Region *region.Region
	// Model is the known launch context; nil means the built-in one.
	Model *launchcontext.Model
	// Rules restricts the run to these rules; nil means all.
	Rules []*Rule
}

// Result is the outcome of a run.
type Result struct {
	Findings []Finding
	Charts   int
}

// Count returns the number of errors and warnings.
func (r *Result) Count() (errors, warnings int) {
	for _, f := range r.Findings {
		if f.Severity == Error {
			errors++
		} else {
			warnings++
		}
	}
	return
}

// Pass is what a rule sees of one chart.
type Pass struct {
	Chart   *catalog.Chart
	Catalog *catalog.Catalog
	// Schema is the parsed schema, nil when absent or not JSON.
	Schema *schema.Schema
	// SchemaData is the raw schema file, nil when absent.
	SchemaData []byte
	// SchemaErr is the parse error of the schema, if any.
	SchemaErr error
	// Values is values.yaml as Helm reads it, nil when absent or broken;
	// ValuesErr is why Helm could not read it.
	Values    map[string]any
	ValuesErr error
	// valuesData is the raw values.yaml, parsed for positions on demand.
	valuesData []byte
	// ExtKey is the extension key in force for this chart.
	ExtKey  string
	Context *schema.Context
	Region  *region.Region
	Model   *launchcontext.Model
	// Form is the computed form, with the region's values injected.
	Form *schema.Form

	rule     *Rule
	findings *[]Finding
	mu       *sync.Mutex
	state    *passState
}

// passState is shared by the copies of a pass that each rule receives.
type passState struct {
	once     sync.Once
	helm     *helmSchema
	compiler *compiler

	valuesOnce sync.Once
	valuesDoc  *doc.Node
	chartOnce  sync.Once
	chartDoc   *doc.Node
	chartErr   error
}

// ValuesDoc returns values.yaml parsed with positions, nil when absent or
// broken. Only findings need positions, so it is parsed on first use.
func (p *Pass) ValuesDoc() *doc.Node {
	p.state.valuesOnce.Do(func() {
		if p.valuesData != nil {
			p.state.valuesDoc, _ = doc.ParseYAML(p.valuesData)
		}
	})
	return p.state.valuesDoc
}

// Reportf reports a finding at a position of a file.
func (p *Pass) Reportf(file string, pos doc.Pos, pointer, format string, args ...any) {
	if !pos.IsValid() {
		pos = doc.Pos{Line: 1, Col: 1}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	*p.findings = append(*p.findings, Finding{
		Rule: p.rule.Name, Severity: p.rule.Severity, File: file,
		Line: pos.Line, Column: pos.Col, Pointer: pointer, Message: fmt.Sprintf(format, args...),
	})
}

// At reports a finding at a node of the schema file.
func (p *Pass) At(n *doc.Node, format string, args ...any) {
	p.Reportf(p.Chart.SchemaFile, n.Pos, n.Pointer(), format, args...)
}

// AtKey reports a finding at the key of a schema member (for a property,
// its name), falling back to the value.
func (p *Pass) AtKey(n *doc.Node, format string, args ...any) {
	pos := n.KeyPos
	if !pos.IsValid() {
		pos = n.Pos
	}
	p.Reportf(p.Chart.SchemaFile, pos, n.Pointer(), format, args...)
}

// Run lints catalogs.
func Run(cats []*catalog.Catalog, opt Options) (*Result, error) {
	rules := opt.Rules
	if rules == nil {
		rules = All
	}
	model := opt.Model
	if model == nil {
		model = launchcontext.NewModel()
	}
	res := &Result{}
	var mu sync.Mutex
	type job struct {
		i   int
		ch  *catalog.Chart
		cat *catalog.Catalog
	}
	var jobs []job
	for _, cat := range cats {
		for _, ch := range cat.Charts {
			jobs = append(jobs, job{len(jobs), ch, cat})
		}
	}
	res.Charts = len(jobs)
	// Each worker reads, parses and checks whole charts with a schema
	// compiler of its own.
	errs := make([]error, len(jobs))
	queue := make(chan job)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			comp := &compiler{}
			for j := range queue {
				p, err := newPass(j.ch, j.cat, opt, model)
				if err != nil {
					errs[j.i] = err
					continue
				}
				p.findings, p.mu, p.state.compiler = &res.Findings, &mu, comp
				for _, r := range rules {
					if r.Scope == PerRegion || (r.Scope == PerSchema && p.Schema == nil) {
						continue
					}
					if r.Scope == PerChart && p.Chart.OnlySchema && r.Name != RuleJSON.Name {
						continue
					}
					q := *p
					q.rule = r
					r.Run(&q)
				}
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if opt.Region != nil {
		p := &Pass{Region: opt.Region, Model: model, findings: &res.Findings, mu: &mu}
		p.Context = schema.NewContext(nil, opt.Region, nil, "")
		for _, r := range rules {
			if r.Scope == PerRegion {
				q := *p
				q.rule = r
				r.Run(&q)
			}
		}
	}
	Sort(res.Findings)
	return res, nil
}

// Sort orders findings by file, line, column, then rule.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
	})
}

// newPass reads a chart's files. Only I/O failures are errors; content
// problems are left for the rules.
func newPass(ch *catalog.Chart, cat *catalog.Catalog, opt Options, model *launchcontext.Model) (*Pass, error) {
	p := &Pass{Chart: ch, Catalog: cat, Region: opt.Region, Model: model, state: &passState{}}
	p.ExtKey = schema.ExtensionKeyFor(opt.ExtensionKey, cat)
	p.Context = schema.CatalogContext(nil, opt.Region, cat)
	if ch.ValuesFile != "" {
		data, err := readFile(ch.ValuesFile)
		if err != nil {
			return nil, err
		}
		p.valuesData = data
		vals, err := common.ReadValues(data)
		if err != nil {
			var de *doc.Error
			if _, perr := doc.ParseYAML(data); errors.As(perr, &de) && de.Limit {
				return nil, fmt.Errorf("%s:%d:%d: %s", ch.ValuesFile, de.Pos.Line, de.Pos.Col, de.Msg)
			}
			p.ValuesErr = err
		} else {
			p.Values = vals.AsMap()
		}
	}
	if ch.SchemaFile == "" {
		return p, nil
	}
	data, err := readFile(ch.SchemaFile)
	if err != nil {
		return nil, err
	}
	p.SchemaData = data
	root, err := doc.ParseJSON(data)
	if err != nil {
		// A file beyond the limits is refused outright rather than linted.
		var de *doc.Error
		if errors.As(err, &de) && de.Limit {
			return nil, fmt.Errorf("%s:%d:%d: %s", ch.SchemaFile, de.Pos.Line, de.Pos.Col, de.Msg)
		}
		p.SchemaErr = err
		return p, nil
	}
	p.Schema = schema.FromNode(root, p.ExtKey)
	p.Schema.File = ch.SchemaFile
	p.Form = schema.Compute(p.Schema, p.Context, p.Values)
	return p, nil
}

// readFile reads a file no larger than doc.MaxBytes.
func readFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if info.Size() > doc.MaxBytes {
		return nil, fmt.Errorf("%s: file is %d bytes, more than the %d bytes accepted; is it the right file?", path, info.Size(), doc.MaxBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("%s is a binary file, not text: is it the right file?", path)
	}
	return data, nil
}
