package lint

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/launchcontext"
	"github.com/catalogist/catalogist/schema"
	"github.com/catalogist/catalogist/suggest"
)

var yamlLineRe = regexp.MustCompile(`yaml: line (\d+):`)

func didYouMean(n *doc.Node, candidates []string) string {
	if n == nil || n.Kind != doc.String {
		return ""
	}
	if s := suggest.Closest(n.Text, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// withTop returns the root option and every option below it.
func withTop(s *schema.Schema) []*schema.Option {
	return append([]*schema.Option{s.Top}, s.Options...)
}

// RuleExtKeys reports keys the platform ignores in or around the extension.
var RuleExtKeys = &Rule{
	Name: "ext-unknown-key", Severity: Warning,
	Doc: "the extension object holds only keys the platform reads, and its keys are not written outside it",
	Run: func(p *Pass) {
		for _, o := range withTop(p.Schema) {
			if o.Node.Kind != doc.Object {
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
			ext := o.Ext.Node
			if ext.Kind != doc.Object {
				p.At(ext, "%s must be an object such as {\"overwriteDefaultWith\": \"git.name\"}, not %s", p.ExtKey, ext.Kind.WithArticle())
				continue
			}
			for _, m := range ext.Members {
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
	Name: "ext-foreign-key", Severity: Warning,
	Doc: "extension fields sit under the extension key in force, not another x-* key (x-onyxia versus x-platform)",
	Run: func(p *Pass) {
		foreign := p.Schema.ForeignExtensions()
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
	for _, o := range withTop(p.Schema) {
		if o.Ext != nil {
			return true
		}
	}
	return false
}

// RuleOverwriteType reports references of the wrong shape.
var RuleOverwriteType = &Rule{
	Name: "overwrite-type", Severity: Error,
	Doc: "overwriteDefaultWith is a string, array or object; overwriteListEnumWith a string or array",
	Run: func(p *Pass) {
		for _, o := range p.Schema.Options {
			if o.Ext == nil {
				continue
			}
			if n := o.Ext.OverwriteDefaultWith; n != nil && n.Kind != doc.String && n.Kind != doc.Array && n.Kind != doc.Object {
				p.At(n, "overwriteDefaultWith of option %q is %s; write a context path such as \"git.name\", or put a fixed value in default", o.Path, n.Kind.WithArticle())
			}
			if n := o.Ext.OverwriteListEnumWith; n != nil && n.Kind != doc.String && n.Kind != doc.Array {
				p.At(n, "overwriteListEnumWith of option %q is %s; write a context path or a list", o.Path, n.Kind.WithArticle())
			}
		}
	},
}

// references returns the expressions of an option that name context paths.
func references(o *schema.Option) []*doc.Node {
	if o.Ext == nil {
		return nil
	}
	var out []*doc.Node
	for _, n := range []*doc.Node{o.Ext.OverwriteDefaultWith, o.Ext.OverwriteListEnumWith} {
		if n != nil && (n.Kind == doc.String || n.Kind == doc.Array || n.Kind == doc.Object) {
			out = append(out, n)
		}
	}
	return out
}

// fallsBack says what happens when a reference resolves to nothing.
func fallsBack(n *doc.Node) string {
	if n.Key == "overwriteListEnumWith" {
		return "the choices silently fall back to listEnum"
	}
	return "the value silently falls back to the default"
}

// isBareWord reports whether a bare reference looks like a literal: a
// single word that is no top-level context key, or text with spaces.
func isBareWord(r launchcontext.Ref, m *launchcontext.Model) bool {
	if !r.Bare {
		return false
	}
	if strings.ContainsAny(r.Path, " \t") {
		return true
	}
	return len(r.Segs) == 1 && !m.IsRoot(r.Path)
}

// RuleContextPath reports references to paths the context does not have.
var RuleContextPath = &Rule{
	Name: "context-path", Severity: Warning,
	Doc: "every context path overwriteDefaultWith names exists (an unknown one silently falls back to the default)",
	Run: func(p *Pass) {
		for _, o := range p.Schema.Options {
			for _, n := range references(o) {
				for _, r := range launchcontext.Refs(n.Value()) {
					if isBareWord(r, p.Model) {
						continue
					}
					if ok, why := p.Model.Check(r.Segs); !ok {
						at, _ := n.Lookup(r.Where)
						p.At(at, "%s of option %q names %q: %s, so %s", n.Key, o.Path, r.Path, why, fallsBack(n))
					}
				}
			}
		}
	},
}

// RuleBareLiteral reports bare words the platform reads as paths.
var RuleBareLiteral = &Rule{
	Name: "bare-literal", Severity: Warning,
	Doc: "overwriteDefaultWith is not a bare word meant as a literal (a bare string is always a context lookup)",
	Run: func(p *Pass) {
		for _, o := range p.Schema.Options {
			for _, n := range references(o) {
				for _, r := range launchcontext.Refs(n.Value()) {
					if isBareWord(r, p.Model) {
						at, _ := n.Lookup(r.Where)
						fix := "put a fixed value in default instead"
						if n.Key == "overwriteListEnumWith" {
							fix = "put fixed choices in listEnum instead"
						}
						p.At(at, "%s of option %q is %q, which the platform reads as a context path, not a literal: it finds nothing and %s; %s", n.Key, o.Path, r.Path, fallsBack(n), fix)
					}
				}
			}
		}
	},
}

// builtinSliderConfigs are the slider configurations every region of the
// reference platform defines.
var builtinSliderConfigs = []string{"cpu", "memory", "gpu", "disk"}

// RuleSliderConfig reports useRegionSliderConfig that cannot apply.
var RuleSliderConfig = &Rule{
	Name: "region-slider-config", Severity: Warning,
	Doc: "useRegionSliderConfig names a known slider configuration and sits on a slider",
	Run: func(p *Pass) {
		known := slices.Clone(builtinSliderConfigs)
		for name := range p.Context.Sliders {
			if !slices.Contains(known, name) {
				known = append(known, name)
			}
		}
		sort.Strings(known)
		for _, o := range p.Schema.Options {
			if o.Ext == nil || o.Ext.UseRegionSliderConfig == nil {
				continue
			}
			n := o.Ext.UseRegionSliderConfig
			if n.Kind != doc.String {
				p.At(n, "useRegionSliderConfig of option %q must be a string such as \"cpu\"", o.Path)
				continue
			}
			switch {
			case p.Region != nil && p.Context.Sliders[n.Text] == nil:
				p.At(n, "option %q uses slider configuration %q, which region %s does not define; the chart's own bounds apply%s", o.Path, n.Text, p.Region.File, didYouMean(n, known))
			case !slices.Contains(known, n.Text):
				p.At(n, "option %q uses slider configuration %q, which is none of %s; the chart's own bounds apply%s", o.Path, n.Text, strings.Join(known, ", "), didYouMean(n, known))
			}
			if !o.HasSlider {
				p.At(n, "option %q has useRegionSliderConfig but is not a slider (no render: slider, no sliderMin); slider configurations only bound sliders", o.Path)
			}
		}
	},
}

// RuleExtBoolean reports readonly and hidden flags that are not booleans.
var RuleExtBoolean = &Rule{
	Name: "ext-boolean", Severity: Error,
	Doc: "readonly and hidden inside the extension are booleans",
	Run: func(p *Pass) {
		for _, o := range p.Schema.Options {
			if o.Ext == nil {
				continue
			}
			for _, n := range []*doc.Node{o.Ext.Readonly, o.Ext.Hidden} {
				switch {
				case n == nil || n.Kind == doc.Bool:
				case n.Key == "hidden" && n.Kind == doc.Object:
					p.At(n, "hidden inside %s of option %q is a {path, value} condition, but there the platform reads only true or false; move the condition out of %s, next to \"type\"", p.ExtKey, o.Path, p.ExtKey)
				default:
					p.At(n, "%s of option %q is %s; write true or false", n.Key, o.Path, showNode(n))
				}
			}
		}
	},
}
