package lint

import (
	"fmt"
	"strings"

	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/schema"
	"github.com/catalogist/catalogist/slider"
	"github.com/catalogist/catalogist/suggest"
)

// conditions returns the options with a {path, value} hidden condition.
func conditions(s *schema.Schema) []*schema.Option {
	var out []*schema.Option
	for _, o := range s.Options {
		if o.Hidden != nil && !o.Hidden.Always && o.Hidden.Node.Kind == doc.Object {
			out = append(out, o)
		}
	}
	return out
}

// hiddenTarget returns the option a condition looks at, or nil.
func hiddenTarget(s *schema.Schema, o *schema.Option) *schema.Option {
	if o.Hidden.Path == "" {
		return nil
	}
	return s.Option(o.Hidden.TargetPath(o))
}

// RuleHiddenPath reports conditions that point at nothing.
var RuleHiddenPath = &Rule{
	Name: "hidden-path", Severity: Error,
	Doc: "hidden.path names an existing option (from the values root, or from the parent with isPathRelative)",
	Run: func(p *Pass) {
		var paths []string
		for _, o := range p.Schema.Options {
			paths = append(paths, o.Path)
		}
		for _, o := range conditions(p.Schema) {
			h := o.Hidden
			if h.PathNode == nil || h.PathNode.Kind != doc.String || h.Path == "" {
				p.At(h.Node, "hidden condition of option %q needs a path, a slash-separated string such as \"git/enabled\"", o.Path)
				continue
			}
			if h.Value == nil {
				p.At(h.Node, "hidden condition of option %q has no value to compare with; it never hides anything", o.Path)
			}
			if hiddenTarget(p.Schema, o) != nil {
				continue
			}
			target := h.TargetPath(o)
			hint := ""
			switch {
			case !h.Relative && o.Parent != nil && p.Schema.Option(joinSlash(o.Parent.Path, strings.Trim(h.Path, "/"))) != nil:
				hint = "; it names a sibling: add \"isPathRelative\": true"
			case h.Relative && p.Schema.Option(strings.Trim(h.Path, "/")) != nil:
				hint = "; it names an option from the root: remove isPathRelative"
			case strings.Contains(h.Path, "."):
				hint = "; paths are separated by slashes, not dots"
			default:
				if s := suggest.Closest(target, paths); s != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", s)
				}
			}
			resolved := ""
			if target != strings.Trim(h.Path, "/") {
				resolved = fmt.Sprintf(" (resolved to %q)", target)
			}
			p.At(h.PathNode, "hidden.path %q of option %q points at no option%s; the condition never hides anything%s", h.Path, o.Path, resolved, hint)
		}
	},
}

func joinSlash(a, b string) string {
	if a == "" {
		return b
	}
	return a + "/" + b
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
	Name: "hidden-value", Severity: Error,
	Doc: "hidden.value has the type of the option it looks at (a value of another type never matches)",
	Run: func(p *Pass) {
		for _, o := range conditions(p.Schema) {
			t := hiddenTarget(p.Schema, o)
			v := o.Hidden.Value
			if t == nil || v == nil {
				continue
			}
			want, ok := kindFor(t.Type)
			if ok && v.Kind != want {
				p.At(v, "hidden.value of option %q is %s but %q is %s; the condition never matches%s", o.Path, showNode(v), t.Path, withArticle(t.Type), typeHint(v, t.Type))
			}
		}
	},
}

func typeHint(v *doc.Node, t string) string {
	if v.Kind == doc.String && t == "boolean" && (v.Text == "true" || v.Text == "false") {
		return fmt.Sprintf(": write %s without quotes", v.Text)
	}
	return ""
}

// RuleHiddenNever reports conditions that can never hold.
var RuleHiddenNever = &Rule{
	Name: "hidden-never", Severity: Warning,
	Doc: "a hidden condition can hold: its value is among the target's allowed values (enum, const, slider unit)",
	Run: func(p *Pass) {
		for _, o := range conditions(p.Schema) {
			t := hiddenTarget(p.Schema, o)
			v := o.Hidden.Value
			if t == nil || v == nil {
				continue
			}
			if want, ok := kindFor(t.Type); ok && v.Kind != want {
				continue // hidden-value reports it
			}
			val := v.Value()
			if why := cannotHold(p.Context, t, val); why != "" {
				p.At(v, "hidden condition of option %q can never hold: %s", o.Path, why)
			}
		}
	},
}

func cannotHold(bounds *schema.Context, t *schema.Option, val any) string {
	if t.Const != nil && !schema.EqualJSON(t.Const.Value(), val) {
		return fmt.Sprintf("%q is always %s", t.Path, showNode(t.Const))
	}
	dynamic := t.Ext != nil && t.Ext.OverwriteListEnumWith != nil
	for _, list := range []*doc.Node{t.Enum, t.ListEnum} {
		if list == nil || list.Kind != doc.Array || len(list.Items) == 0 || (list == t.ListEnum && dynamic) {
			continue
		}
		found := false
		for _, e := range list.Items {
			found = found || schema.EqualJSON(e.Value(), val)
		}
		if !found {
			return fmt.Sprintf("%s is not among the values %q allows (%s)", show(val), t.Path, list.Key)
		}
	}
	if b, _, ok := bounds.Bounds(t); ok && t.Type == "string" {
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
	if strings.IndexByte("aeiou", word[0]) >= 0 {
		return "an " + word
	}
	return "a " + word
}
