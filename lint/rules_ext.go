package lint

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// extRules check the extension's fields.
var extRules = []*Rule{RuleExtKeys, RuleForeignExt, RuleOverwriteType, RuleContextPath, RuleBareLiteral, RuleSliderConfig, RuleExtBoolean}

var yamlLineRe = regexp.MustCompile(`yaml: line (\d+):`)

// withTop returns the root option and every option below it.
func withTop(s *schema.Schema) []*schema.Option {
	return append([]*schema.Option{s.Top}, s.Options...)
}

// RuleExtKeys reports keys the platform ignores in or around the extension.
var RuleExtKeys = &Rule{
	Name: "ext-unknown-key", Severity: Warning, Launchable: true,
	Doc: "the extension object holds only keys the platform reads, and its keys are not written outside it",
	Run: func(p *Pass) {
		for _, o := range withTop(p.Schema()) {
			if o.Node.Kind != srcpos.Object {
				continue
			}
			for _, m := range o.Node.Members {
				if slices.Contains([]string{"overwriteDefaultWith", "useRegionSliderConfig", "overwriteListEnumWith", "overwriteSchemaWith", "readonly"}, m.Key) {
					p.AtKey(m, "%q is written next to the schema keys, where the platform ignores it; move it inside %q", m.Key, p.ExtKey)
				}
			}
			if o.Ext == nil {
				continue
			}
			// Only an object has members: an extension of another type
			// has no key to judge.
			for _, m := range o.Ext.Node.Members {
				if !slices.Contains(schema.ExtensionKeys, m.Key) {
					hint := ""
					if s := suggest.Closest(m.Key, schema.ExtensionKeys); s != "" {
						hint = fmt.Sprintf(" (did you mean %q?)", s)
					}
					p.AtKey(m, "unknown key %q in %s: the platform ignores it%s", m.Key, p.ExtKey, hint)
				}
			}
		}
	},
}

// RuleForeignExt reports extension fields under another x-* key.
var RuleForeignExt = &Rule{
	Name: "ext-foreign-key", Severity: Warning, Launchable: true,
	Doc: "extension fields sit under the extension key in force, not another x-* key (x-onyxia versus x-platform)",
	Run: func(p *Pass) {
		foreign := p.Schema().ForeignExtensions()
		keys := make([]string, 0, len(foreign))
		for k := range foreign {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			nodes := foreign[k]
			if d := suggest.Closest(k, []string{p.ExtKey}); d != "" {
				for _, n := range nodes {
					p.AtKey(n, "%q holds extension fields but the extension key is %q (did you mean %q?); the platform ignores it", k, p.ExtKey, d)
				}
				continue
			}
			if usesKey(p) {
				// The schema mostly uses the key in force: the stray ones
				// are copies from another catalog.
				for _, n := range nodes {
					p.AtKey(n, "%q holds extension fields in a schema that otherwise uses %q; the platform ignores it: rename it to %q", k, p.ExtKey, p.ExtKey)
				}
				continue
			}
			places := "1 place"
			if len(nodes) > 1 {
				places = fmt.Sprintf("%d places", len(nodes))
			}
			p.AtKey(nodes[0], "the schema writes its extension fields under %q (%s) but the extension key in force is %q, so none of them would apply; run with --extension-key %s or set extensionKey: %s in catalog.yaml", k, places, p.ExtKey, k, k)
		}
	},
}

// usesKey reports whether any option carries the extension key in force.
func usesKey(p *Pass) bool {
	for _, o := range withTop(p.Schema()) {
		if o.Ext != nil {
			return true
		}
	}
	return false
}

// RuleOverwriteType reports references of the wrong shape.
var RuleOverwriteType = &Rule{
	Name: "overwrite-type", Severity: Error, Launchable: true,
	Doc: "the extension is an object; overwriteDefaultWith is a string, array or object, overwriteListEnumWith a string or array (the form will not open otherwise)",
	Run: shapeRule(schema.ShapeExtType),
}

