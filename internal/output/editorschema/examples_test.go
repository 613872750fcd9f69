package editorschema_test

import (
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/editorschema"
)

// The bundled catalogs are written for the platform: every file validates.
func TestExamplesValidate(t *testing.T) {
	for _, dir := range glob(t, "../../../examples/*/catalog.yaml") {
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
	catalogist[editorschema.RegionName].mustValidate(t, "../../../examples/region.yaml")

}
