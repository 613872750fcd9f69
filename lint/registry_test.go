package lint_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/lint"
)

// A defect of a registry schema is reported once, against the registry
// file at its own line, however many charts use the schema; the charts'
// inline copies, which the platform never shows, are not judged.
func TestRegistryFindingsOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"catalog.yaml": "extensionKey: x-onyxia\nschemaRegistry: registry\n",
		// render "select" is refused by the form (line 4 of the file).
		"registry/ide/git.json": "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"name\": {\"type\": \"string\", \"default\": \"\", \"render\": \"select\"}\n  }\n}\n",
	}
	for _, c := range []string{"jupyter", "rstudio", "vscode"} {
		files["charts/"+c+"/Chart.yaml"] = "apiVersion: v2\nname: " + c + "\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n"
		// The inline copy has its own defect, which the platform never sees.
		files["charts/"+c+"/values.schema.json"] = `{"type": "object", "properties": {
  "git": {"type": "object", "x-onyxia": {"overwriteSchemaWith": "ide/git.json"},
    "properties": {"name": {"type": "string", "default": "", "render": "textarea"}}}}}`
	}
	filetree.Write(t, dir, files)
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lint.Run([]*catalog.Catalog{cat}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var render []lint.Finding
	for _, f := range res.Findings {
		if f.Rule == "render" {
			render = append(render, f)
		}
	}
	want := filepath.Join(dir, "registry", "ide", "git.json")
	if len(render) != 1 || render[0].File != want || render[0].Line != 4 || !strings.Contains(render[0].Message, `render "select" of option "git/name"`) {
		t.Fatalf("render findings = %+v, want one in %s at line 4", render, want)
	}
	if render[0].Chart != "jupyter" {
		t.Errorf("the registry finding is kept under %q, want the first chart by name", render[0].Chart)
	}

	// The same through the command line's registry, which replaces the
	// catalog's.
	reg, err := schema.LoadRegistry(filepath.Join(dir, "registry"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = lint.Run([]*catalog.Catalog{cat}, lint.Options{Overrides: schema.Overrides{Registry: reg}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range res.Findings {
		if f.Rule == "render" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d render findings with --schema-registry, want 1", n)
	}
}
