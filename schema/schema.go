// Package schema owns the model of a chart's values.schema.json as the
// platform reads it (the option tree, its vendor extension, sliders and hidden
// conditions) and the one computation of what the configuration form shows.
package schema

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/slider"
)

// DefaultExtensionKey is the vendor extension key the seed uses; the
// reference platform spells it x-onyxia.
const DefaultExtensionKey = "x-platform"

// Types the platform's form accepts for an option.
var Types = []string{"object", "array", "string", "number", "integer", "boolean"}

// Renders and extremities the platform's form accepts.
var (
	Renders     = []string{"slider", "textArea", "password", "list"}
	Extremities = []string{"down", "up"}
)

// ExtensionKeys are the keys the platform reads inside the extension object.
var ExtensionKeys = []string{"overwriteDefaultWith", "useRegionSliderConfig", "overwriteListEnumWith", "hidden", "readonly", "overwriteSchemaWith"}

// Schema is one parsed values.schema.json.
type Schema struct {
	File   string
	Root   *doc.Node
	ExtKey string
	// Top is the option of the root object; its path is "".
	Top *Option
	// Options lists every option below Top, parents before children, in
	// document order.
	Options []*Option
	byPath  map[string]*Option
}

// Option is one node of the form: a property, or the items of an array.
type Option struct {
	// Path is the slash path from the values root ("git/enabled"), as
	// hidden conditions write it; items of an array add a "[]" segment.
	Path     string
	Name     string
	Node     *doc.Node
	Parent   *Option
	Children []*Option
	Items    *Option
	// InItems is true below the items of an array.
	InItems bool

	Type        string
	Title       string
	Description string
	// Default, Const, Enum and ListEnum are nil when absent.
	Default, Const, Enum, ListEnum *doc.Node
	Render                         string

	// Slider holds the chart's own slider fields; HasSlider is true when the
	// option is a slider (render slider or sliderMin present).
	HasSlider                         bool
	Slider                            slider.Config
	SliderNodes                       SliderNodes
	Extremity, ExtremitySemantic      string
	RangeID                           string
	ExtremityNode, RangeIDNode        *doc.Node
	Hidden                            *Hidden
	Ext                               *Extension
	Readonly                          bool
	schemaHasMinItems                 bool
	minItems                          int
	minimum, maximum                  *float64
	pattern                           string
	patternOnce                       sync.Once
	patternRe                         *regexp.Regexp
	patternNode                       *doc.Node
	minLength, maxLength, maxItemsVal *int
}

// SliderNodes are the nodes of the chart's slider fields, nil when absent.
type SliderNodes struct {
	Render, Min, Max, Step, Unit *doc.Node
}

// Hidden is an option's visibility condition.
type Hidden struct {
	Node *doc.Node
	// Always is true for "hidden": true (on the node or in the extension).
	Always bool
	// Path, Value and Relative describe {path, value, isPathRelative}.
	Path     string
	PathNode *doc.Node
	Value    *doc.Node
	Relative bool
}

// Extension is the vendor extension object of an option.
type Extension struct {
	Node                  *doc.Node
	OverwriteDefaultWith  *doc.Node
	UseRegionSliderConfig *doc.Node
	OverwriteListEnumWith *doc.Node
	Hidden, Readonly      *doc.Node
}

// patternRegexp compiles the option's pattern on first use. Go's RE2
// differs from ECMAScript on a few constructs; a pattern it cannot compile
// is not checked.
func (o *Option) patternRegexp() *regexp.Regexp {
	o.patternOnce.Do(func() { o.patternRe, _ = regexp.Compile(o.pattern) })
	return o.patternRe
}

