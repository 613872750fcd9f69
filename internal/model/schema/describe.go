package schema

import (
	"strings"

	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
)

// Description is a computed form in a serialisable shape: what the
// platform's configuration form shows for each option, the values it would
// send, and what stops it. `catalogist form` prints it and the test vectors
// under testdata/form/ are judged against it, so its field names are stable.
type Description struct {
	// File is the chart's schema file.
	File         string `json:"file"`
	ExtensionKey string `json:"extensionKey"`
	Platform     string `json:"platform"`
	// Options are every option in the order the form shows them: a group's
	// properties after it, an array's items after it.
	Options []DescribedOption `json:"options"`
	// Values is the values document the platform would send.
	Values map[string]any `json:"values"`
	// Opens is false when anything in Failures (other than a revealed one),
	// or any shape problem, makes the form refuse to open or crash at once.
	Opens    bool               `json:"opens"`
	Failures []DescribedProblem `json:"failures"`
	Shapes   []DescribedProblem `json:"shapes"`
	// Schemaless is true for a chart without values.schema.json: File is
	// then its values.yaml, and the platform opens a launcher with no
	// fields that sends Values.
	Schemaless bool `json:"schemaless,omitempty"`
	// Substitutions are the properties the API replaced with registry
	// schemas; Unresolved the names and $ref it left as they are.
	Substitutions []DescribedReference `json:"substitutions,omitempty"`
	Unresolved    []DescribedReference `json:"unresolved,omitempty"`
}

// DescribedOption is one option of the form.
type DescribedOption struct {
	// Key is the option's key segments; ItemsKey stands for an array's items.
	Key         []string `json:"key"`
	Title       string   `json:"title"`
	Description string   `json:"description,omitempty"`
	Type        string   `json:"type,omitempty"`
	Render      string   `json:"render,omitempty"`
	Widget      Widget   `json:"widget"`
	// Value is the effective default when Defined; Source says which source
	// gave it.
	Value           any    `json:"value"`
	Defined         bool   `json:"defined"`
	Source          Source `json:"source,omitempty"`
	DefaultRejected string `json:"defaultRejected,omitempty"`
	// Slider holds the effective slider fields of an option with sliderMin
	// and sliderMax (or a region or catalog configuration).
	Slider   *DescribedSlider `json:"slider,omitempty"`
	Hidden   bool             `json:"hidden"`
	ReadOnly bool             `json:"readOnly"`
	// Choices are the options of a select.
	Choices []any `json:"choices,omitempty"`
	// Context describes overwriteDefaultWith, when the option has one.
	Context *DescribedContext `json:"context,omitempty"`
	// HiddenWhen is the option's hidden condition when it can hide it;
	// Check what a value the user types is judged against. With them a
	// page re-evaluates visibility and validation as values are edited,
	// without computing the form again.
	HiddenWhen *DescribedHidden `json:"hiddenWhen,omitempty"`
	Check      *DescribedCheck  `json:"check,omitempty"`
}

// DescribedHidden is a hidden condition: always, or while the value at Path
// (segments, from the values root or, when Relative, after the key of the
// object holding the option, item indexes included) deep-equals Value.
type DescribedHidden struct {
	Always   bool     `json:"always,omitempty"`
	Path     []string `json:"path,omitempty"`
	Relative bool     `json:"relative,omitempty"`
	Value    any      `json:"value,omitempty"`
}

// DescribedCheck is what the platform checks a value of the option against
// (see Check): its type, pattern and minimum, its effective slider fields,
// the choices of a select, the count of a list's items, and whether it is
// an end of a range slider, whose down end may not exceed its up end.
type DescribedCheck struct {
	// Const is true for an option with a const, which the form neither
	// shows nor lets anyone edit.
	Const   bool     `json:"const,omitempty"`
	Type    string   `json:"type"`
	Pattern string   `json:"pattern,omitempty"`
	Minimum *float64 `json:"minimum,omitempty"`
	Min     *float64 `json:"sliderMin,omitempty"`
	Max     *float64 `json:"sliderMax,omitempty"`
	Unit    *string  `json:"unit,omitempty"`
	// Choices are nil for an option that is no select.
	Choices  []any `json:"choices,omitempty"`
	MinItems *int  `json:"minItems,omitempty"`
	MaxItems *int  `json:"maxItems,omitempty"`
	// Properties is true for an object whose value must hold each of its
	// properties.
	Properties bool `json:"properties,omitempty"`
	// Extremity and RangeID name a range slider's end; RangeUnit is its
	// bounds' unit when it has bounds (Bounded).
	Extremity string `json:"extremity,omitempty"`
	RangeID   string `json:"rangeId,omitempty"`
	Bounded   bool   `json:"bounded,omitempty"`
	RangeUnit string `json:"rangeUnit,omitempty"`
}

