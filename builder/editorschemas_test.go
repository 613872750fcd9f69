package builder_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/editorschema"
)

// A build publishes the editor schemas at their paths, for the catalog's
// extension key and platform, with $ids at the catalog's address; a build
// for another key publishes that key's.
func TestBuildWritesEditorSchemas(t *testing.T) {
	cat := example(t, "ide")
	out := filepath.Join(t.TempDir(), "site")
	const site = "https://example-org.github.io/catalog-ide" // catalog.yaml's baseURL
	for _, c := range []struct {
		key string
		p   *schema.Platform
	}{{"", schema.Catalogist}, {"x-onyxia", schema.Onyxia}} {
		build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1), ExtensionKey: c.key})
		want, err := editorschema.Files(c.key, c.p, site)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range editorschema.Names {
			got, err := os.ReadFile(filepath.Join(out, editorschema.Dir, name))
			if err != nil {
				t.Fatalf("key %q: %v", c.key, err)
			}
			if !bytes.Equal(got, want[name]) {
				t.Errorf("key %q: %s/%s is not the schema of the catalog's key and address", c.key, editorschema.Dir, name)
			}
		}
		values, _ := os.ReadFile(filepath.Join(out, editorschema.Dir, editorschema.ValuesName))
		key := c.key
		if key == "" {
			key = schema.DefaultExtensionKey
		}
		for _, s := range []string{`"$id": "` + editorschema.URL(site, editorschema.ValuesName) + `"`, `"` + key + `": {`} {
			if !bytes.Contains(values, []byte(s)) {
				t.Errorf("key %q: the published values schema lacks %s", c.key, s)
			}
		}
	}
}
