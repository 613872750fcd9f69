package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/srcpos"
)

func build(t *testing.T, src string, reg *Registry) *Schema {
	t.Helper()
	root, err := srcpos.ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return Build(root, "chart/values.schema.json", Env{ExtKey: "x-onyxia", Platform: Onyxia, Registry: reg})
}

// Without a registry nothing is substituted, and each name is noted.
func TestNoRegistry(t *testing.T) {
	s := build(t, `{"type": "object", "properties": {"r": {"type": "string", "default": "", "x-onyxia": {"overwriteSchemaWith": "ide/resources.json"}}}}`, nil)
	if s.Root != s.Source || len(s.Unresolved) != 1 || !strings.Contains(s.Unresolved[0].Why, "no schema registry") {
		t.Errorf("root changed %v, unresolved %+v", s.Root != s.Source, s.Unresolved)
	}
}

// A reference that leads back to itself makes the API recurse forever: it
// is reported, and resolution ends.
func TestRefCycle(t *testing.T) {
	s := build(t, `{"type": "object",
  "definitions": {"node": {"type": "object", "properties": {"child": {"$ref": "#/definitions/node"}}}},
  "properties": {"tree": {"$ref": "#/definitions/node"}}}`, nil)
	if len(s.ResolveErrors) == 0 || !strings.Contains(s.ResolveErrors[0].Msg, "leads back to itself") {
		t.Errorf("ResolveErrors = %+v", s.ResolveErrors)
	}
}

func TestLoadRegistryErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte("{\n  \"type\": \n}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRegistry(dir); err == nil || !strings.Contains(err.Error(), "bad.json:3:1") {
		t.Errorf("a broken schema: %v", err)
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRegistry(dir); err == nil || !strings.Contains(err.Error(), "outside the registry") {
		t.Errorf("a link out of the registry: %v", err)
	}
	if _, err := LoadRegistry(filepath.Join(dir, "absent")); err == nil {
		t.Errorf("a missing directory loads")
	}
	// A later directory's schema replaces an earlier one's.
	a, b := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(a, "x.json"), []byte(`{"title": "a"}`), 0o600)
	os.WriteFile(filepath.Join(b, "x.json"), []byte(`{"title": "b"}`), 0o600)
	r, err := LoadRegistry(a, b)
	if err != nil || r.Lookup("x.json").Root.Get("title").Text != "b" {
		t.Errorf("LoadRegistry(a, b) = %v", err)
	}
}
