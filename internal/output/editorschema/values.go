package editorschema

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/catalogist/catalogist/internal/model/schema"
)

// The values schema is a vocabulary layered on the draft Helm reads: the
// draft's meta-schema (draft-07's, made to accept what the later drafts
// accept: see meta; it is embedded, so that an editor told to read every
// draft-07 document with this schema does not loop back to it), and the
// keys the platform's form reads. Those keys are checked in every
// subschema, so that a schema under definitions, which options $ref, is
// checked too; what the form requires of each option it shows (a type it
// knows, an items schema object) is checked on the nodes it reads: the
// root, each property and each array's items. A node the platform's API
// replaces by a registry schema is not checked, nor is anything below it.

// draft07 is the draft-07 meta-schema as json-schema.org publishes it.
//
//go:embed draft-07.json
var draft07 []byte

// draft4 matches the $schema of draft 4, whose meta-schema differs (a
// boolean exclusiveMinimum): such a schema is left to Helm's own check.
const draft4 = `^https?://json-schema\.org/draft-04/schema#?$`

// helmDrafts matches every $schema Helm knows (lint reports any other).
const helmDrafts = `^https?://json-schema\.org/(schema|draft-0[467]/schema|draft/(2019-09|2020-12)/schema)#?$`

// meta returns the draft-07 meta-schema to embed under definitions/name,
// its references made local to it. It is made to accept what the drafts
// 2019-09 and 2020-12 accept, which Helm reads a schema without $schema
// in: enum loses minItems and uniqueItems (they allow an empty enum and
// repeated values), and additionalItems, no keyword of theirs, is not
// checked.
func meta(name string) (obj, error) {
	var m obj
	if err := json.Unmarshal(draft07, &m); err != nil {
		return nil, fmt.Errorf("draft-07 meta-schema: %w", err)
	}
	delete(m, "$schema")
	delete(m, "$id")
	delete(m, "title")
	props, ok := m["properties"].(obj)
	if !ok {
		return nil, fmt.Errorf("draft-07 meta-schema: no properties")
	}
	if enum, ok := props["enum"].(obj); ok {
		delete(enum, "minItems")
		delete(enum, "uniqueItems")
	}
	delete(props, "additionalItems")
	base := "#/definitions/" + name
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case obj:
			if r, ok := x["$ref"].(string); ok && strings.HasPrefix(r, "#") {
				x["$ref"] = base + strings.TrimPrefix(r, "#")
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(m)
	return m, nil
}

// siblingDocs describes the keys the form reads next to type, in an option.
var siblingDocs = map[string]string{
	"render":                  "The widget the form shows: slider, textArea, password or list (a select over listEnum).",
	"listEnum":                "The choices of a select (render: list). A listEnum with a choice of the wrong type is dropped whole.",
	"sliderMin":               "The slider's lowest value. An option with sliderMin is a slider (a select, with enum or listEnum, wins); it needs sliderMax, and type string (values such as \"2000m\", the number followed by sliderUnit) or number (without sliderUnit).",
	"sliderMax":               "The slider's highest value.",
	"sliderStep":              "The slider's step (the widget steps by 1 without it). On a range, a step on one end is enough.",
	"sliderUnit":              "The unit a string slider's values end with, such as m or Gi (\"2000m\", \"4Gi\"). A number slider has no sliderUnit, not even \"\": the form crashes on it.",
	"sliderExtremity":         "down or up: the option is one end of a range slider, the request (down) or its limit (up), paired by sliderRangeId.",
	"sliderExtremitySemantic": "The label of a range slider's end, such as guaranteed or Maximum.",
	"sliderRangeId":           "The range slider a down end and an up end belong to.",
	"hidden":                  "true hides the option always; {\"path\": \"git/enabled\", \"value\": false} hides it while the option at path (slash-separated, from the values root, or from the parent object with \"isPathRelative\": true) equals value. Hidden options are still computed and sent.",
}

// extDocs describes the keys of the extension object, one for each of
// schema.ExtensionKeys.
var extDocs = map[string]string{
	"overwriteDefaultWith":  "A path into the launch context (git.name, region.resources.cpuLimit) or a template ({{project.id}}-{{k8s.randomSubdomain}}.{{k8s.domain}}), or an array or object of templates. When it resolves to a value valid for the option, that value replaces default; otherwise default stays. A bare word is a context path, not a literal.",
	"useRegionSliderConfig": "The name of a region slider configuration (cpu, memory, gpu, disk) whose sliderMin, sliderMax, sliderStep and sliderUnit replace the chart's.",
	"overwriteListEnumWith": "A context path, or a list, that supplies the choices of a select; an empty list falls back to listEnum.",
	"hidden":                "true never shows the option (its value is still sent).",
	"readonly":              "true shows the option without letting the user change it.",
	"overwriteSchemaWith":   "The name of a schema of the platform API's schema registry (such as ide/resources.json) that replaces this property whole before the form reads it.",
}

// The keywords, of every draft Helm reads, whose value is a schema, a map
// of schemas, or a list of schemas.
var (
	schemaKeywords = []string{"additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	mapKeywords    = []string{"properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies"}
	listKeywords   = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
)

// values is the schema of values.schema.json.
func values(extKey string, p *schema.Platform, siteURL string) (obj, error) {
	if extKey == "" {
		extKey = schema.DefaultExtensionKey
	}
	if p == nil {
		p, _ = schema.PlatformFor("", extKey)
	}
	draftMeta, err := meta("draft-07")
	if err != nil {
		return nil, err
	}
	doc := header(siteURL, ValuesName,
		fmt.Sprintf("values.schema.json with the %s extension (%s platform)", extKey, p.Name),
		fmt.Sprintf("A chart's values.schema.json: a JSON Schema Helm validates values with, and the keys the %s platform's configuration form reads, with the extension object under %s.", p.Name, extKey))
	doc["allOf"] = []any{
		obj{"if": obj{"required": []any{"$schema"}, "properties": obj{"$schema": obj{"type": "string", "pattern": draft4}}}, "else": ref("draft-07")},
		ref("root"),
	}
	doc["definitions"] = obj{
		"draft-07":  draftMeta,
		"root":      rootDef(),
		"option":    optionDef(extKey, p),
		"replaced":  replacedDef(extKey),
		"subschema": subschemaDef(extKey, p),
		"hidden":    hiddenDef(),
		"extension": extensionDef(extKey, p),
	}
	return doc, nil
}

// rootDef is what lint's root-object rule asks of the root, and the $schema
// Helm knows.
func rootDef() obj {
	return obj{
		"allOf":        []any{ref("option")},
		"type":         "object",
		"required":     []any{"type", "properties"},
		"errorMessage": "the root is an object with \"type\": \"object\" and the options under \"properties\"",
		"properties": obj{
			"$schema": obj{
				"type": "string", "pattern": helmDrafts,
				"description":  "The draft Helm validates values with: http://json-schema.org/schema# (the latest, 2020-12), or a draft's own address (draft-04, draft-06, draft-07, 2019-09, 2020-12).",
				"errorMessage": "Helm knows the drafts 4, 6, 7, 2019-09 and 2020-12: write \"http://json-schema.org/schema#\" or leave $schema out for the latest",
			},
			"type": obj{"enum": []any{"object"}, "errorMessage": "the schema's root type must be \"object\""},
		},
	}
}

// replacedDef matches a node the platform's API replaces by a registry
// schema (overwriteSchemaWith) before the form reads it: the form reads the
// registry's schema, so the node's own keys and those below it are not
// checked (Helm still reads them: the draft's meta-schema applies).
func replacedDef(extKey string) obj {
	return obj{
		"type":       "object",
		"required":   []any{extKey},
		"properties": obj{extKey: obj{"type": "object", "required": []any{"overwriteSchemaWith"}}},
	}
}

// optionDef is what the form requires of each node it reads: the keys of
// any subschema, one type it knows (or a const, or a $ref the API inlines),
// and an option for each property and for the items.
func optionDef(extKey string, p *schema.Platform) obj {
	props := vocabulary(extKey, p)
	props["type"] = obj{
		"type": "string", "enum": strList(schema.Types),
		"errorMessage": "the form accepts exactly one type, one of " + strings.Join(schema.Types, ", "),
	}
	props["properties"] = obj{"additionalProperties": ref("option")}
	props["items"] = ref("option")
	return obj{
		"if": ref("replaced"),
		"else": obj{
			"type":         "object",
			"errorMessage": "an option is a schema object with a type or a const: the form will not open otherwise",
			"anyOf": []any{
				obj{"required": []any{"type"}}, obj{"required": []any{"const"}}, obj{"required": []any{"$ref"}},
			},
			"properties": props,
		},
	}
}

// subschemaDef checks the form's keys in any other subschema.
func subschemaDef(extKey string, p *schema.Platform) obj {
	return obj{"if": ref("replaced"), "else": obj{"properties": vocabulary(extKey, p)}}
}

// vocabulary are the keys the form reads in a schema object, and the
// keywords whose subschemas it walks into.
func vocabulary(extKey string, p *schema.Platform) obj {
	props := obj{
		"render": described(obj{
			"enum":         strList(schema.Renders),
			"errorMessage": "render is one of " + strings.Join(schema.Renders, ", ") + ": the form will not open otherwise",
		}, siblingDocs["render"]),
		"listEnum":                described(obj{"type": "array"}, siblingDocs["listEnum"]),
		"sliderMin":               described(obj{"type": "number"}, siblingDocs["sliderMin"]),
		"sliderMax":               described(obj{"type": "number"}, siblingDocs["sliderMax"]),
		"sliderStep":              described(obj{"type": "number"}, stepDoc(p)),
		"sliderUnit":              described(obj{"type": "string"}, siblingDocs["sliderUnit"]),
		"sliderExtremitySemantic": described(obj{"type": "string"}, siblingDocs["sliderExtremitySemantic"]),
		"sliderRangeId":           described(obj{"type": "string"}, siblingDocs["sliderRangeId"]),
		"sliderExtremity": described(obj{
			"enum":         strList(schema.Extremities),
			"errorMessage": "sliderExtremity is down or up: the form will not open otherwise",
		}, siblingDocs["sliderExtremity"]),
		"hidden": described(ref("hidden"), siblingDocs["hidden"]),
		extKey:   described(ref("extension"), fmt.Sprintf("The %s platform's extension object: %s.", p.Name, strings.Join(schema.ExtensionKeys, ", "))),
	}
	// The extension's keys written next to type, and the extension under
	// another platform's key, are ignored by the platform: lint warns.
	for _, k := range schema.ExtensionKeys {
		if _, sibling := props[k]; !sibling {
			props[k] = obj{"deprecationMessage": fmt.Sprintf("the platform ignores %s next to type: move it inside %s", k, extKey)}
		}
	}
	for _, name := range schema.PlatformNames() {
		if other := schema.PlatformKey(name); other != extKey {
			props[other] = obj{"deprecationMessage": fmt.Sprintf("the extension key in force is %s: the platform ignores the fields under %s", extKey, other)}
		}
	}
	for _, k := range schemaKeywords {
		props[k] = ref("subschema")
	}
	for _, k := range mapKeywords {
		props[k] = obj{"additionalProperties": ref("subschema")}
	}
	for _, k := range listKeywords {
		props[k] = obj{"items": ref("subschema")}
	}
	// items is one schema, or a list of them in the drafts before 2020-12.
	props["items"] = obj{"allOf": []any{ref("subschema")}, "items": ref("subschema")}
	return props
}

func stepDoc(p *schema.Platform) string {
	if p.StepAndUnitRequired {
		return siblingDocs["sliderStep"] + " The " + p.Name + " platform requires it on every slider whose bounds no slider configuration supplies."
	}
	return siblingDocs["sliderStep"]
}

// hiddenDef is the form's hidden: a boolean or a condition.
func hiddenDef() obj {
	return obj{
		"type":         []any{"boolean", "object"},
		"required":     []any{"path", "value"},
		"errorMessage": "write true, false or {\"path\": ..., \"value\": ...}: the form will not open otherwise",
		"properties": obj{
			"path":           described(obj{"type": "string"}, "The option the condition looks at, slash-separated (git/enabled), from the values root or, with isPathRelative, from the object holding this option."),
			"value":          obj{"description": "The value of the option at path that hides this one."},
			"isPathRelative": described(obj{"type": "boolean"}, "true reads path from the object holding this option (per item inside arrays)."),
		},
	}
}

// extensionDef is the extension object. Only the types the form refuses
// to open with are errors; an unknown key is ignored by the platform, which
// lint warns of.
func extensionDef(extKey string, p *schema.Platform) obj {
	props := obj{}
	for _, k := range schema.ExtensionKeys {
		s := obj{}
		switch k {
		case "overwriteDefaultWith":
			s["type"] = []any{"string", "array", "object"}
			s["errorMessage"] = "write a context path such as \"git.name\", or put a fixed value in default: the form will not open otherwise"
		case "overwriteListEnumWith":
			s["type"] = []any{"string", "array"}
			s["errorMessage"] = "write a context path or a list: the form will not open otherwise"
		case "hidden":
			s["type"] = "boolean"
			s["errorMessage"] = fmt.Sprintf("hidden inside %s is true or false (a {path, value} condition belongs next to type): the form will not open otherwise", extKey)
		case "readonly":
			s["type"] = "boolean"
			s["errorMessage"] = fmt.Sprintf("readonly inside %s is true or false: the form will not open otherwise", extKey)
		case "useRegionSliderConfig":
			s["examples"] = []any{"cpu", "memory", "gpu", "disk"}
			if !p.RegionSliders {
				s["deprecationMessage"] = fmt.Sprintf("the %s platform ignores useRegionSliderConfig: the chart's own slider bounds apply", p.Name)
			}
		}
		doc, ok := extDocs[k]
		if !ok {
			doc = k
		}
		props[k] = described(s, doc)
	}
	return obj{
		"type":                 "object",
		"errorMessage":         fmt.Sprintf("%s is an object such as {\"overwriteDefaultWith\": \"git.name\"}: the form will not open otherwise", extKey),
		"properties":           props,
		"additionalProperties": obj{"deprecationMessage": "the platform ignores this key; it reads " + strings.Join(schema.ExtensionKeys, ", ")},
	}
}
