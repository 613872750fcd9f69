// Package schema owns the model of a chart's values.schema.json as the
// platform reads it (the option tree, its vendor extension, sliders and hidden
// conditions) and the one computation of what the configuration form shows.
package schema

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/catalogist/catalogist/internal/base/jsregexp"
	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// DefaultExtensionKey is the vendor extension key the seed uses; the
// reference platform spells it x-onyxia.
const DefaultExtensionKey = "x-platform"

// Schema is one parsed values.schema.json, as the platform's form reads it:
// after the platform's API resolved it against its schema registry.
type Schema struct {
	// File is the chart's schema file.
	File string
	// Source is the document as the chart writes it, which Helm validates
	// values against; Root is the document the form reads, Source with the
	// registry's schemas substituted and $ref inlined (Source itself when
	// nothing changed).
	Source, Root *srcpos.Node
	ExtKey       string
	Platform     *Platform
	Registry     *Registry
	// Top is the option of the root object; its key is empty.
	Top *Option
	// Options lists every option below Top, parents before children, in
	// document order.
	Options []*Option
	// Substitutions are the properties replaced by registry schemas;
	// Unresolved the names and $ref the API left as they are; ResolveErrors
	// what keeps the API from serving the schema at all.
	Substitutions []Substitution
	Unresolved    []Reference
	ResolveErrors []NodeError

	byPath map[string]*Option
	byKey  map[string]*Option
	// files attributes document roots, and the roots of substituted subtrees,
	// to the files they were read from.
	files map[*srcpos.Node]string
}

// Env is what a schema is read with.
type Env struct {
	// ExtKey is the extension key; empty means DefaultExtensionKey.
	ExtKey string
	// Platform is the target; nil means PlatformFor("", ExtKey).
	Platform *Platform
	// Registry is the API's schema registry; nil resolves nothing but
	// #/definitions references.
	Registry *Registry
	// KeyFromSchemas is true when nothing named the extension key and the
	// catalog's schemas chose it (see EnvFor).
	KeyFromSchemas bool
}

// ItemsKey is the key segment of an array's items.
const ItemsKey = "[]"

// Option is one node of the form: a property, or the items of an array.
type Option struct {
	// Key is the option's key segments from the values root; the items of an
	// array add ItemsKey. A segment may hold a slash (nvidia.com/gpu).
	Key []string
	// Path is Key joined with slashes, for messages.
	Path     string
	Name     string
	Node     *srcpos.Node
	Parent   *Option
	Children []*Option
	Items    *Option
	// InItems is true below the items of an array.
	InItems bool

	Type        string
	Title       string
	Description string
	// Default, Const, Enum and ListEnum are nil when absent.
	Default, Const, Enum, ListEnum *srcpos.Node
	Render                         string

	// HasSlider is true when the option has sliderMin (a select, with an
	// enum or listEnum, still wins in the form); Slider holds the chart's own
	// slider fields and SliderNodes their nodes.
	HasSlider                    bool
	Slider                       slider.Config
	SliderNodes                  SliderNodes
	Extremity, ExtremitySemantic string
	RangeID                      string
	ExtremityNode, RangeIDNode   *srcpos.Node
	Hidden                       *Hidden
	Ext                          *Extension
	Readonly                     bool

	minItems    *int
	maxItems    *int
	minimum     *float64
	pattern     string
	patternOnce sync.Once
	patternRe   *jsregexp.Regexp
	patternErr  error
	patternNode *srcpos.Node
	minLength   *int
	maxLength   *int
}

// SliderNodes are the nodes of the chart's slider fields, nil when absent.
type SliderNodes struct {
	Render, Min, Max, Step, Unit *srcpos.Node
}

// Hidden is an option's visibility condition.
type Hidden struct {
	Node *srcpos.Node
	// Always is true for "hidden": true (on the node or in the extension).
	Always bool
	// Path, Value and Relative describe {path, value, isPathRelative}.
	Path     string
	PathNode *srcpos.Node
	Value    *srcpos.Node
	Relative bool
}

