package lint

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// A derived result is what several rules need to know of one chart, worked
// out once per chart, on first use, and read by each of them, as go/analysis
// passes read the results of the analyzers they require (a go/analysis Fact
// is another thing: it crosses packages). A derived result sorts the cases
// it finds into verdicts, and each verdict is reported by one rule alone: a
// rule reads the cases of its own verdict, so no rule leaves a case to
// another by convention. Computing one reports nothing.
type derived[T any] struct {
	compute func(*Pass) T
}

func newDerived[T any](compute func(*Pass) T) *derived[T] {
	return &derived[T]{compute: compute}
}

// of returns the derived result for the pass's chart.
func (f *derived[T]) of(p *Pass) T {
	if p.state == nil {
		// The region file's pass has no chart to keep derived results of.
		return f.compute(p)
	}
	return p.state.derived.get(f, func() any { return f.compute(p) }).(T)
}

// derivedCache holds the derived results of one chart, shared by the copies
// of its pass that each rule receives.
type derivedCache struct {
	mu sync.Mutex
	m  map[any]*derivedEntry
}

type derivedEntry struct {
	once sync.Once
	v    any
}

// get returns the derived result under key, computing it the first time.
// The lock is not held while computing, so that one may read another.
func (c *derivedCache) get(key any, compute func() any) any {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[any]*derivedEntry{}
	}
	e := c.m[key]
	if e == nil {
		e = &derivedEntry{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v = compute() })
	return e.v
}

// hiddenVerdict is what becomes of a hidden condition, and so which rule
// reports it.
type hiddenVerdict int

const (
	// hiddenCanHold: the condition may hold; nothing to report.
	hiddenCanHold hiddenVerdict = iota
	// hiddenNoTarget: its path names no option (hidden-path).
	hiddenNoTarget
	// hiddenWrongType: its value is of another JSON type than the option
	// it looks at (hidden-value).
	hiddenWrongType
	// hiddenNever: the option it looks at never holds its value
	// (hidden-never).
	hiddenNever
)

// hiddenCondition is a {path, value} condition the form reads.
type hiddenCondition struct {
	// option is the option the condition hides, target the option it
	// looks at (nil for hiddenNoTarget).
	option, target *schema.Option
	verdict        hiddenVerdict
	// why says, for hiddenNever, why the target never holds the value.
	why string
}

// hiddenConditions are the chart's hidden conditions the form can read
// (schema-shape reports the others), each with its target and verdict.
var hiddenConditions = newDerived(func(p *Pass) []hiddenCondition {
	var out []hiddenCondition
	for _, o := range p.Schema().Options {
		h := o.Hidden
		if h == nil || h.Always || h.Node.Kind != srcpos.Object || h.PathNode == nil || h.PathNode.Kind != srcpos.String || h.Value == nil {
			continue
		}
		// The path is split on slashes as the platform splits it, an
		// array's items standing for any of its elements.
		c := hiddenCondition{option: o, target: p.Schema().Resolve(h.Target(o)), verdict: hiddenCanHold}
		if c.target == nil {
			c.verdict = hiddenNoTarget
		} else if want, ok := kindFor(c.target.Type); ok && h.Value.Kind != want {
			c.verdict = hiddenWrongType
		} else if c.why = p.Form.CannotHold(c.target, h.Value.Value()); c.why != "" {
			c.verdict = hiddenNever
		}
		out = append(out, c)
	}
	return out
})

// kindFor is the JSON kind values of an option type have.
func kindFor(t string) (srcpos.Kind, bool) {
	switch t {
	case "string":
		return srcpos.String, true
	case "boolean":
		return srcpos.Bool, true
	case "number", "integer":
		return srcpos.Number, true
	case "object":
		return srcpos.Object, true
	case "array":
		return srcpos.Array, true
	}
	return 0, false
}

// refVerdict is what becomes of a context path an option names, and so
// which rule reports it.
type refVerdict int

const (
	// refFound: the context provides the path; nothing to report.
	refFound refVerdict = iota
	// refBare: a bare word meant as a literal, which the platform looks
	// up as a path all the same (bare-literal).
	refBare
	// refMissing: the context has no such path (context-path).
	refMissing
)

// contextRef is one context path named by an option's overwriteDefaultWith
// or overwriteListEnumWith.
type contextRef struct {
	option *schema.Option
	// expr is the overwriteDefaultWith or overwriteListEnumWith node, at
	// the node within it that writes the path.
	expr, at *srcpos.Node
	ref      launchcontext.Ref
	verdict  refVerdict
	// why says, for refMissing, why the path names nothing.
	why string
}

// contextRefs are the context paths the chart's options name, each with its
// verdict.
var contextRefs = newDerived(func(p *Pass) []contextRef {
	var out []contextRef
	for _, o := range p.Schema().Options {
		elem, mapped := p.mappedElement(o)
		for _, n := range references(o) {
			for _, r := range launchcontext.Refs(n.Value()) {
				at, _ := n.Lookup(r.Where)
				c := contextRef{option: o, expr: n, at: at, ref: r, verdict: refFound}
				switch {
				case mapped:
					// Inside items mapped from a context list, a
					// reference reads the element's fields first, so a
					// bare word there may name one of them.
					if c.why = elem.check(r, p.Model); c.why != "" {
						c.verdict = refMissing
					}
				case isBareWord(r, p.Model):
					c.verdict = refBare
				default:
					if ok, why := p.Model.Check(r.Segs); !ok {
						c.verdict, c.why = refMissing, why+p.regionHint(r)
					}
				}
				out = append(out, c)
			}
		}
	}
	return out
})