// DescribedSlider is an option's effective slider bounds and their origin.
type DescribedSlider struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
	// Step is the effective step: 1 when the chart writes none.
	Step float64 `json:"step"`
	// StepSet is false when no sliderStep was written.
	StepSet bool `json:"stepSet"`
	// Unit is nil when no sliderUnit was written: a number slider with any
	// unit, even "", crashes the form.
	Unit *string `json:"unit,omitempty"`
	// Origin is BoundsChart, BoundsRegion or BoundsCatalog; Config names the
	// region or catalog configuration and File the file it was read from.
	Origin    string `json:"origin"`
	Config    string `json:"config,omitempty"`
	File      string `json:"file,omitempty"`
	Extremity string `json:"extremity,omitempty"`
	RangeID   string `json:"rangeId,omitempty"`
}

// DescribedContext is an option's overwriteDefaultWith and what it gave.
type DescribedContext struct {
	// Expression is overwriteDefaultWith as written; Paths the context
	// paths it names.
	Expression any      `json:"expression"`
	Paths      []string `json:"paths"`
	// Resolved is false when the expression is undefined in the context;
	// Value is what it resolved to; Rejected why the option did not take it.
	Resolved bool   `json:"resolved"`
	Value    any    `json:"value,omitempty"`
	Rejected string `json:"rejected,omitempty"`
	// Missing are the paths the target platform's launch context does not
	// have (as lint's context-path rule judges them): the option falls
	// back to its next source there, whoever launches.
	Missing []string `json:"missing,omitempty"`
}

// DescribedProblem is one failure of the form or one shape problem, at its
// position.
type DescribedProblem struct {
	Kind    string   `json:"kind"`
	Key     []string `json:"key"`
	Message string   `json:"message"`
	File    string   `json:"file"`
	Line    int      `json:"line"`
	Column  int      `json:"column"`
	// Revealed is true for a crash that happens only once an option hidden
	// with the computed values is shown: the form still opens.
	Revealed bool `json:"revealed"`
}

// DescribedReference is a registry substitution, or a name or $ref the API
// left unresolved.
type DescribedReference struct {
	Key    []string `json:"key"`
	Name   string   `json:"name"`
	Ref    bool     `json:"ref,omitempty"`
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Column int      `json:"column"`
	// Why says why a name was left unresolved, Suggestion a close name.
	Why        string `json:"why,omitempty"`
	Suggestion string `json:"suggestion,omitempty"`
	// Registry is the registry file a substitution came from.
	Registry string `json:"registry,omitempty"`
}

// FailResolve is the kind of a failure of the API to serve the schema at all
// (a reference that leads back to itself): nothing opens.
const FailResolve FailureKind = "resolve"

// Describe computes the form of a schema in a context with the chart's
// values.yaml, as Compute does, and describes it.
func Describe(s *Schema, ctx *Context, values any) *Description {
	return Compute(s, ctx, values).Describe()
}

