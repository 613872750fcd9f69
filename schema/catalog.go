package schema

import (
	"bytes"
	"cmp"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/region"
)

// ExtensionKeyFor is the extension key in force for a catalog's charts: the
// user's override, else the catalog's setting, else the default.
func ExtensionKeyFor(override string, cat *catalog.Catalog) string {
	return cmp.Or(override, cat.ExtensionKey(), DefaultExtensionKey)
}

// CatalogContext is the context a catalog's charts are computed in: the
// profile, the region and the catalog's own slider bounds.
func CatalogContext(profile map[string]any, reg *region.Region, cat *catalog.Catalog) *Context {
	if cat.Config == nil {
		return NewContext(profile, reg, nil, "")
	}
	return NewContext(profile, reg, cat.Config.Sliders, cat.Config.File)
}

// DetectExtensionKey is the extension key a schema uses, for a chart whose
// catalog does not say: the reference platform's when the schema holds it
// and not the seed's, else the default.
func DetectExtensionKey(schemaJSON []byte) string {
	if bytes.Contains(schemaJSON, []byte(`"x-onyxia"`)) && !bytes.Contains(schemaJSON, []byte(`"`+DefaultExtensionKey+`"`)) {
		return "x-onyxia"
	}
	return DefaultExtensionKey
}