// references returns the expressions of an option that name context paths.
func references(o *schema.Option) []*srcpos.Node {
	if o.Ext == nil {
		return nil
	}
	var out []*srcpos.Node
	for _, n := range []*srcpos.Node{o.Ext.OverwriteDefaultWith, o.Ext.OverwriteListEnumWith} {
		if n != nil && (n.Kind == srcpos.String || n.Kind == srcpos.Array || n.Kind == srcpos.Object) {
			out = append(out, n)
		}
	}
	return out
}

// isBareWord reports whether a bare reference looks like a literal: a
// single word that is no top-level context key, or text with spaces.
func isBareWord(r launchcontext.Ref, m *launchcontext.Model) bool {
	if !r.Bare {
		return false
	}
	if strings.ContainsAny(r.Path, " \t") {
		return true
	}
	return len(r.Segs) == 1 && !m.IsRoot(r.Path)
}

// regionHint explains a reference to the seed's region bounds on a
// platform whose context has none.
func (p *Pass) regionHint(r launchcontext.Ref) string {
	if p.Platform.RegionBoundsInContext || len(r.Segs) < 2 || r.Segs[0] != "region" || (r.Segs[1] != "resources" && r.Segs[1] != "sliders") {
		return ""
	}
	return fmt.Sprintf("; region.resources.* and region.sliders.* exist only on a platform with region-bounded sliders (--platform %s)", schema.Catalogist.Name)
}

// element is what is known of the elements of a context list mapped onto
// an array's items.
type element struct {
	list  string
	keys  []string
	known bool
}

// mappedElement reports whether option o lies inside the items of an
// array whose overwriteDefaultWith may map a context list onto its items,
// and what is known of that list's elements.
func (p *Pass) mappedElement(o *schema.Option) (element, bool) {
	for a := o.Parent; a != nil; a = a.Parent {
		if a.Items == nil || !isUnder(o, a.Items) {
			continue
		}
		if a.Ext == nil || a.Ext.OverwriteDefaultWith == nil {
			return element{}, false
		}
		refs := launchcontext.Refs(a.Ext.OverwriteDefaultWith.Value())
		if len(refs) != 1 {
			return element{}, true
		}
		keys, known := p.Model.Element(refs[0].Segs)
		return element{list: refs[0].Path, keys: keys, known: known}, true
	}
	return element{}, false
}

func isUnder(o, anc *schema.Option) bool {
	for c := o; c != nil; c = c.Parent {
		if c == anc {
			return true
		}
	}
	return false
}

// check judges a reference inside mapped items: a field of the element,
// else a context path. Nothing is said when the element is unknown.
func (e element) check(r launchcontext.Ref, m *launchcontext.Model) string {
	if !e.known || len(r.Segs) == 0 || slices.Contains(e.keys, r.Segs[0]) {
		return ""
	}
	if ok, _ := m.Check(r.Segs); ok {
		return ""
	}
	why := fmt.Sprintf("it is neither a field of the elements of %q (%s) nor a path of the %s context", e.list, strings.Join(e.keys, ", "), m.Name)
	if s := suggest.Closest(r.Segs[0], e.keys); s != "" {
		why += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return why
}

// minVerdict is what the platform makes of an option with render slider
// but no sliderMin, and so which rule reports it.
type minVerdict int

const (
	// minSupplied: the region's or catalog's slider configuration supplies
	// the bounds; nothing to report.
	minSupplied minVerdict = iota
	// minRequired: the platform requires sliderMin with the other slider
	// fields (slider-fields).
	minRequired
	// minTextField: the platform shows a plain text field (slider-text).
	minTextField
)

// sliderNoMin is an option with render slider but no sliderMin.
type sliderNoMin struct {
	option  *schema.Option
	verdict minVerdict
}

// slidersWithoutMin are the chart's options with render slider but no
// sliderMin and no const, each with its verdict.
var slidersWithoutMin = newDerived(func(p *Pass) []sliderNoMin {
	var out []sliderNoMin
	for _, o := range p.Schema().Options {
		if !isSliderish(o) || o.HasSlider || o.Const != nil {
			continue
		}
		v := minTextField
		if p.Platform.StepAndUnitRequired {
			v = minRequired
			if configSupplied(p, o) {
				v = minSupplied
			}
		}
		out = append(out, sliderNoMin{option: o, verdict: v})
	}
	return out
})

// configSupplied reports whether the region's or the catalog's slider
// configuration supplies all of a slider's bounds, step and unit.
func configSupplied(p *Pass, o *schema.Option) bool {
	name := o.SliderConfigName()
	return name != "" && p.Context.Sliders[name] != nil
}