// SliderConfigName returns the name of the region slider configuration the
// option uses, or "".
func (o *Option) SliderConfigName() string {
	if o.Ext == nil || o.Ext.UseRegionSliderConfig == nil || o.Ext.UseRegionSliderConfig.Kind != doc.String {
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

// Load reads and parses a schema file.
func Load(path, extKey string) (*Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading schema: %w", err)
	}
	s, err := Parse(data, extKey)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	s.File = path
	return s, nil
}

// Parse builds the option tree of a schema document. Only a document that
// is not JSON fails; every other defect is left for lint to report.
func Parse(data []byte, extKey string) (*Schema, error) {
	root, err := doc.ParseJSON(data)
	if err != nil {
		return nil, err
	}
	return FromNode(root, extKey), nil
}

// FromNode builds the option tree of an already parsed schema document.
func FromNode(root *doc.Node, extKey string) *Schema {
	if extKey == "" {
		extKey = DefaultExtensionKey
	}
	s := &Schema{Root: root, ExtKey: extKey, byPath: map[string]*Option{}}
	s.Top = s.build(root, nil, "", "", false)
	return s
}

// Option returns the option at a slash path, or nil.
func (s *Schema) Option(path string) *Option { return s.byPath[strings.Trim(path, "/")] }

func (s *Schema) build(n *doc.Node, parent *Option, name, path string, inItems bool) *Option {
	o := &Option{Path: path, Name: name, Node: n, Parent: parent, InItems: inItems}
	if parent != nil {
		s.Options = append(s.Options, o)
		if _, dup := s.byPath[path]; !dup {
			s.byPath[path] = o
		}
	}
	if n.Kind != doc.Object {
		return o
	}
	str := func(key string) string {
		if v := n.Get(key); v != nil && v.Kind == doc.String {
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
	if v, ok := n.Get("maximum").Float(); ok {
		o.maximum = &v
	}
	if v, ok := n.Get("minItems").Float(); ok {
		o.schemaHasMinItems, o.minItems = true, int(v)
	}
	if v, ok := n.Get("maxItems").Float(); ok {
		i := int(v)
		o.maxItemsVal = &i
	}
	if v, ok := n.Get("minLength").Float(); ok {
		i := int(v)
		o.minLength = &i
	}
	if v, ok := n.Get("maxLength").Float(); ok {
		i := int(v)
		o.maxLength = &i
	}

	sn := SliderNodes{Render: n.Get("render"), Min: n.Get("sliderMin"), Max: n.Get("sliderMax"), Step: n.Get("sliderStep"), Unit: n.Get("sliderUnit")}
	o.SliderNodes = sn
	o.HasSlider = o.Render == "slider" || sn.Min != nil
	o.Slider.Min, _ = sn.Min.Float()
	o.Slider.Max, _ = sn.Max.Float()
	o.Slider.Step, _ = sn.Step.Float()
	if sn.Unit != nil && sn.Unit.Kind == doc.String {
		o.Slider.Unit = sn.Unit.Text
	}

	if ext := n.Get(s.ExtKey); ext != nil {
		o.Ext = &Extension{Node: ext}
		if ext.Kind == doc.Object {
			o.Ext.OverwriteDefaultWith = ext.Get("overwriteDefaultWith")
			o.Ext.UseRegionSliderConfig = ext.Get("useRegionSliderConfig")
			o.Ext.OverwriteListEnumWith = ext.Get("overwriteListEnumWith")
			o.Ext.Hidden = ext.Get("hidden")
			o.Ext.Readonly = ext.Get("readonly")
			o.Readonly = o.Ext.Readonly.Bool()
		}
	}
	o.Hidden = readHidden(n.Get("hidden"), o.Ext)

	if props := n.Get("properties"); props != nil && props.Kind == doc.Object {
		for _, m := range props.Members {
			o.Children = append(o.Children, s.build(m, o, m.Key, joinPath(path, m.Key), inItems))
		}
	}
	if items := n.Get("items"); items != nil && items.Kind == doc.Object {
		o.Items = s.build(items, o, "[]", joinPath(path, "[]"), true)
	}
	return o
}

func readHidden(h *doc.Node, ext *Extension) *Hidden {
	if ext != nil && ext.Hidden.Bool() {
		return &Hidden{Node: ext.Hidden, Always: true}
	}
	if h == nil {
		return nil
	}
	out := &Hidden{Node: h}
	switch h.Kind {
	case doc.Bool:
		out.Always = h.Bool()
		if !out.Always {
			return nil
		}
	case doc.Object:
		out.PathNode = h.Get("path")
		if out.PathNode != nil && out.PathNode.Kind == doc.String {
			out.Path = out.PathNode.Text
		}
		out.Value = h.Get("value")
		out.Relative = h.Get("isPathRelative").Bool()
	}
	return out
}

func joinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "/" + name
}

// TargetPath returns the absolute slash path a hidden condition looks at.
func (h *Hidden) TargetPath(o *Option) string {
	p := strings.Trim(h.Path, "/")
	if !h.Relative {
		return p
	}
	base := ""
	if o.Parent != nil {
		base = o.Parent.Path
	}
	return joinPath(base, p)
}

// ForeignExtensions lists the x-* keys of the schema, other than the
// configured one, that hold the extension's fields: a sign the catalog was
// written for another platform spelling (x-onyxia versus x-platform).
func (s *Schema) ForeignExtensions() map[string][]*doc.Node {
	out := map[string][]*doc.Node{}
	var walk func(n *doc.Node)
	walk = func(n *doc.Node) {
		switch n.Kind {
		case doc.Object:
			for _, m := range n.Members {
				if strings.HasPrefix(m.Key, "x-") && m.Key != s.ExtKey && m.Kind == doc.Object && holdsExtensionFields(m) {
					out[m.Key] = append(out[m.Key], m)
				}
				walk(m)
			}
		case doc.Array:
			for _, c := range n.Items {
				walk(c)
			}
		}
	}
	walk(s.Root)
	return out
}

func holdsExtensionFields(n *doc.Node) bool {
	for _, m := range n.Members {
		for _, k := range ExtensionKeys {
			if m.Key == k {
				return true
			}
		}
	}
	return false
}
