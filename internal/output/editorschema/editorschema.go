// Package editorschema writes the JSON Schemas that let an editor (VS Code's
// JSON language service, yaml-language-server) validate and complete a
// catalog's files: values.schema.json with the platform's extension
// vocabulary, catalog.yaml, region files and the catalogs file. The schemas
// are generated from the Go definitions the rest of catalogist reads these
// files with (package schema's extension keys, renders and extremities, the
// lint rules, the platforms), so that they say what lint says. They are
// draft-07, the draft editors support best, and reject only what lint
// reports as an error: lint's warnings show as deprecation warnings, which
// editors display and validators ignore.
package editorschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/catalogist/catalogist/internal/model/schema"
)

// Dir is the directory of a catalog's site that holds the schemas.
const Dir = "schemas"

// The schemas' file names under Dir.
const (
	ValuesName   = "values.schema.json"
	CatalogName  = "catalog.schema.json"
	RegionName   = "region.schema.json"
	CatalogsName = "catalogs.schema.json"
)

// Names lists the schemas' file names.
var Names = []string{ValuesName, CatalogName, RegionName, CatalogsName}

// draft is the dialect of the schemas themselves.
const draft = "http://json-schema.org/draft-07/schema#"

// URL is the address a catalog's site, published at siteURL, serves the
// schema name at.
func URL(siteURL, name string) string {
	return strings.TrimRight(siteURL, "/") + "/" + Dir + "/" + name
}

// id is a schema's $id: its address on the site when the site's address is
// known, else a name that does not change from one build to the next.
func id(siteURL, name string) string {
	if siteURL == "" {
		return "urn:catalogist:" + Dir + ":" + name
	}
	return URL(siteURL, name)
}

// Files returns every schema by file name, for a catalog whose schemas use
// extKey on platform p, published at siteURL ("" when unknown). An empty
// extKey is schema.DefaultExtensionKey; a nil p the platform extKey implies.
func Files(extKey string, p *schema.Platform, siteURL string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, gen := range map[string]func() ([]byte, error){
		ValuesName:   func() ([]byte, error) { return Values(extKey, p, siteURL) },
		CatalogName:  func() ([]byte, error) { return Catalog(siteURL) },
		RegionName:   func() ([]byte, error) { return Region(siteURL) },
		CatalogsName: func() ([]byte, error) { return Catalogs(siteURL) },
	} {
		data, err := gen()
		if err != nil {
			return nil, fmt.Errorf("editor schema %s: %w", name, err)
		}
		out[name] = data
	}
	return out, nil
}

// Values returns the schema of values.schema.json for extKey on platform p
// (see Files).
func Values(extKey string, p *schema.Platform, siteURL string) ([]byte, error) {
	doc, err := values(extKey, p, siteURL)
	if err != nil {
		return nil, err
	}
	return encode(doc)
}

// Catalog returns the schema of catalog.yaml.
func Catalog(siteURL string) ([]byte, error) { return encode(catalogYAML(siteURL)) }

// Region returns the schema of region files: a plain region file, the
// platform's regions.json, or one region of it.
func Region(siteURL string) ([]byte, error) { return encode(regionFile(siteURL)) }

// Catalogs returns the schema of the catalogs file.
func Catalogs(siteURL string) ([]byte, error) { return encode(catalogsFile(siteURL)) }

// obj is a JSON object being built.
type obj = map[string]any

// encode writes a schema as indented JSON, its keys sorted, so that the same
// inputs give the same bytes.
func encode(doc obj) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// header starts a schema document.
func header(siteURL, name, title, description string) obj {
	return obj{"$schema": draft, "$id": id(siteURL, name), "title": title, "description": description}
}

// described gives a schema its description, which editors show on hover
// and in completions.
func described(s obj, description string) obj {
	s["description"] = description
	return s
}

func ref(name string) obj { return obj{"$ref": "#/definitions/" + name} }

func strList(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
