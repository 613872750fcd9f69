// Package lint checks catalogs offline: JSON Schema validity as Helm judges
// it, the vendor extension's semantics, sliders, hidden conditions, region
// and catalog bounds, and Chart.yaml. Each rule is a value with a name, a
// default severity, a one-line doc and a run function that reports findings
// at positions.
package lint

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/internal/model/schema"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// Severity of a finding.
type Severity int

// Severities, in increasing order. A note informs and never fails a run.
const (
	Note Severity = iota - 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Note:
		return "note"
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
	// Launchable is true for a rule that only concerns charts a user can
	// launch (the form, the values, the icon): it skips library charts.
	Launchable bool
	// Locked is true for a rule that guards what a build publishes:
	// catalog.yaml cannot turn it off, lower it or ignore its findings,
	// nor can a baseline hold them back, since the build refuses them
	// whatever lint says.
	Locked bool
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
	// Chart is the chart's name, "" for a finding of the region file.
	Chart string `json:"chart"`
	// Option is the slash path of the option the finding is about
	// ("resources/limits/cpu"), "" when none.
	Option string `json:"option"`
}

// Options configure a lint run.
type Options struct {
	// Overrides are the command line's extension key, platform and schema
	// registry, which replace each catalog's own settings when set.
	Overrides schema.Overrides
	// Regions, when set, inject their values and bounds: each chart is
	// checked once per region, and a finding that occurs in some regions
	// only names them.
	Regions []*region.Region
	// KubeVersion is the Kubernetes version charts are rendered for and
	// their manifests judged against; the zero Version means
	// manifest.Default.
	KubeVersion manifest.Version
	// BaseURL is the address the catalogs are published at, which
	// replaces catalog.yaml's baseURL: a dependency on it is taken from
	// the catalog's sources.
	BaseURL string
	// CacheDir is the dependency cache charts are rendered with; empty
	// means the user's (see chartload.Cache).
	CacheDir string
	// Dependencies, when set, loads the charts to render with their
	// dependencies (a build's loader, which fetches what the cache lacks);
	// nil loads them offline, from the catalog and the cache.
	Dependencies *chartload.Loader
	// ExtraPaths holds documents whose keys are launch context paths the
	// platform adds to its built-in ones (--context).
	ExtraPaths []*srcpos.Node
	// Rules restricts the run to these rules; nil means all.
	Rules []*Rule
	// KeepAnalyses keeps each chart's analysis in the result, for a caller
	// that goes on to show the charts (a build's pages).
	KeepAnalyses bool
	// Progress, when set, is told of each chart as its analysis ends. It
	// is called from several goroutines at once: charts are analysed in
	// parallel.
	Progress func(ChartDone)
	// ToolVersion, when set, is the version SARIF reports for catalogist.
	// Empty, SARIF reports the version of the catalogist module the binary
	// was built from; a binary built from sources without their git
	// history (the GitHub Action's) has none, and its caller sets this.
	ToolVersion string
	// Changed, when not nil, names the charts changed since the ref of
	// --changed-since, which Run returns as Result.Changed.
	Changed map[string]bool
	// Published holds, for each chart whose version a published index
	// lists (--published), what comparing the chart's package as a build
	// makes it now with the published one found; nil without
	// --published. Rule version-bump reports the charts whose content
	// differs.
	Published map[*catalog.Chart]*PublishedVersion
}

// PublishedVersion is a chart's version as published, compared with the
// chart's package now.
type PublishedVersion struct {
	Name, Version string
	// URL is the published package's, resolved against the index's
	// address and redacted.
	URL string
	// File is the first file the packages differ by, "" when they hold
	// the same chart.
	File string
}

// ChartDone is a chart analysed, as Options.Progress is told of it.
type ChartDone struct {
	Chart string
	// Of is the number of charts the run analyses.
	Of   int
	Took time.Duration
	// Errors and Warnings count the chart's findings, before those of
	// files several charts share are merged.
	Errors, Warnings int
}

