package editorschema_test

import (
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/editorschema"
	"github.com/catalogist/catalogist/schema"
)

// The bundled catalogs, the platform's own catalog and its API's schema
// registry are written for the platform: every file validates.
func TestExamplesAndCorpusValidate(t *testing.T) {
	for _, dir := range glob(t, "../examples/*/catalog.yaml") {
		cat, err := catalog.Discover(filepath.Dir(dir))
		if err != nil {
			t.Fatal(err)
		}
		env, err := schema.EnvFor(schema.Overrides{}, cat, nil, &schema.Registries{})
		if err != nil {
			t.Fatal(err)
		}
		ed := schemas(t, env.ExtKey, env.Platform)
		ed[editorschema.CatalogName].mustValidate(t, dir)
		for _, f := range glob(t, filepath.Join(filepath.Dir(dir), "charts", "*", "values.schema.json")) {
			ed[editorschema.ValuesName].mustValidate(t, f)
		}
	}
	catalogist := schemas(t, "", nil)
	catalogist[editorschema.RegionName].mustValidate(t, "../examples/region.yaml")

	onyxia := schemas(t, schema.Onyxia.ExtKey, schema.Onyxia)
	for _, f := range glob(t, "../../shared/corpus/interactive-services/charts/*/values.schema.json") {
		onyxia[editorschema.ValuesName].mustValidate(t, f)
	}
	// A registry file is one property's schema.
	option := onyxia[editorschema.ValuesName].sub(t, "/definitions/option")
	for _, pattern := range []string{"../../shared/onyxia-registry/*.json", "../../shared/onyxia-registry/*/*.json"} {
		for _, f := range glob(t, pattern) {
			option.mustValidate(t, f)
		}
	}
}
