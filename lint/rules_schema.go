package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"

	"github.com/catalogist/catalogist/internal/base/invisible"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// schemaRules check the schema as JSON Schema and as the form reads its
// options; valuesRules check values against it.
var (
	schemaRules = []*Rule{RuleJSON, RuleJSONSchema, RuleRootObject, RuleOptionType, RuleOptionText, RuleOptionKey, RuleRender, RuleSchemaShape}
	valuesRules = []*Rule{RuleDefaultValid, RuleValuesValid, RuleDuplicateKey}
)

// RuleJSON reports a schema that is not JSON.
var RuleJSON = &Rule{
	Name: "json-syntax", Severity: Error, Scope: PerChart,
	Doc: "values.schema.json is valid JSON (the platform silently drops the form of a chart whose schema does not parse)",
	Run: func(p *Pass) {
		if p.SchemaErr() == nil {
			return
		}
		pos := srcpos.Pos{Line: 1, Col: 1}
		msg := p.SchemaErr().Error()
		if de, ok := p.SchemaErr().(*srcpos.Error); ok {
			pos, msg = de.Pos, de.Msg
		}
		p.Reportf(p.Chart.SchemaFile, pos, "", "not valid JSON: %s", msg)
	},
}

// RuleJSONSchema reports a schema Helm cannot compile.
var RuleJSONSchema = &Rule{
	Name: "json-schema", Severity: Error, Launchable: true,
	Doc: "values.schema.json is a valid JSON Schema for the draft Helm picks ($schema absent or unversioned: 2020-12)",
	Run: func(p *Pass) {
		if h := p.Helm(); h.Err != nil {
			for _, e := range schemaErrorPositions(h.Err, p.Schema().Source) {
				p.At(e.node, "%s", e.msg)
			}
		}
	},
}

// RuleRootObject reports a schema whose root is not an object.
var RuleRootObject = &Rule{
	Name: "root-object", Severity: Error, Launchable: true,
	Doc: `the schema's root has "type": "object" and properties: the form is a group of options`,
	Run: func(p *Pass) {
		root := p.Schema().Root
		if root.Kind != srcpos.Object {
			p.At(root, "the schema's root must be an object with \"type\": \"object\", not %s", root.Kind.WithArticle())
			return
		}
		t := root.Get("type")
		switch {
		case t == nil:
			p.At(root, "the schema's root has no type; add \"type\": \"object\"")
		case t.Kind != srcpos.String || t.Text != "object":
			p.At(t, "the schema's root type must be \"object\", as Helm values are a mapping and the form a group of options")
		case root.Get("properties") == nil:
			p.At(root, "the schema's root has no properties, so the form will not open; list the options under \"properties\"")
		}
	},
}

// shapeRule reports the shape problems of one kind: nodes the platform's
// form refuses, so that it does not open.
func shapeRule(kinds ...schema.ShapeKind) func(*Pass) {
	return func(p *Pass) {
		for _, sh := range p.shapes() {
			if !slices.Contains(kinds, sh.Kind) {
				continue
			}
			if sh.AtKey {
				p.AtKey(sh.Node, "%s", sh.Msg)
			} else {
				p.At(sh.Node, "%s", sh.Msg)
			}
		}
	}
}

// shapes returns the schema's shape problems, computed once per chart.
func (p *Pass) shapes() []schema.Shape {
	p.state.shapesOnce.Do(func() { p.state.shapes = p.Schema().Shapes() })
	return p.state.shapes
}

// RuleOptionType reports options the platform's form refuses to show.
var RuleOptionType = &Rule{
	Name: "option-type", Severity: Error, Launchable: true,
	Doc: "every option has a type (or a const) among object, array, string, number, integer, boolean; no type lists, no null (the form will not open otherwise)",
	Run: shapeRule(schema.ShapeType, schema.ShapeRef),
}

// RuleOptionText reports titles and descriptions that are not strings.
var RuleOptionText = &Rule{
	Name: "option-text", Severity: Error, Launchable: true,
	Doc: "title and description are strings (the form will not open otherwise)",
	Run: shapeRule(schema.ShapeText),
}

// RuleOptionKey reports option keys that do not show as written where
// keys are read: a README's table, the form, a terminal.
var RuleOptionKey = &Rule{
	Name: "option-key", Severity: Warning, Launchable: true,
	Doc: "option keys hold no control character (a new line, a tab), line separator or bidirectional control, and none of the characters < > ` | [ ], which Markdown reads as markup: a README (helm-docs writes keys as they are), the form and terminals would not show the key as written",
	Run: func(p *Pass) {
		for _, o := range p.sourceOptions() {
			if len(o.Key) == 0 || o.Key[len(o.Key)-1] == schema.ItemsKey {
				continue
			}
			k := o.Key[len(o.Key)-1]
			hidden, markup := keyFaults(k)
			var why []string
			if len(hidden) > 0 {
				why = append(why, "it does not show as written in a README, the form or a terminal")
			}
			if len(markup) > 0 {
				why = append(why, "Markdown reads it as markup where a tool writes keys as they are (helm-docs' values table)")
			}
			if len(why) > 0 {
				p.AtKey(o.Node, "option key %q holds %s: %s; rename the option", k, andList(append(hidden, markup...)), strings.Join(why, ", and "))
			}
		}
	},
}

