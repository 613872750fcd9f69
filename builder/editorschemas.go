package builder

import (
	"context"
	"path"

	"github.com/catalogist/catalogist/internal/output/editorschema"
)

// writeEditorSchemas publishes, beside the pages, the JSON Schemas that let
// an editor validate and complete the catalog's files: values.schema.json
// with the catalog's extension key and platform, catalog.yaml, region files
// and the catalogs file (see package editorschema).
func writeEditorSchemas(_ context.Context, b *build) error {
	env, err := b.in.env()
	if err != nil {
		return err
	}
	files, err := editorschema.Files(env.ExtKey, env.Platform, b.in.repoURL)
	if err != nil {
		return err
	}
	for _, name := range editorschema.Names {
		if err := b.writeFile(path.Join(editorschema.Dir, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}