// Extension is the vendor extension object of an option.
type Extension struct {
	Node                  *srcpos.Node
	OverwriteDefaultWith  *srcpos.Node
	UseRegionSliderConfig *srcpos.Node
	OverwriteListEnumWith *srcpos.Node
	OverwriteSchemaWith   *srcpos.Node
	Hidden, Readonly      *srcpos.Node
}

// patternRegexp compiles the option's pattern on first use, as the
// platform's form does: new RegExp(pattern). The error is a
// *jsregexp.SyntaxError for a pattern JavaScript refuses (the form throws
// where it evaluates it), a *jsregexp.UnsupportedError for one that is not
// evaluated.
func (o *Option) patternRegexp() (*jsregexp.Regexp, error) {
	o.patternOnce.Do(func() { o.patternRe, o.patternErr = jsregexp.Compile(o.pattern) })
	return o.patternRe, o.patternErr
}

// Pattern returns the option's pattern and its node; "" and nil when it
// has none.
func (o *Option) Pattern() (string, *srcpos.Node) { return o.pattern, o.patternNode }

// PatternError says why the form cannot evaluate the option's pattern: a
// *jsregexp.SyntaxError when JavaScript refuses it, a
// *jsregexp.UnsupportedError when it is not evaluated; nil when it has no
// pattern or a valid one.
func (o *Option) PatternError() error {
	if o.pattern == "" {
		return nil
	}
	_, err := o.patternRegexp()
	return err
}

// SliderConfigName returns the name of the region slider configuration the
// option asks for, or "".
func (o *Option) SliderConfigName() string {
	if o.Ext == nil || o.Ext.UseRegionSliderConfig == nil || o.Ext.UseRegionSliderConfig.Kind != srcpos.String {
		return ""
	}
	return o.Ext.UseRegionSliderConfig.Text
}

// Label is the option's title, or its name.
func (o *Option) Label() string {
	if o.Title != "" {
		return o.Title
	}
	return o.Name
}

// Group reports whether the form shows the option as a group of its
// properties, and computes its value from theirs: an object with
// properties, which the platform tests for presence only. An object
// without properties is a YAML field.
func (o *Option) Group() bool {
	return o.Type == "object" && o.Node.Get("properties") != nil
}

// Load reads and parses a schema file, for tests and tools that have a
// file alone; commands read charts through the analysis package.
func Load(path, extKey string) (*Schema, error) {
	data, err := srcpos.ReadFile(path)
	if err != nil {
		return nil, err
	}
	root, err := srcpos.ParseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return Build(root, path, Env{ExtKey: extKey}), nil
}

// Parse builds the option tree of a schema document. Only a document that
// is not JSON fails; every other defect is left for lint to report.
func Parse(data []byte, extKey string) (*Schema, error) {
	root, err := srcpos.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	return Build(root, "", Env{ExtKey: extKey}), nil
}

// Build resolves a parsed schema document as the platform's API does and
// builds its option tree. file names the document in findings.
func Build(root *srcpos.Node, file string, env Env) *Schema {
	extKey := env.ExtKey
	if extKey == "" {
		extKey = DefaultExtensionKey
	}
	p := env.Platform
	if p == nil {
		p, _ = PlatformFor("", extKey)
	}
	s := &Schema{File: file, Source: root, ExtKey: extKey, Platform: p, Registry: env.Registry,
		byPath: map[string]*Option{}, byKey: map[string]*Option{}, files: map[*srcpos.Node]string{root: file}}
	s.Root = resolveSchema(s, env.Registry)
	s.Top = s.build(s.Root, nil, "", nil, false)
	return s
}

// FileOf returns the file a node of Root was read from: the chart's schema
// file, or a registry file for a substituted subtree.
func (s *Schema) FileOf(n *srcpos.Node) string {
	for c := n; c != nil; c = c.Parent {
		if f, ok := s.files[c]; ok {
			return f
		}
		if s.Registry != nil {
			if f, ok := s.Registry.roots[c]; ok {
				return f
			}
		}
	}
	return s.File
}

