package schema

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// ShapeKind classifies a schema node the platform's form refuses.
type ShapeKind string

// The kinds of shape problem, each reported by its own lint rule.
const (
	ShapeType      ShapeKind = "type"        // not a schema object, no type or const, a type it does not know
	ShapeText      ShapeKind = "text"        // a title or description that is not a string
	ShapeRender    ShapeKind = "render"      // a render it does not know
	ShapeExtremity ShapeKind = "extremity"   // a sliderExtremity other than down or up
	ShapeSlider    ShapeKind = "slider"      // slider fields of the wrong type
	ShapeExtType   ShapeKind = "ext-type"    // overwriteDefaultWith or overwriteListEnumWith of the wrong type
	ShapeExtBool   ShapeKind = "ext-boolean" // hidden or readonly in the extension that are not booleans
	ShapeRef       ShapeKind = "ref"         // an unresolved $ref where the form needs a type
	ShapeOther     ShapeKind = "other"       // every other key of the wrong shape
)

// Shape is one schema node the platform's form refuses: the form will not
// open. The platform checks every node it reads (the root, each property,
// each array's items) before building the form.
type Shape struct {
	Kind   ShapeKind
	Option *Option
	Node   *srcpos.Node
	// AtKey is true when the finding belongs at the node's key.
	AtKey bool
	Msg   string
}

// The form's schema check: the keys it reads and what each must be.
var (
	// Types the platform's form accepts for an option.
	Types = []string{"object", "array", "string", "number", "integer", "boolean"}
	// Renders and Extremities the platform's form accepts.
	Renders     = []string{"slider", "textArea", "password", "list"}
	Extremities = []string{"down", "up"}
)

// ExtensionKeys are the keys the platform reads inside the extension object:
// the form's own, and overwriteSchemaWith, which its API reads. A platform
// without region slider configurations ignores useRegionSliderConfig.
var ExtensionKeys = []string{"overwriteDefaultWith", "useRegionSliderConfig", "overwriteListEnumWith", "hidden", "readonly", "overwriteSchemaWith"}

const wontOpen = "the form will not open"

// Shapes checks every node the form reads, as the platform does before
// building the form.
func (s *Schema) Shapes() []Shape {
	var out []Shape
	add := func(k ShapeKind, o *Option, n *srcpos.Node, atKey bool, format string, args ...any) {
		out = append(out, Shape{Kind: k, Option: o, Node: n, AtKey: atKey, Msg: fmt.Sprintf(format, args...)})
	}
	for _, o := range append([]*Option{s.Top}, s.Options...) {
		s.shape(o, add)
	}
	return out
}

// shapeAdd records a shape problem of an option.
type shapeAdd = func(ShapeKind, *Option, *srcpos.Node, bool, string, ...any)

func (s *Schema) shape(o *Option, add shapeAdd) {
	n := o.Node
	name := o.Path
	if o.Parent == nil {
		name = "(root)"
	}
	if n.Kind != srcpos.Object {
		add(ShapeType, o, n, true, "option %q is %s, not a schema object; %s", name, n.Kind.WithArticle(), wontOpen)
		return
	}
	if !s.shapeType(o, n, name, add) {
		return
	}
	shapeKeywords(o, n, name, add)
	shapeHidden(o, n, name, add)
	s.shapeExt(o, name, add)
}

// shapeType checks an option's type; it says whether the other checks are
// worth making.
func (s *Schema) shapeType(o *Option, n *srcpos.Node, name string, add shapeAdd) bool {
	t := n.Get("type")
	switch {
	case t == nil && o.Const == nil:
		if ref := n.Get("$ref"); ref != nil {
			if s.failedRef(ref) {
				return false // the API cannot serve the schema at all; form-opens says why
			}
			add(ShapeRef, o, ref, false, "option %q is only a $ref to %s, which the platform's API does not resolve (%s), so it has no type and %s; write the schema inline or under #/definitions/", name, ref.Show(), s.refWhy(ref), wontOpen)
			return false
		}
		add(ShapeType, o, n, true, "option %q has neither type nor const; %s", name, wontOpen)
	case t == nil:
	case t.Kind == srcpos.Array:
		add(ShapeType, o, t, false, "option %q has a list of types; the form accepts exactly one type, so %s", name, wontOpen)
	case t.Kind != srcpos.String || !slices.Contains(Types, t.Text):
		add(ShapeType, o, t, false, "option %q has type %s; the form accepts only %s, so %s%s", name, t.Show(), strings.Join(Types, ", "), wontOpen, suggest.Hint(t.Text, Types))
	}
	return true
}

