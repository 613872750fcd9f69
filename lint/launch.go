package lint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/internal/model/render"
	cschema "github.com/catalogist/catalogist/internal/model/schema"
)

// A chart launches when Helm renders its templates with the values it is
// sent and the API server accepts every document. Lint renders each
// launchable chart once per distinct set of values (values.yaml alone,
// each ci/*-values.yaml, the values the platform sends in each region) and
// judges the documents offline; the rules of rules_launch.go each report
// one verdict of it. Every region's pass of a chart shares one rendering.

// valueSet is one set of values a chart is rendered with.
type valueSet struct {
	// label names it in messages: "values.yaml alone",
	// "ci/gpu-values.yaml", "the values the platform sends in region eu".
	label string
	// vals are given over values.yaml, as -f or the platform gives them.
	vals map[string]any
}

// launchInputs are what a chart is rendered from.
type launchInputs struct {
	ctx      context.Context
	loader   *chartload.Loader
	kube     manifest.Version
	ch       *catalog.Chart
	analysis *analysis.Chart
	// loaded is the chart as Helm's loader read it, or loadErr.
	loaded  *chart.Chart
	loadErr error
	// contexts are the contexts the platform's values are computed in,
	// one per region (one, with no region, without regions), and their
	// region names ("" for none).
	contexts []*cschema.Context
	regions  []string
}

// launchShared is a chart's rendering, computed once for all its passes.
type launchShared struct {
	once sync.Once
	in   launchInputs
	out  *launched
}

func (s *launchShared) get() *launched {
	s.once.Do(func() { s.out = launch(s.in) })
	return s.out
}

// launched is what rendering a chart found.
type launched struct {
	// missing is a dependency neither the catalog nor the cache holds,
	// depErr one that cannot be loaded otherwise: the chart was not
	// rendered.
	missing *chartload.MissingError
	depErr  error
	// loadErr is why Helm cannot load the chart, when chart-metadata
	// does not say it.
	loadErr error
	// cancelled is the load's error when the run's context ended.
	cancelled error
	origin    *chartload.Origin
	failures  []setFailure
	problems  []docProblem
	// custom are the kinds no document was decoded for, by kind, with
	// the first template producing one.
	custom map[schema.GroupKind]customKind
	// labels is the number of value sets the chart was rendered with.
	labels int
}

// setFailure is a render failure and the value sets it occurs with.
type setFailure struct {
	f    *render.Failure
	sets []string
}

// docProblem is a document's problem and the value sets it occurs with.
type docProblem struct {
	template string
	obj      manifest.Object
	p        manifest.Problem
	sets     []string
}

type customKind struct {
	template string
	obj      manifest.Object
	msg      string
}

// launch renders a chart with each value set and judges the documents.
func launch(in launchInputs) *launched {
	out := &launched{custom: map[schema.GroupKind]customKind{}}
	hc, origin, err := in.loaded, (*chartload.Origin)(nil), in.loadErr
	if err == nil {
		hc, origin, err = in.loader.Complete(in.ctx, in.ch.Dir, hc)
	}
	if err != nil && in.ctx.Err() != nil {
		// The run was cancelled while a dependency was fetched: that is
		// the run's error, not the chart's.
		out.cancelled = fmt.Errorf("%s: %w", in.ch.Dir, err)
		return out
	}
	if err != nil {
		var de *chartload.DependencyError
		if me, ok := chartload.IsMissing(err); ok {
			out.missing = me
		} else if errors.As(err, &de) {
			out.depErr = err
		} else if !isValidation(err) {
			out.loadErr = err
		}
		return out
	}
	if hc.Metadata.Type == "library" {
		return out
	}
	out.origin = origin
	out.judge(in, hc)
	return out
}