// Describe describes a computed form.
func (f *Form) Describe() *Description {
	s, ctx := f.c.s, f.c.ctx
	d := &Description{
		File: s.File, ExtensionKey: s.ExtKey, Platform: s.Platform.Name,
		Options: []DescribedOption{}, Values: f.Values,
		Failures: []DescribedProblem{}, Shapes: []DescribedProblem{},
		Schemaless: f.schemaless,
	}
	keyAt := keyFinder(s)
	known := s.Platform.Model()
	for _, o := range formOrder(s.Top) {
		do := describeOption(s, ctx, f, o)
		if do.Context != nil && !o.InItems {
			for _, p := range do.Context.Paths {
				if ok, _ := known.Check(launchcontext.SplitPath(p)); !ok {
					do.Context.Missing = append(do.Context.Missing, p)
				}
			}
		}
		d.Options = append(d.Options, do)
	}
	d.Opens, d.Failures, d.Shapes = f.verdict(keyAt)
	for _, sub := range s.Substitutions {
		r := reference(s, keyAt(sub.Node), sub.Name, false, sub.Node)
		r.Registry = sub.Entry.File
		d.Substitutions = append(d.Substitutions, r)
	}
	for _, u := range s.Unresolved {
		r := reference(s, keyAt(u.Node), u.Name, u.Ref, u.Node)
		r.Why, r.Suggestion = u.Why, u.Suggestion
		d.Unresolved = append(d.Unresolved, r)
	}
	return d
}

// Verdict is what Describe says of whether the form opens (Opens,
// Failures and Shapes), without describing every option.
func (f *Form) Verdict() (opens bool, failures, shapes []DescribedProblem) {
	return f.verdict(keyFinder(f.c.s))
}

func (f *Form) verdict(keyAt func(*srcpos.Node) []string) (opens bool, failures, shapes []DescribedProblem) {
	s := f.c.s
	failures, shapes = []DescribedProblem{}, []DescribedProblem{}
	for _, e := range s.ResolveErrors {
		failures = append(failures, problemAt(s, string(FailResolve), keyAt(e.Node), e.Msg, e.Node, false))
	}
	for _, fl := range f.Failures {
		key := []string{}
		if fl.Option != nil {
			key = keyOf(fl.Option)
		}
		p := problemAt(s, string(fl.Kind), key, fl.Msg, fl.Node, false)
		p.Revealed = fl.Revealed
		failures = append(failures, p)
	}
	for _, sh := range s.Shapes() {
		key := []string{}
		if sh.Option != nil {
			key = keyOf(sh.Option)
		}
		shapes = append(shapes, problemAt(s, string(sh.Kind), key, sh.Msg, sh.Node, sh.AtKey))
	}
	opens = f.Opens() && len(shapes) == 0 && len(s.ResolveErrors) == 0
	return opens, failures, shapes
}

// keyFinder returns what finds the key of the option a node belongs to.
func keyFinder(s *Schema) func(*srcpos.Node) []string {
	byNode := map[*srcpos.Node]*Option{}
	for _, o := range s.Options {
		if _, dup := byNode[o.Node]; !dup {
			byNode[o.Node] = o
		}
	}
	return func(n *srcpos.Node) []string {
		for c := n; c != nil; c = c.Parent {
			if o := byNode[c]; o != nil {
				return keyOf(o)
			}
		}
		return sourceKey(s, n)
	}
}

// sourceKey returns the key of the option a node of the chart's document
// as written belongs to, read from the document's structure: the resolved
// document the options are built from holds copies of the nodes the API
// replaced (a property substituted from the registry), so the node itself
// names no option.
func sourceKey(s *Schema, n *srcpos.Node) []string {
	var segs []string
	for c := n; c != nil && c.Parent != nil; c = c.Parent {
		switch p := c.Parent; {
		case p.Key == "properties" && p.Kind == srcpos.Object && p.Parent != nil && p.Parent.Kind == srcpos.Object:
			segs = append([]string{c.Key}, segs...)
		case c.Key == "items" && p.Kind == srcpos.Object:
			segs = append([]string{ItemsKey}, segs...)
		}
	}
	for ; len(segs) > 0; segs = segs[:len(segs)-1] {
		if s.OptionKey(segs...) != nil {
			return segs
		}
	}
	return []string{}
}

// formOrder lists the options below top as the form walks them: each
// option, then its properties in the form's order, then its items.
func formOrder(top *Option) []*Option {
	var out []*Option
	var walk func(o *Option)
	walk = func(o *Option) {
		for _, c := range o.Children {
			out = append(out, c)
			walk(c)
		}
		if o.Items != nil {
			out = append(out, o.Items)
			walk(o.Items)
		}
	}
	walk(top)
	return out
}

func keyOf(o *Option) []string {
	return append([]string{}, o.Key...)
}

