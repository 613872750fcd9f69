package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogist/catalogist/slider"
)

// Problem is one value the platform refuses to launch with.
type Problem struct {
	// Path is the dotted values path, as --set writes it.
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
// a form: each option's value against its type, pattern, enum and effective
// slider bounds (region, then catalog, then chart), and each range slider's
// down end against its up end. Hidden options are checked too: they are
// sent. Values are plain YAML or JSON values.
func Check(s *Schema, ctx *Context, values map[string]any) []Problem {
	if ctx == nil {
		ctx = NewContext(nil, nil, nil, "")
	}
	vals := normalNumbers(values)
	c := &computer{ctx: ctx}
	var out []Problem
	ends := map[string][2]*Option{}
	for _, o := range s.Options {
		if o.InItems || len(o.Children) > 0 {
			continue
		}
		v, ok := ValueAt(vals, o.Path)
		if !ok {
			continue
		}
		if _, good, why := c.validate(o, v); !good {
			out = append(out, Problem{Path: dotted(o.Path), Value: v, Reason: why, Allowed: allowed(c, o)})
			continue
		}
		if o.RangeID != "" {
			e := ends[o.RangeID]
			switch {
			case o.Extremity == "down" && e[0] == nil:
				e[0] = o
			case o.Extremity == "up" && e[1] == nil:
				e[1] = o
			}
			ends[o.RangeID] = e
		}
	}
	for id, e := range ends {
		if p, ok := rangeProblem(ctx, vals, id, e[0], e[1]); ok {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// rangeProblem reports a range slider whose down end (a request) exceeds
// its up end (a limit).
func rangeProblem(ctx *Context, vals any, id string, down, up *Option) (Problem, bool) {
	if down == nil || up == nil {
		return Problem{}, false
	}
	bd, _, _ := ctx.Bounds(down)
	bu, _, _ := ctx.Bounds(up)
	dv, _ := ValueAt(vals, down.Path)
	uv, _ := ValueAt(vals, up.Path)
	d, err1 := slider.Parse(dv, bd.Unit)
	u, err2 := slider.Parse(uv, bu.Unit)
	if err1 != nil || err2 != nil || bd.Unit != bu.Unit || d <= u {
		return Problem{}, false
	}
	return Problem{
		Path:    dotted(down.Path),
		Value:   dv,
		Reason:  fmt.Sprintf("is above %s, the other end of the %q range", dotted(up.Path), id),
		Allowed: "at most " + show(uv),
	}, true
}

// allowed describes what an option accepts, for a refusal.
func allowed(c *computer, o *Option) string {
	var parts []string
	if b, origin, ok := c.ctx.Bounds(o); ok {
		s := fmt.Sprintf("allowed %s to %s", b.Format(b.Min), b.Format(b.Max))
		if b.Step > 0 {
			s += fmt.Sprintf(" in steps of %s", b.Format(b.Step))
		}
		switch origin {
		case BoundsRegion, BoundsCatalog:
			ns := c.ctx.Sliders[o.SliderConfigName()]
			s += fmt.Sprintf(", %s bound %q from %s", origin, o.SliderConfigName(), ns.File)
		default:
			s += ", the chart's slider"
		}
		parts = append(parts, s)
	}
	if list := c.enumOf(o); len(list) > 0 {
		var vs []string
		for _, v := range list {
			vs = append(vs, show(v))
		}
		parts = append(parts, "allowed values: "+strings.Join(vs, ", "))
	}
	if o.pattern != "" {
		parts = append(parts, fmt.Sprintf("pattern %q", o.pattern))
	}
	if len(parts) == 0 && o.Type != "" {
		parts = append(parts, "type "+o.Type)
	}
	return strings.Join(parts, "; ")
}

// rootPath names the whole values document in a Problem.
const rootPath = "(values)"

// dotted turns a slash path into the dotted form --set uses.
func dotted(p string) string {
	if p == "" {
		return rootPath
	}
	return strings.ReplaceAll(p, "/", ".")
}

// normalNumbers returns values with every number as a json.Number, as the
// form computation reads them, whatever YAML or --set parsing produced.
func normalNumbers(values map[string]any) any {
	data, err := json.Marshal(values)
	if err != nil {
		return values
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var out any
	if d.Decode(&out) != nil {
		return values
	}
	return out
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
		p := Problem{Path: dotted(strings.Join(v.Instance, "/")), Reason: v.Message}
		if len(v.Instance) > 0 {
			p.Value, _ = ValueAt(inst, strings.Join(v.Instance, "/"))
		}
		out = append(out, p)
	}
	return out
}
