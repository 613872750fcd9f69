package lint

import (
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// regionRules check the region file and what it injects.
var regionRules = []*Rule{RuleRegionDefault, RuleRegionFallback, RuleRegionFile}

// RuleRegionDefault reports defaults a region's or catalog's bounds make
// unusable.
var RuleRegionDefault = &Rule{
	Name: "region-default", Severity: Warning, Launchable: true,
	Doc: "with region or catalog sliders, each useRegionSliderConfig option's default is valid under the bounds that replace the chart's, or the form silently uses the next source",
	Run: func(p *Pass) {
		for _, fd := range sliderFields(p, false) {
			unusedDefault(p, fd, " under "+describeBounds(fd))
		}
	},
}

// RuleRegionFallback reports region values the platform silently drops.
var RuleRegionFallback = &Rule{
	Name: "region-fallback", Severity: Warning, Launchable: true,
	Doc: "a value the region injects through overwriteDefaultWith is valid for the option (else the form silently falls back to the chart default)",
	Run: func(p *Pass) {
		if p.Region == nil {
			return
		}
		for _, fd := range p.Form.Fields {
			if !fd.ContextResolved || fd.ContextRejected == "" || fd.Option.InItems {
				continue
			}
			o := fd.Option
			fallback := "nothing"
			if fd.Defined {
				fallback = show(fd.Value)
			}
			p.At(o.Ext.OverwriteDefaultWith, "the region injects %s into %q but the platform rejects it (%s) and silently uses %s instead", show(fd.ContextValue), o.Path, fd.ContextRejected, fallback)
		}
	},
}

// RuleRegionFile reports region files whose defaults contradict their bounds.
var RuleRegionFile = &Rule{
	Name: "region-file", Severity: Warning, Scope: PerRegion,
	Doc: "the region's resources lie within its own slider configurations, carry their units, and requests do not exceed limits",
	Run: func(p *Pass) {
		r := p.Region
		if !p.Platform.RegionBoundsInContext {
			if n := regionBoundsNode(r); n != nil {
				p.Reportf(r.File, n.Pos, n.Pointer(), "the %s platform's regions have no resources or slider configurations, so these are not used (its API refuses to start with a region that sets services.defaultConfiguration); for region-bounded sliders, use --platform %s", p.Platform.Name, schema.Catalogist.Name)
			}
			return
		}
		names := make([]string, 0, len(r.Resources))
		for n := range r.Resources {
			names = append(names, n)
		}
		sort.Strings(names)
		known := make([]string, 0, len(region.ResourceSlider))
		for k := range region.ResourceSlider {
			known = append(known, k)
		}
		sort.Strings(known)
		at := func(n *srcpos.Node, format string, args ...any) {
			p.Reportf(r.File, n.Pos, n.Pointer(), format, args...)
		}
		for _, name := range names {
			res := r.Resources[name]
			sname, ok := region.ResourceSlider[name]
			if !ok {
				hint := ""
				if s := suggest.Closest(name, known); s != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", s)
				}
				at(res.Node, "unknown resource %q: no chart can reference region.resources.%s%s", name, name, hint)
				continue
			}
			s := r.Sliders[sname]
			if s == nil {
				continue
			}
			x, err := slider.Parse(res.Value, s.Unit)
			if err != nil {
				hint := ""
				if v, cerr := slider.Convert(res.Value, s.Unit); cerr == nil && s.Unit != "" && s.Contains(v) && s.OnGrid(v) {
					hint = fmt.Sprintf("; write %q", s.Format(v))
				}
				at(res.Node, "%s %q is not written in the unit %q of the %s slider: the platform ignores it and every chart falls back to its own default%s", name, res.Value, s.Unit, sname, hint)
				continue
			}
			switch {
			case !s.Contains(x):
				at(res.Node, "%s %s is outside the region's own %s slider, %s to %s: the platform rejects it and every chart falls back to its own default", name, res.Value, sname, s.Format(s.Min), s.Format(s.Max))
			case !s.OnGrid(x):
				at(res.Node, "%s %s is between two steps of the region's %s slider (step %s from %s); the slider cannot show it", name, res.Value, sname, slider.Num(s.Step), s.Format(s.Min))
			}
		}
		for _, pair := range [][2]string{{"cpuRequest", "cpuLimit"}, {"memoryRequest", "memoryLimit"}} {
			req, lim := r.Resources[pair[0]], r.Resources[pair[1]]
			if req == nil || lim == nil {
				continue
			}
			rq, err1 := resource.ParseQuantity(req.Value)
			lq, err2 := resource.ParseQuantity(lim.Value)
			if err1 == nil && err2 == nil && rq.Cmp(lq) > 0 {
				at(req.Node, "%s %s is above %s %s: a request above its limit is refused by Kubernetes", pair[0], req.Value, pair[1], lim.Value)
			}
		}
	},
}

// regionBoundsNode returns the node of a region's resources or sliders,
// the first written, or nil.
func regionBoundsNode(r *region.Region) *srcpos.Node {
	var first *srcpos.Node
	consider := func(n *srcpos.Node) {
		if n != nil && n.Parent != nil && (first == nil || n.Parent.Pos.Line < first.Pos.Line) {
			first = n.Parent
		}
	}
	for _, x := range r.Resources {
		consider(x.Node)
	}
	for _, x := range r.Sliders {
		consider(x.Node)
	}
	return first
}