// Result is the outcome of a run.
type Result struct {
	Findings []Finding
	Charts   int
	// Baselined counts the findings a baseline held back.
	Baselined int
	// Analyses are the charts as lint analysed them, when asked for.
	Analyses map[*catalog.Chart]*analysis.Chart
	// ToolVersion, when set, is the version SARIF reports for catalogist.
	// Empty, SARIF reports the version of the catalogist module the binary
	// was built from; a binary built from sources without their git
	// history (the GitHub Action's) has none, and its caller sets this.
	ToolVersion string
	// Notes say how the run read the catalogs where nothing said it (the
	// extension key its schemas chose); they are no findings.
	Notes []string
	// Changed, when not nil, names the charts changed since the ref of
	// --changed-since: only their findings (and those of no chart) belong
	// on a pull request's lines. The charts depending on them are linted
	// too, but their findings are only listed. Nil means every chart.
	Changed map[string]bool
}

// Count returns the number of errors and warnings; notes are neither.
func (r *Result) Count() (errors, warnings int) {
	for _, f := range r.Findings {
		switch f.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		}
	}
	return
}

// Pass is what a rule sees of one chart.
type Pass struct {
	Chart   *catalog.Chart
	Catalog *catalog.Catalog
	// ExtKey is the extension key in force for this chart, Platform the
	// target its form is judged for.
	ExtKey   string
	Platform *schema.Platform
	Context  *schema.Context
	Region   *region.Region
	// Model is the target's launch context, with the --context paths.
	Model *launchcontext.Model
	// Form is the form computed in this pass's context, with its region's
	// values injected.
	Form *schema.Form
	// Analysis is the chart analysed, which Schema, SchemaErr, HelmValues
	// and ValuesErr read; nil for the region file's pass, and for a chart
	// with links leading out of the catalog, whose files are not read.
	Analysis *analysis.Chart

	// launch is the chart rendered, shared by its passes in every region;
	// nil for the region file's pass. loaded is the chart as Helm's loader
	// read it, without the dependencies it does not vendor, or loadErr.
	launch  *launchShared
	loaded  *chart.Chart
	loadErr error
	run     *runState
	// sources are the template sources findings are placed in.
	sources *srcLines

	rule     *Rule
	findings *[]Finding
	mu       *sync.Mutex
	state    *passState
	// escapes are the chart's paths that lead outside the catalog
	// repository: with any, no other file of the chart is read.
	escapes []*catalog.EscapeError
	// published is what version-bump reports: the chart's package
	// compared with the published one of its version, nil when that
	// version is not published (or without --published).
	published *PublishedVersion
}

// passState is shared by the copies of a pass that each rule receives.
type passState struct {
	once     sync.Once
	helm     *schema.HelmSchema
	compiler *schema.HelmCompiler

	chartOnce sync.Once
	chartDoc  *srcpos.Node
	chartErr  error

	optionsOnce  sync.Once
	optionByNode map[*srcpos.Node]*schema.Option

	shapesOnce sync.Once
	shapes     []schema.Shape
	sourceOnce sync.Once
	source     []*schema.Option

	// derived holds what several rules need to know of the chart
	// (derived.go).
	derived derivedCache
}

// Schema is the chart's parsed schema, nil when absent or not JSON.
func (p *Pass) Schema() *schema.Schema {
	if p.Analysis == nil {
		return nil
	}
	return p.Analysis.Schema
}

// SchemaErr is why the schema could not be parsed, nil when it was.
func (p *Pass) SchemaErr() error {
	if p.Analysis == nil {
		return nil
	}
	return p.Analysis.SchemaErr
}

// HelmValues is values.yaml as Helm reads it, nil when absent or broken.
func (p *Pass) HelmValues() map[string]any {
	if p.Analysis == nil {
		return nil
	}
	return p.Analysis.HelmValues
}

// ValuesErr is why Helm could not read values.yaml, nil when it could.
func (p *Pass) ValuesErr() error {
	if p.Analysis == nil {
		return nil
	}
	return p.Analysis.ValuesErr
}

