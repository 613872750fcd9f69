package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// optionView is one row of the options table.
type optionView struct {
	Path, Title, Description string
	// PathParts is Path cut after each '/' and '.': the page lets a long
	// key wrap there, and nowhere inside a word.
	PathParts []string
	// Anchor is the row's id, Href the link to it (see anchor).
	Anchor, Href string
	Type, Render string
	// Depth indents the row (0 to 5).
	Depth int
	// Group is an object with properties: a heading row.
	Group   bool
	Default defaultView
	Notes   []note
}

type defaultView struct {
	// Kind is "value", "empty" (the empty string) or "none".
	Kind, Text string
	// Note says where the default came from when it is not the schema's.
	Note string
	// TextParts and NoteParts are Text and Note cut where the page may
	// wrap them (see wrapParts): after a separator of a key or a value.
	TextParts, NoteParts []string
}

// note is one fact about how the form shows an option; Parts mix text and
// code so that templates escape everything.
type note struct {
	Kind  string
	Parts []part
}

type part struct {
	Text string
	Code bool
	// Wrap is the code cut after each '/' and '.': code is mostly keys
	// and context paths, which wrap there and nowhere inside a word.
	Wrap []string
}

func txt(s string) part  { return part{Text: s} }
func code(s string) part { return part{Text: s, Code: true, Wrap: wrapParts(s, keySeparators)} }

// contextModels holds the launch context model of each platform, made once
// per rendering.
type contextModels map[*schema.Platform]*launchcontext.Model

// of returns the model of the chart's platform, nil when the chart names
// none.
func (ms contextModels) of(c *Chart) *launchcontext.Model {
	if c.Schema == nil || c.Schema.Platform == nil {
		return nil
	}
	p := c.Schema.Platform
	if ms[p] == nil {
		ms[p] = p.Model()
	}
	return ms[p]
}

// options builds the options table from the chart's computed form (the one
// computation of defaults, bounds, choices and visibility; nothing is
// re-derived here). A chart with a schema but no form gets the form of an
// empty context. model is the platform's launch context, which pre-fill
// notes are checked against; nil checks nothing.
func options(c *Chart, model *launchcontext.Model) ([]optionView, string) {
	form := c.Form
	if form == nil {
		if c.Schema == nil {
			return nil, ""
		}
		form = schema.Compute(c.Schema, nil, nil)
	}
	var platform *schema.Platform
	if c.Schema != nil {
		platform = c.Schema.Platform
	}
	var rows []optionView
	region, catalog := false, false
	for _, f := range form.Fields {
		o := f.Option
		if o == nil {
			continue
		}
		switch f.BoundsFrom {
		case schema.BoundsRegion:
			region = true
		case schema.BoundsCatalog:
			catalog = true
		}
		rows = append(rows, optionRow(form, f, platform, model))
	}
	var note string
	switch {
	case region && catalog:
		note = "with the region's and the catalog's slider bounds"
	case region:
		note = "with the region's slider bounds"
	case catalog:
		note = "with the catalog's slider bounds"
	}
	return rows, note
}

func optionRow(form *schema.Form, f *schema.Field, platform *schema.Platform, model *launchcontext.Model) optionView {
	o := f.Option
	id := anchor(o)
	v := optionView{
		Path:        o.Path,
		PathParts:   wrapParts(o.Path, keySeparators),
		Anchor:      id,
		Href:        "#" + id,
		Title:       o.Title,
		Description: o.Description,
		Type:        o.Type,
		Render:      o.Render,
		Depth:       depth(o),
		Group:       o.Group(),
	}
	if v.Type == "" {
		if o.Const != nil {
			v.Type = "const"
		} else {
			v.Type = "none"
		}
	}
	if !v.Group {
		v.Default = defaultOf(f)
		v.Default.TextParts = wrapParts(v.Default.Text, valueSeparators)
		v.Default.NoteParts = wrapParts(v.Default.Note, keySeparators)
	}
	v.Notes = notesOf(form, f, platform, model)
	return v
}

// keySeparators are where a key or a context path may wrap; values also
// wrap after valueSeparators.
const (
	keySeparators   = "/."
	valueSeparators = "/.:,"
)

