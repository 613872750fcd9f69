package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/schema"
	"github.com/catalogist/catalogist/slider"
	"github.com/catalogist/catalogist/suggest"
)

// conditions returns the options with a {path, value} hidden condition the
// form can read (schema-shape reports the others).
func conditions(s *schema.Schema) []*schema.Option {
	var out []*schema.Option
	for _, o := range s.Options {
		h := o.Hidden
		if h != nil && !h.Always && h.Node.Kind == doc.Object && h.PathNode != nil && h.PathNode.Kind == doc.String && h.Value != nil {
			out = append(out, o)
		}
	}
	return out
}

// hiddenTarget returns the option a condition looks at, or nil: the path
// split on slashes as the platform splits it, an array's items standing for
// any of its elements.
func hiddenTarget(s *schema.Schema, o *schema.Option) *schema.Option {
	return s.Resolve(o.Hidden.Target(o))
}

// RuleHiddenPath reports conditions that point at nothing.
var RuleHiddenPath = &Rule{
	Name: "hidden-path", Severity: Warning, Launchable: true,
	Doc: "hidden.path names an existing option (from the values root, or from the parent with isPathRelative); one that names nothing never hides anything",
	Run: func(p *Pass) {
		var paths []string
		for _, o := range p.Schema.Options {
			paths = append(paths, o.Path)
		}
		for _, o := range conditions(p.Schema) {
			h := o.Hidden
			if hiddenTarget(p.Schema, o) != nil {
				continue
			}
			target := h.TargetPath(o)
			rel := func(segs []string) []string {
				if o.Parent == nil {
					return segs
				}
				return append(append([]string(nil), o.Parent.Key...), segs...)
			}
			trimmed := strings.Split(strings.Trim(h.Path, "/"), "/")
			hint := ""
			switch {
			case strings.HasPrefix(h.Path, "/") || strings.HasSuffix(h.Path, "/"):
				hint = "; a leading or trailing slash makes an empty segment, which never matches: remove it"
			case !h.Relative && o.Parent != nil && o.Parent.Parent != nil && p.Schema.Resolve(rel(trimmed)) != nil:
				hint = "; it names a sibling: add \"isPathRelative\": true"
			case h.Relative && p.Schema.Resolve(trimmed) != nil:
				hint = "; it names an option from the root: remove isPathRelative"
			case slashKey(p.Schema, h, o) != "":
				hint = fmt.Sprintf("; the platform splits hidden.path on every slash, so it cannot name %q, whose key holds a slash", slashKey(p.Schema, h, o))
			case strings.Contains(h.Path, "."):
				hint = "; paths are separated by slashes, not dots"
			default:
				if s := suggest.Closest(target, paths); s != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", s)
				}
			}
			resolved := ""
			if target != h.Path {
				resolved = fmt.Sprintf(" (resolved to %q)", target)
			}
			p.At(h.PathNode, "hidden.path %q of option %q points at no option%s; the condition never hides anything%s", h.Path, o.Path, resolved, hint)
		}
	},
}

// slashKey returns the path of an option whose key holds a slash and which
// the condition's path spells, or "".
func slashKey(s *schema.Schema, h *schema.Hidden, o *schema.Option) string {
	want := h.TargetPath(o)
	for _, x := range s.Options {
		if x.Path == want {
			for _, k := range x.Key {
				if strings.Contains(k, "/") {
					return x.Path
				}
			}
		}
	}
	return ""
}

// kindFor is the JSON kind values of an option type have.
func kindFor(t string) (doc.Kind, bool) {
	switch t {
	case "string":
		return doc.String, true
	case "boolean":
		return doc.Bool, true
	case "number", "integer":
		return doc.Number, true
	case "object":
		return doc.Object, true
	case "array":
		return doc.Array, true
	}
	return 0, false
}

// RuleHiddenValue reports conditions comparing with a value of another type.
var RuleHiddenValue = &Rule{
	Name: "hidden-value", Severity: Warning, Launchable: true,
	Doc: "hidden.value has the type of the option it looks at (a value of another type never matches, so the option is never hidden)",
	Run: func(p *Pass) {
		for _, o := range conditions(p.Schema) {
			t := hiddenTarget(p.Schema, o)
			v := o.Hidden.Value
			if t == nil {
				continue
			}
			want, ok := kindFor(t.Type)
			if ok && v.Kind != want {
				p.At(v, "hidden.value of option %q is %s but %q is %s; the condition never matches%s", o.Path, v.Show(), t.Path, withArticle(t.Type), typeHint(v, t.Type))
			}
		}
	},
}

func typeHint(v *doc.Node, t string) string {
	if v.Kind != doc.String {
		return ""
	}
	_, err := strconv.ParseFloat(v.Text, 64)
	switch {
	case t == "boolean" && (v.Text == "true" || v.Text == "false"),
		(t == "number" || t == "integer") && err == nil:
		return fmt.Sprintf(": write %s without quotes", v.Text)
	}
	return ""
}

// RuleHiddenNever reports conditions that can never hold.
var RuleHiddenNever = &Rule{
	Name: "hidden-never", Severity: Warning, Launchable: true,
	Doc: "a hidden condition can hold: its value is among the target's allowed values (choices, const, slider unit)",
	Run: func(p *Pass) {
		for _, o := range conditions(p.Schema) {
			t := hiddenTarget(p.Schema, o)
			v := o.Hidden.Value
			if t == nil {
				continue
			}
			if want, ok := kindFor(t.Type); ok && v.Kind != want {
				continue // hidden-value reports it
			}
			if why := cannotHold(p, t, v.Value()); why != "" {
				p.At(v, "hidden condition of option %q can never hold: %s", o.Path, why)
			}
		}
	},
}

func cannotHold(p *Pass, t *schema.Option, val any) string {
	if t.Const != nil && !schema.EqualJSON(t.Const.Value(), val) {
		return fmt.Sprintf("%q is always %s", t.Path, t.Const.Show())
	}
	// Choices filled from the context depend on the user: nothing to say.
	if t.Ext == nil || t.Ext.OverwriteListEnumWith == nil {
		if choices := p.Form.Choices(t); len(choices) > 0 {
			found := false
			for _, c := range choices {
				found = found || schema.EqualJSON(c, val)
			}
			if !found {
				return fmt.Sprintf("%s is not among the choices of %q", show(val), t.Path)
			}
		}
	}
	if b, _, ok := p.Context.Bounds(p.Platform, t); ok && t.Type == "string" && t.SliderNodes.Unit != nil {
		x, err := slider.Parse(val, b.Unit)
		switch {
		case err != nil:
			return fmt.Sprintf("the slider %q never holds %s", t.Path, show(val))
		case !b.Contains(x):
			return fmt.Sprintf("%s is outside the range of the slider %q, %s to %s", show(val), t.Path, b.Format(b.Min), b.Format(b.Max))
		}
	}
	return ""
}

func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

func withArticle(word string) string {
	if word != "" && strings.IndexByte("aeiou", word[0]) >= 0 {
		return "an " + word
	}
	return "a " + word
}