func describeOption(s *Schema, ctx *Context, f *Form, o *Option) DescribedOption {
	fd := f.FieldKey(o.Key...)
	if fd == nil || fd.Option != o {
		// Two options with the same key segments (a property named "[]"
		// beside items) share one field; the second is computed nowhere.
		fd = &Field{Option: o}
	}
	out := DescribedOption{
		Key: keyOf(o), Title: o.Label(), Description: o.Description, Type: typeOf(o), Render: o.Render,
		Widget: fd.Widget, Value: fd.Value, Defined: fd.Defined, Source: fd.Source,
		DefaultRejected: fd.DefaultRejected, Hidden: fd.Hidden, ReadOnly: fd.Readonly,
	}
	if out.Widget == "" {
		out.Widget = WidgetNone
	}
	if fd.Widget == WidgetSelect {
		out.Choices = fd.Choices
		if out.Choices == nil {
			out.Choices = f.Allowed(o).Choices
		}
	}
	if fd.HasBounds {
		sf := ctx.Fields(s.Platform, o)
		out.Slider = &DescribedSlider{
			Min: fd.Bounds.Min, Max: fd.Bounds.Max, Step: fd.Bounds.Step, StepSet: sf.Step != nil, Unit: sf.Unit,
			Origin: fd.BoundsFrom, Config: fd.BoundsConfig, File: fd.BoundsFile,
			Extremity: o.Extremity, RangeID: o.RangeID,
		}
	}
	if o.Ext != nil && o.Ext.OverwriteDefaultWith != nil {
		expr := o.Ext.OverwriteDefaultWith.Value()
		c := &DescribedContext{Expression: jsValue(expr), Paths: []string{}, Resolved: fd.ContextResolved, Rejected: fd.ContextRejected}
		for _, r := range launchcontext.Refs(expr) {
			c.Paths = append(c.Paths, r.Path)
		}
		if fd.ContextResolved {
			c.Value = fd.ContextValue
		}
		out.Context = c
	}
	if h := o.Hidden; h != nil {
		switch {
		case h.Always:
			out.HiddenWhen = &DescribedHidden{Always: true}
		case h.complete():
			out.HiddenWhen = &DescribedHidden{Path: strings.Split(h.Path, "/"), Relative: h.Relative, Value: nodeValue(h.Value)}
		}
	}
	out.Check = describeCheck(s, ctx, f, o)
	return out
}

// describeCheck gives what Check judges a value of the option by.
func describeCheck(s *Schema, ctx *Context, f *Form, o *Option) *DescribedCheck {
	if o.Node.Kind != srcpos.Object {
		return nil
	}
	sf := ctx.Fields(s.Platform, o)
	c := &DescribedCheck{
		Const: o.Const != nil, Type: typeOf(o), Pattern: o.pattern, Minimum: o.minimum, Min: sf.Min, Max: sf.Max, Unit: sf.Unit,
		MinItems: o.minItems, MaxItems: o.maxItems, Properties: o.Node.Get("properties") != nil,
		Extremity: o.Extremity, RangeID: o.RangeID,
	}
	if o.PatternError() != nil {
		// A pattern the form cannot evaluate is not checked here, so
		// neither is it on the page.
		c.Pattern = ""
	}
	if f.c != nil {
		f.c.try(func() { c.Choices = f.c.resolveEnum(o, f.c.root) })
	}
	if b, _, ok := ctx.Bounds(s.Platform, o); ok {
		c.Bounded, c.RangeUnit = true, b.Unit
	}
	return c
}

func problemAt(s *Schema, kind string, key []string, msg string, n *srcpos.Node, atKey bool) DescribedProblem {
	p := DescribedProblem{Kind: kind, Key: key, Message: msg, File: s.File}
	if n != nil {
		p.File = s.FileOf(n)
		pos := n.Pos
		if atKey && n.KeyPos.IsValid() {
			pos = n.KeyPos
		}
		p.Line, p.Column = pos.Line, pos.Col
	}
	return p
}

func reference(s *Schema, key []string, name string, ref bool, n *srcpos.Node) DescribedReference {
	r := DescribedReference{Key: key, Name: name, Ref: ref, File: s.File}
	if n != nil {
		r.File, r.Line, r.Column = s.FileOf(n), n.Pos.Line, n.Pos.Col
	}
	return r
}