// wrapParts cuts text after each of the separators, the places where the
// page lets it wrap (with <wbr>) when it must: a long key or value never
// breaks inside a word ("custom/en abled").
func wrapParts(p, separators string) []string {
	var out []string
	for {
		i := strings.IndexAny(p, separators)
		if i < 0 || i == len(p)-1 {
			break
		}
		out = append(out, p[:i+1])
		p = p[i+1:]
	}
	return append(out, p)
}

// depth indents an option by its key segments: one level for each
// property, and one for the items of an array, which the table shows as a
// row of their own between the array and the items' properties. The path
// cannot tell: a segment may hold a slash (nvidia.com/gpu).
func depth(o *schema.Option) int {
	return max(0, min(len(o.Key)-1, 5))
}

// anchorPrefix starts every option's id. Its slash keeps the ids apart from
// the README's heading ids, which are made of letters, digits and dashes.
const anchorPrefix = "option"

// anchor is the id of an option's row: its key segments, each after a
// slash, with every byte of a segment other than a letter, digit, '.', '_'
// or '-' written as ~XX (its hex code); the items of an array are '*'. A
// slash inside a key is so told apart from one between keys
// (nvidia.com~2Fgpu is the key nvidia.com/gpu, nvidia.com/gpu the key gpu
// under nvidia.com), and every character is one a URL fragment holds as it
// is. The id depends on the key only: a link to a row outlives edits of the
// rest of the schema.
func anchor(o *schema.Option) string {
	var chain []*schema.Option
	for p := o; p != nil && p.Parent != nil; p = p.Parent {
		chain = append(chain, p)
	}
	var b strings.Builder
	b.WriteString(anchorPrefix)
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		b.WriteByte('/')
		// Told by the tree, not by the segment: a property may be named
		// like the items' key segment.
		if p.Parent.Items == p {
			b.WriteByte('*')
			continue
		}
		for j := 0; j < len(p.Name); j++ {
			switch ch := p.Name[j]; {
			case 'a' <= ch && ch <= 'z', 'A' <= ch && ch <= 'Z', '0' <= ch && ch <= '9', ch == '.', ch == '_', ch == '-':
				b.WriteByte(ch)
			default:
				fmt.Fprintf(&b, "~%02X", ch)
			}
		}
	}
	return b.String()
}

func defaultOf(f *schema.Field) defaultView {
	if !f.Defined {
		return defaultView{Kind: "none"}
	}
	d := defaultView{Kind: "value"}
	if s, ok := f.Value.(string); ok {
		if s == "" {
			d.Kind = "empty"
		}
		d.Text = s
	} else {
		d.Text = jsonText(f.Value)
	}
	switch f.Source {
	case schema.FromConst:
		d.Note = "fixed (const)"
	case schema.FromContext:
		d.Note = "from the context"
		if refs := refPaths(f.Option.Ext.OverwriteDefaultWith); len(refs) > 0 {
			d.Note = "from " + strings.Join(refs, ", ")
		}
	case schema.FromValues:
		d.Note = "from values.yaml"
	case schema.FromItems:
		d.Note = "from minItems"
	}
	return d
}

// jsonText writes a plain value as JSON (maps with sorted keys).
// The text is escaped by html/template, not by the JSON encoder.
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func nodeText(n *srcpos.Node) string {
	if n == nil {
		return ""
	}
	return jsonText(n.Value())
}

// refPaths lists, once each, the context paths an expression names.
func refPaths(n *srcpos.Node) []string {
	if n == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, r := range launchcontext.Refs(n.Value()) {
		if !seen[r.Path] {
			seen[r.Path] = true
			out = append(out, r.Path)
		}
	}
	return out
}

func rangeText(b slider.Config) string {
	s := b.Format(b.Min) + " – " + b.Format(b.Max)
	if b.Step > 0 {
		s += ", step " + b.Format(b.Step)
	}
	return s
}