// ValuesDoc returns values.yaml parsed with positions, nil when absent or
// broken.
func (p *Pass) ValuesDoc() *srcpos.Node {
	if p.Analysis == nil {
		return nil
	}
	d, _ := p.Analysis.ValuesDoc()
	return d
}

// Reportf reports a finding at a position of a file.
func (p *Pass) Reportf(file string, pos srcpos.Pos, pointer, format string, args ...any) {
	p.report(file, pos, pointer, "", fmt.Sprintf(format, args...))
}

func (p *Pass) report(file string, pos srcpos.Pos, pointer, option, msg string) {
	if !pos.IsValid() {
		pos = srcpos.Pos{Line: 1, Col: 1}
	}
	chart := ""
	if p.Chart != nil {
		chart = p.Chart.Name
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	*p.findings = append(*p.findings, Finding{
		Rule: p.rule.Name, Severity: p.rule.Severity, File: file,
		Line: pos.Line, Column: pos.Col, Pointer: pointer, Message: msg,
		Chart: chart, Option: option,
	})
}

// At reports a finding at a node of the schema: in the chart's schema file,
// or in the registry file a substituted option was read from.
func (p *Pass) At(n *srcpos.Node, format string, args ...any) {
	q, msg := p.inlineCopy(n, fmt.Sprintf(format, args...))
	q.report(p.fileOf(n), n.Pos, n.Pointer(), p.optionAt(n), msg)
}

// inlineCopy returns the pass and message to report an error at n with.
// Without a schema registry, an error inside an option the API replaces by
// a registry schema (overwriteSchemaWith) is about an inline copy the form
// may never read: the API substitutes the registry's schema when it holds
// the name, and keeps the copy only when it does not. Which one is unknown,
// so the error becomes a warning that says so.
func (p *Pass) inlineCopy(n *srcpos.Node, msg string) (*Pass, string) {
	s := p.Schema()
	if p.rule.Severity != Error || s == nil || s.Registry != nil || len(s.Unresolved) == 0 {
		return p, msg
	}
	names := map[*srcpos.Node]string{}
	for _, u := range s.Unresolved {
		if !u.Ref {
			names[u.Node] = u.Name
		}
	}
	for a := n; a != nil; a = a.Parent {
		if a.Kind != srcpos.Object {
			continue
		}
		name, ok := names[a.Get(s.ExtKey).Get("overwriteSchemaWith")]
		if !ok {
			continue
		}
		q := *p
		r := *p.rule
		r.Severity = Warning
		q.rule = &r
		return &q, fmt.Sprintf("%s (a warning, not an error: this is the inline copy of option %q, which the platform's API replaces by its registry schema %q if it holds that name; give --schema-registry, the API's registry directory, to check the schema the form reads)", msg, p.optionAt(a), name)
	}
	return p, msg
}

// Notef reports a note, whatever the rule's severity.
func (p *Pass) Notef(n *srcpos.Node, format string, args ...any) {
	q := *p
	r := *p.rule
	r.Severity = Note
	q.rule = &r
	q.At(n, format, args...)
}

func (p *Pass) fileOf(n *srcpos.Node) string {
	if p.Schema() == nil {
		return p.Chart.SchemaFile
	}
	return p.Schema().FileOf(n)
}

// AtKey reports a finding at the key of a schema member (for a property,
// its name), falling back to the value.
func (p *Pass) AtKey(n *srcpos.Node, format string, args ...any) {
	pos := n.KeyPos
	if !pos.IsValid() {
		pos = n.Pos
	}
	q, msg := p.inlineCopy(n, fmt.Sprintf(format, args...))
	q.report(p.fileOf(n), pos, n.Pointer(), p.optionAt(n), msg)
}

// Run lints catalogs. Each catalog's lint settings (catalog.yaml's lint:)
// apply to its charts' findings; settings naming an unknown rule are an
// error.
func Run(cats []*catalog.Catalog, opt Options) (*Result, error) {
	return RunContext(context.Background(), cats, opt)
}

// RunContext lints catalogs; ctx bounds what a build's dependency loader
// fetches.
func RunContext(ctx context.Context, cats []*catalog.Catalog, opt Options) (*Result, error) {
	r := &runner{opt: opt, rules: opt.Rules, rs: newRunState(ctx, opt), res: &Result{Changed: opt.Changed}}
	if r.rules == nil {
		r.rules = All
	}
	var err error
	if r.envs, err = envs(cats, opt); err != nil {
		return nil, err
	}
	if r.filters, err = configFilters(cats); err != nil {
		return nil, err
	}
	for _, cat := range cats {
		if env := r.envs[cat]; env.KeyFromSchemas {
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s: its schemas write their extension fields under %s, so it is judged for the %s platform; to pin that, set extensionKey: %s in catalog.yaml, or pass --extension-key %s", catalogName(cat), env.ExtKey, env.Platform.Name, env.ExtKey, env.ExtKey))
		}
	}
	var jobs []chartJob
	for _, cat := range cats {
		for _, ch := range cat.Charts {
			jobs = append(jobs, chartJob{len(jobs), ch, cat})
		}
	}
	r.res.Charts = len(jobs)
	if opt.KeepAnalyses {
		r.res.Analyses = make(map[*catalog.Chart]*analysis.Chart, len(jobs))
	}
	if err := r.lintCharts(jobs); err != nil {
		return nil, err
	}
	r.res.Findings = oncePerFile(r.res.Findings, opt.Overrides.Registry, r.envs)
	r.regionRules(cats)
	Sort(r.res.Findings)
	return r.res, nil
}

// catalogName names a catalog in a note: its catalog.yaml, else its
// directory.
func catalogName(cat *catalog.Catalog) string {
	if cat.Config != nil && cat.Config.File != "" {
		return cat.Config.File
	}
	return cat.Dir
}

// runner is one run of the rules over catalogs.
type runner struct {
	opt     Options
	rules   []*Rule
	rs      *runState
	envs    map[*catalog.Catalog]catalogEnv
	filters map[*catalog.Catalog]*filter
	// mu guards res, which the workers fill.
	mu  sync.Mutex
	res *Result
}

// chartJob is the i-th chart of a run.
type chartJob struct {
	i   int
	ch  *catalog.Chart
	cat *catalog.Catalog
}

// lintCharts runs the chart rules over every chart. Each worker reads,
// parses and checks whole charts with a schema compiler of its own.
func (r *runner) lintCharts(jobs []chartJob) error {
	errs := make([]error, len(jobs))
	queue := make(chan chartJob)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			comp := &schema.HelmCompiler{}
			for j := range queue {
				errs[j.i] = r.lintChart(j, len(jobs), comp)
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
			return err
		}
	}
	return nil
}

