package lint

import (
	"fmt"
	"slices"

	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/schema"
	"github.com/catalogist/catalogist/slider"
)

// sliders returns the options that are sliders.
func sliders(s *schema.Schema) []*schema.Option {
	var out []*schema.Option
	for _, o := range s.Options {
		if o.HasSlider && o.Node.Kind == doc.Object {
			out = append(out, o)
		}
	}
	return out
}

// sliderComplete reports whether a slider's four fields are present and of
// the right types, so that value checks are meaningful.
func sliderComplete(o *schema.Option) bool {
	n := o.SliderNodes
	return n.Min != nil && n.Min.Kind == doc.Number && n.Max != nil && n.Max.Kind == doc.Number &&
		n.Step != nil && n.Step.Kind == doc.Number && n.Unit != nil && n.Unit.Kind == doc.String
}

// RuleSliderFields reports sliders missing one of their four fields.
var RuleSliderFields = &Rule{
	Name: "slider-fields", Severity: Error,
	Doc: "a slider (render: slider, or sliderMin present) has sliderMin, sliderMax, sliderStep (numbers) and sliderUnit (a string, may be empty)",
	Run: func(p *Pass) {
		for _, o := range sliders(p.Schema) {
			n := o.SliderNodes
			for _, f := range []struct {
				name string
				node *doc.Node
				kind doc.Kind
			}{{"sliderMin", n.Min, doc.Number}, {"sliderMax", n.Max, doc.Number}, {"sliderStep", n.Step, doc.Number}, {"sliderUnit", n.Unit, doc.String}} {
				switch {
				case f.node == nil && f.name == "sliderUnit":
					p.AtKey(o.Node, "slider %q has no sliderUnit; write \"sliderUnit\": \"\" when the value has no unit", o.Path)
				case f.node == nil:
					p.AtKey(o.Node, "slider %q has no %s", o.Path, f.name)
				case f.node.Kind != f.kind:
					p.At(f.node, "%s of slider %q is %s; write a %s", f.name, o.Path, f.node.Kind.WithArticle(), f.kind)
				}
			}
		}
	},
}

// RuleSliderRange reports bounds that make no slider.
var RuleSliderRange = &Rule{
	Name: "slider-range", Severity: Error,
	Doc: "sliderMin < sliderMax and sliderStep > 0",
	Run: func(p *Pass) {
		for _, o := range sliders(p.Schema) {
			if !sliderComplete(o) {
				continue
			}
			if o.Slider.Min >= o.Slider.Max {
				p.At(o.SliderNodes.Min, "sliderMin %s of slider %q is not below sliderMax %s", slider.Num(o.Slider.Min), o.Path, slider.Num(o.Slider.Max))
			}
			if o.Slider.Step <= 0 {
				p.At(o.SliderNodes.Step, "sliderStep of slider %q is %s; it must be greater than 0", o.Path, slider.Num(o.Slider.Step))
			}
		}
	},
}

// sliderDefault parses a slider's default with its own bounds; ok is false
// when there is nothing to check.
func sliderDefault(o *schema.Option) (x float64, err error, ok bool) {
	// A slider whose own range is broken is reported by slider-range alone.
	if !sliderComplete(o) || o.Default == nil || o.Slider.Min >= o.Slider.Max || o.Slider.Step <= 0 {
		return 0, nil, false
	}
	x, err = slider.Parse(o.Default.Value(), o.Slider.Unit)
	return x, err, true
}

// RuleSliderDefault reports slider defaults the platform cannot show.
var RuleSliderDefault = &Rule{
	Name: "slider-default", Severity: Error,
	Doc: "a slider's default is a string ending in its unit (empty unit: a number or numeric string) within [sliderMin, sliderMax]",
	Run: func(p *Pass) {
		for _, o := range sliders(p.Schema) {
			x, err, ok := sliderDefault(o)
			if !ok {
				continue
			}
			c := o.Slider
			if err != nil {
				p.At(o.Default, "default of slider %q %s", o.Path, err)
				continue
			}
			if !c.Contains(x) {
				p.At(o.Default, "default %s of slider %q is outside its range %s to %s", showNode(o.Default), o.Path, c.Format(c.Min), c.Format(c.Max))
			}
		}
	},
}

