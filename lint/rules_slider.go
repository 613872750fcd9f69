package lint

import (
	"fmt"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// sliderRules check sliders and range sliders.
var sliderRules = []*Rule{RuleSliderFields, RuleSliderText, RuleSliderRange, RuleSliderDefault, RuleSliderGrid, RuleSliderExtremity, RuleSliderPair}

// failures reports the form's failures of some kinds: those that stop the
// form from opening, or, with revealed, those that crash it once a hidden
// option is shown.
func failures(p *Pass, revealed bool, kinds ...schema.FailureKind) {
	for _, f := range p.Form.Failures {
		if f.Revealed != revealed {
			continue
		}
		for _, k := range kinds {
			if f.Kind == k {
				p.At(f.Node, "%s", f.Msg)
			}
		}
	}
}

// isSliderish reports whether an option is meant as a slider: it has
// sliderMin or render slider.
func isSliderish(o *schema.Option) bool {
	return o.Node.Kind == srcpos.Object && (o.HasSlider || o.Render == "slider")
}

// RuleSliderFields reports sliders the form's slider cannot show.
var RuleSliderFields = &Rule{
	Name: "slider-fields", Severity: Error, Launchable: true,
	Doc: "a slider (sliderMin present) has sliderMax, number bounds and step, a string unit, type string or number (a number slider has no sliderUnit); the catalogist platform also requires sliderStep, and sliderUnit on string sliders",
	Run: func(p *Pass) {
		shapeRule(schema.ShapeSlider)(p)
		failures(p, false, schema.FailSlider)
		for _, s := range slidersWithoutMin.of(p) {
			if s.verdict == minRequired {
				p.AtKey(s.option.Node, "slider %q has render slider but no sliderMin: the form shows a plain text field; the %s platform requires sliderMin, sliderMax, sliderStep and sliderUnit", s.option.Path, p.Platform.Name)
			}
		}
		if !p.Platform.StepAndUnitRequired {
			return
		}
		// The sliders with sliderMin: a region's or catalog's slider
		// configuration, when one applies, supplies their step and unit.
		for _, o := range p.Schema().Options {
			if !o.HasSlider || o.Node.Kind != srcpos.Object || o.Const != nil || configSupplied(p, o) {
				continue
			}
			n := o.SliderNodes
			if n.Step == nil {
				p.AtKey(o.Node, "slider %q has no sliderStep, which the %s platform requires; add one such as \"sliderStep\": 1", o.Path, p.Platform.Name)
			}
			if n.Unit == nil && o.Type == "string" {
				p.AtKey(o.Node, "string slider %q has no sliderUnit, which the %s platform requires; write \"sliderUnit\": \"\" when its values have no unit", o.Path, p.Platform.Name)
			}
		}
	},
}

// RuleSliderText reports render slider without sliderMin, which the
// reference platform shows as a text field.
var RuleSliderText = &Rule{
	Name: "slider-text", Severity: Warning, Launchable: true,
	Doc: "render slider comes with sliderMin (without it the onyxia form shows a plain text field)",
	Run: func(p *Pass) {
		for _, s := range slidersWithoutMin.of(p) {
			if s.verdict == minTextField {
				p.At(s.option.SliderNodes.Render, "option %q has render slider but no sliderMin, so the form shows a plain text field; add sliderMin and sliderMax, or remove render", s.option.Path)
			}
		}
	},
}

// RuleSliderRange reports bounds that make no slider.
var RuleSliderRange = &Rule{
	Name: "slider-range", Severity: Warning, Launchable: true,
	Doc: "sliderMin < sliderMax and sliderStep > 0, or the slider cannot move",
	Run: func(p *Pass) {
		for _, o := range p.Schema().Options {
			if !o.HasSlider || o.Node.Kind != srcpos.Object {
				continue
			}
			n := o.SliderNodes
			minV, okMin := n.Min.Float()
			maxV, okMax := n.Max.Float()
			if okMin && okMax && minV >= maxV {
				p.At(n.Min, "sliderMin %s of slider %q is not below sliderMax %s, so the slider cannot move", slider.Num(minV), o.Path, slider.Num(maxV))
			}
			if step, ok := n.Step.Float(); ok && step <= 0 {
				p.At(n.Step, "sliderStep of slider %q is %s; it must be greater than 0 for the slider to move", o.Path, slider.Num(step))
			}
		}
	},
}

// sliderFields returns the fields of sliders whose bounds come from where
// wanted says: the chart (chart true) or a region or catalog configuration.
func sliderFields(p *Pass, chart bool) []*schema.Field {
	var out []*schema.Field
	for _, fd := range p.Form.Fields {
		if !fd.HasBounds || fd.Option.InItems || fd.Option.Const != nil {
			continue
		}
		if (fd.BoundsFrom == schema.BoundsChart) == chart {
			out = append(out, fd)
		}
	}
	return out
}

// unusedDefault reports a slider default the form does not use.
func unusedDefault(p *Pass, fd *schema.Field, where string) {
	o := fd.Option
	if o.Default == nil || fd.DefaultRejected == "" || fd.Source == schema.FromContext {
		return
	}
	then := "no other source gives a valid value, so the form will not open (see form-opens)"
	if fd.Defined {
		then = fmt.Sprintf("the form uses %s from %s instead", show(fd.Value), fd.Source)
	}
	p.At(o.Default, "default %s of slider %q is not used: %s%s; %s", o.Default.Show(), o.Path, fd.DefaultRejected, where, then)
}

// RuleSliderDefault reports slider defaults the form cannot use.
var RuleSliderDefault = &Rule{
	Name: "slider-default", Severity: Warning, Launchable: true,
	Doc: "a slider's default is a valid slider value (its unit, within its own bounds), or the form silently uses the next source",
	Run: func(p *Pass) {
		for _, fd := range sliderFields(p, true) {
			unusedDefault(p, fd, "")
		}
	},
}

// RuleSliderGrid reports slider values between two steps.
var RuleSliderGrid = &Rule{
	Name: "slider-grid", Severity: Warning, Launchable: true,
	Doc: "a slider's effective default lies on its step grid (sliderMin plus a whole number of steps)",
	Run: func(p *Pass) {
		for _, fd := range p.Form.Fields {
			o := fd.Option
			if !fd.HasBounds || !fd.Defined || o.InItems || o.Const != nil || fd.Widget != schema.WidgetSlider && fd.Widget != schema.WidgetRange {
				continue
			}
			b := fd.Bounds
			x, err := slider.Parse(fd.Value, b.Unit)
			if err != nil || b.Step <= 0 || !b.Contains(x) || b.OnGrid(x) {
				continue
			}
			at, from := o.Node, ""
			switch {
			case fd.Source == schema.FromDefault:
				at = o.Default
			case fd.Source == schema.FromContext:
				at, from = o.Ext.OverwriteDefaultWith, " (from the context)"
			}
			p.At(at, "the default %s%s of slider %q is off its step grid (%s plus whole steps of %s): the form shows it as it is, but moving the slider only reaches grid values, so the user cannot come back to it", show(fd.Value), from, o.Path, b.Format(b.Min), b.Format(b.Step))
		}
	},
}

// RuleSliderExtremity reports unknown extremities.
var RuleSliderExtremity = &Rule{
	Name: "slider-extremity", Severity: Error, Launchable: true,
	Doc: "sliderExtremity is down or up (the form will not open otherwise)",
	Run: shapeRule(schema.ShapeExtremity),
}

// RuleSliderPair reports range sliders whose ends do not pair.
var RuleSliderPair = &Rule{
	Name: "slider-pair", Severity: Error, Launchable: true,
	Doc: "each shown down end pairs with the next shown up end of its sliderRangeId, with the same unit and step (one end may carry them), its value not above the up end's",
	Run: func(p *Pass) {
		failures(p, false, schema.FailRange)
	},
}

// describeBounds says where a slider's effective bounds come from.
func describeBounds(fd *schema.Field) string {
	switch fd.BoundsFrom {
	case schema.BoundsRegion:
		return fmt.Sprintf("the region's %s slider", fd.BoundsConfig)
	case schema.BoundsCatalog:
		return fmt.Sprintf("the catalog's %s slider", fd.BoundsConfig)
	}
	return "the chart's slider"
}
