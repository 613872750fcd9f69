package editorschema

import (
	"fmt"
	"sort"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/lint"
)

// catalogDocs describes the keys of catalog.yaml, as the README does.
var catalogDocs = map[string]string{
	"name":              "The catalog's name, such as ide.",
	"title":             "The catalog's title, which its site shows.",
	"description":       "What the catalog holds, which its site shows.",
	"source":            "The catalog's repository, for the site's contribute links.",
	"baseURL":           "Where the catalog is published: the address users add the chart repository with.",
	"extensionKey":      "The schema extension key the catalog's charts use (default x-platform; the onyxia platform's catalogs use x-onyxia).",
	"iconsDir":          "The catalog's icons directory (default icons), inside the catalog.",
	"sliders":           "Catalog-level slider bounds, the same shape as a region's: a region's slider configuration of the same name replaces them; without a region, they replace the charts' own.",
	"platform":          "The platform the catalog targets.",
	"schemaRegistry":    "The platform API's schema registry: a directory, or a list of directories, relative to the catalog, whose .json files overwriteSchemaWith and $ref name.",
	"lint":              "Lint settings: rules sets a rule's findings to off, warning or error; ignore drops findings.",
	"artifacthub":       "What catalogist build writes to artifacthub-repo.yml beside index.yaml: the repository's ID on Artifact Hub and the owners who may claim it.",
	"platformURL":       "The address of the platform (onyxia) that serves the catalog, such as https://datalab.example.org: with platformCatalogID, each chart page's form opens the chart's launcher there. http or https, without credentials, query or fragment.",
	"platformCatalogID": "The catalog's id on the platform of platformURL, as its catalogs list it, such as ide.",
}

// catalogYAML is the schema of catalog.yaml. catalog.ParseConfig refuses
// any key it does not know, so the schema does too.
func catalogYAML(siteURL string) obj {
	str := func(key string) obj { return described(obj{"type": "string"}, catalogDocs[key]) }
	props := obj{
		"name": str("name"), "title": str("title"), "description": str("description"),
		"source": str("source"), "baseURL": str("baseURL"), "iconsDir": str("iconsDir"),
		"extensionKey": described(obj{
			"type": "string", "pattern": "^(x-|$)",
			"examples": strList(platformKeys()), "errorMessage": "an extension key starts with x-",
		}, catalogDocs["extensionKey"]),
		"sliders":  described(ref("sliders"), catalogDocs["sliders"]),
		"platform": described(obj{"enum": strList(catalog.Platforms())}, catalogDocs["platform"]),
		"schemaRegistry": described(obj{
			"type":      []any{"string", "array", "null"},
			"minLength": 1,
			"items":     obj{"type": "string", "minLength": 1},
		}, catalogDocs["schemaRegistry"]),
		"lint":        described(lintDef(), catalogDocs["lint"]),
		"artifacthub": described(artifactHubDef(), catalogDocs["artifacthub"]),
		"platformURL": described(obj{
			"type": "string", "pattern": catalog.PlatformURLPattern.String(),
			"errorMessage": "the platform's http(s) address, without credentials, query or fragment",
		}, catalogDocs["platformURL"]),
		"platformCatalogID": described(obj{"type": "string", "pattern": catalog.CatalogIDPattern.String()}, catalogDocs["platformCatalogID"]),
	}
	doc := header(siteURL, CatalogName, "catalog.yaml", "A catalog's settings, at its root; every key is optional.")
	doc["type"] = []any{"object", "null"}
	doc["properties"] = props
	doc["additionalProperties"] = false
	// A launcher's address needs both.
	doc["dependencies"] = obj{"platformURL": []any{"platformCatalogID"}, "platformCatalogID": []any{"platformURL"}}
	doc["definitions"] = sliderDefinitions()
	return doc
}

func platformKeys() []string {
	var out []string
	for _, n := range schema.PlatformNames() {
		out = append(out, schema.PlatformKey(n))
	}
	return out
}