// shapeKeywords checks the kinds of the keywords the form reads.
func shapeKeywords(o *Option, n *srcpos.Node, name string, add shapeAdd) {
	for _, key := range []string{"title", "description"} {
		if v := n.Get(key); v != nil && v.Kind != srcpos.String {
			add(ShapeText, o, v, false, "%s of option %q is %s; write a string: %s otherwise", key, name, v.Kind.WithArticle(), wontOpen)
		}
	}
	if r := n.Get("render"); r != nil && (r.Kind != srcpos.String || !slices.Contains(Renders, r.Text)) {
		add(ShapeRender, o, r, false, "render %s of option %q is not one of %s, so %s%s", r.Show(), name, strings.Join(Renders, ", "), wontOpen, suggest.Hint(r.Text, Renders))
	}
	if e := n.Get("sliderExtremity"); e != nil && (e.Kind != srcpos.String || !slices.Contains(Extremities, e.Text)) {
		add(ShapeExtremity, o, e, false, "sliderExtremity %s of option %q is neither \"down\" nor \"up\", so %s%s", e.Show(), name, wontOpen, suggest.Hint(e.Text, Extremities))
	}
	for _, f := range []struct {
		key  string
		kind srcpos.Kind
		sk   ShapeKind
	}{
		{"sliderMin", srcpos.Number, ShapeSlider}, {"sliderMax", srcpos.Number, ShapeSlider}, {"sliderStep", srcpos.Number, ShapeSlider},
		{"sliderUnit", srcpos.String, ShapeSlider},
		{"sliderExtremitySemantic", srcpos.String, ShapeOther}, {"sliderRangeId", srcpos.String, ShapeOther},
		{"minimum", srcpos.Number, ShapeOther}, {"pattern", srcpos.String, ShapeOther},
		{"enum", srcpos.Array, ShapeOther}, {"listEnum", srcpos.Array, ShapeOther},
		{"properties", srcpos.Object, ShapeOther}, {"required", srcpos.Array, ShapeOther},
	} {
		if v := n.Get(f.key); v != nil && v.Kind != f.kind {
			add(f.sk, o, v, false, "%s of option %q is %s; the form reads only %s there, so %s", f.key, name, v.Show(), f.kind.WithArticle(), wontOpen)
		}
	}
	if req := n.Get("required"); req != nil && req.Kind == srcpos.Array {
		for _, it := range req.Items {
			if it.Kind != srcpos.String {
				add(ShapeOther, o, it, false, "required of option %q lists %s; it lists property names (strings), so %s", name, it.Show(), wontOpen)
			}
		}
	}
	for _, key := range []string{"minItems", "maxItems"} {
		v := n.Get(key)
		if v == nil {
			continue
		}
		f, ok := v.Float()
		if !ok || f != math.Trunc(f) || (key == "maxItems" && f < 0) {
			want := "a whole number"
			if key == "maxItems" {
				want = "a whole number, 0 or more"
			}
			add(ShapeOther, o, v, false, "%s of option %q is %s; write %s: %s otherwise", key, name, v.Show(), want, wontOpen)
		}
	}
	if items := n.Get("items"); items != nil && items.Kind != srcpos.Object {
		if items.Kind == srcpos.Array {
			add(ShapeOther, o, items, false, "items of option %q is a list of schemas (a tuple); the form reads one schema for every item, so %s: write \"items\": {...}", name, wontOpen)
		} else {
			add(ShapeOther, o, items, false, "items of option %q is %s, not a schema object, so %s", name, items.Show(), wontOpen)
		}
	}
}

