// Package region reads the configuration a deployer writes per deployment
// region: the default resources injected into launches and the slider
// bounds users may choose within.
package region

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// Slider is one named slider configuration with the node it was read from.
type Slider struct {
	slider.Config
	Name string
	Node *srcpos.Node
}

// Resource is one default resource value (such as cpuLimit: 4000m).
type Resource struct {
	Name  string
	Value string
	Node  *srcpos.Node
}

// Region is one region's configuration.
type Region struct {
	// File is the path it was read from.
	File string
	// ID is the region's id in a regions.json, "" for a plain region file.
	ID        string
	Sliders   map[string]*Slider
	Resources map[string]*Resource
	// Context is the region's part of the launch context (region.*).
	Context map[string]any
}

// ResourceSlider maps each resource name to the slider configuration that
// bounds it.
var ResourceSlider = map[string]string{
	"cpuRequest": "cpu", "cpuLimit": "cpu",
	"memoryRequest": "memory", "memoryLimit": "memory",
	"gpu": "gpu", "disk": "disk",
}

// Load reads a region file: either a plain region (resources and sliders at
// the top) or the platform's regions.json, from which id picks one region.
func Load(path, id string) (*Region, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading region file: %w", err)
	}
	r, err := Parse(data, id)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	r.File = path
	return r, nil
}

// LoadAll reads a region file as lint checks against it: one region, or
// every region of a regions.json holding several unless id picks one.
func LoadAll(path, id string) ([]*Region, error) {
	if id != "" {
		r, err := Load(path, id)
		if err != nil {
			return nil, err
		}
		return []*Region{r}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading region file: %w", err)
	}
	root, err := srcpos.ParseYAML(data)
	if err == nil && root.Kind == srcpos.Object {
		if regions := root.Get("regions"); regions != nil && regions.Kind == srcpos.Array && len(regions.Items) > 1 {
			var out []*Region
			for _, reg := range regions.Items {
				rid := reg.Get("id")
				if rid == nil || rid.Kind != srcpos.String || rid.Text == "" {
					return nil, fmt.Errorf("%s:%d:%d: a region of regions.json has no id", path, reg.Pos.Line, reg.Pos.Col)
				}
				r, err := fromPlatformRegion(reg)
				if err != nil {
					return nil, fmt.Errorf("%s:%w", path, err)
				}
				r.ID, r.File = rid.Text, path
				out = append(out, r)
			}
			return out, nil
		}
	}
	r, err := Load(path, "")
	if err != nil {
		return nil, err
	}
	return []*Region{r}, nil
}

// Parse reads a region document; errors carry the line and column.
func Parse(data []byte, id string) (*Region, error) {
	root, err := srcpos.ParseYAML(data)
	if err != nil {
		return nil, err
	}
	if root.Kind != srcpos.Object {
		return nil, &srcpos.Error{Pos: root.Pos, Msg: "a region file is a mapping with resources and sliders, or the platform's regions.json"}
	}
	if regions := root.Get("regions"); regions != nil {
		return fromRegionsJSON(regions, id)
	}
	if root.Get("services") != nil {
		return fromPlatformRegion(root)
	}
	if id != "" {
		return nil, &srcpos.Error{Pos: root.Pos, Msg: "--region-id needs a regions.json with a regions list; this is a plain region file"}
	}
	r := &Region{Context: map[string]any{}}
	for _, m := range root.Members {
		if m.Key != "resources" && m.Key != "sliders" {
			r.Context[m.Key] = m.Value()
		}
	}
	if err := r.read(root.Get("sliders"), root.Get("resources")); err != nil {
		return nil, err
	}
	return r, nil
}

func fromRegionsJSON(regions *srcpos.Node, id string) (*Region, error) {
	if regions.Kind != srcpos.Array || len(regions.Items) == 0 {
		return nil, &srcpos.Error{Pos: regions.Pos, Msg: "regions must be a non-empty list"}
	}
	var ids []string
	for _, reg := range regions.Items {
		rid := reg.Get("id")
		if rid == nil {
			continue
		}
		ids = append(ids, rid.Text)
		if rid.Text == id || (id == "" && len(regions.Items) == 1) {
			r, err := fromPlatformRegion(reg)
			if err != nil {
				return nil, err
			}
			r.ID = rid.Text
			return r, nil
		}
	}
	if id == "" && len(regions.Items) == 1 {
		return fromPlatformRegion(regions.Items[0])
	}
	sort.Strings(ids)
	if id == "" {
		return nil, &srcpos.Error{Pos: regions.Pos, Msg: fmt.Sprintf("the file has %d regions; pick one with --region-id (one of %s)", len(regions.Items), strings.Join(ids, ", "))}
	}
	return nil, &srcpos.Error{Pos: regions.Pos, Msg: fmt.Sprintf("no region with id %q (ids: %s)", id, strings.Join(ids, ", "))}
}