// lintDef is catalog.yaml's lint section: the rules it may set are lint's,
// but those of the region file, which belongs to no catalog; a locked
// rule can only be an error.
func lintDef() obj {
	rules := obj{}
	var ignorable []string
	for _, r := range lint.All {
		if r.Scope == lint.PerRegion {
			continue
		}
		levels := []string{string(catalog.LevelOff), string(catalog.LevelWarning), string(catalog.LevelError)}
		doc := fmt.Sprintf("%s (%s by default).", r.Doc, r.Severity)
		if r.Locked {
			levels = []string{string(catalog.LevelError)}
			doc += " Its findings are always errors."
		} else {
			ignorable = append(ignorable, r.Name)
		}
		rules[r.Name] = described(obj{"enum": strList(levels)}, doc)
	}
	sort.Strings(ignorable)
	glob := obj{"type": "string", "minLength": 1}
	ignore := obj{
		"type":                 "object",
		"minProperties":        1,
		"additionalProperties": false,
		"description":          "Findings to drop: those matching every field given.",
		"properties": obj{
			"rule":   described(obj{"enum": strList(ignorable)}, "The rule whose findings to drop."),
			"charts": described(obj{"type": "array", "minItems": 1, "items": glob}, "Globs of the charts whose findings to drop, such as jupyter-*."),
			"option": described(obj{"type": "string", "minLength": 1, "pattern": "^[^/]"}, "A glob of the option paths whose findings to drop, such as resources/* (no leading slash)."),
		},
	}
	return obj{
		"type":                 []any{"object", "null"},
		"additionalProperties": false,
		"properties": obj{
			"rules":  described(obj{"type": []any{"object", "null"}, "properties": rules, "additionalProperties": false}, "A rule's findings: off, warning or error."),
			"ignore": described(obj{"type": []any{"array", "null"}, "items": ignore}, "Findings to drop; each entry needs one of rule, charts and option."),
		},
	}
}

func artifactHubDef() obj {
	return obj{
		"type":                 []any{"object", "null"},
		"minProperties":        1,
		"additionalProperties": false,
		"properties": obj{
			"repositoryID": described(obj{"type": "string", "pattern": catalog.UUIDPattern.String()}, "The repository's ID on Artifact Hub, a UUID from its control panel."),
			"owners": described(obj{
				"type": "array", "minItems": 1,
				"items": obj{
					"type": "object", "required": []any{"email"}, "additionalProperties": false,
					"properties": obj{
						"name":  obj{"type": "string"},
						"email": described(obj{"type": "string", "pattern": catalog.EmailPattern.String()}, "The email of the owner's Artifact Hub account."),
					},
				},
			}, "The Artifact Hub accounts that may claim the repository."),
		},
	}
}

// sliderDefinitions are the definitions sliders and slider: a mapping of
// named slider configurations, as regions and catalog.yaml write them
// (region.ReadSliders), and one configuration.
func sliderDefinitions() obj {
	names := map[string]bool{}
	for _, s := range region.ResourceSlider {
		names[s] = true
	}
	known := obj{}
	for n := range names {
		known[n] = described(ref("slider"), fmt.Sprintf("The %s slider configuration: what bounds the region's %s resources.", n, n))
	}
	sliders := obj{
		"type":                 []any{"object", "null"},
		"properties":           known,
		"additionalProperties": ref("slider"),
	}
	slider := obj{
		"type":     "object",
		"required": []any{"sliderMin", "sliderMax", "sliderStep", "sliderUnit"},
		"properties": obj{
			"sliderMin":  described(obj{"type": "number"}, "The lowest value, below sliderMax."),
			"sliderMax":  described(obj{"type": "number"}, "The highest value."),
			"sliderStep": described(obj{"type": "number", "exclusiveMinimum": 0}, "The step, greater than 0."),
			"sliderUnit": described(obj{"type": []any{"string", "null"}}, "The unit values end with, such as m or Gi; \"\" when there is none."),
		},
	}
	return obj{"sliders": sliders, "slider": slider}
}
