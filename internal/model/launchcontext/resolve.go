package launchcontext

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var (
	wholeRef   = regexp.MustCompile(`^\{\{([^}]+)\}\}$`)
	anyRef     = regexp.MustCompile(`\{\{[^}]+\}\}`)
	indexSeg   = regexp.MustCompile(`\[(\d+)\]`)
	dquotedSeg = regexp.MustCompile(`\["([^"]+)"\]`)
	squotedSeg = regexp.MustCompile(`\['([^']+)'\]`)
)

// dotPlaceholder protects dots inside quoted segments while splitting; it
// cannot occur in a path because it contains a NUL byte.
const dotPlaceholder = "\x00dot\x00"

// SplitPath splits a context path the way the platform does: "[n]" and
// ["quoted"] segments become plain segments, then the path is split on dots.
// Segments are not trimmed.
func SplitPath(p string) []string {
	if !strings.Contains(p, "[") {
		// Most paths have no bracket: no segment to rewrite.
		return strings.Split(p, ".")
	}
	p = indexSeg.ReplaceAllString(p, ".$1")
	protect := func(re *regexp.Regexp) {
		p = re.ReplaceAllStringFunc(p, func(m string) string {
			inner := re.FindStringSubmatch(m)[1]
			return "." + strings.ReplaceAll(inner, ".", dotPlaceholder)
		})
	}
	protect(dquotedSeg)
	protect(squotedSeg)
	segs := strings.Split(p, ".")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(s, dotPlaceholder, ".")
	}
	return segs
}

// Lookup returns the value at a split path in a context document made of
// map[string]any and []any, and whether it exists.
func Lookup(data any, segs []string) (any, bool) {
	cur := data
	for _, s := range segs {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[s]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(c) || strconv.Itoa(i) != s {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Resolve evaluates an overwriteDefaultWith expression against a context
// document, exactly as the platform does. ok is false when the result is
// undefined, in which case the option falls back to its next source.
func Resolve(expr any, data map[string]any) (v any, ok bool) {
	return resolve(expr, data, true)
}

func resolve(expr any, data map[string]any, top bool) (any, bool) {
	switch e := expr.(type) {
	case []any:
		out := make([]any, len(e))
		for i, item := range e {
			r, ok := resolveMember(item, data)
			if !ok {
				return nil, false
			}
			out[i] = r
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(e))
		for k, item := range e {
			r, ok := resolveMember(item, data)
			if !ok {
				return nil, false
			}
			out[k] = r
		}
		return out, true
	case string:
		if m := wholeRef.FindStringSubmatch(e); m != nil {
			v, ok := Lookup(data, SplitPath(m[1]))
			if ok && v == nil {
				// A null in the context is undefined to the platform's
				// lookup only when missing; null itself is a value.
				return nil, true
			}
			return v, ok
		}
		if strings.Contains(e, "{{") {
			undefined := false
			out := anyRef.ReplaceAllStringFunc(e, func(ref string) string {
				v, ok := resolve(ref, data, true)
				s, scalar := scalarString(v)
				if !ok || !scalar {
					undefined = true
					return ""
				}
				return s
			})
			if undefined {
				return nil, false
			}
			return out, true
		}
		if !top {
			return e, true
		}
		return resolve("{{"+e+"}}", data, true)
	}
	// Numbers, booleans and null as a whole expression are not references;
	// the platform's types do not allow them at the top level.
	return nil, false
}

// resolveMember resolves one element of an array or object expression:
// scalars other than strings are kept, strings are literals unless templated.
func resolveMember(item any, data map[string]any) (any, bool) {
	switch item.(type) {
	case nil, bool, float64, json.Number, int, int64:
		return item, true
	}
	return resolve(item, data, false)
}

// scalarString renders a string, number or boolean as JavaScript's template
// literals do; other values are not scalars.
func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64), true
		}
		return string(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	}
	return "", false
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// Ref is one context path named by an expression.
type Ref struct {
	// Path is the path as written, without braces.
	Path string
	// Segs is Path split as the platform splits it.
	Segs []string
	// Bare is true for a whole top-level string without braces, which the
	// platform reads as a path although it often is meant as a literal.
	Bare bool
	// Where is the JSON pointer of the string inside the expression ("" for
	// the expression itself).
	Where string
}

// Refs lists the context paths an expression names, in order.
func Refs(expr any) []Ref {
	var out []Ref
	var walk func(e any, where string, top bool)
	walk = func(e any, where string, top bool) {
		switch x := e.(type) {
		case []any:
			for i, item := range x {
				walk(item, where+"/"+strconv.Itoa(i), false)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k], where+"/"+pointerEscaper.Replace(k), false)
			}
		case string:
			if m := wholeRef.FindStringSubmatch(x); m != nil {
				out = append(out, Ref{Path: m[1], Segs: SplitPath(m[1]), Where: where})
				return
			}
			if strings.Contains(x, "{{") {
				for _, r := range anyRef.FindAllString(x, -1) {
					p := r[2 : len(r)-2]
					out = append(out, Ref{Path: p, Segs: SplitPath(p), Where: where})
				}
				return
			}
			if top {
				out = append(out, Ref{Path: x, Segs: SplitPath(x), Bare: true, Where: where})
			}
		}
	}
	walk(expr, "", true)
	return out
}
