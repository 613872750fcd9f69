package chartdocs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/catalogist/catalogist/internal/base/invisible"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// notice opens every section: the section is not to be edited by hand.
const notice = "<!-- Written by catalogist docs from values.schema.json: edit the schema, then run catalogist docs, rather than this section. -->"

// maxValue is the length, in characters, beyond which a default is cut in
// a table: a large object would make the table unreadable, and values.yaml
// holds it whole.
const maxValue = 120

// group is a heading of the section: an object whose properties the form
// shows together, with the options it holds and the groups inside it.
type group struct {
	opt    *schema.DescribedOption
	rows   []*schema.DescribedOption
	groups []*group
}

// Markdown writes the section at a heading level (that of the top-level
// groups), with line ending eol: a table of the options outside any group,
// then a heading per group with its description and a table of its
// options, nested groups one level below.
func (d *Doc) Markdown(level int, eol string) string {
	var b strings.Builder
	b.WriteString(notice + "\n\n")
	switch {
	case d.desc == nil:
		b.WriteString("This chart has no values.schema.json: the platform shows no configuration form for it.\n\n")
	case len(d.desc.Options) == 0:
		b.WriteString("This chart has no options.\n\n")
	default:
		d.writeGroup(&b, d.tree(), level)
	}
	if eol == "\n" {
		return b.String()
	}
	return strings.ReplaceAll(b.String(), "\n", eol)
}

// tree sorts the options into the form's groups. A group's own options
// come before the groups inside it, whose headings would otherwise end its
// table.
func (d *Doc) tree() *group {
	root := &group{}
	byKey := map[string]*group{"": root}
	for i := range d.desc.Options {
		o := &d.desc.Options[i]
		parent := root
		for n := len(o.Key) - 1; n > 0; n-- {
			if g := byKey[joinKey(o.Key[:n])]; g != nil {
				parent = g
				break
			}
		}
		so := d.option(o)
		if so != nil && so.Group() && !so.InItems {
			g := &group{opt: o}
			byKey[joinKey(o.Key)] = g
			parent.groups = append(parent.groups, g)
			continue
		}
		// An array's type says its items' (array of string); their own
		// row is only worth a line when it says more.
		if o.Key[len(o.Key)-1] == schema.ItemsKey && len(d.notes(o, false)) == 0 {
			continue
		}
		parent.rows = append(parent.rows, o)
	}
	return root
}

func joinKey(key []string) string { return strings.Join(key, "\x00") }

func (d *Doc) writeGroup(b *strings.Builder, g *group, level int) {
	if g.opt != nil {
		o := g.opt
		b.WriteString(strings.Repeat("#", level) + " ")
		// A heading is no table cell: a pipe in the key needs no escape.
		if t := title(o); t != "" {
			b.WriteString(headingText(t) + " (" + span(keyText(o.Key), false) + ")")
		} else {
			b.WriteString(span(keyText(o.Key), false))
		}
		b.WriteString("\n\n")
		if p := strings.Join(d.notes(o, true), " "); p != "" {
			b.WriteString(paragraph(p) + "\n\n")
		}
		level = min(level+1, 6)
	}
	if len(g.rows) > 0 {
		b.WriteString("| Option | Type | Default | Description |\n|---|---|---|---|\n")
		for _, o := range g.rows {
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", code(keyText(o.Key)), d.typeText(o), d.defaultText(o), strings.Join(d.notes(o, false), " "))
		}
		b.WriteString("\n")
	}
	for _, sub := range g.groups {
		d.writeGroup(b, sub, level)
	}
}

// title is an option's title when it says more than its name.
func title(o *schema.DescribedOption) string {
	if o.Title == "" || o.Title == o.Key[len(o.Key)-1] {
		return ""
	}
	return o.Title
}

// typeText is an option's type, and the widget the form shows it with
// when the type alone does not say it.
func (d *Doc) typeText(o *schema.DescribedOption) string {
	t := o.Type
	if t == "" {
		t = "any"
	}
	if so := d.option(o); so != nil && so.Items != nil && t == "array" {
		if it := so.Items.Type; it != "" {
			t += " of " + it
		}
	}
	switch o.Widget {
	case schema.WidgetSelect, schema.WidgetSlider, schema.WidgetRange, schema.WidgetPassword, schema.WidgetTextArea, schema.WidgetYAML:
		t += " (" + string(o.Widget) + ")"
	}
	// The type is the schema's word, which lint checks but docs writes
	// whatever it is.
	return cellText(t)
}

