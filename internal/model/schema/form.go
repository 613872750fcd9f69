package schema

import (
	"fmt"
	"maps"
	"slices"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
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
	// schemaless is true for the launcher of a chart without a schema.
	schemaless bool
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
	// FailPattern: a pattern JavaScript cannot compile, or one that
	// backtracks without end on a value.
	FailPattern FailureKind = "pattern"
)

// Failure is one reason the platform's form refuses to open or crashes.
type Failure struct {
	Kind   FailureKind
	Option *Option
	// Node is where the chart or registry file should be edited.
	Node *srcpos.Node
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
func (c *computer) throw(kind FailureKind, o *Option, n *srcpos.Node, format string, args ...any) {
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
		case srcpos.String:
			return "string"
		case srcpos.Bool:
			return "boolean"
		case srcpos.Number:
			return "number"
		case srcpos.Array:
			return "array"
		case srcpos.Object:
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
	if o.Node.Kind != srcpos.Object {
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
	if o.Group() {
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
		return set(c.itemsValue(o, data), FromItems)
	}
	if o.Ext != nil && o.Ext.OverwriteDefaultWith != nil && !fd.ContextResolved {
		c.throw(FailValue, o, nil, "option %q gets no value: its overwriteDefaultWith %s finds nothing in the context (as for a user or deployment without it), and it has no usable default and nothing in values.yaml, so the form will not open. %s", o.Path, show(nodeValue(o.Ext.OverwriteDefaultWith)), c.fix(o))
	}
	c.throw(FailValue, o, nil, "option %q gets no value from any source (no const, no usable default, nothing from the context, nothing in values.yaml), so the form will not open. %s", o.Path, c.fix(o))
	return nil
}

// itemsValue is the value of an array without one: minItems items, each
// with the items' value.
func (c *computer) itemsValue(o *Option, data *scope) []any {
	out := []any{}
	n := 0
	if o.minItems != nil {
		n = *o.minItems
	}
	if n == 0 {
		return out
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
	return out
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
	// An empty list maps to an empty list: the platform sends [], where
	// null would make Helm delete the key.
	out = make([]any, 0, len(list))
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
		if o.Node.Kind != srcpos.Object {
			continue
		}
		for _, n := range []*srcpos.Node{o.ListEnum, o.Enum} {
			if n == nil || n.Kind != srcpos.Array {
				continue
			}
			for _, it := range n.Items {
				var r verdict
				// A pattern that throws is a failure of its own.
				if !f.c.try(func() { r = f.c.validateNoEnum(o, f.c.root, nodeValue(it)) }) || r.valid {
					continue
				}
				instead := "the option is no select"
				if choices := f.Allowed(o).Choices; len(choices) > 0 {
					instead = "the select offers " + showList(choices)
				}
				out = append(out, NodeError{Node: it, Msg: fmt.Sprintf("%s of option %q is ignored whole because its value %s does not fit the option (%s); %s", n.Key, o.Path, show(nodeValue(it)), r.why, instead)})
				break
			}
		}
	}
	return out
}