// markupInKeys are the characters option-key reports: < and > open and
// close HTML (a tag, a comment such as docs' marker lines) and links; a
// backtick ends the code span keys are written in; a pipe ends a cell of
// GitHub's tables, where keys are listed, even in code; [ and ] make links
// and images, and helm --set reads key[0] as a list's item, so that no
// --set names the key. Other punctuation (_ * ~ # & \) is left alone: _
// is common in keys (AWS_ACCESS_KEY_ID), and the others make at most
// emphasis or a heading where a tool writes a key raw, never HTML or a
// link.
const markupInKeys = "<>`|[]"

// keyFaults names the invisible characters and the characters of
// markupInKeys a key holds, once each.
func keyFaults(k string) (hidden, markup []string) {
	var chars []string
	for _, r := range k {
		switch {
		case invisible.Is(r):
			if name := invisible.Name(r); !slices.Contains(hidden, name) {
				hidden = append(hidden, name)
			}
		case strings.ContainsRune(markupInKeys, r):
			if c := strconv.Quote(string(r)); !slices.Contains(chars, c) {
				chars = append(chars, c)
			}
		}
	}
	switch len(chars) {
	case 0:
	case 1:
		markup = []string{"the markup character " + chars[0]}
	default:
		markup = []string{"the markup characters " + andList(chars)}
	}
	return hidden, markup
}

// andList joins words as a sentence does: a, b and c.
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// RuleRender reports unknown widgets.
var RuleRender = &Rule{
	Name: "render", Severity: Error, Launchable: true,
	Doc: "render is one of slider, textArea, password, list (the form will not open otherwise)",
	Run: shapeRule(schema.ShapeRender),
}

// RuleSchemaShape reports the other keys the form reads with a shape it
// refuses.
var RuleSchemaShape = &Rule{
	Name: "schema-shape", Severity: Error, Launchable: true,
	Doc: "hidden, items, minItems, maxItems, minimum, pattern, enum, listEnum, required, properties and the range keys have the shape the form reads (it will not open otherwise)",
	Run: shapeRule(schema.ShapeOther),
}

// RuleDefaultValid reports defaults their own subschema rejects.
var RuleDefaultValid = &Rule{
	Name: "default-valid", Severity: Warning, Launchable: true,
	Doc: "each default is valid against its own subschema as Helm judges it",
	Run: func(p *Pass) {
		h := p.Helm()
		if h.Err != nil {
			return
		}
		for _, o := range p.sourceOptions() {
			if o.Default == nil {
				continue
			}
			sub, err := h.Subschema(o.Node.Pointer())
			if err != nil {
				continue
			}
			if err := sub.Validate(o.Default.Value()); err != nil {
				for _, v := range schema.Violations(err) {
					n, _ := o.Default.LookupTokens(v.Instance)
					p.At(n, "default of option %q is invalid: %s (Helm would refuse it if it reached the values)", o.Path, v.Message)
				}
			}
		}
	},
}

// sourceOptions are the options as the chart writes them, which Helm
// compiles: without the registry's substitutions.
func (p *Pass) sourceOptions() []*schema.Option {
	if p.Schema().Root == p.Schema().Source {
		return p.Schema().Options
	}
	p.state.sourceOnce.Do(func() {
		p.state.source = schema.Build(p.Schema().Source, p.Schema().File, schema.Env{ExtKey: p.ExtKey, Platform: p.Platform}).Options
	})
	return p.state.source
}

// RuleValuesValid reports values files Helm would refuse at install time.
var RuleValuesValid = &Rule{
	Name: "values-valid", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "values.yaml and every ci/*-values.yaml are YAML Helm reads and pass the schema as helm install judges them, and so do the values the platform sends in each region",
	Run: func(p *Pass) {
		if p.ValuesErr() != nil {
			p.Reportf(p.Chart.ValuesFile, yamlErrPos(p.ValuesErr()), "", "values.yaml is not valid YAML, so Helm cannot load the chart: %v", p.ValuesErr())
			return
		}
		if p.Schema() == nil {
			for _, ci := range p.Chart.CIValues {
				if _, err := readValues(ci); err != nil {
					p.Reportf(ci, yamlErrPos(err), "", "not valid YAML: %v", err)
				}
			}
			return
		}
		h := p.Helm()
		if h.Err != nil {
			return
		}
		base := map[string]any{}
		var baseFaults map[string]bool
		if p.HelmValues() != nil {
			base = p.HelmValues()
			baseFaults = p.checkValues(h, base, p.Chart.ValuesFile, p.ValuesDoc, nil, nil)
		}
		for _, ci := range p.Chart.CIValues {
			over, err := readValues(ci)
			if err != nil {
				p.Reportf(ci, yamlErrPos(err), "", "not valid YAML: %v", err)
				continue
			}
			ciDoc := func() *srcpos.Node {
				data, _ := srcpos.ReadFile(ci)
				n, _ := srcpos.ParseYAML(data)
				return n
			}
			// helm install -f ci/x-values.yaml judges the ci file merged over
			// values.yaml; faults values.yaml has on its own are reported once.
			merged := util.CoalesceTables(schema.HelmValues(over.AsMap()), schema.HelmValues(base))
			p.checkValues(h, merged, ci, ciDoc, p.ValuesDoc, baseFaults)
		}
		p.checkSent(h, base, baseFaults)
	},
}