// judge renders the chart with each distinct set of values and judges its
// documents, gathering each failure and problem once with the sets it
// occurs with.
func (out *launched) judge(in launchInputs, hc *chart.Chart) {
	sets := valueSets(in)
	out.labels = len(sets)
	checker := &manifest.Checker{Version: in.kube, CRDs: crdKinds(hc)}
	opt := render.Options{ReleaseName: releaseName(hc.Name(), in.contexts[0]), Namespace: namespace(in.contexts[0]), KubeVersion: in.kube.String()}
	failures := map[string]int{}
	problems := map[string]int{}
	// Most documents render alike with every set of values: each text is
	// judged once.
	type verdict struct {
		obj manifest.Object
		ps  []manifest.Problem
	}
	judged := map[string]verdict{}
	for _, g := range groupSets(sets) {
		res, err := render.Render(in.ctx, hc, g.vals, opt)
		if err != nil {
			f := render.ParseFailure(err)
			k := fmt.Sprintf("%d\x00%v\x00%s", f.Kind, f.At(), f.Msg)
			if _, ok := failures[k]; !ok {
				failures[k] = len(out.failures)
				out.failures = append(out.failures, setFailure{f: f})
			}
			out.failures[failures[k]].sets = append(out.failures[failures[k]].sets, g.labels...)
			continue
		}
		for _, d := range res.Docs {
			if d.Test {
				// Only `helm test` creates test hooks.
				continue
			}
			v, ok := judged[d.Data]
			if !ok {
				v.obj, v.ps = checker.Check([]byte(d.Data))
				judged[d.Data] = v
			}
			obj, ps := v.obj, v.ps
			for _, pr := range ps {
				if pr.Check == manifest.CheckCustom {
					gk := schema.FromAPIVersionAndKind(obj.APIVersion, obj.Kind).GroupKind()
					if _, ok := out.custom[gk]; !ok {
						out.custom[gk] = customKind{template: d.Template, obj: obj, msg: pr.Msg}
					}
					continue
				}
				k := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%s\x00%s", d.Template, obj.Kind, obj.Name, pr.Check, pr.Path, pr.Msg)
				if _, ok := problems[k]; !ok {
					problems[k] = len(out.problems)
					out.problems = append(out.problems, docProblem{template: d.Template, obj: obj, p: pr})
				}
				out.problems[problems[k]].sets = append(out.problems[problems[k]].sets, g.labels...)
			}
		}
	}
}

// isValidation reports a chart Helm refuses to load for its Chart.yaml,
// which chart-metadata reports at the line.
func isValidation(err error) bool {
	var ve chart.ValidationError
	return errors.As(err, &ve)
}

// valueSets are the sets a chart is rendered with: values.yaml alone (what
// `helm install` without values and the site's install snippet do), each
// ci/*-values.yaml (as chart-testing installs them), and the values the
// platform's form sends in each region, when the form opens.
func valueSets(in launchInputs) []valueSet {
	sets := []valueSet{{label: "values.yaml alone"}}
	for _, ci := range in.ch.CIValues {
		v, err := common.ReadValuesFile(ci)
		if err != nil {
			// values-valid reports a ci file that does not parse.
			continue
		}
		rel, _ := filepath.Rel(in.ch.Dir, ci)
		sets = append(sets, valueSet{label: filepath.ToSlash(rel), vals: v.AsMap()})
	}
	a := in.analysis
	if a == nil || a.Schema == nil || len(a.Schema.ResolveErrors) > 0 {
		// Without a schema the platform sends values.yaml itself; with
		// one that it cannot serve, no user launches the chart
		// (form-opens says why).
		return sets
	}
	for i, ctx := range in.contexts {
		form := a.Form
		if i > 0 || form == nil {
			form = a.FormIn(ctx)
		}
		if form == nil || !form.Opens() {
			continue
		}
		label := "the values the platform sends"
		if in.regions[i] != "" {
			label += " in region " + in.regions[i]
		}
		sets = append(sets, valueSet{label: label, vals: cschema.HelmValues(form.Values)})
	}
	return sets
}

// setGroup is value sets that give Helm the same values, rendered once.
type setGroup struct {
	labels []string
	vals   map[string]any
}

