package schema

import (
	"strconv"
	"strings"

	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
)

// complete reports whether a {path, value} condition can hide anything: one
// without value makes the platform refuse the form instead.
func (h *Hidden) complete() bool {
	return h.Value != nil && h.Node.Kind == srcpos.Object
}

// hides reports whether the condition hides the option at values path path
// (item indexes included), given the values: the value at the condition's
// target deep-equals its value. A target holding nothing hides nothing.
func (h *Hidden) hides(path []string, values any) bool {
	if h.Always {
		return true
	}
	if !h.complete() {
		return false
	}
	target := strings.Split(h.Path, "/")
	if h.Relative {
		target = append(append([]string(nil), path[:len(path)-1]...), target...)
	}
	v, ok := launchcontext.Lookup(values, target)
	return ok && equalJSON(nodeValue(h.Value), v)
}

// HiddenKeys lists the values paths (item indexes included) of the options
// the form hides given values, in form order: those whose own condition
// holds, and everything under them. It is the form's visibility as a user
// edits values; the form's first computation is the same with the values it
// computed.
func HiddenKeys(s *Schema, values any) [][]string {
	var out [][]string
	var walk func(o *Option, path []string, visible bool)
	walk = func(o *Option, path []string, visible bool) {
		if o.Const != nil || o.Node.Kind != srcpos.Object {
			return
		}
		if o.Hidden != nil && o.Hidden.hides(path, values) {
			visible = false
		}
		if !visible {
			out = append(out, append([]string(nil), path...))
		}
		v, ok := launchcontext.Lookup(values, path)
		if !ok {
			return
		}
		for _, ch := range o.Children {
			walk(ch, appendKey(path, ch.Name), visible)
		}
		if list, isList := v.([]any); isList && o.Items != nil {
			for i := range list {
				walk(o.Items, appendKey(path, strconv.Itoa(i)), visible)
			}
		}
	}
	for _, ch := range s.Top.Children {
		walk(ch, []string{ch.Name}, true)
	}
	return out
}
