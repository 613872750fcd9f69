package gencatalog

import "strconv"

// Builders for the schema nodes a chart's values.schema.json is made of. Every
// leaf option gets a type, a title, a description and a default; groups get a
// type, a title, a description and their properties.

func option(typ, title, desc string, def any, more ...kv) obj {
	o := obj{{"type", typ}, {"title", title}, {"description", desc}, {"default", def}}
	return append(o, more...)
}

func str(title, desc, def string, more ...kv) obj {
	return option("string", title, desc, def, more...)
}

func boolean(title, desc string, def bool, more ...kv) obj {
	return option("boolean", title, desc, def, more...)
}

func integer(title, desc string, def, minimum, maximum int, more ...kv) obj {
	o := option("integer", title, desc, def, kv{"minimum", minimum}, kv{"maximum", maximum})
	return append(o, more...)
}

// group is an object option; props are its child options in order.
func group(title, desc string, props obj, more ...kv) obj {
	o := obj{{"type", "object"}, {"title", title}, {"description", desc}}
	o = append(o, more...)
	return append(o, kv{"properties", props})
}

// platform is the schema's vendor extension object.
func platform(members ...kv) kv { return kv{"x-platform", obj(members)} }

// overwrite is an extension object that takes the default from a context path.
func overwrite(path string) kv { return platform(kv{"overwriteDefaultWith", path}) }

// hiddenPlatform marks an option hidden in the form; it is still sent.
func hiddenPlatform(members ...kv) kv {
	return platform(append([]kv{{"hidden", true}}, members...)...)
}

// hideUnlessEnabled hides an option while its sibling "enabled" is false.
func hideUnlessEnabled() kv {
	return kv{"hidden", obj{{"value", false}, {"path", "enabled"}, {"isPathRelative", true}}}
}

// hideWhen hides an option while the option at the slash-separated path from
// the values root equals value.
func hideWhen(path string, value any) kv {
	return kv{"hidden", obj{{"value", value}, {"path", path}}}
}

func list(values ...string) kv {
	a := make([]any, len(values))
	for i, v := range values {
		a[i] = v
	}
	return kv{"listEnum", a}
}

func enum(values ...string) kv {
	a := make([]any, len(values))
	for i, v := range values {
		a[i] = v
	}
	return kv{"enum", a}
}

func strs(values ...string) []any {
	a := make([]any, len(values))
	for i, v := range values {
		a[i] = v
	}
	return a
}

// bounds of a slider. Values lie on the grid min + k*step.
type bounds struct {
	min, max, step int
	unit           string
}

// at returns the k-th grid value, clamped to max.
func (b bounds) at(k int) int {
	v := b.min + k*b.step
	if v > b.max {
		v = b.max - (b.max-b.min)%b.step
	}
	return v
}

// sliderFields are the sibling keys of a slider option.
func sliderFields(b bounds) []kv {
	return []kv{
		{"render", "slider"},
		{"sliderMin", b.min},
		{"sliderMax", b.max},
		{"sliderStep", b.step},
		{"sliderUnit", b.unit},
	}
}

// countFields are the slider keys of a number option counting things: the
// platform's slider holds a number only without any sliderUnit, and refuses
// integer sliders.
func countFields(b bounds) []kv {
	return []kv{
		{"render", "slider"},
		{"sliderMin", b.min},
		{"sliderMax", b.max},
		{"sliderStep", b.step},
	}
}

// slider is a string option rendered as a slider whose value is the number
// followed by the unit ("2000m", "4Gi", "1").
func slider(title, desc string, b bounds, def int, more ...kv) obj {
	o := str(title, desc, strconv.Itoa(def)+b.unit, sliderFields(b)...)
	return append(o, more...)
}

// rangeEnd adds the fields that make a slider one end of a range.
func rangeEnd(extremity, semantic, rangeID string) []kv {
	return []kv{
		{"sliderExtremity", extremity},
		{"sliderExtremitySemantic", semantic},
		{"sliderRangeId", rangeID},
	}
}
