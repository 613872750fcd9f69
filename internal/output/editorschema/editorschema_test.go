package editorschema_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/editorschema"
)

func TestAddresses(t *testing.T) {
	const site = "https://example-org.github.io/catalog-ide/"
	if got, want := editorschema.URL(site, editorschema.CatalogName), "https://example-org.github.io/catalog-ide/schemas/catalog.schema.json"; got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
	files, err := editorschema.Files("x-onyxia", schema.Onyxia, strings.TrimSuffix(site, "/"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(editorschema.Names) {
		t.Errorf("%d schemas, want %d", len(files), len(editorschema.Names))
	}
	for _, name := range editorschema.Names {
		var doc struct {
			Schema string `json:"$schema"`
			ID     string `json:"$id"`
			Title  string `json:"title"`
			Desc   string `json:"description"`
		}
		if err := json.Unmarshal(files[name], &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Editors support draft-07 best; the $id is where the site serves
		// the schema.
		if doc.Schema != "http://json-schema.org/draft-07/schema#" || doc.ID != editorschema.URL(site, name) || doc.Title == "" || doc.Desc == "" {
			t.Errorf("%s: $schema %q, $id %q, title %q, description %q", name, doc.Schema, doc.ID, doc.Title, doc.Desc)
		}
		again, err := editorschema.Files("x-onyxia", schema.Onyxia, strings.TrimSuffix(site, "/"))
		if err != nil || !bytes.Equal(again[name], files[name]) {
			t.Errorf("%s differs from one call to the next", name)
		}
	}
	// Without the site's address, the $id still names the schema.
	files, err = editorschema.Files("", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(files[editorschema.ValuesName], []byte(`"$id": "urn:catalogist:schemas:values.schema.json"`)) {
		t.Error("without a site address, the values schema has no stable $id")
	}
	// The default key is the catalogist platform's.
	if !bytes.Contains(files[editorschema.ValuesName], []byte(`"`+schema.DefaultExtensionKey+`": {`)) {
		t.Errorf("the default values schema has no %s", schema.DefaultExtensionKey)
	}
}