// defaultText is the chart's default, masked when it is a secret.
func (d *Doc) defaultText(o *schema.DescribedOption) string {
	if !o.Defined {
		return "*none*"
	}
	return valueCode(o.Value)
}

// valueCode writes a value as inline code; a masked secret reads as one.
func valueCode(v any) string {
	if v == secret.Mask {
		return "*secret*"
	}
	return code(valueText(v))
}

// valueText writes a value: a string as it is (quoted when empty, or when
// blanks or invisible characters would not show), anything else as compact
// JSON, cut beyond maxValue characters.
func valueText(v any) string {
	s, ok := v.(string)
	if !ok || s == "" || strings.TrimSpace(s) != s || strings.ContainsFunc(s, invisible.Is) {
		s = jsonText(v)
	}
	if utf8.RuneCountInString(s) > maxValue {
		s = string([]rune(s)[:maxValue-20]) + "…"
	}
	return s
}

// jsonText writes a value as compact JSON, with the invisible characters
// JSON leaves as they are (DEL, C1 controls, bidirectional controls)
// escaped too.
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return invisible.Escape(fmt.Sprint(v))
	}
	return invisible.Escape(strings.TrimSuffix(buf.String(), "\n"))
}

// notes says everything about an option besides its key, type and
// default: its title and description, then what the form does with it. A
// group's notes (forGroup) leave out its title, which its heading shows.
func (d *Doc) notes(o *schema.DescribedOption, forGroup bool) []string {
	var out []string
	if t := title(o); t != "" && !forGroup {
		out = append(out, "**"+sentence(cellText(t))+"**")
	}
	if o.Description != "" {
		out = append(out, sentence(cellText(o.Description)))
	}
	so := d.option(o)
	if so != nil && so.Const != nil {
		return append(out, "Fixed by the chart (const): the form does not show it.")
	}
	if len(o.Choices) > 0 {
		parts := make([]string, len(o.Choices))
		for i, c := range o.Choices {
			parts[i] = valueCode(c)
		}
		out = append(out, "One of "+strings.Join(parts, ", ")+".")
	}
	if o.Slider != nil {
		out = append(out, d.sliderText(o, so))
	} else if r := rangeText(so); r != "" {
		out = append(out, r)
	}
	if o.Slider != nil && o.Slider.Extremity != "" && o.Slider.RangeID != "" {
		out = append(out, d.endText(o))
	}
	if c := o.Context; c != nil {
		out = append(out, prefillText(c))
	}
	if h := o.HiddenWhen; h != nil {
		out = append(out, hiddenText(h, so))
	}
	if o.ReadOnly {
		out = append(out, "Read-only in the form.")
	}
	return out
}

