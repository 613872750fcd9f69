package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/launchcontext"
	"github.com/catalogist/catalogist/region"
	"github.com/catalogist/catalogist/slider"
)

// Source says where a field's value came from.
type Source string

// The sources of a value, in the order the platform tries them.
const (
	FromConst   Source = "const"
	FromContext Source = "context"
	FromDefault Source = "default"
	FromValues  Source = "values.yaml"
	FromItems   Source = "minItems"
	FromNothing Source = ""
)

// maxItems caps the items a minItems default creates.
const maxItems = 1000

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
// (profile, project, region, cluster) and the named slider configurations.
type Context struct {
	Data    map[string]any
	Sliders map[string]*NamedSlider
	Region  *region.Region
}

// NewContext assembles a context from a profile document (git.*, user.*,
// project.*, ...), a region (may be nil) and catalog-level sliders (may be
// nil). Region sliders take precedence over catalog ones.
func NewContext(profile map[string]any, reg *region.Region, catalogSliders map[string]*region.Slider, catalogFile string) *Context {
	c := &Context{Data: map[string]any{}, Sliders: map[string]*NamedSlider{}, Region: reg}
	for k, v := range profile {
		c.Data[k] = v
	}
	for name, s := range catalogSliders {
		c.Sliders[name] = &NamedSlider{Slider: s, Origin: BoundsCatalog, File: catalogFile}
	}
	if reg != nil {
		c.Data["region"] = reg.Context
		for name, s := range reg.Sliders {
			c.Sliders[name] = &NamedSlider{Slider: s, Origin: BoundsRegion, File: reg.File}
		}
	}
	return c
}

// Bounds returns the effective slider bounds of an option: the named
// configuration from the region or catalog when it selects one that exists
// (all four fields are replaced), else the chart's own.
func (c *Context) Bounds(o *Option) (b slider.Config, origin string, ok bool) {
	if !o.HasSlider {
		return slider.Config{}, "", false
	}
	if name := o.SliderConfigName(); name != "" && c != nil {
		if s := c.Sliders[name]; s != nil {
			return s.Config, s.Origin, true
		}
	}
	return o.Slider, BoundsChart, true
}

// Field is the computed state of one option.
type Field struct {
	Option *Option
	// Value is the effective default; Defined is false when no source gave
	// one (the option is then left out of the values).
	Value   any
	Defined bool
	Source  Source
	// Bounds are the effective slider bounds when HasBounds.
	Bounds     slider.Config
	BoundsFrom string
	HasBounds  bool
	Hidden     bool
	// ContextValue is what overwriteDefaultWith resolved to, when it did;
	// ContextRejected says why it was not used.
	ContextValue    any
	ContextResolved bool
	ContextRejected string
	// DefaultRejected says why the schema's default was not used.
	DefaultRejected string
}

// Form is the result of the computation: one field per option and the values
// document the platform would send to Helm.
type Form struct {
	Fields []*Field
	Values map[string]any
	byPath map[string]*Field
}

// Field returns the field at a slash path, or nil.
func (f *Form) Field(path string) *Field { return f.byPath[path] }

// Compute computes the form for a schema in a context, with the chart's
// values.yaml (as plain values, may be nil). The order for each option is
// the platform's: const; for objects, each property; overwriteDefaultWith
// when it resolves to a valid value; default when valid; values.yaml.
func Compute(s *Schema, ctx *Context, values any) *Form {
	if ctx == nil {
		ctx = NewContext(nil, nil, nil, "")
	}
	f := &Form{byPath: map[string]*Field{}}
	for _, o := range s.Options {
		fd := &Field{Option: o}
		fd.Bounds, fd.BoundsFrom, fd.HasBounds = ctx.Bounds(o)
		f.Fields = append(f.Fields, fd)
		if _, dup := f.byPath[o.Path]; !dup {
			f.byPath[o.Path] = fd
		}
	}
	c := &computer{ctx: ctx, form: f}
	v, ok := c.compute(s.Top, values, true)
	if m, isMap := v.(map[string]any); ok && isMap {
		f.Values = m
	} else {
		f.Values = map[string]any{}
	}
	// Options under array items are computed as a new item would be, so that
	// forms and tables can show their defaults.
	for _, o := range s.Options {
		if o.Items != nil && !o.InItems {
			c.compute(o.Items, nil, false)
		}
	}
	for _, fd := range f.Fields {
		fd.Hidden = f.isHidden(fd.Option)
	}
	return f
}

type computer struct {
	ctx  *Context
	form *Form
}

func (c *computer) field(o *Option) *Field {
	if o.Parent == nil {
		return &Field{Option: o}
	}
	if fd := c.form.byPath[o.Path]; fd != nil && fd.Option == o {
		return fd
	}
	return &Field{Option: o}
}

