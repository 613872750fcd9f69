package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogist/catalogist/internal/base/jsregexp"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
)

// verdict is the platform's judgement of a value for an option.
type verdict struct {
	valid bool
	// approx is the value the platform uses instead, when hasApprox.
	approx    any
	hasApprox bool
	why       string
	// at is where inside the value the refusal lies (item indexes and
	// property names, from the value), empty when it is the value itself;
	// leaf is the refusal there, without the "item 0: property \"x\": "
	// that why leads to it with, and leafOpt the option that judged it.
	at      []string
	leaf    string
	leafOpt *Option
}

// within is the refusal of a part of a value (the item or property seg),
// judged by o as r: why leads to it, at and leaf say where and what it is.
func within(why string, seg string, o *Option, r verdict) verdict {
	v := verdict{why: why, at: append([]string{seg}, r.at...), leaf: r.why, leafOpt: o}
	if len(r.at) > 0 {
		v.leaf, v.leafOpt = r.leaf, r.leafOpt
	}
	return v
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
	for _, n := range []*srcpos.Node{o.ListEnum, o.Enum} {
		if n == nil || n.Kind != srcpos.Array {
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
	k := &noEnum{c: c, o: o, data: data, v: v, t: typeOf(o), sf: c.fields(o)}
	switch x := v.(type) {
	case string:
		return k.ofString(x)
	case float64:
		return k.ofNumber(x)
	case bool:
		return k.ofBool(x)
	case nil:
		return k.ofNull()
	case []any:
		return k.ofArray(x)
	case map[string]any:
		return k.ofObject(x)
	}
	return k.wrongType()
}

// noEnum is one check of validateNoEnum: the option, its type and slider
// fields, and the value.
type noEnum struct {
	c    *computer
	o    *Option
	data *scope
	v    any
	t    string
	sf   SliderFields
}

// notType says the value is not of the option's type, for a value coerced
// to it: the platform uses the coerced value for a context value, and
// rejects it as a default or from values.yaml. Written only when a value
// is coerced, as most are of their option's type.
func (k *noEnum) notType() string {
	return fmt.Sprintf("%s is not %s", show(k.v), WithArticle(k.t))
}

func (k *noEnum) wrongType() verdict {
	return invalid("%s is not a valid %s", show(k.v), k.t)
}

func (k *noEnum) inBounds(x float64) bool {
	return (k.sf.Min == nil || x >= *k.sf.Min) && (k.sf.Max == nil || x <= *k.sf.Max)
}

// patternWhy judges a string by the option's pattern as the form does,
// with JavaScript's RegExp: a pattern JavaScript refuses throws, and so
// does, here, one that backtracks without end (the platform's page
// freezes on it).
func (k *noEnum) patternWhy(s string) string {
	o := k.o
	re, err := o.patternRegexp()
	var se *jsregexp.SyntaxError
	switch {
	case errors.As(err, &se):
		k.c.throw(FailPattern, o, o.patternNode, "the pattern %q of option %q is no JavaScript regular expression (%s); the form checks values with new RegExp(pattern), which throws, so the form will not open: write the pattern as JavaScript reads it, without flags (Helm also reads it, with Go's engine)", o.pattern, o.Path, se.Msg)
	case err != nil:
		return ""
	}
	ok, err := re.MatchString(s)
	if err != nil {
		k.c.throw(FailPattern, o, o.patternNode, "the pattern %q of option %q backtracks without end on %s (it took more than %v here); the platform's page freezes while it checks the value, so the form will not open: rewrite the pattern without a repetition inside a repetition", o.pattern, o.Path, show(s), jsregexp.MatchTimeout)
	}
	if !ok {
		return fmt.Sprintf("%q does not match the pattern %q", s, o.pattern)
	}
	return ""
}

// stringWhy says why a string is refused, "" when it is not.
func (k *noEnum) stringWhy(s string) string {
	o, sf := k.o, k.sf
	if o.pattern != "" {
		if why := k.patternWhy(s); why != "" {
			return why
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
	case !k.inBounds(x) && jsNumberString(x) != strings.TrimSpace(num):
		// parseFloat stops at the first character that is no digit:
		// say what it read, or "1_000m" would seem inside the range.
		return fmt.Sprintf("%q reads as %s (the platform's parseFloat stops at the first character that is not part of a number), outside the slider range %s", s, jsNumberString(x)+unit, rangeText(sf))
	case !k.inBounds(x):
		return fmt.Sprintf("%q is outside the slider range %s", s, rangeText(sf))
	}
	return ""
}

// numberWhy says why a number is refused, "" when it is not.
func (k *noEnum) numberWhy(x float64) string {
	switch {
	case k.o.minimum != nil && x < *k.o.minimum:
		return fmt.Sprintf("%s is below the minimum %s", jsNumberString(x), jsNumberString(*k.o.minimum))
	case !k.inBounds(x):
		return fmt.Sprintf("%s is outside the slider range %s", jsNumberString(x), rangeText(k.sf))
	case k.t == "integer" && x != math.Trunc(x):
		return fmt.Sprintf("%s is not a whole number", jsNumberString(x))
	}
	return ""
}

func (k *noEnum) ofString(x string) verdict {
	switch k.t {
	case "string":
		if why := k.stringWhy(x); why != "" {
			return invalid("%s", why)
		}
		return verdict{valid: true}
	case "boolean":
		switch strings.ToLower(x) {
		case "true", "yes", "1", "on":
			return approx(true, k.notType())
		case "false", "no", "0", "off":
			return approx(false, k.notType())
		}
		return k.wrongType()
	case "integer", "number":
		f := jsParseFloat(x)
		if math.IsNaN(f) {
			return k.wrongType()
		}
		if why := k.numberWhy(f); why != "" {
			return invalid("%s", why)
		}
		return approx(f, k.notType())
	}
	return k.wrongType()
}

func (k *noEnum) ofNumber(x float64) verdict {
	switch k.t {
	case "string":
		s := jsNumberString(x)
		if why := k.stringWhy(s); why != "" {
			return invalid("%s", why)
		}
		return approx(s, k.notType())
	case "boolean":
		return approx(x != 0, k.notType())
	case "integer", "number":
		if why := k.numberWhy(x); why != "" {
			return invalid("%s", why)
		}
		return verdict{valid: true}
	}
	return k.wrongType()
}

func (k *noEnum) ofBool(x bool) verdict {
	switch k.t {
	case "string":
		s := "false"
		if x {
			s = "true"
		}
		if why := k.stringWhy(s); why != "" {
			return invalid("%s", why)
		}
		return approx(s, k.notType())
	case "boolean":
		return verdict{valid: true}
	case "integer", "number":
		n := 0.0
		if x {
			n = 1
		}
		if why := k.numberWhy(n); why != "" {
			return invalid("%s", why)
		}
		return approx(n, k.notType())
	}
	return k.wrongType()
}

func (k *noEnum) ofNull() verdict {
	switch k.t {
	case "string":
		if why := k.stringWhy(""); why != "" {
			return invalid("null: %s", why)
		}
		return approx("", k.notType())
	case "boolean":
		return approx(false, k.notType())
	case "integer", "number":
		if why := k.numberWhy(0); why != "" {
			return invalid("null: %s", why)
		}
		return approx(0.0, k.notType())
	}
	return k.wrongType()
}

func (k *noEnum) ofArray(x []any) verdict {
	o := k.o
	if k.t != "array" {
		return k.wrongType()
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
		r := k.c.validate(o.Items, k.data, item)
		switch {
		case r.valid:
			out[i] = item
		case r.hasApprox:
			out[i], approximated = r.approx, true
		default:
			return within(fmt.Sprintf("item %d: %s", i, r.why), strconv.Itoa(i), o.Items, r)
		}
	}
	if approximated {
		return verdict{approx: out, hasApprox: true, why: "its items are not of the items' type"}
	}
	return verdict{valid: true}
}

func (k *noEnum) ofObject(x map[string]any) verdict {
	o := k.o
	if k.t != "object" {
		return k.wrongType()
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
		r := k.c.validate(child, k.data, item)
		switch {
		case r.valid:
			out[child.Name] = item
		case r.hasApprox:
			out[child.Name], approximated = r.approx, true
		default:
			return within(fmt.Sprintf("property %q: %s", child.Name, r.why), child.Name, child, r)
		}
	}
	if approximated {
		return verdict{approx: out, hasApprox: true, why: "it has properties the option does not have"}
	}
	return verdict{valid: true}
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

// WithArticle returns a word after "a" or "an", as messages name types.
func WithArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
