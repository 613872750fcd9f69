package editorschema

import (
	"fmt"
	"sort"

	"github.com/catalogist/catalogist/internal/input/region"
)

// regionFile is the schema of a region file as region.Load reads it: a
// plain region (resources and sliders at the top, any other key a value of
// the region's launch context), the platform's regions.json (a regions
// list), or one region of it (services at the top).
func regionFile(siteURL string) obj {
	doc := header(siteURL, RegionName, "Region file",
		"A deployment region's default resources and slider bounds (region.yaml), or the platform's regions.json.")
	doc["type"] = "object"
	doc["if"] = obj{"required": []any{"regions"}}
	doc["then"] = obj{"properties": obj{"regions": described(obj{
		"type": "array", "minItems": 1, "items": ref("platformRegion"),
	}, "The platform's regions; --region-id picks one.")}}
	doc["else"] = obj{
		"if":   obj{"required": []any{"services"}},
		"then": ref("platformRegion"),
		"else": obj{"properties": obj{
			"resources": described(ref("resources"), "Default values: an option whose overwriteDefaultWith points at region.resources.<name> shows this value as its default."),
			"sliders":   described(ref("sliders"), "Bounds: a slider option whose useRegionSliderConfig names one of these takes its sliderMin, sliderMax, sliderStep and sliderUnit from here."),
		}},
	}
	defs := sliderDefinitions()
	defs["resources"] = resourcesDef()
	defs["platformRegion"] = platformRegionDef()
	doc["definitions"] = defs
	return doc
}

// resourcesDef is a region's default resources. A name no chart can
// reference is a lint warning, not an error.
func resourcesDef() obj {
	names := make([]string, 0, len(region.ResourceSlider))
	for n := range region.ResourceSlider {
		names = append(names, n)
	}
	sort.Strings(names)
	quantity := obj{"type": []any{"string", "number"}}
	known := obj{}
	for _, n := range names {
		known[n] = described(obj{"type": []any{"string", "number"}}, fmt.Sprintf("region.resources.%s, written in the unit of the %s slider, such as \"2000m\" or \"4Gi\".", n, region.ResourceSlider[n]))
	}
	return obj{
		"type":                 "object",
		"properties":           known,
		"additionalProperties": quantity,
		"errorMessage":         "resources is a mapping such as {cpuLimit: 4000m}",
	}
}

// platformRegionDef is one region of the platform's regions.json, whose
// defaults sit under services.defaultConfiguration.
func platformRegionDef() obj {
	return obj{
		"type":     "object",
		"required": []any{"services"},
		"properties": obj{
			"id": described(obj{"type": "string"}, "The region's id, which --region-id picks."),
			"services": obj{
				"type":     "object",
				"required": []any{"defaultConfiguration"},
				"properties": obj{
					"defaultConfiguration": obj{
						"description": "The region's defaults: resources and sliders, and the launch context's region values.",
						"properties": obj{
							"resources": ref("resources"),
							"sliders":   ref("sliders"),
						},
					},
				},
			},
		},
	}
}
