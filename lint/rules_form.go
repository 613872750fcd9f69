package lint

import (
	"errors"
	"fmt"
	"strings"

	"github.com/catalogist/catalogist/internal/base/jsregexp"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// formRules check that the platform's form opens and offers choices.
var formRules = []*Rule{RuleFormOpens, RuleFormHiddenCrash, RulePatternReadings, RuleSchemaRegistry, RuleSelectOptions}

// RuleFormOpens reports what makes the platform's form refuse to open or
// crash, other than the schema's shape and the sliders.
var RuleFormOpens = &Rule{
	Name: "form-opens", Severity: Error, Launchable: true,
	Doc: "every option gets a value the form accepts (const, context, default, or a valid values.yaml value), render list has options, minItems has default items, every pattern the form evaluates is a JavaScript regular expression, and the API can serve the schema",
	Run: func(p *Pass) {
		for _, e := range p.Schema().ResolveErrors {
			p.At(e.Node, "%s", e.Msg)
		}
		failures(p, false, schema.FailValue, schema.FailList, schema.FailItems, schema.FailPattern)
	},
}

// RuleFormHiddenCrash reports what crashes the form once a hidden option is
// shown.
var RuleFormHiddenCrash = &Rule{
	Name: "form-hidden-crash", Severity: Warning, Launchable: true,
	Doc: "an option hidden with the computed values does not crash the form when the user makes it visible",
	Run: func(p *Pass) {
		failures(p, true, schema.FailValue, schema.FailList, schema.FailItems, schema.FailSlider, schema.FailRange, schema.FailPattern)
	},
}

// RulePatternReadings reports patterns the form (JavaScript) and Helm (Go)
// read differently, and those the form cannot evaluate that the form's
// opening does not reach.
var RulePatternReadings = &Rule{
	Name: "pattern-readings", Severity: Warning, Launchable: true,
	Doc: "a pattern means the same to the form, which evaluates it with JavaScript's RegExp, and to Helm, which validates values with Go's regexp (\\A, \\z, [[:alpha:]], \\pL, \\Q...\\E mean other things to each); a pattern JavaScript refuses crashes the form once a value is checked against it",
	Run: func(p *Pass) {
		thrown := map[*srcpos.Node]bool{}
		for _, f := range p.Form.Failures {
			if f.Kind == schema.FailPattern {
				thrown[f.Node] = true
			}
		}
		for _, o := range p.Schema().Options {
			pattern, n := o.Pattern()
			if pattern == "" || thrown[n] {
				continue
			}
			var se *jsregexp.SyntaxError
			var ue *jsregexp.UnsupportedError
			switch err := o.PatternError(); {
			case errors.As(err, &se) && o.Type == "string":
				p.At(n, "the pattern %q of option %q is no JavaScript regular expression (%s); the form checks values with new RegExp(pattern), which throws, so the form crashes as soon as it checks a value of the option: write the pattern as JavaScript reads it, without flags", pattern, o.Path, se.Msg)
				continue
			case err != nil && !errors.As(err, &ue):
				// Not evaluated on values of other types: nothing throws.
				continue
			case errors.As(err, &ue):
				p.At(n, "the pattern %q of option %q is valid JavaScript but beyond what catalogist evaluates (%v), so values are not checked against it here", pattern, o.Path, ue.Err)
				continue
			}
			for _, d := range jsregexp.Differences(pattern) {
				hint := ""
				if d.Instead != "" {
					hint = "; write " + d.Instead + ", which both read alike"
				}
				p.At(n, "the pattern %q of option %q means one thing to the form and another to Helm: %s is %s to the form (JavaScript) and %s to Helm (Go), which validates the values at install%s", pattern, o.Path, d.Text, d.JS, d.Go, hint)
			}
		}
	},
}

// RuleSchemaRegistry reports names the platform's API does not find in its
// schema registry.
var RuleSchemaRegistry = &Rule{
	Name: "schema-registry", Severity: Warning, Launchable: true,
	Doc: "overwriteSchemaWith and $ref name schemas of the API's registry (a missing name silently keeps the inline schema); without --schema-registry, a note says the inline copies were checked",
	Run: func(p *Pass) {
		var first *srcpos.Node
		for _, o := range p.Schema().Options {
			if o.Ext != nil && o.Ext.OverwriteSchemaWith != nil && o.Ext.OverwriteSchemaWith.Kind != srcpos.String {
				n := o.Ext.OverwriteSchemaWith
				p.At(n, "overwriteSchemaWith of option %q is %s; the API looks up a name such as \"ide/resources.json\"", o.Path, n.Show())
			}
		}
		for _, u := range p.Schema().Unresolved {
			if p.Schema().Registry == nil {
				if !u.Ref {
					if first == nil {
						first = u.Node
					}
				}
				continue
			}
			if u.Ref && strings.HasPrefix(u.Name, "#") {
				// A reference into the chart's own schema names nothing
				// of the registry: this rule has nothing to say of it.
				continue
			}
			hint := ""
			if u.Suggestion != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", u.Suggestion)
			}
			what := "overwriteSchemaWith"
			if u.Ref {
				what = "$ref"
			}
			p.At(u.Node, "%s of option %q names %q, which the schema registry (%s) does not hold%s; the API silently keeps the inline schema", what, p.optionAt(u.Node), u.Name, strings.Join(p.Schema().Registry.Dirs, ", "), hint)
		}
		if first != nil {
			p.Notef(first, "options name schemas of the platform API's registry (overwriteSchemaWith), which the API substitutes for the inline ones; no --schema-registry was given, so the inline copies were checked")
		}
	},
}

// RuleSelectOptions reports choices the form drops.
var RuleSelectOptions = &Rule{
	Name: "select-options", Severity: Warning, Launchable: true,
	Doc: "every value of listEnum and enum fits the option (one that does not makes the form drop the whole list)",
	Run: func(p *Pass) {
		for _, d := range p.Form.DroppedChoices() {
			p.At(d.Node, "%s", d.Msg)
		}
	},
}
