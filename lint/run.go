package lint

import (
	"context"
	"strings"
	"sync"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/manifest"
)

// runState is what one run's charts share: the regions, the context the
// forms are computed in, and how charts are loaded to be rendered.
type runState struct {
	ctx     context.Context
	opt     Options
	regions []*region.Region
	kube    manifest.Version
	// contextData is the launch context every deployment provides, with
	// the --context documents' values over it.
	contextData map[string]any
	sources     *srcLines

	mu      sync.Mutex
	loaders map[*catalog.Catalog]*chartload.Loader
	// names are each catalog's charts by the name their Chart.yaml gives.
	names map[*catalog.Catalog]map[string]*catalogChart
}

// catalogChart is a chart of a catalog as dependencies name it.
type catalogChart struct {
	ch      *catalog.Chart
	version string
}

func newRunState(ctx context.Context, opt Options) *runState {
	rs := &runState{ctx: ctx, opt: opt, regions: opt.Regions, kube: opt.KubeVersion, sources: &srcLines{}}
	if rs.kube == (manifest.Version{}) {
		rs.kube = manifest.Default
	}
	rs.contextData = launchcontext.Sample()
	for _, d := range opt.ExtraPaths {
		if v, ok := contextValues(d).(map[string]any); ok {
			rs.contextData = launchcontext.Merge(rs.contextData, v)
		}
	}
	rs.loaders = map[*catalog.Catalog]*chartload.Loader{}
	rs.names = map[*catalog.Catalog]map[string]*catalogChart{}
	return rs
}

// contextValues are a --context document's values as the context holds
// them: a dotted key is a path of nested keys.
func contextValues(n *srcpos.Node) any {
	if n == nil {
		return nil
	}
	if n.Kind != srcpos.Object {
		return n.Value()
	}
	out := map[string]any{}
	for _, m := range n.Members {
		v := contextValues(m)
		segs := strings.Split(m.Key, ".")
		cur := out
		for _, s := range segs[:len(segs)-1] {
			next, ok := cur[s].(map[string]any)
			if !ok {
				next = map[string]any{}
				cur[s] = next
			}
			cur = next
		}
		cur[segs[len(segs)-1]] = v
	}
	return out
}

// regionNames name the regions in findings.
func (rs *runState) regionNames() []string {
	if len(rs.regions) == 0 {
		return []string{""}
	}
	out := make([]string, len(rs.regions))
	for i, r := range rs.regions {
		out[i] = RegionName(r, len(rs.regions))
	}
	return out
}

// chartPasses reads a chart once and returns its pass in each region (one
// pass without regions), sharing one rendering.
func (rs *runState) chartPasses(ch *catalog.Chart, cat *catalog.Catalog, opt Options, env catalogEnv) ([]*Pass, error) {
	var first *region.Region
	if len(rs.regions) > 0 {
		first = rs.regions[0]
	}
	p, err := newPass(ch, cat, opt, env, rs, first)
	if err != nil {
		return nil, err
	}
	if !ch.OnlySchema && ch.ChartFile != "" && len(p.escapes) == 0 {
		in := rs.launchInputsFor(ch, cat, p.Analysis)
		in.loaded, in.loadErr = p.loaded, p.loadErr
		p.launch = &launchShared{in: in}
	}
	passes := []*Pass{p}
	for _, r := range rs.regions[min(1, len(rs.regions)):] {
		passes = append(passes, p.inRegion(r))
	}
	return passes, nil
}

// loader loads a catalog's charts with their dependencies: the run's
// loader when one is given, else the catalog's charts from their sources
// and the others from the cache, offline.
func (rs *runState) loader(cat *catalog.Catalog) *chartload.Loader {
	if rs.opt.Dependencies != nil {
		return rs.opt.Dependencies
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if l := rs.loaders[cat]; l != nil {
		return l
	}
	byDir := map[string]*catalog.Chart{}
	for _, ch := range cat.Charts {
		byDir[ch.Dir] = ch
	}
	cache := chartload.Cache{Dir: rs.opt.CacheDir}
	l := &chartload.Loader{
		Local: func(from, name, repository string) (string, bool) {
			fromCh, dep := byDir[from], rs.catalogChart(cat, name)
			if fromCh == nil || dep == nil {
				return "", false
			}
			return dep.ch.Dir, catalog.LocalDependency(fromCh, dep.ch, repository, rs.baseURL(cat))
		},
		Remote: cache.Load,
	}
	rs.loaders[cat] = l
	return l
}

// baseURL is where a catalog is published, when known.
func (rs *runState) baseURL(cat *catalog.Catalog) string {
	if rs.opt.BaseURL != "" {
		return rs.opt.BaseURL
	}
	if cat.Config != nil {
		return cat.Config.BaseURL
	}
	return ""
}

// catalogChart returns the catalog's chart whose Chart.yaml has a name.
func (rs *runState) catalogChart(cat *catalog.Catalog, name string) *catalogChart {
	rs.mu.Lock()
	names := rs.names[cat]
	rs.mu.Unlock()
	if names == nil {
		names = map[string]*catalogChart{}
		for _, ch := range cat.Charts {
			if ch.ChartFile == "" {
				continue
			}
			root, err := readChartDoc(ch.ChartFile)
			if err != nil {
				continue
			}
			n, v := root.Get("name"), root.Get("version")
			if n == nil || n.Kind != srcpos.String {
				continue
			}
			cc := &catalogChart{ch: ch}
			if v != nil {
				cc.version = v.Text
			}
			if names[n.Text] == nil {
				names[n.Text] = cc
			}
		}
		rs.mu.Lock()
		rs.names[cat] = names
		rs.mu.Unlock()
	}
	return names[name]
}

// catalogVersion is the version of the catalog's chart of that name, ""
// when the catalog has none.
func (p *Pass) catalogVersion(name string) string {
	if p.run == nil {
		return ""
	}
	if c := p.run.catalogChart(p.Catalog, name); c != nil {
		return c.version
	}
	return ""
}

// ownAddress reports whether a repository is where the catalog is
// published.
func (p *Pass) ownAddress(repository string) bool {
	if p.run == nil {
		return false
	}
	own := strings.TrimRight(p.run.baseURL(p.Catalog), "/")
	return own != "" && strings.TrimRight(repository, "/") == own
}
