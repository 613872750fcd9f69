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

// Without a registry, an error inside an option the API replaces
// (overwriteSchemaWith) is about an inline copy the form may never read: a
// warning that says so. With a registry that holds the name, the copy is
// not judged; with one that lacks it, the API keeps the copy, and the
// error stands.
func TestInlineCopyWithoutRegistry(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"catalog.yaml":          "extensionKey: x-onyxia\nplatform: onyxia\n",
		"registry/proxy.json":   `{"type": "object", "properties": {"httpProxy": {"type": "string", "default": ""}}}`,
		"other/unrelated.json":  `{"type": "object"}`,
		"charts/ide/Chart.yaml": "apiVersion: v2\nname: ide\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
		// hidden inside the extension must be a boolean: the form would
		// not open on this copy.
		"charts/ide/values.schema.json": `{"type": "object", "properties": {
  "proxy": {"type": "object", "x-onyxia": {"overwriteSchemaWith": "proxy.json"},
    "properties": {"httpProxy": {"type": "string", "default": "",
      "x-onyxia": {"hidden": {"path": "proxy/enabled", "value": false}}}}}}}`,
	})
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	extBoolean := func(opt lint.Options) []lint.Finding {
		t.Helper()
		res, err := lint.Run([]*catalog.Catalog{cat}, opt)
		if err != nil {
			t.Fatal(err)
		}
		var out []lint.Finding
		for _, f := range res.Findings {
			if f.Rule == "ext-boolean" {
				out = append(out, f)
			}
		}
		return out
	}
	fs := extBoolean(lint.Options{})
	if len(fs) != 1 || fs[0].Severity != lint.Warning || fs[0].Line != 4 ||
		!strings.Contains(fs[0].Message, `the inline copy of option "proxy", which the platform's API replaces by its registry schema "proxy.json"`) ||
		!strings.Contains(fs[0].Message, "--schema-registry") {
		t.Fatalf("without a registry: %+v, want one warning at line 4 naming the copy and --schema-registry", fs)
	}
	holds, err := schema.LoadRegistry(filepath.Join(dir, "registry"))
	if err != nil {
		t.Fatal(err)
	}
	if fs := extBoolean(lint.Options{Overrides: schema.Overrides{Registry: holds}}); len(fs) != 0 {
		t.Errorf("with a registry holding proxy.json: %+v, want nothing (the copy is not served)", fs)
	}
	lacks, err := schema.LoadRegistry(filepath.Join(dir, "other"))
	if err != nil {
		t.Fatal(err)
	}
	if fs := extBoolean(lint.Options{Overrides: schema.Overrides{Registry: lacks}}); len(fs) != 1 || fs[0].Severity != lint.Error || strings.Contains(fs[0].Message, "inline copy") {
		t.Errorf("with a registry lacking proxy.json: %+v, want the error as it is (the API keeps the copy)", fs)
	}
}