// sliderText says a slider's bounds: the chart's, or, when a region's
// slider configuration replaces them, which one, and the bounds that apply
// without it (the catalog's or the chart's).
func (d *Doc) sliderText(o *schema.DescribedOption, so *schema.Option) string {
	s := o.Slider
	unit := ""
	if s.Unit != nil {
		// The unit follows a number: a tilde there could close a
		// strikethrough.
		unit = cellText(*s.Unit)
		if strings.HasPrefix(unit, "~") {
			unit = `\` + unit
		}
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) + unit }
	bounds := fmt.Sprintf("%s–%s, step %s", num(s.Min), num(s.Max), num(s.Step))
	name := ""
	if so != nil && d.schema.Platform.RegionSliders {
		name = so.SliderConfigName()
	}
	switch {
	case name == "":
		return "Slider: " + bounds + "."
	case s.Origin == schema.BoundsCatalog:
		return fmt.Sprintf("Slider bounds: the region's %s slider; catalog: %s.", code(name), bounds)
	}
	return fmt.Sprintf("Slider bounds: the region's %s slider; chart: %s.", code(name), bounds)
}

// rangeText says the minimum and maximum a number takes, as the schema
// writes them (Helm refuses values outside).
func rangeText(so *schema.Option) string {
	if so == nil {
		return ""
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	lo, hasLo := so.Node.Get("minimum").Float()
	hi, hasHi := so.Node.Get("maximum").Float()
	switch {
	case hasLo && hasHi:
		return "From " + num(lo) + " to " + num(hi) + "."
	case hasLo:
		return "At least " + num(lo) + "."
	case hasHi:
		return "At most " + num(hi) + "."
	}
	return ""
}

// endText names the other end of a range slider.
func (d *Doc) endText(o *schema.DescribedOption) string {
	end, other := "Lower", "upper"
	if o.Slider.Extremity == "up" {
		end, other = "Upper", "lower"
	}
	out := fmt.Sprintf("%s end of the %s range", end, code(o.Slider.RangeID))
	for _, p := range d.desc.Options {
		if p.Slider != nil && p.Slider.RangeID == o.Slider.RangeID && p.Slider.Extremity != "" && p.Slider.Extremity != o.Slider.Extremity {
			return out + fmt.Sprintf(", whose %s end is %s.", other, code(keyText(p.Key)))
		}
	}
	return out + "."
}

// prefillText says what overwriteDefaultWith pre-fills an option with, as
// written: the docs describe every user's form, not one user's values.
func prefillText(c *schema.DescribedContext) string {
	expr, ok := c.Expression.(string)
	if !ok {
		expr = valueText(c.Expression)
	}
	out := "Pre-filled from " + code(expr)
	if len(c.Missing) > 0 {
		parts := make([]string, len(c.Missing))
		for i, p := range c.Missing {
			parts[i] = code(p)
		}
		out += " (the platform's launch context has no " + strings.Join(parts, ", ") + ")"
	}
	return out + "."
}

// hiddenText says when the form hides an option.
func hiddenText(h *schema.DescribedHidden, so *schema.Option) string {
	if h.Always {
		return "Always hidden in the form."
	}
	target := h.Path
	if so != nil && so.Hidden != nil {
		target = so.Hidden.Target(so)
	}
	out := fmt.Sprintf("Hidden while %s is %s", code(keyText(target)), valueCode(h.Value))
	if h.Relative && so != nil && so.InItems {
		out += " in the same item"
	}
	return out + "."
}

// keyText writes key segments as helm --set names them: joined with dots,
// a dot inside a segment escaped (resources.limits.nvidia\.com/gpu), an
// array's items as []. An empty segment, or one holding an invisible
// character, which no --set can name, is written quoted as JSON writes
// it, each such character escaped: a key of the schema never writes a new
// line.
func keyText(key []string) string {
	var b strings.Builder
	for i, k := range key {
		if k == schema.ItemsKey {
			b.WriteString("[]")
			continue
		}
		if i > 0 {
			b.WriteString(".")
		}
		if k == "" || strings.ContainsFunc(k, invisible.Is) {
			b.WriteString(jsonText(k))
			continue
		}
		b.WriteString(strings.ReplaceAll(k, ".", `\.`))
	}
	return b.String()
}

// code writes s as a code span of a table cell: a pipe escaped (GitHub's
// tables end a cell at any unescaped pipe, inside code too; a backslash
// before a pipe escapes it whatever comes before, and the table takes
// that one backslash away).
func code(s string) string { return span(s, true) }

// span writes s as a code span, which shows any text as written: fenced
// with more backticks than it holds in a row, invisible characters written
// as escapes (a code span may not hold a new line, which would end a
// table row), and, in a table cell, pipes escaped.
func span(s string, cell bool) string {
	if s == "" {
		// Two backticks alone are no code span.
		return "` `"
	}
	s = invisible.Escape(s)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || (strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.Trim(s, " ") != "") {
		s = " " + s + " "
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return fence + s + fence
}

// cellText makes a chart's plain text show as written in a table cell or
// a paragraph: on one line, blanks folded, with the characters that would
// start markup or end the cell escaped (see inline).
func cellText(s string) string {
	return inline(strings.Join(strings.Fields(s), " "), true)
}

// inline escapes text so that Markdown shows it as written inside a line
// (a table cell, a heading, a paragraph, a link's text): no HTML, link,
// image, code, emphasis, strikethrough, character reference or cell end.
// A new line becomes a blank and an invisible character its escape; < is
// written &lt;. gt writes > as &gt; too: without it, > is left as it is,
// as in a version constraint (>=1.25), since it makes markup only at the
// start of a line (a quote) or closing what a < opened, and no < is left.
//
// Underscores inside a word (AWS_ACCESS_KEY_ID, AIRFLOW__CORE) start
// nothing, and are left as they are for the README's readers; so are one
// or two tildes at the start of the text or after a blank (~/.venv,
// ~2.0), which cannot close a strikethrough, while any other tilde, which
// could, is escaped.
func inline(s string, gt bool) string {
	s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
	rs := []rune(s)
	out := make([]string, len(rs))
	escaped := false
	for i := range rs {
		out[i] = escapeRune(rs, i, gt)
		escaped = escaped || out[i] != ""
	}
	if !escaped {
		return s
	}
	// GitHub makes a bare link of https://..., http://..., ftp://... and
	// www.... up to the next blank or <, and shows what it takes as it is,
	// backslashes and character references included; what it leaves off
	// the end (punctuation, a reference) is read again without the
	// backslash. In a word holding an escape, the link is not made: its
	// colon or dot is escaped, and the word shows as written.
	for from := 0; from < len(rs); {
		to := from
		for to < len(rs) && !unicode.IsSpace(rs[to]) {
			to++
		}
		if slices.ContainsFunc(out[from:to], func(e string) bool { return e != "" }) {
			for i := from; i < to; i++ {
				if bareLinkStart(rs, i) {
					out[i] = `\` + string(rs[i])
				}
			}
		}
		from = to + 1
	}
	var b strings.Builder
	for i, r := range rs {
		if out[i] != "" {
			b.WriteString(out[i])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// escapeRune returns what rs[i] is written as in inline, "" for itself.
func escapeRune(rs []rune, i int, gt bool) string {
	r := rs[i]
	switch r {
	case '\\', '`', '*', '[', ']', '|':
		return `\` + string(r)
	case '<':
		// Not \<: a bare link (see inline) may take the backslash, and
		// leave the < raw.
		return "&lt;"
	case '>':
		if gt {
			return "&gt;"
		}
	case '~':
		if !openingTilde(rs, i) {
			return `\~`
		}
	case '_':
		from, to := i, i
		for from > 0 && rs[from-1] == '_' {
			from--
		}
		for to < len(rs)-1 && rs[to+1] == '_' {
			to++
		}
		if from == 0 || to == len(rs)-1 || !isWord(rs[from-1]) || !isWord(rs[to+1]) {
			return `\_`
		}
	case '&':
		if entity(rs[i+1:]) {
			return `\&`
		}
	}
	if invisible.Is(r) {
		return `\` + invisible.Escape(string(r))
	}
	return ""
}

// bareLinkStart reports whether rs[i] is the colon of ://, or the dot of
// www., where GitHub starts a bare link.
func bareLinkStart(rs []rune, i int) bool {
	switch rs[i] {
	case ':':
		return i+2 < len(rs) && rs[i+1] == '/' && rs[i+2] == '/'
	case '.':
		return i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www")
	}
	return false
}

// openingTilde reports whether the tilde at rs[i] belongs to a run of one
// or two at the start of the text or after a blank: such a run is no
// closing delimiter of a strikethrough, nor a code fence.
func openingTilde(rs []rune, i int) bool {
	from, to := i, i
	for from > 0 && rs[from-1] == '~' {
		from--
	}
	for to < len(rs)-1 && rs[to+1] == '~' {
		to++
	}
	return to-from < 2 && (from == 0 || unicode.IsSpace(rs[from-1]))
}

// paragraph keeps a line of escaped text (inline) a paragraph's line: a
// line starting like a heading, a quote, a list item, a thematic break or
// a setext underline would be one. Up to three blanks may come first, as
// Markdown allows.
func paragraph(s string) string {
	lead := len(s) - len(strings.TrimLeft(s, " "))
	if lead > 3 {
		return s
	}
	t := s[lead:]
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	switch {
	case t == "":
	case strings.ContainsRune("#=>", rune(t[0])):
		return s[:lead] + `\` + t
	case t[0] == '-' || t[0] == '+':
		// A list item's marker is followed by a blank or nothing; a
		// thematic break or an underline repeats the dash.
		if len(t) == 1 || strings.ContainsRune(" \t-", rune(t[1])) {
			return s[:lead] + `\` + t
		}
	case digits > 0 && digits <= 9 && digits < len(t) && (t[digits] == '.' || t[digits] == ')') &&
		(digits+1 == len(t) || t[digits+1] == ' ' || t[digits+1] == '\t'):
		return s[:lead] + t[:digits] + `\` + t[digits:]
	}
	return s
}

// headingText is cellText for a heading, whose closing #s would be
// dropped.
func headingText(s string) string {
	t := cellText(s)
	if strings.HasSuffix(t, "#") {
		t = t[:len(t)-1] + `\#`
	}
	return t
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// entity reports whether the text after an & reads as a character
// reference (&amp; &#38;), which Markdown would replace.
func entity(rs []rune) bool {
	for i, r := range rs {
		switch {
		case r == ';':
			return i > 0
		case isWord(r) || (r == '#' && i == 0):
		default:
			return false
		}
	}
	return false
}

// sentence ends text with a full stop unless it ends with punctuation.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	if strings.ContainsRune(".!?:;", r) {
		return s
	}
	return s + "."
}
