package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// hiddenRules check hidden conditions.
var hiddenRules = []*Rule{RuleHiddenPath, RuleHiddenValue, RuleHiddenNever}

// RuleHiddenPath reports conditions that point at nothing.
var RuleHiddenPath = &Rule{
	Name: "hidden-path", Severity: Warning, Launchable: true,
	Doc: "hidden.path names an existing option (from the values root, or from the parent with isPathRelative); one that names nothing never hides anything",
	Run: func(p *Pass) {
		var paths []string
		for _, o := range p.Schema().Options {
			paths = append(paths, o.Path)
		}
		for _, c := range hiddenConditions.of(p) {
			if c.verdict != hiddenNoTarget {
				continue
			}
			o, h := c.option, c.option.Hidden
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
			case !h.Relative && o.Parent != nil && o.Parent.Parent != nil && p.Schema().Resolve(rel(trimmed)) != nil:
				hint = "; it names a sibling: add \"isPathRelative\": true"
			case h.Relative && p.Schema().Resolve(trimmed) != nil:
				hint = "; it names an option from the root: remove isPathRelative"
			case slashKey(p.Schema(), h, o) != "":
				hint = fmt.Sprintf("; the platform splits hidden.path on every slash, so it cannot name %q, whose key holds a slash", slashKey(p.Schema(), h, o))
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

// RuleHiddenValue reports conditions comparing with a value of another type.
var RuleHiddenValue = &Rule{
	Name: "hidden-value", Severity: Warning, Launchable: true,
	Doc: "hidden.value has the type of the option it looks at (a value of another type never matches, so the option is never hidden)",
	Run: func(p *Pass) {
		for _, c := range hiddenConditions.of(p) {
			if c.verdict != hiddenWrongType {
				continue
			}
			o, t, v := c.option, c.target, c.option.Hidden.Value
			p.At(v, "hidden.value of option %q is %s but %q is %s; the condition never matches%s", o.Path, v.Show(), t.Path, schema.WithArticle(t.Type), typeHint(v, t.Type))
		}
	},
}

func typeHint(v *srcpos.Node, t string) string {
	if v.Kind != srcpos.String {
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
		for _, c := range hiddenConditions.of(p) {
			if c.verdict == hiddenNever {
				p.At(c.option.Hidden.Value, "hidden condition of option %q can never hold: %s", c.option.Path, c.why)
			}
		}
	},
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
