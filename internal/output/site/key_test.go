package site

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// indexKey renders cat and returns the index page's key.
func indexKey(t *testing.T, cat *Catalog, opt Options) string {
	t.Helper()
	var key string
	opt.KeepIndex = func(k string) bool { key = k; return false }
	render(t, cat, opt)
	return key
}

func TestKeepIndex(t *testing.T) {
	base := indexKey(t, normalCatalog(t), Options{})
	if base == "" || indexKey(t, normalCatalog(t), Options{}) != base {
		t.Fatal("the key of the same index differs between renderings")
	}
	// The index shows no digest nor README: its key ignores them.
	cat := normalCatalog(t)
	cat.Charts[0].Versions[0].Digest = "sha256:0000"
	cat.Charts[0].README = []byte("# Another README")
	if indexKey(t, cat, Options{}) != base {
		t.Error("a change the index does not show changed its key")
	}
	for name, change := range map[string]func(*Catalog){
		"description": func(c *Catalog) { c.Charts[0].Description += "!" },
		"version":     func(c *Catalog) { c.Charts[0].Versions[0].Version = "9.9.9" },
		"keywords":    func(c *Catalog) { c.Charts[0].Keywords = append(c.Charts[0].Keywords, "new") },
		"title":       func(c *Catalog) { c.Title = "Other" },
		"generated":   func(c *Catalog) { c.Generated = day("2026-01-02T00:00:00Z") },
	} {
		cat := normalCatalog(t)
		change(cat)
		if indexKey(t, cat, Options{}) == base {
			t.Errorf("changing the %s left the key as it was", name)
		}
	}
	tpl := t.TempDir()
	if err := os.WriteFile(filepath.Join(tpl, "style.css"), []byte("body{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if indexKey(t, normalCatalog(t), Options{Templates: tpl}) == base {
		t.Error("other templates left the key as it was")
	}

	// Kept, the index page is not written.
	dir := render(t, normalCatalog(t), Options{KeepIndex: func(string) bool { return true }})
	if _, err := os.Stat(filepath.Join(dir, "index.html")); !os.IsNotExist(err) {
		t.Errorf("a kept index page was written: %v", err)
	}
}

func TestWriteFileHook(t *testing.T) {
	want := render(t, normalCatalog(t), Options{})
	got := map[string][]byte{}
	dir := t.TempDir()
	opt := Options{WriteFile: func(name string, data []byte) error { got[name] = data; return nil }}
	if err := Render(dir, normalCatalog(t), opt); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Render wrote under dir despite WriteFile: %v", entries)
	}
	names := siteFiles(t, want)
	gotNames := make([]string, 0, len(got))
	for name := range got {
		gotNames = append(gotNames, name)
	}
	slices.Sort(gotNames)
	if !slices.Equal(names, gotNames) {
		t.Fatalf("files:\n got %q\nwant %q", gotNames, names)
	}
	for _, name := range names {
		if !bytes.Equal(got[name], readFile(t, filepath.Join(want, filepath.FromSlash(name)))) {
			t.Errorf("%s differs", name)
		}
	}
}