// lintChart runs the chart rules over one chart, in each region.
func (r *runner) lintChart(j chartJob, of int, comp *schema.HelmCompiler) error {
	begin := time.Now()
	passes, err := r.rs.chartPasses(j.ch, j.cat, r.opt, r.envs[j.cat])
	if err != nil {
		return err
	}
	if r.opt.KeepAnalyses && passes[0].Analysis != nil {
		r.mu.Lock()
		r.res.Analyses[j.ch] = passes[0].Analysis
		r.mu.Unlock()
	}
	// The chart's findings are gathered apart so that its
	// catalog's lint settings apply to them alone.
	perRegion := make([][]Finding, len(passes))
	for i, p := range passes {
		p.findings, p.mu, p.state.compiler = &perRegion[i], &r.mu, comp
		runChartRules(p, r.rules)
	}
	// The rules ran on this goroutine: what they rendered, if
	// anything, is there to read.
	if l := passes[0].launch; l != nil && l.out != nil && l.out.cancelled != nil {
		return l.out.cancelled
	}
	found := mergeRegions(perRegion, r.rs.regionNames())
	found = r.filters[j.cat].apply(found)
	r.mu.Lock()
	r.res.Findings = append(r.res.Findings, found...)
	r.mu.Unlock()
	if r.opt.Progress != nil {
		e, w := (&Result{Findings: found}).Count()
		r.opt.Progress(ChartDone{Chart: j.ch.Name, Of: of, Took: time.Since(begin), Errors: e, Warnings: w})
	}
	return nil
}