// compute returns the value of option o given its values.yaml value. record
// is false when the result must not overwrite fields already set.
func (c *computer) compute(o *Option, yamlVal any, record bool) (any, bool) {
	fd := c.field(o)
	set := func(v any, src Source) (any, bool) {
		if record || !fd.Defined {
			fd.Value, fd.Defined, fd.Source = v, true, src
		}
		return v, true
	}
	if o.Const != nil {
		return set(o.Const.Value(), FromConst)
	}
	if o.Type == "object" && o.Node.Get("properties") != nil {
		out := map[string]any{}
		ym, _ := yamlVal.(map[string]any)
		for _, child := range o.Children {
			var cy any
			if ym != nil {
				cy = ym[child.Name]
			}
			if v, ok := c.compute(child, cy, record); ok {
				out[child.Name] = v
			}
		}
		return set(out, FromNothing)
	}
	if ext := o.Ext; ext != nil && ext.OverwriteDefaultWith != nil {
		if v, ok := launchcontext.Resolve(ext.OverwriteDefaultWith.Value(), c.ctx.Data); ok {
			fd.ContextValue, fd.ContextResolved = v, true
			if got, ok, why := c.validate(o, v); ok {
				return set(got, FromContext)
			} else {
				fd.ContextRejected = why
			}
		}
	}
	if o.Default != nil {
		// A default is used only when valid as written; the platform does
		// not coerce it as it coerces context values.
		v := o.Default.Value()
		got, ok, why := c.validate(o, v)
		switch {
		case ok && equalJSON(got, v):
			return set(v, FromDefault)
		case ok:
			fd.DefaultRejected = fmt.Sprintf("%s is not of type %s", show(v), o.Type)
		default:
			fd.DefaultRejected = why
		}
	}
	if yamlVal != nil {
		return set(yamlVal, FromValues)
	}
	if o.Type == "array" {
		out := []any{}
		if o.minItems > 0 && o.Items != nil {
			if item, ok := c.compute(o.Items, nil, false); ok {
				// A form with more items than this is not usable anyway; the
				// cap keeps a hostile minItems from exhausting memory.
				for range min(o.minItems, maxItems) {
					out = append(out, item)
				}
			}
		}
		return set(out, FromItems)
	}
	return nil, false
}

// Validate checks a value against an option the way the platform does
// before using it as a default, with the context's slider bounds. It
// returns the value to use (the platform coerces some scalars, such as the
// number 3600 into the string "3600"), whether it is usable, and if not why.
func (c *Context) Validate(o *Option, v any) (any, bool, string) {
	return (&computer{ctx: c}).validate(o, v)
}

func (c *computer) validate(o *Option, v any) (any, bool, string) {
	got, ok, why := c.validateType(o, v)
	if !ok {
		return nil, false, why
	}
	if list := c.enumOf(o); len(list) > 0 {
		found := false
		for _, e := range list {
			if equalJSON(e, got) {
				found = true
				break
			}
		}
		if !found {
			return nil, false, fmt.Sprintf("%s is not one of the allowed values", show(got))
		}
	}
	return got, true, ""
}

func (c *computer) enumOf(o *Option) []any {
	if o.Ext != nil && o.Ext.OverwriteListEnumWith != nil {
		if v, ok := launchcontext.Resolve(o.Ext.OverwriteListEnumWith.Value(), c.ctx.Data); ok {
			if l, ok := v.([]any); ok {
				return l
			}
		}
	}
	for _, n := range []*doc.Node{o.ListEnum, o.Enum} {
		if n != nil && n.Kind == doc.Array {
			if l, _ := n.Value().([]any); len(l) > 0 {
				return l
			}
		}
	}
	return nil
}