// fromPlatformRegion reads one region object of the platform's regions.json,
// whose defaults sit under services.defaultConfiguration.
func fromPlatformRegion(reg *srcpos.Node) (*Region, error) {
	r := &Region{Context: map[string]any{}}
	services := reg.Get("services")
	dc := services.Get("defaultConfiguration")
	if dc == nil {
		return nil, &srcpos.Error{Pos: reg.Pos, Msg: "region has no services.defaultConfiguration"}
	}
	for from, to := range map[string]string{
		"ipprotection": "defaultIpProtection", "networkPolicy": "defaultNetworkPolicy",
		"from": "from", "tolerations": "tolerations", "nodeSelector": "nodeSelector",
		"startupProbe": "startupProbe", "kafka": "kafka",
	} {
		if n := dc.Get(from); n != nil {
			r.Context[to] = n.Value()
		}
	}
	if n := services.Get("allowedURIPattern"); n != nil {
		r.Context["allowedURIPattern"] = n.Value()
	}
	if n := services.Get("customValues"); n != nil {
		r.Context["customValues"] = n.Value()
	}
	if err := r.read(dc.Get("sliders"), dc.Get("resources")); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Region) read(sliders, resources *srcpos.Node) error {
	var err error
	if r.Sliders, err = ReadSliders(sliders); err != nil {
		return err
	}
	r.Resources = map[string]*Resource{}
	ctxRes := map[string]any{}
	if resources != nil {
		if resources.Kind != srcpos.Object {
			return &srcpos.Error{Pos: resources.Pos, Msg: "resources must be a mapping such as {cpuLimit: 4000m}"}
		}
		for _, m := range resources.Members {
			if m.Kind != srcpos.String && m.Kind != srcpos.Number {
				return &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("resources.%s must be a quantity such as \"2000m\" or \"4Gi\", not a %s", m.Key, m.Kind)}
			}
			r.Resources[m.Key] = &Resource{Name: m.Key, Value: m.Text, Node: m}
			ctxRes[m.Key] = m.Text
		}
	}
	ctxSliders := map[string]any{}
	for name, s := range r.Sliders {
		ctxSliders[name] = map[string]any{"sliderMin": s.Min, "sliderMax": s.Max, "sliderStep": s.Step, "sliderUnit": s.Unit}
	}
	r.Context["resources"] = ctxRes
	r.Context["sliders"] = ctxSliders
	return nil
}

// ReadSliders reads a mapping of slider configurations, as regions and
// catalog.yaml write them. A nil node gives an empty set.
func ReadSliders(n *srcpos.Node) (map[string]*Slider, error) {
	out := map[string]*Slider{}
	if n == nil || n.Kind == srcpos.Null {
		return out, nil
	}
	if n.Kind != srcpos.Object {
		return nil, &srcpos.Error{Pos: n.Pos, Msg: "sliders must be a mapping of names to {sliderMin, sliderMax, sliderStep, sliderUnit}"}
	}
	for _, m := range n.Members {
		s := &Slider{Name: m.Key, Node: m}
		if m.Kind != srcpos.Object {
			return nil, &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("slider %q must be a mapping with sliderMin, sliderMax, sliderStep and sliderUnit", m.Key)}
		}
		for _, f := range []struct {
			key string
			dst *float64
		}{{"sliderMin", &s.Min}, {"sliderMax", &s.Max}, {"sliderStep", &s.Step}} {
			v := m.Get(f.key)
			if v == nil {
				return nil, &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("slider %q has no %s", m.Key, f.key)}
			}
			x, ok := v.Float()
			if !ok {
				return nil, &srcpos.Error{Pos: v.Pos, Msg: fmt.Sprintf("%s of slider %q must be a number", f.key, m.Key)}
			}
			*f.dst = x
		}
		if s.Min >= s.Max {
			return nil, &srcpos.Error{Pos: m.Get("sliderMin").Pos, Msg: fmt.Sprintf("sliderMin %s of slider %q is not below its sliderMax %s", slider.Num(s.Min), m.Key, slider.Num(s.Max))}
		}
		if s.Step <= 0 {
			return nil, &srcpos.Error{Pos: m.Get("sliderStep").Pos, Msg: fmt.Sprintf("sliderStep of slider %q must be greater than 0", m.Key)}
		}
		u := m.Get("sliderUnit")
		switch {
		case u == nil:
			return nil, &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("slider %q has no sliderUnit (write \"\" when there is none)", m.Key)}
		case u.Kind == srcpos.String:
			s.Unit = u.Text
		case u.Kind == srcpos.Null:
			s.Unit = ""
		default:
			return nil, &srcpos.Error{Pos: u.Pos, Msg: fmt.Sprintf("sliderUnit of slider %q must be a string", m.Key)}
		}
		out[m.Key] = s
	}
	return out, nil
}