// RuleSliderGrid reports slider defaults between two steps.
var RuleSliderGrid = &Rule{
	Name: "slider-grid", Severity: Warning,
	Doc: "a slider's default lies on its step grid (sliderMin plus a whole number of steps)",
	Run: func(p *Pass) {
		for _, o := range sliders(p.Schema) {
			x, err, ok := sliderDefault(o)
			c := o.Slider
			if !ok || err != nil || !c.Contains(x) || c.Step <= 0 || c.OnGrid(x) {
				continue
			}
			p.At(o.Default, "default %s of slider %q is between two steps of %s from %s; the slider cannot show it", showNode(o.Default), o.Path, slider.Num(c.Step), c.Format(c.Min))
		}
	},
}

// RuleSliderExtremity reports unknown extremities.
var RuleSliderExtremity = &Rule{
	Name: "slider-extremity", Severity: Error,
	Doc: "sliderExtremity is down or up (the platform refuses to open the form otherwise)",
	Run: func(p *Pass) {
		for _, o := range p.Schema.Options {
			n := o.ExtremityNode
			if n != nil && (n.Kind != doc.String || !slices.Contains(schema.Extremities, n.Text)) {
				p.At(n, "sliderExtremity %s of option %q is neither \"down\" nor \"up\"%s", showNode(n), o.Path, didYouMean(n, schema.Extremities))
			}
		}
	},
}

// RuleSliderPair reports range sliders whose ends do not match.
var RuleSliderPair = &Rule{
	Name: "slider-pair", Severity: Error,
	Doc: "every down end pairs with an up end of the same sliderRangeId, with equal unit and step, and down default <= up default",
	Run: func(p *Pass) {
		for _, down := range p.Schema.Options {
			if down.Extremity != "down" {
				continue
			}
			if n := down.RangeIDNode; n != nil && n.Kind != doc.String {
				p.At(n, "sliderRangeId of %q is %s; write a string such as \"cpu\"", down.Path, showNode(n))
				continue
			}
			if down.RangeID == "" {
				p.At(down.ExtremityNode, "range slider end %q has sliderExtremity down but no sliderRangeId to pair it with an up end", down.Path)
				continue
			}
			var up *schema.Option
			for _, o := range p.Schema.Options {
				if o.Extremity == "up" && o.RangeID == down.RangeID {
					up = o
					break
				}
			}
			if up == nil {
				p.At(down.RangeIDNode, "range slider end %q (down) has no up end with sliderRangeId %q anywhere in the schema", down.Path, down.RangeID)
				continue
			}
			if !sliderComplete(down) || !sliderComplete(up) {
				continue
			}
			if down.Slider.Unit != up.Slider.Unit {
				p.At(down.SliderNodes.Unit, "range %q: down end %q has unit %q but up end %q has unit %q", down.RangeID, down.Path, down.Slider.Unit, up.Path, up.Slider.Unit)
			}
			if down.Slider.Step != up.Slider.Step {
				p.At(down.SliderNodes.Step, "range %q: down end %q has step %s but up end %q has step %s", down.RangeID, down.Path, slider.Num(down.Slider.Step), up.Path, slider.Num(up.Slider.Step))
			}
			dx, derr, dok := sliderDefault(down)
			ux, uerr, uok := sliderDefault(up)
			if dok && uok && derr == nil && uerr == nil && down.Slider.Unit == up.Slider.Unit && dx > ux {
				p.At(down.Default, "range %q: down default %s of %q is above up default %s of %q (requests above limits)", down.RangeID, showNode(down.Default), down.Path, showNode(up.Default), up.Path)
			}
		}
	},
}

// describeBounds says where a slider's effective bounds come from.
func describeBounds(o *schema.Option, origin string) string {
	name := o.SliderConfigName()
	switch origin {
	case schema.BoundsRegion:
		return fmt.Sprintf("the region's %s slider", name)
	case schema.BoundsCatalog:
		return fmt.Sprintf("the catalog's %s slider", name)
	}
	return "the chart's slider"
}
