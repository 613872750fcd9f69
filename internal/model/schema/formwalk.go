package schema

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
)

// rangeEnd is one end of a range slider met while building the form.
type rangeEnd struct {
	o       *Option
	down    bool
	fields  SliderFields
	value   any
	visible bool
}

// walkForm builds the form the user sees from the computed values, as the
// platform does after computing them, and records what makes it crash: a
// field whose widget cannot show its value, range slider ends that do not
// pair. Options hidden with the computed values are walked too: what would
// crash once they are shown is recorded as revealed.
func (c *computer) walkForm() {
	c.ends = nil
	for _, ch := range c.s.Top.Children {
		c.walk(ch, []string{ch.Name}, true)
	}
	c.pairRanges(c.ends)
}

// walk visits option o at values path path.
func (c *computer) walk(o *Option, path []string, visible bool) {
	if o.Const != nil || o.Node.Kind != srcpos.Object {
		return
	}
	fd := c.field(o)
	top := !o.InItems
	if h := o.Hidden; h != nil {
		if h.Always {
			if top {
				fd.Hidden, fd.Widget = true, WidgetNone
			}
			return
		}
		if h.hides(path, c.form.Values) {
			visible = false
		}
	}
	if top {
		fd.Hidden = fd.Hidden || !visible
	}
	if c.failed[o] {
		return
	}
	value, ok := launchcontext.Lookup(c.form.Values, path)
	if !ok {
		// Only an option whose computation already failed has no value.
		return
	}
	var widget Widget
	var children func()
	c.guardWalk(o, visible, func() { widget, children = c.show(o, path, value, visible) })
	if top && fd.Widget == "" {
		fd.Widget = widget
	}
	if children != nil {
		children()
	}
}

// guardWalk runs one field's checks; a crash is recorded, as revealed when
// the field is hidden.
func (c *computer) guardWalk(o *Option, visible bool, f func()) {
	defer func() {
		if r := recover(); r != nil {
			cr, ok := r.(crash)
			if !ok {
				panic(r)
			}
			cr.f.Revealed = !visible
			if cr.f.Revealed {
				cr.f.Msg = revealedMsg(cr.f.Msg, o)
			}
			c.fail(cr.f)
		}
	}()
	f()
}

// revealedMsg rewords a crash that happens only once a hidden option is
// shown: the form opens.
func revealedMsg(msg string, o *Option) string {
	msg = strings.Replace(msg, "so the form will not open", "so the form crashes as soon as it is shown (it is hidden with the computed values)", 1)
	msg = strings.Replace(msg, "the form will not open", "the form crashes as soon as it is shown (it is hidden with the computed values)", 1)
	return msg
}

// show checks that the widget of option o can show its value and returns
// the widget, and a function walking its children when it has some.
func (c *computer) show(o *Option, path []string, value any, visible bool) (Widget, func()) {
	t := o.Type
	items := o.Node.Get("items")
	if (t == "object" && !o.Group()) || (t == "array" && items == nil) {
		switch value.(type) {
		case map[string]any, []any:
		default:
			c.throw(FailValue, o, nil, "option %q is edited as YAML but its value %s is not an object or a list, so the form will not open", o.Path, show(value))
		}
		return WidgetYAML, nil
	}
	if opts := c.resolveEnum(o, c.root); opts != nil {
		if !containsJSON(opts, value) {
			c.throw(FailValue, o, nil, "the value %s of option %q is not one of its options %s, so the form will not open", show(value), o.Path, showList(opts))
		}
		if fd := c.field(o); !o.InItems {
			fd.Choices = opts
		}
		return WidgetSelect, nil
	}
	sf := c.fields(o)
	if sf.Min != nil {
		if o.ExtremityNode == nil {
			c.sliderShape(o, sf, "slider")
			c.sliderValue(o, sf, value)
			return WidgetSlider, nil
		}
	}
	if o.ExtremityNode != nil {
		c.sliderShape(o, sf, "range slider end")
		if o.RangeIDNode == nil {
			c.throw(FailRange, o, o.ExtremityNode, "range slider end %q has sliderExtremity but no sliderRangeId, so the form will not open; add the sliderRangeId its other end has", o.Path)
		}
		switch value.(type) {
		case float64, string:
		default:
			c.throw(FailSlider, o, nil, "range slider end %q has the value %s, which is neither a number nor a string, so the form will not open", o.Path, show(value))
		}
		c.ends = append(c.ends, &rangeEnd{o: o, down: o.Extremity == "down", fields: sf, value: value, visible: visible})
		return WidgetRange, nil
	}
	return c.showTyped(o, path, value, visible)
}