// regionRules runs the rules that concern a region file, once per region.
func (r *runner) regionRules(cats []*catalog.Catalog) {
	for _, reg := range r.opt.Regions {
		env := catalogEnv{Env: schema.Env{Platform: schema.Catalogist}, model: schema.Catalogist.Model()}
		if len(cats) > 0 {
			env = r.envs[cats[0]]
		}
		p := &Pass{Region: reg, Platform: env.Platform, Model: env.model, findings: &r.res.Findings, mu: &r.mu, run: r.rs}
		p.Context = schema.NewContext(nil, reg, nil, "")
		for _, rule := range r.rules {
			if rule.Scope == PerRegion {
				q := *p
				q.rule = rule
				rule.Run(&q)
			}
		}
	}
}

// runChartRules runs the rules that concern one chart's pass.
func runChartRules(p *Pass, rules []*Rule) {
	for _, r := range rules {
		if r.Scope == PerRegion || (r.Scope == PerSchema && p.Schema() == nil) {
			continue
		}
		if r.Scope == PerChart && p.Chart.OnlySchema && r.Name != RuleJSON.Name {
			continue
		}
		if len(p.escapes) > 0 && r != RuleSymlinkOutside {
			continue
		}
		if r.Launchable && p.library() {
			continue
		}
		q := *p
		q.rule = r
		r.Run(&q)
	}
}

// mergeRegions merges the findings of a chart's passes, one per region: a
// finding of every region is reported once, one of some regions only once
// with their names.
func mergeRegions(per [][]Finding, names []string) []Finding {
	if len(per) == 1 {
		return per[0]
	}
	type key struct {
		rule, file, pointer, msg, option string
		line, col                        int
	}
	keyOf := func(f Finding) key {
		return key{f.Rule, f.File, f.Pointer, f.Message, f.Option, f.Line, f.Column}
	}
	in := map[key][]string{}
	for i, fs := range per {
		for _, f := range fs {
			k := keyOf(f)
			if r := in[k]; len(r) == 0 || r[len(r)-1] != names[i] {
				in[k] = append(in[k], names[i])
			}
		}
	}
	var out []Finding
	done := map[key]bool{}
	for _, fs := range per {
		for _, f := range fs {
			k := keyOf(f)
			if done[k] {
				continue
			}
			done[k] = true
			if r := in[k]; len(r) < len(per) {
				f.Message += fmt.Sprintf(" (in region %s)", strings.Join(r, ", "))
			}
			out = append(out, f)
		}
	}
	return out
}

// Dedupe sorts findings and drops repeats of one finding (same rule, place
// and message), such as a registry file's finding recorded under different
// charts by successive incremental builds. A chart's own files are its
// alone, so the place tells the chart except in shared files.
func Dedupe(fs []Finding) []Finding {
	Sort(fs)
	return slices.CompactFunc(fs, func(a, b Finding) bool {
		return a.Rule == b.Rule && a.File == b.File && a.Line == b.Line && a.Column == b.Column && a.Message == b.Message
	})
}

// Sort orders findings by file, line, column, then rule.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
	})
}