func notesOf(form *schema.Form, f *schema.Field, platform *schema.Platform, model *launchcontext.Model) []note {
	var n notes
	n.slider(f, platform)
	n.hidden(f)
	n.prefill(form, f, model)
	if f.Readonly {
		n.add("readonly", txt("Read-only"))
	}
	return n
}

// notes are an option's notes, in the order the page lists them.
type notes []note

func (n *notes) add(kind string, parts ...part) { *n = append(*n, note{Kind: kind, Parts: parts}) }

// slider notes the slider's bounds, where they come from, and the end of a
// range the option is.
func (n *notes) slider(f *schema.Field, platform *schema.Platform) {
	o, add := f.Option, n.add
	if f.HasBounds {
		parts := []part{txt("Slider "), code(rangeText(f.Bounds))}
		if f.Bounds.Unit != "" {
			parts = append(parts, txt(" (unit "), code(f.Bounds.Unit), txt(")"))
		}
		add("slider", parts...)
		switch f.BoundsFrom {
		case schema.BoundsRegion, schema.BoundsCatalog:
			who := "the region"
			if f.BoundsFrom == schema.BoundsCatalog {
				who = "the catalog"
			}
			parts := []part{txt("Bounds from " + who + " (slider configuration "), code(f.BoundsConfig), txt(")")}
			if o.HasSlider {
				parts = append(parts, txt("; the chart's own are "), code(rangeText(o.Slider)))
			}
			add("region", parts...)
		default:
			if name := o.SliderConfigName(); name != "" {
				add("bounds", sliderConfigNote(name, platform)...)
			}
		}
		if o.Extremity != "" {
			end := "Lower"
			if o.Extremity == "up" {
				end = "Upper"
			}
			parts := []part{txt(end + " end")}
			if o.ExtremitySemantic != "" {
				parts = append(parts, txt(" ("+o.ExtremitySemantic+")"))
			}
			if o.RangeID != "" {
				parts = append(parts, txt(" of the range "), code(o.RangeID))
			}
			add("slider", parts...)
		}
	}

}

// hidden notes when the form hides the option.
func (n *notes) hidden(f *schema.Field) {
	o, add := f.Option, n.add
	if h := o.Hidden; h != nil {
		switch {
		case h.Always:
			add("hidden", txt("Always hidden"))
		case h.Path != "" && h.Value != nil:
			parts := []part{txt("Hidden when "), code(h.TargetPath(o)), txt(" is "), code(nodeText(h.Value))}
			if f.Hidden {
				parts = append(parts, txt(" (hidden with the defaults)"))
			}
			add("hidden", parts...)
		default:
			add("hidden", txt("Has an incomplete hidden condition, which hides nothing"))
		}
	}

}

// prefill notes what the option is pre-filled from, and its choices.
func (n *notes) prefill(form *schema.Form, f *schema.Field, model *launchcontext.Model) {
	o, add := f.Option, n.add
	if o.Ext != nil && o.Ext.OverwriteDefaultWith != nil {
		expr := o.Ext.OverwriteDefaultWith
		refs := refPaths(expr)
		parts := append([]part{txt("Pre-filled from ")}, codeList(refs)...)
		if len(refs) == 0 {
			parts = append(parts, code(nodeText(expr)))
		} else if !simpleRef(expr, refs) {
			parts = append(parts, txt(" as "), code(nodeText(expr)))
		}
		kind := "prefill"
		if missing := missingRefs(o, expr, model); len(missing) > 0 {
			kind = "fallback"
			parts = append(parts, fallbackNote(model, missing, "the value falls back to the default")...)
		}
		if f.ContextRejected != "" {
			parts = append(parts, txt(" (not used here: "+f.ContextRejected+")"))
		}
		add(kind, parts...)
	}

	if o.Ext != nil && o.Ext.OverwriteListEnumWith != nil {
		expr := o.Ext.OverwriteListEnumWith
		parts := append([]part{txt("Choices from ")}, codeList(refPaths(expr))...)
		kind := "choices"
		if missing := missingRefs(o, expr, model); len(missing) > 0 {
			kind = "fallback"
			parts = append(parts, fallbackNote(model, missing, "the choices fall back to listEnum")...)
		}
		add(kind, parts...)
	}
	if choices := choicesOf(form, f); len(choices) > 0 {
		parts := []part{txt("One of ")}
		for i, c := range choices {
			if i > 0 {
				parts = append(parts, txt(", "))
			}
			parts = append(parts, code(c))
		}
		add("choices", parts...)
	}
}