// showTyped checks that the widget of an option's type can show its value,
// for an option neither a select nor a slider.
func (c *computer) showTyped(o *Option, path []string, value any, visible bool) (Widget, func()) {
	items := o.Node.Get("items")
	switch o.Type {
	case "object":
		return WidgetGroup, func() {
			for _, ch := range o.Children {
				c.walk(ch, appendKey(path, ch.Name), visible)
			}
		}
	case "array":
		list, ok := value.([]any)
		if !ok {
			c.throw(FailValue, o, nil, "the value %s of list %q is not a list, so the form will not open", show(value), o.Path)
		}
		if o.Items == nil {
			c.throw(FailShape, o, items, "the items of %q are not one schema object", o.Path)
		}
		return WidgetList, func() {
			for i := range list {
				c.walk(o.Items, appendKey(path, strconv.Itoa(i)), visible)
			}
		}
	case "boolean":
		if _, ok := value.(bool); !ok {
			c.throw(FailValue, o, nil, "the value %s of checkbox %q is not a boolean, so the form will not open", show(value), o.Path)
		}
		return WidgetCheckbox, nil
	case "string":
		if _, ok := value.(string); !ok {
			c.throw(FailValue, o, nil, "the value %s of text field %q is not a string, so the form will not open", show(value), o.Path)
		}
		switch o.Render {
		case "textArea":
			return WidgetTextArea, nil
		case "password":
			return WidgetPassword, nil
		}
		return WidgetText, nil
	case "integer", "number":
		if _, ok := value.(float64); !ok {
			c.throw(FailValue, o, nil, "the value %s of number field %q is not a number, so the form will not open", show(value), o.Path)
		}
		return WidgetNumber, nil
	}
	c.throw(FailShape, o, nil, "option %q has no type the form knows", o.Path)
	return "", nil
}

func containsJSON(list []any, v any) bool {
	for _, x := range list {
		if equalJSON(x, v) {
			return true
		}
	}
	return false
}

// sliderShape checks what every slider and range slider end needs.
func (c *computer) sliderShape(o *Option, sf SliderFields, what string) {
	switch o.Type {
	case "string", "number":
	case "integer":
		c.throw(FailSlider, o, o.Node.Get("type"), "%s %q has type integer, which the form's slider does not support, so the form will not open; make it a string slider with a sliderUnit (such as \"2Gi\"), or type number without sliderUnit", what, o.Path)
	default:
		c.throw(FailSlider, o, o.Node.Get("type"), "%s %q has type %s; a slider is a string or a number, so the form will not open", what, o.Path, typeOrNone(o.Type))
	}
	if o.Render != "" && o.Render != "slider" {
		c.throw(FailSlider, o, o.SliderNodes.Render, "%s %q has sliderMin but render %q, so the form will not open; remove render or write render: slider", what, o.Path, o.Render)
	}
	if sf.Min == nil {
		c.throw(FailSlider, o, o.ExtremityNode, "%s %q has no sliderMin, so the form will not open; add sliderMin", what, o.Path)
	}
	if sf.Max == nil {
		c.throw(FailSlider, o, o.SliderNodes.Min, "%s %q has sliderMin but no sliderMax, so the form will not open; add sliderMax", what, o.Path)
	}
}

func typeOrNone(t string) string {
	if t == "" {
		return "none"
	}
	return t
}

// sliderValue checks that a simple slider can read its value.
func (c *computer) sliderValue(o *Option, sf SliderFields, value any) {
	switch v := value.(type) {
	case float64:
		if sf.Unit != nil {
			c.throw(FailSlider, o, o.SliderNodes.Unit, "slider %q holds a number but has sliderUnit %q; the form's slider crashes on a number slider with any sliderUnit, even \"\", so the form will not open: remove sliderUnit, or make the option a string whose values end with the unit", o.Path, *sf.Unit)
		}
	case string:
		num := v
		if sf.Unit != nil && *sf.Unit != "" && len(v) >= len(*sf.Unit) {
			num = v[:len(v)-len(*sf.Unit)]
		}
		if math.IsNaN(jsParseFloat(num)) {
			c.throw(FailSlider, o, nil, "slider %q has the value %q, which does not start with a number, so the form will not open; its values must be a number followed by its sliderUnit", o.Path, v)
		}
	default:
		c.throw(FailSlider, o, nil, "slider %q has the value %s, which is neither a number nor a string, so the form will not open", o.Path, show(value))
	}
}

// pairRanges pairs the shown range slider ends as the platform does, in
// the form's order: each down end takes the first not yet paired up end
// with its sliderRangeId; a down end left alone, ends with different units
// or steps, or a down value above its up value make the form crash.
func (c *computer) pairRanges(ends []*rangeEnd) {
	used := make([]bool, len(ends))
	for i, d := range ends {
		if !d.down || !d.visible {
			continue
		}
		j := -1
		for k, u := range ends {
			if !used[k] && !u.down && u.visible && u.o.RangeID == d.o.RangeID && u.o.RangeIDNode != nil {
				j = k
				break
			}
		}
		used[i] = true
		if j < 0 {
			c.guardWalk(d.o, true, func() { c.throw(FailRange, d.o, d.o.RangeIDNode, "%s", c.unpaired(d, ends)) })
			continue
		}
		used[j] = true
		u := ends[j]
		c.guardWalk(d.o, true, func() { c.merge(d, u) })
	}
}