func (c *computer) validateType(o *Option, v any) (any, bool, string) {
	t := o.Type
	switch x := v.(type) {
	case string:
		switch t {
		case "string":
			if why := c.checkString(o, x); why != "" {
				return nil, false, why
			}
			return x, true, ""
		case "boolean":
			switch strings.ToLower(x) {
			case "true", "yes", "1", "on":
				return true, true, ""
			case "false", "no", "0", "off":
				return false, true, ""
			}
		case "integer", "number":
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err == nil {
				if why := c.checkNumber(o, f); why == "" {
					return json.Number(slider.Num(f)), true, ""
				}
			}
		}
	case json.Number, float64, int:
		f := toFloat(x)
		switch t {
		case "string":
			s := slider.Num(f)
			if why := c.checkString(o, s); why != "" {
				return nil, false, why
			}
			return s, true, ""
		case "boolean":
			return f != 0, true, ""
		case "integer", "number":
			if why := c.checkNumber(o, f); why != "" {
				return nil, false, why
			}
			return x, true, ""
		}
	case bool:
		switch t {
		case "string":
			s := strconv.FormatBool(x)
			if why := c.checkString(o, s); why != "" {
				return nil, false, why
			}
			return s, true, ""
		case "boolean":
			return x, true, ""
		case "integer", "number":
			n := 0.0
			if x {
				n = 1
			}
			if c.checkNumber(o, n) == "" {
				return json.Number(slider.Num(n)), true, ""
			}
		}
	case nil:
		switch t {
		case "string":
			if c.checkString(o, "") == "" {
				return "", true, ""
			}
		case "boolean":
			return false, true, ""
		case "integer", "number":
			if c.checkNumber(o, 0) == "" {
				return json.Number("0"), true, ""
			}
		}
	case []any:
		if t != "array" {
			break
		}
		if len(x) < o.minItems || (o.maxItemsVal != nil && len(x) > *o.maxItemsVal) {
			return nil, false, fmt.Sprintf("has %d items, outside the allowed count", len(x))
		}
		if o.Items == nil {
			return x, true, ""
		}
		out := make([]any, len(x))
		for i, item := range x {
			got, ok, why := c.validate(o.Items, item)
			if !ok {
				return nil, false, fmt.Sprintf("item %d %s", i, why)
			}
			out[i] = got
		}
		return out, true, ""
	case map[string]any:
		if t != "object" {
			break
		}
		if len(o.Children) == 0 {
			return x, true, ""
		}
		if len(x) != len(o.Children) {
			return nil, false, "does not have exactly the option's properties"
		}
		out := map[string]any{}
		for k, item := range x {
			child := childNamed(o, k)
			if child == nil {
				return nil, false, fmt.Sprintf("has unknown property %q", k)
			}
			got, ok, why := c.validate(child, item)
			if !ok {
				return nil, false, fmt.Sprintf("property %q %s", k, why)
			}
			out[k] = got
		}
		return out, true, ""
	}
	return nil, false, fmt.Sprintf("%s is not a valid %s", show(v), typeOrUnknown(t))
}

func typeOrUnknown(t string) string {
	if t == "" {
		return "value for an option without a type"
	}
	return t
}

func childNamed(o *Option, name string) *Option {
	for _, c := range o.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (c *computer) checkString(o *Option, s string) string {
	if o.pattern != "" {
		if re := o.patternRegexp(); re != nil && !re.MatchString(s) {
			return fmt.Sprintf("%q does not match the pattern %q", s, o.pattern)
		}
	}
	if b, _, ok := c.ctx.Bounds(o); ok {
		x, err := slider.Parse(s, b.Unit)
		if err != nil {
			return err.Error()
		}
		if !b.Contains(x) {
			return fmt.Sprintf("%q is outside the slider range %s to %s", s, b.Format(b.Min), b.Format(b.Max))
		}
	}
	return ""
}

func (c *computer) checkNumber(o *Option, f float64) string {
	if o.minimum != nil && f < *o.minimum {
		return fmt.Sprintf("%s is below the minimum %s", slider.Num(f), slider.Num(*o.minimum))
	}
	if b, _, ok := c.ctx.Bounds(o); ok && !b.Contains(f) {
		return fmt.Sprintf("%s is outside the slider range %s to %s", slider.Num(f), slider.Num(b.Min), slider.Num(b.Max))
	}
	if o.Type == "integer" && f != float64(int64(f)) {
		return fmt.Sprintf("%s is not a whole number", slider.Num(f))
	}
	return ""
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	}
	return 0
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// equalJSON compares two plain values as JSON values (numbers by value).
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case json.Number, float64, int, int64:
		switch b.(type) {
		case json.Number, float64, int, int64:
			return toFloat(x) == toFloat(b)
		}
		return false
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// EqualJSON compares two plain values as JSON values (numbers by value).
func EqualJSON(a, b any) bool { return equalJSON(a, b) }

// ValueAt returns the value at a slash path of a values document.
func ValueAt(values any, path string) (any, bool) {
	if path == "" {
		return values, true
	}
	return launchcontext.Lookup(values, strings.Split(path, "/"))
}

// isHidden evaluates an option's visibility against the computed values.
// A path that points at nothing never hides anything.
func (f *Form) isHidden(o *Option) bool {
	h := o.Hidden
	if h == nil {
		return false
	}
	if h.Always {
		return true
	}
	if h.Value == nil || h.Path == "" || o.InItems {
		return false
	}
	v, ok := ValueAt(f.Values, h.TargetPath(o))
	return ok && equalJSON(v, h.Value.Value())
}
