package editorschema

import (
	"maps"

	"github.com/catalogist/catalogist/internal/model/schema"
)

// catalogsDocs describes the fields of a catalogs file entry, as the
// README does.
var catalogsDocs = map[string]string{
	"id":                "What CATALOG/CHART refers to.",
	"name":              "The catalog's name.",
	"description":       "What the catalog holds.",
	"location":          "The chart repository's URL, or a directory or index file (relative to this file).",
	"extensionKey":      "The schema extension key of the catalog's charts; by default whichever of x-onyxia and x-platform the schema uses.",
	"platform":          "The platform whose form launches reproduce for the catalog's charts; by default onyxia for x-onyxia, else catalogist.",
	"status":            "PROD or TEST.",
	"highlightedCharts": "Charts shown first.",
	"excludedCharts":    "Charts the catalog hides.",
	"skipTLSVerify":     "true skips the verification of the repository's TLS certificate.",
	"caFile":            "A CA bundle to verify the repository's certificate with, relative to this file.",
}

// catalogsFile is the schema of the catalogs file as catalogsfile.Parse
// reads it: a list of catalogs, or a mapping with a catalogs list.
func catalogsFile(siteURL string) obj {
	charts := obj{"type": "array", "items": obj{"type": "string"}}
	str := obj{"type": "string"}
	entry := obj{
		"type":                 "object",
		"required":             []any{"id", "location"},
		"additionalProperties": false,
		"properties": obj{
			"id":                described(obj{"type": "string", "minLength": 1}, catalogsDocs["id"]),
			"name":              described(maps.Clone(str), catalogsDocs["name"]),
			"description":       described(maps.Clone(str), catalogsDocs["description"]),
			"location":          described(obj{"type": "string", "minLength": 1}, catalogsDocs["location"]),
			"extensionKey":      described(obj{"type": "string", "examples": strList(platformKeys())}, catalogsDocs["extensionKey"]),
			"platform":          described(obj{"enum": strList(schema.PlatformNames())}, catalogsDocs["platform"]),
			"status":            described(obj{"enum": []any{"PROD", "TEST"}}, catalogsDocs["status"]),
			"highlightedCharts": described(maps.Clone(charts), catalogsDocs["highlightedCharts"]),
			"excludedCharts":    described(maps.Clone(charts), catalogsDocs["excludedCharts"]),
			"skipTLSVerify":     described(obj{"type": "boolean"}, catalogsDocs["skipTLSVerify"]),
			"caFile":            described(maps.Clone(str), catalogsDocs["caFile"]),
		},
	}
	doc := header(siteURL, CatalogsName, "Catalogs file",
		"The catalogs catalogist launch reads charts from (catalogs.yaml in the user's configuration directory, or --catalogs).")
	// A list, or a mapping with the list under catalogs: each keyword
	// applies to its own type.
	doc["type"] = []any{"array", "object"}
	doc["items"] = ref("catalog")
	doc["required"] = []any{"catalogs"}
	doc["properties"] = obj{"catalogs": obj{"type": "array", "items": ref("catalog")}}
	doc["definitions"] = obj{"catalog": entry}
	return doc
}