// Option returns the option at a slash-joined path as Option.Path writes it
// ("limits/nvidia.com/gpu"), or nil.
func (s *Schema) Option(path string) *Option { return s.byPath[path] }

// OptionKey returns the option at key segments, or nil.
func (s *Schema) OptionKey(key ...string) *Option { return s.byKey[joinKey(key)] }

// Resolve returns the option that key segments of a values path lead to:
// under an array, a whole-number segment stands for an item. It is how a
// path the platform splits on slashes (hidden.path) names an option.
func (s *Schema) Resolve(segs []string) *Option {
	o := s.Top
	for _, seg := range segs {
		switch {
		case o.Items != nil && (isIndex(seg) || seg == ItemsKey):
			o = o.Items
		default:
			o = childNamed(o, seg)
		}
		if o == nil {
			return nil
		}
	}
	return o
}

func isIndex(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// joinKey makes a map key of segments; NUL cannot occur in a JSON key
// that reached us through the parser's checks, and a slash can.
func joinKey(segs []string) string { return strings.Join(segs, "\x00") }

func (s *Schema) build(n *srcpos.Node, parent *Option, name string, key []string, inItems bool) *Option {
	o := &Option{Key: key, Path: strings.Join(key, "/"), Name: name, Node: n, Parent: parent, InItems: inItems}
	if parent != nil {
		s.Options = append(s.Options, o)
		if _, dup := s.byPath[o.Path]; !dup {
			s.byPath[o.Path] = o
		}
		if k := joinKey(key); s.byKey[k] == nil {
			s.byKey[k] = o
		}
	}
	if n.Kind != srcpos.Object {
		return o
	}
	str := func(key string) string {
		if v := n.Get(key); v != nil && v.Kind == srcpos.String {
			return v.Text
		}
		return ""
	}
	o.Type, o.Title, o.Description, o.Render = str("type"), str("title"), str("description"), str("render")
	o.Default, o.Const, o.Enum, o.ListEnum = n.Get("default"), n.Get("const"), n.Get("enum"), n.Get("listEnum")
	o.Extremity, o.ExtremitySemantic, o.RangeID = str("sliderExtremity"), str("sliderExtremitySemantic"), str("sliderRangeId")
	o.ExtremityNode, o.RangeIDNode = n.Get("sliderExtremity"), n.Get("sliderRangeId")
	o.pattern, o.patternNode = str("pattern"), n.Get("pattern")
	if v, ok := n.Get("minimum").Float(); ok {
		o.minimum = &v
	}
	o.minItems, o.maxItems = intOf(n.Get("minItems")), intOf(n.Get("maxItems"))
	o.minLength, o.maxLength = intOf(n.Get("minLength")), intOf(n.Get("maxLength"))

	sn := SliderNodes{Render: n.Get("render"), Min: n.Get("sliderMin"), Max: n.Get("sliderMax"), Step: n.Get("sliderStep"), Unit: n.Get("sliderUnit")}
	o.SliderNodes = sn
	o.HasSlider = sn.Min != nil
	o.Slider.Min, _ = sn.Min.Float()
	o.Slider.Max, _ = sn.Max.Float()
	o.Slider.Step, _ = sn.Step.Float()
	if sn.Unit != nil && sn.Unit.Kind == srcpos.String {
		o.Slider.Unit = sn.Unit.Text
	}

	if ext := n.Get(s.ExtKey); ext != nil {
		o.Ext = &Extension{Node: ext}
		if ext.Kind == srcpos.Object {
			o.Ext.OverwriteDefaultWith = ext.Get("overwriteDefaultWith")
			o.Ext.UseRegionSliderConfig = ext.Get("useRegionSliderConfig")
			o.Ext.OverwriteListEnumWith = ext.Get("overwriteListEnumWith")
			o.Ext.OverwriteSchemaWith = ext.Get("overwriteSchemaWith")
			o.Ext.Hidden = ext.Get("hidden")
			o.Ext.Readonly = ext.Get("readonly")
			o.Readonly = o.Ext.Readonly.Bool()
		}
	}
	o.Hidden = readHidden(n.Get("hidden"), o.Ext)

	if props := n.Get("properties"); props != nil && props.Kind == srcpos.Object {
		for _, m := range props.Members {
			// A key written twice counts once, with its last value, as in
			// JSON.parse and Helm.
			if props.Get(m.Key) != m {
				continue
			}
			o.Children = append(o.Children, s.build(m, o, m.Key, appendKey(key, m.Key), inItems))
		}
		// The form walks properties in JavaScript's order: keys that are
		// array indexes first, ascending, then the others as written.
		sort.SliceStable(o.Children, func(i, j int) bool {
			a, aIdx := jsArrayIndex(o.Children[i].Name)
			b, bIdx := jsArrayIndex(o.Children[j].Name)
			return aIdx && (!bIdx || a < b)
		})
	}
	if items := n.Get("items"); items != nil && items.Kind == srcpos.Object {
		o.Items = s.build(items, o, ItemsKey, appendKey(key, ItemsKey), true)
	}
	return o
}

func appendKey(key []string, seg string) []string {
	out := make([]string, len(key)+1)
	copy(out, key)
	out[len(key)] = seg
	return out
}

// intOf reads a whole number; nil when absent or not one.
func intOf(n *srcpos.Node) *int {
	f, ok := n.Float()
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return nil
	}
	i := int(f)
	return &i
}

