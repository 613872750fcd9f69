package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// migrate --write on an Argo CD file of several documents and on a values
// file given through a symbolic link: the other documents keep their
// bytes, the link stays a link to the migrated file, and what is reported
// names the documents.
func TestMigrateWriteSafety(t *testing.T) {
	dir := t.TempDir()
	index := "../../internal/target/migrate/testdata/repo/index.yaml"
	src, err := os.ReadFile("../../internal/target/migrate/testdata/multidoc/application.yaml")
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(dir, "argocd", "onyxia.yaml")
	if err := os.MkdirAll(filepath.Dir(app), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(app, src, 0o644); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(dir, "shared", "values.yaml")
	if err := os.MkdirAll(filepath.Dir(shared), 0o755); err != nil {
		t.Fatal(err)
	}
	values := "web:\n  image:\n    tag: 2.29.4\n---\n# kept\napi:\n  image:\n    tag: v2.29.4\n    pullPolicy: Always\n"
	if err := os.WriteFile(shared, []byte(values), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "values.yaml")
	if err := os.Symlink("shared/values.yaml", link); err != nil {
		t.Fatal(err)
	}

	r := catalogist(t, nil, "migrate", "--app", app, "--values", link, "--repo-index", index, "--write")
	if r.code != 0 || !strings.Contains(r.stderr, "wrote 2 file(s) for onyxia 4.1.4") {
		t.Fatalf("--write: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		app + ": document 1: spec.source.repoURL: https://inseefrlab.github.io/helm-charts -> https://inseefrlab.github.io/onyxia",
		app + ": document 3: spec.source.targetRevision: 4.1.0 -> 4.1.4",
		link + ": document 1: web.image.tag removed (was 2.29.4)",
		link + ": document 2: api.image.tag removed (was v2.29.4)",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}

	got, err := os.ReadFile(app)
	if err != nil {
		t.Fatal(err)
	}
	configMap := func(b []byte) []byte {
		i := bytes.Index(b, []byte("# The configuration the platform reads"))
		j := bytes.Index(b, []byte("--- # staging"))
		if i < 0 || j < i {
			t.Fatalf("the ConfigMap document is gone:\n%s", b)
		}
		return b[i:j]
	}
	if !bytes.Equal(configMap(got), configMap(src)) {
		t.Errorf("the ConfigMap changed:\n%s", got)
	}
	if bytes.Contains(got, []byte("helm-charts\n    chart")) {
		t.Errorf("an Application keeps the old repository:\n%s", got)
	}

	if dest, err := os.Readlink(link); err != nil || dest != "shared/values.yaml" {
		t.Fatalf("the link became %q (%v)", dest, err)
	}
	data, err := os.ReadFile(shared)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{}\n---\n# kept\napi:\n  image:\n    pullPolicy: Always\n"; string(data) != want {
		t.Errorf("the linked file holds:\n%s\nwant:\n%s", data, want)
	}
	if st, err := os.Stat(shared); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the linked file's mode: %v (%v)", st.Mode().Perm(), err)
	}

	r = catalogist(t, nil, "migrate", "--app", app, "--values", link, "--repo-index", index)
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "nothing to change") {
		t.Errorf("second run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// Files migrate must not edit are refused with exit 2 and a message that
// names the file and the lines: a key twice, a binary file, the same file
// given twice. Values reached through an alias or a merge key are left
// alone with a note.
func TestMigrateRefusals(t *testing.T) {
	dir := t.TempDir()
	index := "../../internal/target/migrate/testdata/repo/index.yaml"
	texts := map[string]string{}
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		texts[p] = text
		return p
	}
	dup := file("dup.yaml", "web:\n  image:\n    tag: 1\n    tag: 2\n")
	r := catalogist(t, nil, "migrate", "--values", dup, "--repo-index", index, "--write")
	if r.code != 2 || !strings.Contains(r.stderr, dup+": not valid YAML (line 4: the key \"tag\" is already at line 3") {
		t.Errorf("duplicate key: exit %d\n%s", r.code, r.stderr)
	}
	bin := file("bin.yaml", "web:\n  image:\x00\r\xff\n")
	r = catalogist(t, nil, "migrate", "--values", bin, "--repo-index", index, "--write")
	if r.code != 2 || !strings.Contains(r.stderr, bin+" is binary, not YAML (a NUL byte at line 2)") {
		t.Errorf("binary file: exit %d\n%s", r.code, r.stderr)
	}
	// Files are checked before the repository is asked: a refused file is
	// reported as such even when the index cannot be read.
	r = catalogist(t, nil, "migrate", "--values", bin, "--repo-index", filepath.Join(dir, "no-index.yaml"), "--write")
	if r.code != 2 || !strings.Contains(r.stderr, bin+" is binary, not YAML") {
		t.Errorf("binary file, no index: exit %d\n%s", r.code, r.stderr)
	}
	both := file("both.yaml", "keycloak:\n  replicas: 1\n")
	r = catalogist(t, nil, "migrate", "--values", both, "--idp-values", both, "--repo-index", index, "--write")
	if r.code != 2 || !strings.Contains(r.stderr, "is the same file as") {
		t.Errorf("the same file twice: exit %d\n%s", r.code, r.stderr)
	}
	for p, text := range texts {
		if data, err := os.ReadFile(p); err != nil || string(data) != text {
			t.Errorf("%s was written: %q (%v)", p, data, err)
		}
	}
	if es, _ := os.ReadDir(dir); len(es) != len(texts) {
		t.Errorf("after the refusals the directory holds %v", es)
	}

	merged := "base: &img\n  repository: x\n  tag: v1\napi:\n  image:\n    <<: *img\n    tag: v2\n"
	p := file("merged.yaml", merged)
	r = catalogist(t, nil, "migrate", "--values", p, "--repo-index", index, "--write")
	if r.code != 0 || !strings.Contains(r.stderr, "api.image.tag also comes through the merge key at line 6 (anchor &img at line 1)") || strings.Contains(r.stderr, "removed") {
		t.Errorf("merge key: exit %d\n%s", r.code, r.stderr)
	}
	if data, _ := os.ReadFile(p); string(data) != merged {
		t.Errorf("the file was edited:\n%s", data)
	}
}
