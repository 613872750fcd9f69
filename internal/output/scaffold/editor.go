package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"

	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/editorschema"
)

// A new catalog's editor schemas must work from its first commit, before its
// site publishes them: the catalog carries copies, which the editors' settings
// name by paths relative to the catalog (VS Code's json.schemas and
// yaml.schemas resolve "./" against the workspace folder, yaml-language-server
// a modeline's path against the file).

// EditorDir holds the copies of the editor schemas in a new catalog.
const EditorDir = ".catalogist/schemas"

// EditorSettings is VS Code's settings file in a new catalog.
const EditorSettings = ".vscode/settings.json"

// CatalogModeline is the first line of a new catalog's catalog.yaml, which
// gives the file its schema in any editor running yaml-language-server.
const CatalogModeline = "# yaml-language-server: $schema=" + EditorDir + "/" + editorschema.CatalogName

// jsonSchemaSetting is one entry of VS Code's json.schemas.
type jsonSchemaSetting struct {
	FileMatch []string `json:"fileMatch"`
	URL       string   `json:"url"`
}

// vscodeSettings are the settings a new catalog starts with.
type vscodeSettings struct {
	JSONSchemas []jsonSchemaSetting `json:"json.schemas"`
	YAMLSchemas map[string][]string `json:"yaml.schemas"`
}

// addEditorSettings adds the editor schemas of e's extension key and
// platform, and VS Code's settings that apply them.
func addEditorSettings(t tree, e schema.Env) error {
	files, err := editorschema.Files(e.ExtKey, e.Platform, "")
	if err != nil {
		return fmt.Errorf("editor schemas: %w", err)
	}
	local := func(name string) string { return "./" + path.Join(EditorDir, name) }
	for _, name := range editorschema.Names {
		t[path.Join(EditorDir, name)] = files[name]
	}
	s := vscodeSettings{
		JSONSchemas: []jsonSchemaSetting{
			{FileMatch: []string{"values.schema.json"}, URL: local(editorschema.ValuesName)},
			{FileMatch: []string{"regions.json"}, URL: local(editorschema.RegionName)},
		},
		YAMLSchemas: map[string][]string{
			local(editorschema.CatalogName):  {"catalog.yaml"},
			local(editorschema.RegionName):   {"region.yaml", "regions.yaml"},
			local(editorschema.CatalogsName): {"catalogs.yaml"},
		},
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("editor settings: %w", err)
	}
	t[EditorSettings] = b.Bytes()
	return nil
}