// checkSent checks the values the platform's form sends, when it opens,
// over values.yaml, as helm install judges them: a fault the form does not
// see (a required key, a pattern Go reads otherwise) stops the launch.
// Each is reported at the option's schema, faults of values.yaml alone
// once.
func (p *Pass) checkSent(h *schema.HelmSchema, base map[string]any, skip map[string]bool) {
	if p.Form == nil || !p.Form.Opens() || len(p.Schema().ResolveErrors) > 0 {
		return
	}
	sent := util.CoalesceTables(schema.HelmValues(p.Form.Values), schema.HelmValues(base))
	err := h.Root.Validate(sent)
	if err == nil {
		return
	}
	for _, v := range schema.Violations(err) {
		ptr := ""
		if len(v.Instance) > 0 {
			ptr = "/" + strings.Join(escapeAll(v.Instance), "/")
		}
		if skip[ptr+"\x00"+v.Message] {
			continue
		}
		label := ptr
		if label == "" {
			label = "(root)"
		}
		n := schemaNodeOf(p.Schema().Source, v.Instance)
		p.At(n, "the values the platform sends: %s: %s (helm install would refuse them)", label, v.Message)
	}
}

// schemaNodeOf is the subschema of a schema that describes the value at a
// path, as deep as properties and items lead.
func schemaNodeOf(root *srcpos.Node, path []string) *srcpos.Node {
	n := root
	for _, tok := range path {
		next := n.Get("properties").Get(tok)
		if next == nil {
			next = n.Get("items")
		}
		if next == nil || next.Kind != srcpos.Object {
			return n
		}
		n = next
	}
	return n
}

func readValues(path string) (common.Values, error) {
	data, err := srcpos.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return common.ReadValues(data)
}

func yamlErrPos(err error) srcpos.Pos {
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		var line int
		fmt.Sscan(m[1], &line)
		return srcpos.Pos{Line: line, Col: 1}
	}
	return srcpos.Pos{Line: 1, Col: 1}
}

// checkValues validates values and reports each violation in file when the
// offending path is written there, else in the chart's values.yaml. Faults
// already reported (skip) are left out; it returns the faults it found.
func (p *Pass) checkValues(h *schema.HelmSchema, values map[string]any, file string, fileDoc, fallback func() *srcpos.Node, skip map[string]bool) map[string]bool {
	found := map[string]bool{}
	err := h.Root.Validate(values)
	if err == nil {
		return found
	}
	for _, v := range schema.Violations(err) {
		ptr := ""
		if len(v.Instance) > 0 {
			ptr = "/" + strings.Join(escapeAll(v.Instance), "/")
		}
		key := ptr + "\x00" + v.Message
		found[key] = true
		if skip[key] {
			continue
		}
		where, n := file, (*srcpos.Node)(nil)
		if d := fileDoc(); d != nil {
			var full bool
			n, full = d.LookupTokens(v.Instance)
			if fb := callOrNil(fallback); !full && fb != nil {
				if m, ok := fb.LookupTokens(v.Instance); ok {
					where, n = p.Chart.ValuesFile, m
				}
			}
		}
		pos := srcpos.Pos{Line: 1, Col: 1}
		if n != nil {
			pos = n.Pos
			if n.KeyPos.IsValid() {
				pos = n.KeyPos
			}
		}
		label := ptr
		if label == "" {
			label = "(root)"
		}
		p.Reportf(where, pos, ptr, "%s: %s (helm install would refuse these values)", label, v.Message)
	}
	return found
}

func callOrNil(f func() *srcpos.Node) *srcpos.Node {
	if f == nil {
		return nil
	}
	return f()
}

func escapeAll(toks []string) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = srcpos.EscapePointer(t)
	}
	return out
}

// RuleDuplicateKey reports keys written twice in one object.
var RuleDuplicateKey = &Rule{
	Name: "duplicate-key", Severity: Warning, Launchable: true,
	Doc: "no key appears twice in one object (JSON parsers silently keep the last one)",
	Run: func(p *Pass) {
		var walk func(n *srcpos.Node)
		walk = func(n *srcpos.Node) {
			switch n.Kind {
			case srcpos.Object:
				last := map[string]*srcpos.Node{}
				for _, m := range n.Members {
					last[m.Key] = m
				}
				for _, m := range n.Members {
					if l := last[m.Key]; l != m {
						again := fmt.Sprintf("at line %d", l.KeyPos.Line)
						if l.KeyPos.Line == m.KeyPos.Line {
							again = "later on this line"
						}
						p.AtKey(m, "key %q appears again %s; this one is ignored", m.Key, again)
					}
					walk(m)
				}
			case srcpos.Array:
				for _, c := range n.Items {
					walk(c)
				}
			}
		}
		walk(p.Schema().Source)
	},
}