// codeList writes paths as code, separated by commas.
func codeList(paths []string) []part {
	var out []part
	for i, p := range paths {
		if i > 0 {
			out = append(out, txt(", "))
		}
		out = append(out, code(p))
	}
	return out
}

// fallbackNote ends a pre-fill note whose paths the platform's context
// lacks, as lint's context-path rule reports them.
func fallbackNote(model *launchcontext.Model, missing []string, then string) []part {
	parts := []part{txt(" when the context has it; the " + model.Name + " platform's context has no ")}
	parts = append(parts, codeList(missing)...)
	return append(parts, txt(", so "+then+" there"))
}

// missingRefs lists, once each, the context paths of an option's
// expression that the platform's launch context does not have. It judges
// them as lint's context-path rule does, with the model's Check: inside the
// items of an array that maps a context list onto them, a reference may
// also name a field of the list's elements, and nothing is said of a list
// whose elements are unknown.
func missingRefs(o *schema.Option, expr *srcpos.Node, model *launchcontext.Model) []string {
	if model == nil || expr == nil {
		return nil
	}
	var fields []string
	if list, mapped := mappedList(o); mapped {
		refs := launchcontext.Refs(list.Value())
		if len(refs) != 1 {
			return nil
		}
		keys, known := model.Element(refs[0].Segs)
		if !known {
			return nil
		}
		fields = keys
	}
	var out []string
	for _, r := range launchcontext.Refs(expr.Value()) {
		if len(r.Segs) > 0 && slices.Contains(fields, r.Segs[0]) {
			continue
		}
		if ok, _ := model.Check(r.Segs); !ok && !slices.Contains(out, r.Path) {
			out = append(out, r.Path)
		}
	}
	return out
}

// mappedList returns the expression of the nearest array whose items
// hold o, when that array's overwriteDefaultWith may map a context list
// onto its items.
func mappedList(o *schema.Option) (*srcpos.Node, bool) {
	for a := o.Parent; a != nil; a = a.Parent {
		if a.Items == nil || !under(o, a.Items) {
			continue
		}
		if a.Ext == nil || a.Ext.OverwriteDefaultWith == nil {
			return nil, false
		}
		return a.Ext.OverwriteDefaultWith, true
	}
	return nil, false
}

func under(o, anc *schema.Option) bool {
	for c := o; c != nil; c = c.Parent {
		if c == anc {
			return true
		}
	}
	return false
}

// sliderConfigNote explains an option that asks for a slider configuration
// nothing gave it: the chart's own bounds are shown. Only a platform with
// region-bounded sliders would replace them.
func sliderConfigNote(name string, platform *schema.Platform) []part {
	if platform != nil && !platform.RegionSliders {
		return []part{txt("Asks for the slider configuration "), code(name),
			txt(", but on the " + platform.Name + " platform useRegionSliderConfig is ignored: the chart's own bounds apply")}
	}
	return []part{txt("A region's slider configuration "), code(name),
		txt(" replaces these bounds when the region defines it")}
}

// simpleRef reports whether an expression is just its one reference
// ("git.name" or "{{git.name}}").
func simpleRef(n *srcpos.Node, refs []string) bool {
	if n.Kind != srcpos.String || len(refs) != 1 {
		return false
	}
	return n.Text == refs[0] || n.Text == "{{"+refs[0]+"}}"
}

// choicesOf lists the options of a select as the form computes them (a
// list the form drops whole is no choice), also for a field the form did
// not show as a select with its value (under array items, or failing).
func choicesOf(form *schema.Form, f *schema.Field) []string {
	choices := form.Allowed(f.Option).Choices
	out := make([]string, 0, len(choices))
	for _, c := range choices {
		if s, ok := c.(string); ok {
			out = append(out, s)
		} else {
			out = append(out, jsonText(c))
		}
	}
	return out
}