func groupSets(sets []valueSet) []setGroup {
	var out []setGroup
	byKey := map[string]int{}
	for _, s := range sets {
		data, err := json.Marshal(s.vals)
		k := string(data)
		if err != nil {
			k = s.label
		}
		if i, ok := byKey[k]; ok {
			out[i].labels = append(out[i].labels, s.label)
			continue
		}
		byKey[k] = len(out)
		out = append(out, setGroup{labels: []string{s.label}, vals: s.vals})
	}
	return out
}

// releaseName is the release the platform makes of a chart: its name and
// the context's random subdomain, as the reference's launcher names it.
func releaseName(chartName string, ctx *cschema.Context) string {
	sub := "281390"
	if k, ok := ctx.Data["k8s"].(map[string]any); ok {
		if s, ok := k["randomSubdomain"].(string); ok && s != "" {
			sub = s
		}
	}
	return chartName + "-" + sub
}

// namespace is the namespace of the context's project.
func namespace(ctx *cschema.Context) string {
	if p, ok := ctx.Data["project"].(map[string]any); ok {
		if id, ok := p["id"].(string); ok && id != "" {
			return id
		}
	}
	return "default"
}

// crdKinds are the kinds the chart's crds/ directories define.
func crdKinds(hc *chart.Chart) map[schema.GroupKind]bool {
	out := map[schema.GroupKind]bool{}
	for _, f := range hc.CRDObjects() {
		for _, gk := range definedKinds(f.File.Data) {
			out[gk] = true
		}
	}
	return out
}

// joinSets names value sets in a sentence.
func joinSets(sets []string) string {
	sets = slices.Compact(slices.Clone(sets))
	switch len(sets) {
	case 0:
		return ""
	case 1:
		return sets[0]
	}
	return strings.Join(sets[:len(sets)-1], ", ") + " and " + sets[len(sets)-1]
}

// launchInputsFor are the inputs of a chart's rendering in a run.
func (r *runState) launchInputsFor(ch *catalog.Chart, cat *catalog.Catalog, a *analysis.Chart) launchInputs {
	in := launchInputs{ctx: r.ctx, loader: r.loader(cat), kube: r.kube, ch: ch, analysis: a}
	regions := r.regions
	if len(regions) == 0 {
		regions = []*region.Region{nil}
	}
	for _, reg := range regions {
		in.contexts = append(in.contexts, cschema.CatalogContext(r.contextData, reg, cat))
		in.regions = append(in.regions, RegionName(reg, len(r.regions)))
	}
	return in
}

// RegionName names a region in messages: its id in a regions.json, else its
// file; "" when it is the only region or none.
func RegionName(r *region.Region, of int) string {
	if r == nil || of < 2 {
		return ""
	}
	if r.ID != "" {
		return r.ID
	}
	return filepath.Base(r.File)
}

// srcLines caches the lines of template sources.
type srcLines struct {
	mu    sync.Mutex
	files map[string][]string
}

func (s *srcLines) get(file string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.files[file]; ok {
		return l
	}
	data, err := srcpos.ReadFile(file)
	var lines []string
	if err == nil {
		lines = strings.Split(string(data), "\n")
	}
	if s.files == nil {
		s.files = map[string][]string{}
	}
	s.files[file] = lines
	return lines
}

// definedKinds are the kinds the CustomResourceDefinitions of a file
// define.
func definedKinds(data []byte) []schema.GroupKind {
	var out []schema.GroupKind
	dec := k8syaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var crd struct {
			Kind string `json:"kind"`
			Spec struct {
				Group string `json:"group"`
				Names struct {
					Kind string `json:"kind"`
				} `json:"names"`
			} `json:"spec"`
		}
		if err := dec.Decode(&crd); err != nil {
			return out
		}
		if crd.Kind == "CustomResourceDefinition" && crd.Spec.Names.Kind != "" {
			out = append(out, schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind})
		}
	}
}
