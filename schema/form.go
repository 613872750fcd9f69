package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
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

// maxItems caps the items a minItems default creates; the platform has no
// cap, but a form with more items than this is not usable anyway and a
// hostile minItems must not exhaust memory.
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
	if n.Unit != nil && n.Unit.Kind == doc.String {
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

// Widget is how the form shows an option.
type Widget string

// The widgets.
const (
	WidgetGroup    Widget = "group"
	WidgetList     Widget = "list" // an array of items
	WidgetYAML     Widget = "yaml"
	WidgetSelect   Widget = "select"
	WidgetSlider   Widget = "slider"
	WidgetRange    Widget = "range slider"
	WidgetCheckbox Widget = "checkbox"
	WidgetText     Widget = "text"
	WidgetTextArea Widget = "text area"
	WidgetPassword Widget = "password"
	WidgetNumber   Widget = "number"
	// WidgetNone is an option the form does not show: a const, or one always
	// hidden.
	WidgetNone Widget = "none"
)

// Field is the computed state of one option.
type Field struct {
	Option *Option
	// Value is the effective default; Defined is false when no source gave
	// one.
	Value   any
	Defined bool
	Source  Source
	// Bounds are the effective slider bounds when HasBounds; BoundsFrom is
	// BoundsRegion, BoundsCatalog or BoundsChart, BoundsConfig the named
	// configuration and BoundsFile its file.
	Bounds                   slider.Config
	BoundsFrom, BoundsConfig string
	BoundsFile               string
	HasBounds                bool
	// Hidden is true when the form does not show the option with the
	// computed values; Readonly when the user cannot change it.
	Hidden, Readonly bool
	Widget           Widget
	// Choices are the options of a select.
	Choices []any
	// ContextValue is what overwriteDefaultWith resolved to, when it did;
	// ContextRejected says why it was not used.
	ContextValue    any
	ContextResolved bool
	ContextRejected string
	// DefaultRejected says why the schema's default was not used.
	DefaultRejected string
}

// Form is the result of the computation: one field per option, the values
// document the platform would send, and what stops the form.
type Form struct {
	Fields []*Field
	Values map[string]any
	// Failures are what makes the platform's form refuse to open or crash,
	// now or once a hidden option is shown.
	Failures []*Failure
	byKey    map[string]*Field
	byOption map[*Option]*Field
	c        *computer
}

// Choices returns the options of a select as the form computes them, nil
// when the option is no select (or its choices cannot be computed).
func (f *Form) Choices(o *Option) []any {
	if f.c == nil {
		return nil
	}
	var out []any
	f.c.try(func() { out = f.c.resolveEnum(o, f.c.root) })
	return out
}

// Field returns the field at a slash path as Option.Path writes it, or nil.
func (f *Form) Field(path string) *Field {
	for _, fd := range f.Fields {
		if fd.Option.Path == path {
			return fd
		}
	}
	return nil
}

// FieldKey returns the field at key segments, or nil.
func (f *Form) FieldKey(key ...string) *Field { return f.byKey[joinKey(key)] }

// Opens reports whether the platform's form opens with these values.
func (f *Form) Opens() bool {
	for _, fl := range f.Failures {
		if !fl.Revealed {
			return false
		}
	}
	return true
}

// FailureKind classifies what stops the form.
type FailureKind string

// The kinds of failure.
const (
	// FailValue: an option gets no value, or an invalid one from values.yaml
	// or const.
	FailValue FailureKind = "value"
	// FailList: render list without a valid option.
	FailList FailureKind = "list"
	// FailItems: minItems without a default item.
	FailItems FailureKind = "items"
	// FailSlider: a slider the widget cannot show.
	FailSlider FailureKind = "slider"
	// FailRange: range slider ends that do not pair.
	FailRange FailureKind = "range"
	// FailShape: a schema node the form's schema check refuses; reported in
	// detail by the shape checks.
	FailShape FailureKind = "shape"
)

// Failure is one reason the platform's form refuses to open or crashes.
type Failure struct {
	Kind   FailureKind
	Option *Option
	// Node is where the chart or registry file should be edited.
	Node *doc.Node
	// Msg says what happens and what to change.
	Msg string
	// Revealed is true when the form opens and crashes only once the option
	// is shown (it is hidden with the computed values).
	Revealed bool
}

// crash is a failure thrown through the computation, as the platform's
// code throws; a try/catch of the platform's is a recover here.
type crash struct{ f *Failure }

// Compute computes the form of a schema in a context, with the chart's
// values.yaml (plain values, may be nil), as the platform's form does: for
// each option, const; for objects, each property; overwriteDefaultWith when
// it resolves to a valid value (array items mapped one by one); default when
// valid; values.yaml, which must then be valid. It then builds the form the
// user sees and records every failure.
func Compute(s *Schema, ctx *Context, values any) *Form {
	return ComputeLazy(s, ctx, func() any { return values })
}

// ComputeLazy is Compute with values.yaml read only when an option falls
// back to it: most options have a default, and reading YAML is slow.
func ComputeLazy(s *Schema, ctx *Context, values func() any) *Form {
	if ctx == nil {
		ctx = NewContext(nil, nil, nil, "")
	}
	f := &Form{byKey: map[string]*Field{}, byOption: make(map[*Option]*Field, len(s.Options))}
	for _, o := range s.Options {
		fd := &Field{Option: o, Readonly: o.Readonly || o.Const != nil}
		sf := ctx.Fields(s.Platform, o)
		if sf.Min != nil && sf.Max != nil {
			fd.Bounds, fd.BoundsFrom, fd.BoundsConfig, fd.BoundsFile, fd.HasBounds = sf.Config(), sf.Origin, sf.ConfigName, sf.File, true
		}
		f.Fields = append(f.Fields, fd)
		f.byOption[o] = fd
		if k := joinKey(o.Key); f.byKey[k] == nil {
			f.byKey[k] = fd
		}
	}
	c := &computer{s: s, ctx: ctx, root: &scope{ctx.dataFor(s.Platform)}, form: f, record: true, enums: map[*Option][]any{}}
	f.c = c
	c.readValues = values
	var top any
	c.guard(s.Top, func() { top = c.value(s.Top, c.root, yamlRef{ok: true}, "") })
	f.Values, _ = top.(map[string]any)
	if f.Values == nil {
		f.Values = map[string]any{}
	}
	// Options under array items get the value a new item would get, so that
	// forms and tables can show their defaults.
	c.record = true
	for _, o := range s.Options {
		if o.Items != nil && !o.InItems {
			c.try(func() { c.value(o.Items, c.root, yamlRef{}, "") })
		}
	}
	c.walkForm()
	for _, fd := range f.Fields {
		if fd.Widget == "" {
			fd.Widget = c.widget(fd.Option)
		}
	}
	return f
}

type computer struct {
	s      *Schema
	ctx    *Context
	root   *scope
	form   *Form
	record bool
	// tries counts enclosing try/catch blocks of the platform's: a crash
	// inside one is caught there and is no failure.
	tries int
	enums map[*Option][]any
	// failed holds the options whose computation failed, whose values the
	// form walk must not judge again.
	failed map[*Option]bool
	// ends are the range slider ends the form walk met, in its order.
	ends []*rangeEnd
	// fields caches the options' effective slider fields: validation asks
	// for them at every value.
	fieldsOf map[*Option]SliderFields
	// readValues reads values.yaml, once, on first need.
	readValues func() any
	values     map[string]any
	valuesRead bool
}

// fields returns an option's effective slider fields.
func (c *computer) fields(o *Option) SliderFields {
	if f, ok := c.fieldsOf[o]; ok {
		return f
	}
	f := c.ctx.Fields(c.s.Platform, o)
	if c.fieldsOf == nil {
		c.fieldsOf = map[*Option]SliderFields{}
	}
	c.fieldsOf[o] = f
	return f
}

func (c *computer) field(o *Option) *Field {
	if fd := c.form.byOption[o]; fd != nil {
		return fd
	}
	return &Field{Option: o}
}

// throw stops the computation as the platform's assertions do.
func (c *computer) throw(kind FailureKind, o *Option, n *doc.Node, format string, args ...any) {
	if n == nil {
		n = o.Node
	}
	panic(crash{&Failure{Kind: kind, Option: o, Node: n, Msg: fmt.Sprintf(format, args...)}})
}

// guard runs f; outside any try/catch of the platform's, a crash in it is
// recorded and the computation goes on with the next option, so that every
// failure is found, not only the first the platform stops at.
func (c *computer) guard(o *Option, f func()) (ok bool) {
	if c.tries > 0 {
		f()
		return true
	}
	defer func() {
		if r := recover(); r != nil {
			cr, isCrash := r.(crash)
			if !isCrash {
				panic(r)
			}
			c.fail(cr.f)
			if c.failed == nil {
				c.failed = map[*Option]bool{}
			}
			c.failed[o] = true
			ok = false
		}
	}()
	f()
	return true
}

// try runs f as inside the platform's try/catch: a crash is discarded.
func (c *computer) try(f func()) (ok bool) {
	c.tries++
	defer func() {
		c.tries--
		if r := recover(); r != nil {
			if _, isCrash := r.(crash); !isCrash {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

func (c *computer) fail(fl *Failure) {
	for _, x := range c.form.Failures {
		if x.Option == fl.Option && x.Kind == fl.Kind && x.Msg == fl.Msg {
			x.Revealed = x.Revealed && fl.Revealed
			return
		}
	}
	c.form.Failures = append(c.form.Failures, fl)
}

// typeOf is the option's type as the form reads it: its type, else its
// const's.
func typeOf(o *Option) string {
	if o.Type != "" {
		return o.Type
	}
	if o.Const != nil {
		switch o.Const.Kind {
		case doc.String:
			return "string"
		case doc.Bool:
			return "boolean"
		case doc.Number:
			return "number"
		case doc.Array:
			return "array"
		case doc.Object:
			return "object"
		}
	}
	return ""
}

// value computes option o's value, as the platform's form does, from the
// context document data and the value values.yaml gives it (present tells
// whether it gives one; null is a value). implicit is the reference the
// platform gives an item property that has none of its own when it maps a
// context list onto items.
func (c *computer) value(o *Option, data *scope, y yamlRef, implicit string) any {
	fd := c.field(o)
	set := func(v any, src Source) any {
		if c.record && !fd.Defined {
			fd.Value, fd.Defined, fd.Source = v, true, src
		}
		return v
	}
	if o.Node.Kind != doc.Object {
		c.throw(FailShape, o, nil, "option %q is not a schema object", o.Path)
	}
	t := typeOf(o)
	if t == "" && o.Const != nil && o.Node.Get("type") == nil {
		// The form reads the type of a const's value; null has none.
		c.throw(FailValue, o, o.Const, "option %q has const null and no type, so the form cannot tell its type and will not open; add a type", o.Path)
	}
	if !slices.Contains(Types, t) {
		c.throw(FailShape, o, nil, "option %q has no type the form knows", o.Path)
	}
	if o.Const != nil {
		cv := nodeValue(o.Const)
		if v := c.validate(o, data, cv); !v.valid {
			c.throw(FailValue, o, o.Const, "const %s of option %q does not validate against its own schema (%s), so the form will not open; make const valid or remove it", show(cv), o.Path, v.why)
		}
		return set(cv, FromConst)
	}
	if t == "object" && o.Node.Get("properties") != nil {
		out := map[string]any{}
		for _, child := range o.Children {
			cy := yamlRef{path: appendKey(y.path, child.Name), ok: y.ok}
			c.guard(child, func() { out[child.Name] = c.value(child, data, cy, "") })
		}
		return set(out, FromNothing)
	}
	if v, ok := c.fromContext(o, t, fd, data, implicit); ok {
		return set(v, FromContext)
	}
	if o.Default != nil {
		dv := nodeValue(o.Default)
		if v := c.validate(o, data, dv); v.valid {
			return set(dv, FromDefault)
		} else if c.record && fd.DefaultRejected == "" {
			fd.DefaultRejected = v.why
		}
	}
	if yaml, present := c.yamlAt(y); present {
		v := c.validate(o, data, yaml)
		if !v.valid {
			switch {
			case o.Default != nil && equalJSON(nodeValue(o.Default), yaml):
				c.throw(FailValue, o, o.Default, "option %q has the default %s in the schema and in values.yaml, and the form accepts neither (%s), so the form will not open; correct both", o.Path, show(yaml), v.why)
			case o.Default != nil && fd.DefaultRejected != "":
				c.throw(FailValue, o, o.Default, "option %q has an unusable default (%s) and values.yaml gives %s, which the form does not accept either (%s), so the form will not open; correct the default or values.yaml", o.Path, fd.DefaultRejected, show(yaml), v.why)
			}
			c.throw(FailValue, o, o.Default, "the value of option %q comes from values.yaml, which gives %s: %s; the form does not accept it, so the form will not open: correct values.yaml or give the option a valid default", o.Path, show(yaml), v.why)
		}
		return set(yaml, FromValues)
	}
	if t == "array" {
		out := []any{}
		n := 0
		if o.minItems != nil {
			n = *o.minItems
		}
		if n == 0 {
			return set(out, FromItems)
		}
		var item any
		defined := false
		if o.Items != nil {
			defined = c.try(func() { item = c.value(o.Items, data, yamlRef{}, "") })
		}
		if !defined {
			c.throw(FailItems, o, o.Node.Get("minItems"), "option %q has minItems %d but its items get no default value, so the form will not open; give the items a default, or the array a default with %d items", o.Path, n, n)
		}
		for range min(n, maxItems) {
			out = append(out, item)
		}
		return set(out, FromItems)
	}
	if o.Ext != nil && o.Ext.OverwriteDefaultWith != nil && !fd.ContextResolved {
		c.throw(FailValue, o, nil, "option %q gets no value: its overwriteDefaultWith %s finds nothing in the context (as for a user or deployment without it), and it has no usable default and nothing in values.yaml, so the form will not open. %s", o.Path, show(nodeValue(o.Ext.OverwriteDefaultWith)), c.fix(o))
	}
	c.throw(FailValue, o, nil, "option %q gets no value from any source (no const, no usable default, nothing from the context, nothing in values.yaml), so the form will not open. %s", o.Path, c.fix(o))
	return nil
}

// fix says how to give an option a value, after its default was rejected
// or missing.
func (c *computer) fix(o *Option) string {
	fd := c.field(o)
	if o.Default != nil && fd.DefaultRejected != "" {
		return fmt.Sprintf("Its default %s is not used because %s: correct it.", show(nodeValue(o.Default)), fd.DefaultRejected)
	}
	return "Give it a valid default."
}

// fromContext resolves overwriteDefaultWith. The platform uses the result
// when it is valid, or its reasonable approximation (a number for a string
// option becomes its text); a list mapped onto items reads each element's
// own fields.
func (c *computer) fromContext(o *Option, t string, fd *Field, data *scope, implicit string) (any, bool) {
	var expr any
	switch {
	case o.Ext != nil && o.Ext.OverwriteDefaultWith != nil:
		expr = o.Ext.OverwriteDefaultWith.Value()
	case implicit != "":
		expr = implicit
	default:
		return nil, false
	}
	resolved, ok := launchcontext.Resolve(expr, data.data)
	if !ok {
		return nil, false
	}
	resolved = jsValue(resolved)
	if list, isList := resolved.([]any); isList && t == "array" && o.Items != nil && o.Items.Node.Get("properties") != nil && typeOf(o.Items) == "object" {
		if mapped, ok := c.mapItems(o.Items, data, list); ok {
			resolved = mapped
		}
	}
	if c.record && !fd.ContextResolved {
		fd.ContextValue, fd.ContextResolved = resolved, true
	}
	v := c.validate(o, data, resolved)
	switch {
	case v.valid:
		return resolved, true
	case v.hasApprox:
		return v.approx, true
	}
	if c.record && fd.ContextRejected == "" {
		fd.ContextRejected = v.why
	}
	return nil, false
}

// mapItems computes each element of a context list as an item, the
// element's keys shadowing the context's and each item property without a
// reference of its own reading the element's field of its name. ok is false
// when an element is not an object or an item cannot be computed: the
// platform then keeps the list as it is.
func (c *computer) mapItems(items *Option, data *scope, list []any) (out []any, ok bool) {
	record := c.record
	c.record = false
	defer func() { c.record = record }()
	for _, el := range list {
		m, isObj := el.(map[string]any)
		if !isObj {
			return nil, false
		}
		sc := &scope{data: maps.Clone(data.data)}
		maps.Copy(sc.data, m)
		var item any
		if !c.try(func() { item = c.mappedItem(items, sc) }) {
			return nil, false
		}
		out = append(out, item)
	}
	return out, true
}

func (c *computer) mappedItem(items *Option, sc *scope) any {
	out := map[string]any{}
	for _, child := range items.Children {
		out[child.Name] = c.value(child, sc, yamlRef{}, "{{"+child.Name+"}}")
	}
	return out
}

// verdict is the platform's judgement of a value for an option.
type verdict struct {
	valid bool
	// approx is the value the platform uses instead, when hasApprox.
	approx    any
	hasApprox bool
	why       string
}

func invalid(format string, args ...any) verdict {
	return verdict{why: fmt.Sprintf(format, args...)}
}

func approx(v any, why string) verdict {
	return verdict{approx: v, hasApprox: true, why: why}
}

// validate judges a value as the platform does before using it: its type,
// pattern, minimum, items, properties, slider unit and bounds, then the
// options of a select.
func (c *computer) validate(o *Option, data *scope, v any) verdict {
	r := c.validateNoEnum(o, data, v)
	opts := c.resolveEnum(o, data)
	if opts == nil {
		return r
	}
	test := v
	if !r.valid {
		if !r.hasApprox {
			return r
		}
		test = r.approx
	}
	if !slices.ContainsFunc(opts, func(x any) bool { return equalJSON(x, test) }) {
		return invalid("%s is not one of the allowed values", show(test))
	}
	return r
}

func showList(l []any) string {
	parts := make([]string, len(l))
	for i, v := range l {
		parts[i] = show(v)
	}
	return strings.Join(parts, ", ")
}

// resolveEnum returns the options of a select, nil when the option is none:
// overwriteListEnumWith's values each checked (an approximation is kept, an
// invalid one dropped; none left falls back), else listEnum, else enum, each
// dropped whole when one of its values does not fit the option.
func (c *computer) resolveEnum(o *Option, data *scope) []any {
	root := data == c.root
	if opts, ok := c.enums[o]; ok && root {
		return opts
	}
	opts := c.enumOf(o, data)
	if root {
		c.enums[o] = opts
	}
	if opts == nil && o.Render == "list" {
		c.throw(FailList, o, o.SliderNodes.Render, "option %q has render list but no valid option (from overwriteListEnumWith, listEnum or enum), so the form will not open; give it a listEnum whose values fit its type", o.Path)
	}
	return opts
}

// yamlRef names the value values.yaml gives an option: its key path; ok is
// false where the platform reads no values.yaml (items it computes itself).
type yamlRef struct {
	path []string
	ok   bool
}

// yamlAt returns what values.yaml holds at a reference, and whether it
// holds anything (null is a value). The platform descends only into
// objects, never into lists.
func (c *computer) yamlAt(y yamlRef) (any, bool) {
	if !y.ok {
		return nil, false
	}
	if !c.valuesRead {
		c.valuesRead = true
		c.values, _ = jsValue(c.readValues()).(map[string]any)
	}
	var cur any = c.values
	if c.values == nil {
		cur = map[string]any{}
	}
	for _, k := range y.path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// scope is the context document references resolve against: the launch
// context, or, for items mapped from a context list, the context with the
// element's keys over it.
type scope struct{ data map[string]any }

func (c *computer) enumOf(o *Option, data *scope) []any {
	if o.Ext != nil && o.Ext.OverwriteListEnumWith != nil {
		if v, ok := launchcontext.Resolve(o.Ext.OverwriteListEnumWith.Value(), data.data); ok {
			if list, ok := jsValue(v).([]any); ok {
				var opts []any
				for _, x := range list {
					switch r := c.validateNoEnum(o, data, x); {
					case r.valid:
						opts = append(opts, x)
					case r.hasApprox:
						opts = append(opts, r.approx)
					}
				}
				if len(opts) > 0 {
					return opts
				}
			}
		}
	}
next:
	for _, n := range []*doc.Node{o.ListEnum, o.Enum} {
		if n == nil || n.Kind != doc.Array {
			continue
		}
		var opts []any
		for _, it := range n.Items {
			x := nodeValue(it)
			if !c.validateNoEnum(o, data, x).valid {
				continue next
			}
			opts = append(opts, x)
		}
		if len(opts) > 0 {
			return opts
		}
	}
	return nil
}

// validateNoEnum is the platform's check of a value without the options of
// a select.
func (c *computer) validateNoEnum(o *Option, data *scope, v any) verdict {
	t := typeOf(o)
	sf := c.fields(o)
	inBounds := func(x float64) bool {
		return (sf.Min == nil || x >= *sf.Min) && (sf.Max == nil || x <= *sf.Max)
	}
	stringWhy := func(s string) string {
		if o.pattern != "" {
			if re := o.patternRegexp(); re != nil && !re.MatchString(s) {
				return fmt.Sprintf("%q does not match the pattern %q", s, o.pattern)
			}
		}
		if sf.Unit == nil {
			return ""
		}
		unit := *sf.Unit
		if !strings.HasSuffix(s, unit) {
			return fmt.Sprintf("%q does not end with the slider unit %q", s, unit)
		}
		num := strings.TrimSuffix(s, unit)
		x := jsParseFloat(num)
		switch {
		case math.IsNaN(x) && unit == "":
			return fmt.Sprintf("%q is not a number", s)
		case math.IsNaN(x):
			return fmt.Sprintf("%q is not a number followed by the slider unit %q", s, unit)
		case !inBounds(x) && jsNumberString(x) != strings.TrimSpace(num):
			// parseFloat stops at the first character that is no digit:
			// say what it read, or "1_000m" would seem inside the range.
			return fmt.Sprintf("%q reads as %s (the platform's parseFloat stops at the first character that is not part of a number), outside the slider range %s", s, jsNumberString(x)+unit, rangeText(sf))
		case !inBounds(x):
			return fmt.Sprintf("%q is outside the slider range %s", s, rangeText(sf))
		}
		return ""
	}
	numberWhy := func(x float64) string {
		switch {
		case o.minimum != nil && x < *o.minimum:
			return fmt.Sprintf("%s is below the minimum %s", jsNumberString(x), jsNumberString(*o.minimum))
		case !inBounds(x):
			return fmt.Sprintf("%s is outside the slider range %s", jsNumberString(x), rangeText(sf))
		case t == "integer" && x != math.Trunc(x):
			return fmt.Sprintf("%s is not a whole number", jsNumberString(x))
		}
		return ""
	}
	wrongType := func() verdict {
		return invalid("%s is not a valid %s", show(v), t)
	}
	// A value of another type is coerced; the platform uses the coerced
	// value for a context value, and rejects it as a default or from
	// values.yaml.
	notType := fmt.Sprintf("%s is not %s", show(v), withArticle(t))
	switch x := v.(type) {
	case string:
		switch t {
		case "string":
			if why := stringWhy(x); why != "" {
				return invalid("%s", why)
			}
			return verdict{valid: true}
		case "boolean":
			switch strings.ToLower(x) {
			case "true", "yes", "1", "on":
				return approx(true, notType)
			case "false", "no", "0", "off":
				return approx(false, notType)
			}
			return wrongType()
		case "integer", "number":
			f := jsParseFloat(x)
			if math.IsNaN(f) {
				return wrongType()
			}
			if why := numberWhy(f); why != "" {
				return invalid("%s", why)
			}
			return approx(f, notType)
		}
		return wrongType()
	case float64:
		switch t {
		case "string":
			s := jsNumberString(x)
			if why := stringWhy(s); why != "" {
				return invalid("%s", why)
			}
			return approx(s, notType)
		case "boolean":
			return approx(x != 0, notType)
		case "integer", "number":
			if why := numberWhy(x); why != "" {
				return invalid("%s", why)
			}
			return verdict{valid: true}
		}
		return wrongType()
	case bool:
		switch t {
		case "string":
			s := "false"
			if x {
				s = "true"
			}
			if why := stringWhy(s); why != "" {
				return invalid("%s", why)
			}
			return approx(s, notType)
		case "boolean":
			return verdict{valid: true}
		case "integer", "number":
			n := 0.0
			if x {
				n = 1
			}
			if why := numberWhy(n); why != "" {
				return invalid("%s", why)
			}
			return approx(n, notType)
		}
		return wrongType()
	case nil:
		switch t {
		case "string":
			if why := stringWhy(""); why != "" {
				return invalid("null: %s", why)
			}
			return approx("", notType)
		case "boolean":
			return approx(false, notType)
		case "integer", "number":
			if why := numberWhy(0); why != "" {
				return invalid("null: %s", why)
			}
			return approx(0.0, notType)
		}
		return wrongType()
	case []any:
		if t != "array" {
			return wrongType()
		}
		lo := 0
		if o.minItems != nil {
			lo = *o.minItems
		}
		if len(x) < lo || (o.maxItems != nil && len(x) > *o.maxItems) {
			return invalid("it has %d items, outside the allowed count", len(x))
		}
		if o.Items == nil {
			return verdict{valid: true}
		}
		out := make([]any, len(x))
		approximated := false
		for i, item := range x {
			r := c.validate(o.Items, data, item)
			switch {
			case r.valid:
				out[i] = item
			case r.hasApprox:
				out[i], approximated = r.approx, true
			default:
				return invalid("item %d: %s", i, r.why)
			}
		}
		if approximated {
			return verdict{approx: out, hasApprox: true, why: "its items are not of the items' type"}
		}
		return verdict{valid: true}
	case map[string]any:
		if t != "object" {
			return wrongType()
		}
		if o.Node.Get("properties") == nil {
			return verdict{valid: true}
		}
		out := map[string]any{}
		approximated := len(x) > len(o.Children)
		for _, child := range o.Children {
			item, ok := x[child.Name]
			if !ok {
				return invalid("it has no property %q", child.Name)
			}
			r := c.validate(child, data, item)
			switch {
			case r.valid:
				out[child.Name] = item
			case r.hasApprox:
				out[child.Name], approximated = r.approx, true
			default:
				return invalid("property %q: %s", child.Name, r.why)
			}
		}
		if approximated {
			return verdict{approx: out, hasApprox: true, why: "it has properties the option does not have"}
		}
		return verdict{valid: true}
	}
	return wrongType()
}

func rangeText(f SliderFields) string {
	unit := ""
	if f.Unit != nil {
		unit = *f.Unit
	}
	lo, hi := "-∞", "∞"
	if f.Min != nil {
		lo = jsNumberString(*f.Min) + unit
	}
	if f.Max != nil {
		hi = jsNumberString(*f.Max) + unit
	}
	return lo + " to " + hi
}

// Validate judges a value for an option the way the platform does before
// using it as a default. It returns the value it would use (the platform
// coerces some scalars, such as the number 3600 into the string "3600"),
// whether it is usable, and if not why.
func (c *Context) Validate(s *Schema, o *Option, v any) (any, bool, string) {
	cm := &computer{s: s, ctx: c, root: &scope{c.dataFor(s.Platform)}, form: &Form{byKey: map[string]*Field{}}, enums: map[*Option][]any{}}
	var r verdict
	if !cm.try(func() { r = cm.validate(o, cm.root, jsValue(v)) }) {
		return nil, false, "the option's choices cannot be computed"
	}
	switch {
	case r.valid:
		return jsValue(v), true, ""
	case r.hasApprox:
		return r.approx, true, ""
	}
	return nil, false, r.why
}

func show(v any) string {
	switch x := v.(type) {
	case float64:
		return jsNumberString(x)
	case nil:
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// equalJSON compares two plain values as JSON values (numbers by value),
// as the platform's deep equality does.
func equalJSON(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
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
	if _, ok := number(b); ok {
		return false
	}
	return a == b
}

// number reads any of the number types plain values come in.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil || math.IsInf(f, 0)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float32:
		return float64(x), true
	}
	return 0, false
}

// EqualJSON compares two plain values as JSON values (numbers by value).
func EqualJSON(a, b any) bool { return equalJSON(a, b) }

// ValueAt returns the value at key segments of a values document.
func ValueAt(values any, key []string) (any, bool) {
	return launchcontext.Lookup(values, key)
}

// DroppedChoices lists the listEnum and enum lists the form drops whole
// because one of their values does not fit the option, with what the form
// offers instead.
func (f *Form) DroppedChoices() []NodeError {
	if f.c == nil {
		return nil
	}
	var out []NodeError
	for _, fd := range f.Fields {
		o := fd.Option
		if o.Node.Kind != doc.Object {
			continue
		}
		for _, n := range []*doc.Node{o.ListEnum, o.Enum} {
			if n == nil || n.Kind != doc.Array {
				continue
			}
			for _, it := range n.Items {
				r := f.c.validateNoEnum(o, f.c.root, nodeValue(it))
				if r.valid {
					continue
				}
				instead := "the option is no select"
				if choices := f.Choices(o); len(choices) > 0 {
					instead = "the select offers " + showList(choices)
				}
				out = append(out, NodeError{Node: it, Msg: fmt.Sprintf("%s of option %q is ignored whole because its value %s does not fit the option (%s); %s", n.Key, o.Path, show(nodeValue(it)), r.why, instead)})
				break
			}
		}
	}
	return out
}

func withArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