// newPass reads a chart's files, for checks in a region (nil for none).
// Only I/O failures are errors; content problems are left for the rules.
func newPass(ch *catalog.Chart, cat *catalog.Catalog, opt Options, env catalogEnv, rs *runState, reg *region.Region) (*Pass, error) {
	p := &Pass{Chart: ch, Catalog: cat, Region: reg, Model: env.model, state: &passState{}, run: rs, sources: rs.sources}
	p.published = opt.Published[ch]
	p.ExtKey, p.Platform = env.ExtKey, env.Platform
	// Forms are computed for a typical user: with what every deployment's
	// context holds, and nothing a deployment may leave out.
	p.Context = schema.CatalogContext(rs.contextData, reg, cat)
	if !ch.OnlySchema {
		_, escapes, err := cat.ChartFiles(ch.Dir)
		if err != nil {
			return nil, err
		}
		if p.escapes = escapes; len(escapes) > 0 {
			return p, nil
		}
	}
	if ch.ChartFile != "" {
		// A Chart.yaml that cannot be read, or only beyond the limits (an
		// alias bomb), is refused outright as the other files are.
		p.state.chartOnce.Do(func() { p.state.chartDoc, p.state.chartErr = readChartDoc(ch.ChartFile) })
		var de *srcpos.Error
		if err := p.state.chartErr; err != nil && !errors.As(err, &de) {
			return nil, err
		} else if de != nil && de.Limit {
			return nil, fmt.Errorf("%s:%d:%d: %s", ch.ChartFile, de.Pos.Line, de.Pos.Col, de.Msg)
		}
	}
	// The chart's paths were checked above: the analysis reads them as
	// they are. Helm's loader reads the chart once, for the analysis (its
	// reading of values.yaml) and for the rendering.
	var helmValues map[string]any
	if ch.ChartFile != "" {
		p.loaded, p.loadErr = chartload.LoadChart(ch.Dir)
		if p.loadErr == nil && ch.ValuesFile != "" {
			helmValues = schema.HelmValues(p.loaded.Values)
		}
	}
	a, err := analysis.Load(nil, ch, env.Env, p.Context, helmValues)
	if err != nil {
		return nil, err
	}
	p.Analysis, p.Form = a, a.Form
	return p, nil
}

// inRegion is the pass of the same chart in another region: the same files,
// the form computed in that region's context.
func (p *Pass) inRegion(reg *region.Region) *Pass {
	q := *p
	q.state = &passState{}
	q.Region = reg
	q.Context = schema.CatalogContext(p.run.contextData, reg, p.Catalog)
	if p.Analysis != nil {
		q.Form = p.Analysis.FormIn(q.Context)
	}
	return &q
}

// catalogEnv is how a catalog's charts are read and judged.
type catalogEnv struct {
	schema.Env
	model *launchcontext.Model
}

// envs works out each catalog's environment once: its extension key,
// platform and registry, and the platform's launch context.
func envs(cats []*catalog.Catalog, opt Options) (map[*catalog.Catalog]catalogEnv, error) {
	out := map[*catalog.Catalog]catalogEnv{}
	regs := &schema.Registries{}
	models := map[*schema.Platform]*launchcontext.Model{}
	for _, cat := range cats {
		env, err := schema.EnvFor(opt.Overrides, cat, nil, regs)
		if err != nil {
			where := cat.Dir
			if cat.Config != nil {
				where = cat.Config.File
			}
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		m := models[env.Platform]
		if m == nil {
			m = env.Platform.Model()
			for _, d := range opt.ExtraPaths {
				m.AddDocument(d)
			}
			models[env.Platform] = m
		}
		out[cat] = catalogEnv{Env: env, model: m}
	}
	return out, nil
}

// oncePerFile keeps one of the findings several charts report at the same
// place of a shared registry file: a defect of a registry schema is
// reported once, against the registry file, not once per chart using it.
func oncePerFile(fs []Finding, override *schema.Registry, envs map[*catalog.Catalog]catalogEnv) []Finding {
	registryFile := func(f string) bool {
		if override.IsFile(f) {
			return true
		}
		for _, e := range envs {
			if e.Registry.IsFile(f) {
				return true
			}
		}
		return false
	}
	type key struct {
		rule, file, msg string
		line, col       int
	}
	// The finding is kept under the first chart by name, so that reruns
	// attribute it alike.
	first := map[key]int{}
	out := fs[:0]
	for _, f := range fs {
		if registryFile(f.File) {
			k := key{f.Rule, f.File, f.Message, f.Line, f.Column}
			if i, ok := first[k]; ok {
				if f.Chart < out[i].Chart {
					out[i].Chart = f.Chart
				}
				continue
			}
			first[k] = len(out)
		}
		out = append(out, f)
	}
	return out
}
