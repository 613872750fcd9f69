package schema

import (
	"maps"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
)

// Bounds origins, in order of precedence.
const (
	BoundsRegion  = "region"
	BoundsCatalog = "catalog"
	BoundsChart   = "chart"
)

// NamedSlider is a slider configuration that options select by name with
// useRegionSliderConfig, with where it came from.
type NamedSlider struct {
	*region.Slider
	// Origin is BoundsRegion or BoundsCatalog; File is the file it is in.
	Origin string
	File   string
}

// Context is what a form is computed from: the launch context document
// (user, project, git, vault, s3, region, k8s, ...) and the named slider
// configurations.
type Context struct {
	Data    map[string]any
	Sliders map[string]*NamedSlider
	Region  *region.Region
}

// NewContext assembles a context from a launch context document (may be
// nil), a region (may be nil), whose values are merged under "region", and
// catalog-level sliders (may be nil). Region sliders take precedence over
// catalog ones.
func NewContext(data map[string]any, reg *region.Region, catalogSliders map[string]*region.Slider, catalogFile string) *Context {
	c := &Context{Data: map[string]any{}, Sliders: map[string]*NamedSlider{}, Region: reg}
	for k, v := range data {
		c.Data[k] = jsValue(v)
	}
	for name, s := range catalogSliders {
		c.Sliders[name] = &NamedSlider{Slider: s, Origin: BoundsCatalog, File: catalogFile}
	}
	if reg != nil {
		merged, _ := c.Data["region"].(map[string]any)
		c.Data["region"] = launchcontext.Merge(merged, jsValue(reg.Context).(map[string]any))
		for name, s := range reg.Sliders {
			c.Sliders[name] = &NamedSlider{Slider: s, Origin: BoundsRegion, File: reg.File}
		}
	}
	return c
}

// dataFor is the context document a platform's form sees: without the
// region's resources and slider configurations on a platform that has none.
func (c *Context) dataFor(p *Platform) map[string]any {
	if p.RegionBoundsInContext {
		return c.Data
	}
	r, ok := c.Data["region"].(map[string]any)
	if !ok {
		return c.Data
	}
	_, hasRes := r["resources"]
	_, hasSl := r["sliders"]
	if !hasRes && !hasSl {
		return c.Data
	}
	out := maps.Clone(c.Data)
	r = maps.Clone(r)
	delete(r, "resources")
	delete(r, "sliders")
	out["region"] = r
	return out
}

// SliderFields are an option's effective slider fields; nil when absent.
type SliderFields struct {
	Min, Max, Step *float64
	Unit           *string
	// Origin is BoundsRegion, BoundsCatalog or BoundsChart; Config names the
	// region or catalog configuration, File the file it was read from.
	Origin, ConfigName, File string
}

// Config returns the fields as a slider.Config: a missing step is the
// widget's 1, a missing unit none.
func (f SliderFields) Config() slider.Config {
	c := slider.Config{Step: 1}
	if f.Min != nil {
		c.Min = *f.Min
	}
	if f.Max != nil {
		c.Max = *f.Max
	}
	if f.Step != nil {
		c.Step = *f.Step
	}
	if f.Unit != nil {
		c.Unit = *f.Unit
	}
	return c
}

// Fields returns an option's effective slider fields for a platform: on a
// platform with region-bounded sliders, the named region configuration
// (else the catalog's) replaces all four of the chart's.
func (c *Context) Fields(p *Platform, o *Option) SliderFields {
	if name := o.SliderConfigName(); p.RegionSliders && name != "" && c != nil && (o.HasSlider || o.Render == "slider") {
		if s := c.Sliders[name]; s != nil {
			min, max, step, unit := s.Min, s.Max, s.Step, s.Unit
			return SliderFields{Min: &min, Max: &max, Step: &step, Unit: &unit, Origin: s.Origin, ConfigName: name, File: s.File}
		}
	}
	f := SliderFields{Origin: BoundsChart}
	n := o.SliderNodes
	if v, ok := n.Min.Float(); ok {
		f.Min = &v
	}
	if v, ok := n.Max.Float(); ok {
		f.Max = &v
	}
	if v, ok := n.Step.Float(); ok {
		f.Step = &v
	}
	if n.Unit != nil && n.Unit.Kind == srcpos.String {
		u := n.Unit.Text
		f.Unit = &u
	}
	return f
}

// Bounds returns the effective slider bounds of a slider option (a missing
// step is 1), where they come from, and false for an option that is not a
// slider.
func (c *Context) Bounds(p *Platform, o *Option) (slider.Config, string, bool) {
	f := c.Fields(p, o)
	if f.Min == nil || f.Max == nil {
		return slider.Config{}, "", false
	}
	return f.Config(), f.Origin, true
}