func readHidden(h *srcpos.Node, ext *Extension) *Hidden {
	if ext != nil && ext.Hidden.Bool() {
		return &Hidden{Node: ext.Hidden, Always: true}
	}
	if h == nil {
		return nil
	}
	out := &Hidden{Node: h}
	switch h.Kind {
	case srcpos.Bool:
		out.Always = h.Bool()
		if !out.Always {
			return nil
		}
	case srcpos.Object:
		out.PathNode = h.Get("path")
		if out.PathNode != nil && out.PathNode.Kind == srcpos.String {
			out.Path = out.PathNode.Text
		}
		out.Value = h.Get("value")
		out.Relative = h.Get("isPathRelative").Bool()
	}
	return out
}

// Target returns the values path a hidden condition looks at, as the
// platform builds it: hidden.path split on slashes, from the values root or,
// with isPathRelative, after the key of the object holding the option. A
// leading slash gives an empty first segment, as it does in the platform.
func (h *Hidden) Target(o *Option) []string {
	segs := strings.Split(h.Path, "/")
	if !h.Relative || o.Parent == nil {
		return segs
	}
	return append(append([]string(nil), o.Parent.Key...), segs...)
}

// TargetPath returns Target joined with slashes, for messages.
func (h *Hidden) TargetPath(o *Option) string { return strings.Join(h.Target(o), "/") }

// ForeignExtensions lists the x-* keys of the schema, other than the
// configured one, that hold the extension's fields: a sign the catalog was
// written for another platform spelling (x-onyxia versus x-platform).
func (s *Schema) ForeignExtensions() map[string][]*srcpos.Node {
	out := map[string][]*srcpos.Node{}
	var walk func(n *srcpos.Node)
	walk = func(n *srcpos.Node) {
		switch n.Kind {
		case srcpos.Object:
			for _, m := range n.Members {
				if strings.HasPrefix(m.Key, "x-") && m.Key != s.ExtKey && m.Kind == srcpos.Object && holdsExtensionFields(m) {
					out[m.Key] = append(out[m.Key], m)
				}
				walk(m)
			}
		case srcpos.Array:
			for _, c := range n.Items {
				walk(c)
			}
		}
	}
	walk(s.Root)
	return out
}

func holdsExtensionFields(n *srcpos.Node) bool {
	for _, m := range n.Members {
		for _, k := range ExtensionKeys {
			if m.Key == k {
				return true
			}
		}
	}
	return false
}

func childNamed(o *Option, name string) *Option {
	for _, c := range o.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}
