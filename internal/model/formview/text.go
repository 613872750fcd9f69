package formview

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/model/schema"
)

// Text writes a description as a tree for a terminal: each option
// indented by its depth (groups as headings), with its widget, value and
// where it comes from, slider bounds, [hidden] and [read-only]; then the
// values the platform would send, and whether the form opens with what
// stops it. contextName says which launch context the form was computed in.
func Text(w io.Writer, d *schema.Description, contextName string) error {
	var b strings.Builder
	if d.Schemaless {
		file := d.File
		if file == "" {
			file = "the chart"
		}
		fmt.Fprintf(&b, "%s: the chart has no values.schema.json, so platform %s opens a launcher with no fields; it sends values.yaml as its form reads it (YAML 1.2), without the keys that hold an empty list\n", file, d.Platform)
	} else {
		fmt.Fprintf(&b, "%s: the form of platform %s (extension %s), in %s\n\n", d.File, d.Platform, d.ExtensionKey, contextName)
		for _, o := range d.Options {
			writeOption(&b, o)
		}
		if len(d.Options) == 0 {
			b.WriteString("(no options)\n")
		}
	}
	vals, err := yaml.Marshal(d.Values)
	if err != nil {
		return fmt.Errorf("writing the values: %w", err)
	}
	b.WriteString("\nvalues:\n")
	for _, line := range strings.SplitAfter(strings.TrimSuffix(string(vals), "\n"), "\n") {
		b.WriteString("  " + line)
	}
	b.WriteString("\n")
	writeReferences(&b, d)
	writeProblems(&b, "failures", d.Failures)
	writeProblems(&b, "shape problems", d.Shapes)
	b.WriteString("\n" + verdict(d) + "\n")
	_, err = io.WriteString(w, b.String())
	return err
}

func writeOption(b *strings.Builder, o schema.DescribedOption) {
	depth := len(o.Key) - 1
	pad := strings.Repeat("  ", depth)
	name := o.Key[len(o.Key)-1]
	label := name
	if name == schema.ItemsKey {
		label = "[] each item"
	}
	if o.Title != name && o.Title != "" {
		label += " (" + o.Title + ")"
	}
	var flags string
	if o.Hidden {
		flags += " [hidden]"
	}
	if o.ReadOnly {
		flags += " [read-only]"
	}
	if o.Widget == schema.WidgetGroup {
		fmt.Fprintf(b, "%s%s:%s\n", pad, label, flags)
		return
	}
	widget := string(o.Widget)
	if o.Widget == schema.WidgetNone {
		widget = "not shown"
	}
	line := fmt.Sprintf("%s%s: %s", pad, label, widget)
	if o.Slider != nil && o.Slider.Extremity != "" {
		line += " " + o.Slider.Extremity + " end of " + strconv.Quote(o.Slider.RangeID)
	}
	if o.Widget != schema.WidgetList || o.Defined {
		line += " = " + showValue(o)
	}
	if s := source(o); s != "" {
		line += " (" + s + ")"
	}
	if o.Slider != nil {
		line += ", " + bounds(o.Slider)
	}
	b.WriteString(line + flags + "\n")
	more := pad + "    "
	if len(o.Choices) > 0 {
		parts := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			parts[i] = show(c)
		}
		fmt.Fprintf(b, "%schoices: %s\n", more, strings.Join(parts, ", "))
	}
	if c := o.Context; c != nil && o.Source != schema.FromContext {
		paths := strings.Join(c.Paths, ", ")
		switch {
		case !c.Resolved:
			fmt.Fprintf(b, "%scontext %s: undefined in the launch context, so not used\n", more, paths)
		case c.Rejected != "":
			fmt.Fprintf(b, "%scontext %s gave %s, not used: %s\n", more, paths, show(c.Value), c.Rejected)
		}
	}
	if o.DefaultRejected != "" && o.Source != schema.FromDefault {
		fmt.Fprintf(b, "%sdefault not used: %s\n", more, o.DefaultRejected)
	}
}

func showValue(o schema.DescribedOption) string {
	if !o.Defined {
		return "(no value)"
	}
	return show(o.Value)
}

// show writes a value as JSON, compactly: strings quoted, so that "" and
// "2000m" read as what they are; a masked secret reads as the mask.
func show(v any) string {
	if v == masked {
		return masked
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func source(o schema.DescribedOption) string {
	switch o.Source {
	case schema.FromContext:
		if o.Context != nil && len(o.Context.Paths) > 0 {
			return "context " + strings.Join(o.Context.Paths, ", ")
		}
		return "context"
	case schema.FromNothing:
		return ""
	}
	return string(o.Source)
}

// bounds writes slider bounds as 100m–8000m step 100m (region cpu, FILE);
// without a sliderStep the widget steps by 1, which it says.
func bounds(s *schema.DescribedSlider) string {
	unit := ""
	if s.Unit != nil {
		unit = *s.Unit
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) + unit }
	origin := s.Origin
	if s.Config != "" {
		origin += " " + s.Config
	}
	if s.File != "" {
		origin += ", " + s.File
	}
	if !s.StepSet {
		origin += ", no sliderStep"
	}
	return fmt.Sprintf("%s–%s step %s (%s)", num(s.Min), num(s.Max), num(s.Step), origin)
}

// keyText writes key segments joined with slashes, quoting a segment that
// holds a slash (nvidia.com/gpu) so that the key reads unambiguously.
func keyText(key []string) string {
	if len(key) == 0 {
		return "(root)"
	}
	parts := make([]string, len(key))
	for i, k := range key {
		if strings.ContainsAny(k, `/"`) || k == "" {
			k = strconv.Quote(k)
		}
		parts[i] = k
	}
	return strings.Join(parts, "/")
}

func writeReferences(b *strings.Builder, d *schema.Description) {
	if len(d.Substitutions) == 0 && len(d.Unresolved) == 0 {
		return
	}
	b.WriteString("\nschema registry:\n")
	for _, s := range d.Substitutions {
		fmt.Fprintf(b, "  %s: replaced by %s (%s)\n", keyText(s.Key), s.Name, s.Registry)
	}
	for _, u := range d.Unresolved {
		what := "overwriteSchemaWith"
		if u.Ref {
			what = "$ref"
		}
		hint := ""
		if u.Suggestion != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", u.Suggestion)
		}
		fmt.Fprintf(b, "  %s:%d:%d: %s %q of %s is not resolved: %s%s\n", u.File, u.Line, u.Column, what, u.Name, keyText(u.Key), u.Why, hint)
	}
}

func writeProblems(b *strings.Builder, title string, ps []schema.DescribedProblem) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s:\n", title)
	for _, p := range ps {
		when := ""
		if p.Revealed {
			when = "once shown: "
		}
		fmt.Fprintf(b, "  %s:%d:%d: %s%s [option %s]\n", p.File, p.Line, p.Column, when, p.Message, keyText(p.Key))
	}
}

func verdict(d *schema.Description) string {
	if d.Opens {
		revealed := 0
		for _, f := range d.Failures {
			if f.Revealed {
				revealed++
			}
		}
		if revealed > 0 {
			return fmt.Sprintf("the form opens (%d failure(s) once a hidden option is shown)", revealed)
		}
		return "the form opens"
	}
	stopping := 0
	for _, f := range d.Failures {
		if !f.Revealed {
			stopping++
		}
	}
	return fmt.Sprintf("the form does not open: %d failure(s), %d shape problem(s)", stopping, len(d.Shapes))
}