// unpaired explains a down end without an up end.
func (c *computer) unpaired(d *rangeEnd, ends []*rangeEnd) string {
	for _, u := range ends {
		if !u.down && u.o.RangeID == d.o.RangeID && !u.visible {
			return fmt.Sprintf("range slider end %q (down) pairs with no shown up end: its up end %q with sliderRangeId %q is hidden with the computed values, so the form will not open; hide both ends under the same condition", d.o.Path, u.o.Path, d.o.RangeID)
		}
	}
	return fmt.Sprintf("range slider end %q (down) has no up end with sliderRangeId %q left to pair with, so the form will not open; add an option with sliderExtremity up and this sliderRangeId, or remove sliderExtremity", d.o.Path, d.o.RangeID)
}

func (c *computer) merge(d, u *rangeEnd) {
	o := d.o
	du, uu := d.fields.Unit, u.fields.Unit
	if du != nil && uu != nil && *du != *uu {
		c.throw(FailRange, o, o.SliderNodes.Unit, "range %q: down end %q has sliderUnit %q but up end %q has %q, so the form will not open; give both the same unit", o.RangeID, o.Path, *du, u.o.Path, *uu)
	}
	unit := du
	if unit == nil {
		unit = uu
	}
	ds, us := d.fields.Step, u.fields.Step
	switch {
	case ds == nil && us == nil:
		c.throw(FailRange, o, o.RangeIDNode, "range %q: neither %q nor %q has sliderStep, so the form will not open; add sliderStep to one end", o.RangeID, o.Path, u.o.Path)
	case ds != nil && us != nil && *ds != *us:
		c.throw(FailRange, o, o.SliderNodes.Step, "range %q: down end %q has sliderStep %s but up end %q has %s, so the form will not open; give both the same step", o.RangeID, o.Path, jsNumberString(*ds), u.o.Path, jsNumberString(*us))
	}
	read := func(e *rangeEnd) float64 {
		switch v := e.value.(type) {
		case float64:
			if unit != nil && *unit != "" {
				c.throw(FailRange, o, e.o.Node, "range %q: end %q holds a number but the range's unit is %q, so the form will not open; make both ends strings ending with the unit", o.RangeID, e.o.Path, *unit)
			}
			return v
		case string:
			num := v
			if unit != nil {
				if !strings.HasSuffix(v, *unit) {
					c.throw(FailRange, o, e.o.Node, "range %q: the value %q of %q does not end with the range's unit %q, so the form will not open", o.RangeID, v, e.o.Path, *unit)
				}
				num = strings.TrimSuffix(v, *unit)
			}
			x := jsParseFloat(num)
			if math.IsNaN(x) {
				c.throw(FailRange, o, e.o.Node, "range %q: the value %q of %q is not a number, so the form will not open", o.RangeID, v, e.o.Path)
			}
			return x
		}
		return math.NaN()
	}
	lo, hi := read(d), read(u)
	if lo > hi {
		c.throw(FailRange, o, o.Default, "range %q: the down end %q starts at %s, above the up end %q at %s, so the form will not open; a request cannot exceed its limit", o.RangeID, o.Path, show(d.value), u.o.Path, show(u.value))
	}
}

// widget is how the form would show an option it did not walk (an option
// under items, or one whose value failed).
func (c *computer) widget(o *Option) Widget {
	if o.Const != nil || (o.Hidden != nil && o.Hidden.Always) || o.Node.Kind != srcpos.Object {
		return WidgetNone
	}
	t := o.Type
	if (t == "object" && o.Node.Get("properties") == nil) || (t == "array" && o.Node.Get("items") == nil) {
		return WidgetYAML
	}
	var opts []any
	if c.try(func() { opts = c.resolveEnum(o, c.root) }) && opts != nil {
		return WidgetSelect
	}
	switch {
	case c.fields(o).Min != nil && o.ExtremityNode == nil:
		return WidgetSlider
	case o.ExtremityNode != nil:
		return WidgetRange
	}
	switch t {
	case "object":
		return WidgetGroup
	case "array":
		return WidgetList
	case "boolean":
		return WidgetCheckbox
	case "integer", "number":
		return WidgetNumber
	}
	switch o.Render {
	case "textArea":
		return WidgetTextArea
	case "password":
		return WidgetPassword
	}
	return WidgetText
}
