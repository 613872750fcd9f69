package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// Problem is one value the platform refuses to launch with.
type Problem struct {
	// Key is the value's key segments, an item's index among them; Path
	// writes them as --set does, dots between segments and a dot inside
	// one escaped (an index as a segment, as Helm's own refusals name it).
	Key    []string
	Path   string
	Value  any
	Reason string
	// Allowed says what would be accepted, when that is known.
	Allowed string
}

func (p Problem) String() string {
	s := fmt.Sprintf("%s: %s: %s", p.Path, show(p.Value), p.Reason)
	if p.Path == rootPath {
		s = fmt.Sprintf("%s: %s", p.Path, p.Reason)
	}
	if p.Allowed != "" {
		s += " (" + p.Allowed + ")"
	}
	return s
}

// Check checks the values a launch would send, the way the platform checks
// a form: each option's value against its type, pattern, options and
// effective slider bounds (region, then catalog, then chart, on a platform
// with region-bounded sliders), and each range slider's down end against
// the up end it pairs with. Hidden options are checked too: they are sent.
// Options are found by their key segments, so a key holding a slash
// (nvidia.com/gpu) is checked like any other. A list is judged whole, as
// the platform judges it, and a refused item is reported at the path of
// what in it is refused (volumes.1.name), with the reason of the option
// that refuses it. Values are plain YAML or JSON values.
func Check(s *Schema, ctx *Context, values map[string]any) []Problem {
	if ctx == nil {
		ctx = NewContext(nil, nil, nil, "")
	}
	vals := jsValue(values)
	c := &computer{s: s, ctx: ctx, root: &scope{ctx.dataFor(s.Platform)}, form: &Form{byKey: map[string]*Field{}}, enums: map[*Option][]any{}}
	var out []Problem
	var downs, ups []*Option
	for _, o := range s.Options {
		if o.InItems || o.Group() {
			continue
		}
		v, ok := ValueAt(vals, o.Key)
		if !ok {
			continue
		}
		var r verdict
		if !c.try(func() { r = c.validate(o, c.root, v) }) {
			continue
		}
		if !r.valid && !r.hasApprox {
			// A refused item or property is reported where it is, by
			// the option that judges it, as a page shows it beside
			// that field.
			key, why, by := o.Key, r.why, o
			if len(r.at) > 0 {
				key, why, by = append(slices.Clone(o.Key), r.at...), r.leaf, r.leafOpt
				v, _ = ValueAt(vals, key)
			}
			out = append(out, Problem{Key: key, Path: SetPath(key), Value: v, Reason: why, Allowed: allowed(c, by)})
			continue
		}
		switch {
		case o.RangeID != "" && o.Extremity == "down":
			downs = append(downs, o)
		case o.RangeID != "" && o.Extremity == "up":
			ups = append(ups, o)
		}
	}
	used := map[*Option]bool{}
	for _, d := range downs {
		for _, u := range ups {
			if used[u] || u.RangeID != d.RangeID {
				continue
			}
			used[u] = true
			if p, ok := rangeProblem(c, vals, d, u); ok {
				out = append(out, p)
			}
			break
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// rangeProblem reports a range slider whose down end (a request) exceeds
// its up end (a limit).
func rangeProblem(c *computer, vals any, down, up *Option) (Problem, bool) {
	bd, _, okd := c.ctx.Bounds(c.s.Platform, down)
	bu, _, oku := c.ctx.Bounds(c.s.Platform, up)
	dv, _ := ValueAt(vals, down.Key)
	uv, _ := ValueAt(vals, up.Key)
	if !okd || !oku || bd.Unit != bu.Unit {
		return Problem{}, false
	}
	d, err1 := slider.Parse(dv, bd.Unit)
	u, err2 := slider.Parse(uv, bu.Unit)
	if err1 != nil || err2 != nil || d <= u {
		return Problem{}, false
	}
	return Problem{
		Key:     down.Key,
		Path:    SetPath(down.Key),
		Value:   dv,
		Reason:  fmt.Sprintf("%s is above %s, the other end of the %q range", show(dv), SetPath(up.Key), down.RangeID),
		Allowed: "at most " + show(uv),
	}, true
}

// Allowed is what an option accepts besides its type: a const, the
// choices of a select, the effective slider bounds and a pattern.
type Allowed struct {
	// Const is the option's const, nil when it has none.
	Const *srcpos.Node
	// Choices are the options of a select as the form computes them; nil
	// for no select, or when they cannot be computed.
	Choices []any
	// Bounds are the effective slider bounds when HasBounds, BoundsFrom
	// where they come from.
	Bounds     slider.Config
	HasBounds  bool
	BoundsFrom string
	Pattern    string
}

// allowedOf is the one computation of what an option accepts.
func (c *computer) allowedOf(o *Option) Allowed {
	a := Allowed{Const: o.Const, Pattern: o.pattern}
	a.Bounds, a.BoundsFrom, a.HasBounds = c.ctx.Bounds(c.s.Platform, o)
	c.try(func() { a.Choices = c.resolveEnum(o, c.root) })
	return a
}

// Allowed returns what an option accepts in this form's context.
func (f *Form) Allowed(o *Option) Allowed {
	if f.c == nil {
		return Allowed{Const: o.Const, Pattern: o.pattern}
	}
	return f.c.allowedOf(o)
}

// CannotHold says why the option can never hold v, whatever the user does,
// "" when it may: v differs from its const, is not among choices that do
// not depend on the user, or is no value of its slider.
func (f *Form) CannotHold(o *Option, v any) string {
	a := f.Allowed(o)
	if a.Const != nil && !equalJSON(a.Const.Value(), v) {
		return fmt.Sprintf("%q is always %s", o.Path, a.Const.Show())
	}
	// Choices filled from the context depend on the user: nothing to say.
	if (o.Ext == nil || o.Ext.OverwriteListEnumWith == nil) && len(a.Choices) > 0 && !containsJSON(a.Choices, v) {
		return fmt.Sprintf("%s is not among the choices of %q", show(v), o.Path)
	}
	if a.HasBounds && o.Type == "string" && o.SliderNodes.Unit != nil {
		b := a.Bounds
		x, err := slider.Parse(v, b.Unit)
		switch {
		case err != nil:
			return fmt.Sprintf("the slider %q never holds %s", o.Path, show(v))
		case !b.Contains(x):
			return fmt.Sprintf("%s is outside the range of the slider %q, %s to %s", show(v), o.Path, b.Format(b.Min), b.Format(b.Max))
		}
	}
	return ""
}

// allowed describes what an option accepts, for a refusal.
func allowed(c *computer, o *Option) string {
	a := c.allowedOf(o)
	var parts []string
	if b := a.Bounds; a.HasBounds {
		s := fmt.Sprintf("allowed %s to %s", b.Format(b.Min), b.Format(b.Max))
		if b.Step > 0 {
			s += fmt.Sprintf(" in steps of %s", b.Format(b.Step))
		}
		switch a.BoundsFrom {
		case BoundsRegion, BoundsCatalog:
			ns := c.ctx.Sliders[o.SliderConfigName()]
			s += fmt.Sprintf(", %s bound %q from %s", a.BoundsFrom, o.SliderConfigName(), ns.File)
		default:
			s += ", the chart's slider"
		}
		parts = append(parts, s)
	}
	if len(a.Choices) > 0 {
		parts = append(parts, "allowed values: "+showList(a.Choices))
	}
	if a.Pattern != "" {
		parts = append(parts, fmt.Sprintf("pattern %q", a.Pattern))
	}
	if len(parts) == 0 && o.Type != "" {
		parts = append(parts, "type "+o.Type)
	}
	return strings.Join(parts, "; ")
}

// rootPath names the whole values document in a Problem.
const rootPath = "(values)"

// SetPath writes key segments the way --set names them: joined with dots, a
// dot inside a segment escaped ("resources.limits.nvidia\\.com/gpu").
func SetPath(key []string) string {
	if len(key) == 0 {
		return rootPath
	}
	parts := make([]string, len(key))
	for i, k := range key {
		parts[i] = strings.ReplaceAll(k, ".", `\.`)
	}
	return strings.Join(parts, ".")
}

// HelmProblems validates values against a compiled schema the way Helm
// does before installing (values through JSON, then the validator), and
// returns every violation as a Problem.
func HelmProblems(sch *jsonschema.Schema, values map[string]any) []Problem {
	data, err := json.Marshal(values)
	if err != nil {
		return []Problem{{Path: rootPath, Reason: fmt.Sprintf("cannot be written as JSON: %v", err)}}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return []Problem{{Path: rootPath, Reason: err.Error()}}
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil
	}
	var out []Problem
	for _, v := range Violations(err) {
		p := Problem{Key: v.Instance, Path: SetPath(v.Instance), Reason: v.Message}
		if len(v.Instance) > 0 {
			p.Value, _ = ValueAt(inst, v.Instance)
			p.Value = jsValue(p.Value)
		}
		out = append(out, p)
	}
	return out
}