// fallsBack says what happens when a reference resolves to nothing.
func fallsBack(n *srcpos.Node) string {
	if n.Key == "overwriteListEnumWith" {
		return "the choices silently fall back to listEnum"
	}
	return "the value silently falls back to the default"
}

// RuleContextPath reports references to paths the context does not have.
var RuleContextPath = &Rule{
	Name: "context-path", Severity: Warning, Launchable: true,
	Doc: "every context path overwriteDefaultWith names exists in the platform's context (an unknown one silently falls back to the default)",
	Run: func(p *Pass) {
		for _, c := range contextRefs.of(p) {
			if c.verdict == refMissing {
				p.At(c.at, "%s of option %q names %q: %s, so %s", c.expr.Key, c.option.Path, c.ref.Path, c.why, fallsBack(c.expr))
			}
		}
	},
}

// RuleBareLiteral reports bare words the platform reads as paths.
var RuleBareLiteral = &Rule{
	Name: "bare-literal", Severity: Warning, Launchable: true,
	Doc: "overwriteDefaultWith is not a bare word meant as a literal (a bare string is always a context lookup)",
	Run: func(p *Pass) {
		for _, c := range contextRefs.of(p) {
			if c.verdict != refBare {
				continue
			}
			fix := "put a fixed value in default instead"
			if c.expr.Key == "overwriteListEnumWith" {
				fix = "put fixed choices in listEnum instead"
			}
			p.At(c.at, "%s of option %q is %q, which the platform reads as a context path, not a literal: it finds nothing and %s; %s", c.expr.Key, c.option.Path, c.ref.Path, fallsBack(c.expr), fix)
		}
	},
}

// builtinSliderConfigs are the slider configurations every region of the
// reference platform defines.
var builtinSliderConfigs = []string{"cpu", "memory", "gpu", "disk"}

// RuleSliderConfig reports useRegionSliderConfig that cannot apply.
var RuleSliderConfig = &Rule{
	Name: "region-slider-config", Severity: Warning, Launchable: true,
	Doc: "useRegionSliderConfig names a known slider configuration and sits on a slider, on a platform with region-bounded sliders (the onyxia platform ignores it)",
	Run: func(p *Pass) {
		known := slices.Clone(builtinSliderConfigs)
		for name := range p.Context.Sliders {
			if !slices.Contains(known, name) {
				known = append(known, name)
			}
		}
		sort.Strings(known)
		for _, o := range p.Schema().Options {
			if o.Ext == nil || o.Ext.UseRegionSliderConfig == nil {
				continue
			}
			n := o.Ext.UseRegionSliderConfig
			if !p.Platform.RegionSliders {
				p.At(n, "the %s platform ignores useRegionSliderConfig: option %q keeps the chart's own slider bounds (region-bounded sliders are the %s platform's: --platform %s)", p.Platform.Name, o.Path, schema.Catalogist.Name, schema.Catalogist.Name)
				continue
			}
			if n.Kind != srcpos.String {
				p.At(n, "useRegionSliderConfig of option %q must be a string such as \"cpu\"", o.Path)
				continue
			}
			switch {
			case p.Region != nil && p.Context.Sliders[n.Text] == nil:
				p.At(n, "option %q uses slider configuration %q, which region %s does not define; the chart's own bounds apply%s", o.Path, n.Text, p.Region.File, suggest.Hint(n.Text, known))
			case !slices.Contains(known, n.Text):
				p.At(n, "option %q uses slider configuration %q, which is none of %s; the chart's own bounds apply%s", o.Path, n.Text, strings.Join(known, ", "), suggest.Hint(n.Text, known))
			}
			if !o.HasSlider && o.Render != "slider" {
				p.At(n, "option %q has useRegionSliderConfig but is not a slider (no render: slider, no sliderMin); slider configurations only bound sliders", o.Path)
			}
		}
	},
}

// RuleExtBoolean reports readonly and hidden flags that are not booleans.
var RuleExtBoolean = &Rule{
	Name: "ext-boolean", Severity: Error, Launchable: true,
	Doc: "readonly and hidden inside the extension are booleans (the form will not open otherwise)",
	Run: shapeRule(schema.ShapeExtBool),
}