// shapeHidden checks a hidden condition.
func shapeHidden(o *Option, n *srcpos.Node, name string, add shapeAdd) {
	if h := n.Get("hidden"); h != nil {
		switch h.Kind {
		case srcpos.Bool:
		case srcpos.Object:
			if h.Get("value") == nil {
				target := "the option at path"
				if p := h.Get("path"); p != nil && p.Kind == srcpos.String {
					target = fmt.Sprintf("%q", p.Text)
				}
				add(ShapeOther, o, h, false, "hidden condition of option %q has no value, so %s; add \"value\": the value of %s that hides it", name, wontOpen, target)
			}
			if p := h.Get("path"); p == nil || p.Kind != srcpos.String {
				at := h
				if p != nil {
					at = p
				}
				add(ShapeOther, o, at, false, "hidden condition of option %q needs path, a slash-separated string such as \"git/enabled\", so %s", name, wontOpen)
			}
			if r := h.Get("isPathRelative"); r != nil && r.Kind != srcpos.Bool {
				add(ShapeOther, o, r, false, "isPathRelative of option %q is %s; write true or false: %s otherwise", name, r.Show(), wontOpen)
			}
		default:
			add(ShapeOther, o, h, false, "hidden of option %q is %s; write true, false or {\"path\": ..., \"value\": ...}: %s otherwise", name, h.Show(), wontOpen)
		}
	}
}

// shapeExt checks the extension's keywords.
func (s *Schema) shapeExt(o *Option, name string, add shapeAdd) {
	ext := o.Ext
	if ext == nil {
		return
	}
	if ext.Node.Kind != srcpos.Object {
		add(ShapeExtType, o, ext.Node, false, "%s of option %q is %s; write an object such as {\"overwriteDefaultWith\": \"git.name\"}: %s otherwise", s.ExtKey, name, ext.Node.Kind.WithArticle(), wontOpen)
		return
	}
	if v := ext.OverwriteDefaultWith; v != nil && v.Kind != srcpos.String && v.Kind != srcpos.Array && v.Kind != srcpos.Object {
		add(ShapeExtType, o, v, false, "overwriteDefaultWith of option %q is %s, so %s; write a context path such as \"git.name\", or put a fixed value in default", name, v.Kind.WithArticle(), wontOpen)
	}
	if v := ext.OverwriteListEnumWith; v != nil && v.Kind != srcpos.String && v.Kind != srcpos.Array {
		add(ShapeExtType, o, v, false, "overwriteListEnumWith of option %q is %s, so %s; write a context path or a list", name, v.Kind.WithArticle(), wontOpen)
	}
	for _, v := range []*srcpos.Node{ext.Readonly, ext.Hidden} {
		switch {
		case v == nil || v.Kind == srcpos.Bool:
		case v.Key == "hidden" && v.Kind == srcpos.Object:
			add(ShapeExtBool, o, v, false, "hidden inside %s of option %q is a {path, value} condition, but there the form accepts only true or false, so %s; move the condition out of %s, next to \"type\"", s.ExtKey, name, wontOpen, s.ExtKey)
		default:
			add(ShapeExtBool, o, v, false, "%s inside %s of option %q is %s; write true or false: %s otherwise", v.Key, s.ExtKey, name, v.Show(), wontOpen)
		}
	}
}

// failedRef reports whether resolving a $ref failed outright.
func (s *Schema) failedRef(ref *srcpos.Node) bool {
	for _, e := range s.ResolveErrors {
		if e.Node == ref {
			return true
		}
	}
	return false
}

// refWhy says why the API left a $ref unresolved.
func (s *Schema) refWhy(ref *srcpos.Node) string {
	for _, u := range s.Unresolved {
		if u.Node == ref {
			if u.Suggestion != "" {
				return fmt.Sprintf("%s; did you mean %q?", u.Why, u.Suggestion)
			}
			return u.Why
		}
	}
	return "it is not a string"
}
