package migrate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/target/migrate"
)

// Documents that no kind of migration changes, put around the fuzzed
// text: they must keep their bytes.
const (
	fuzzHead = "# kept as it is\n- name: a   # a comment\n  value: \"x\"\n"
	fuzzTail = "- {b: 2}\n...\n# the end\n"
)

// FuzzMigrate feeds any text as each kind of input: the migration must not
// panic, must produce YAML that parses, must leave nothing for a second
// run to change, and what it reports as removed must no longer be read,
// through aliases and merge keys included. The text is also migrated
// between two other documents: those keep their bytes, and a text of one
// document becomes what it becomes alone.
func FuzzMigrate(f *testing.F) {
	for _, rel := range []string{"values/values.yaml", "umbrella/Chart.yaml", "umbrella/values.yaml", "argocd/application.yaml", "argocd-object/application.yaml", "keycloak/values.yaml", "keycloak-bitnami/values.yaml", "keycloakx/values.yaml", "multidoc/application.yaml", "multidoc/values.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", rel))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("web: {image: {tag: 1}}\n"))
	f.Add([]byte("onyxia:\n  web:\n    image:\n      tag: 1\n\n  api:\n    image:\n      tag: 2\n"))
	f.Add([]byte("base: &img\n  repository: x\n  tag: v1\napi:\n  image:\n    <<: *img\n    tag: v2\nweb:\n  image: *img\n"))
	f.Add([]byte("a: &a\n  pullPolicy: Always\nb: &b\n  tag: v1\nweb:\n  image:\n    <<: [*a, *b]\n    tag: 3\napi:\n  <<: {image: {tag: 4}}\n"))
	f.Add([]byte("web:\n  image:\n    tag: &v v1\nsidecar: *v\n---\napi:\n  image: &i\n    tag: 2\n  other: *i\n"))
	f.Add([]byte("kcbase: &kc\n  extraInitContainers: |\n    - name: other\n  extraVolumes: *kc\nkeycloak:\n  <<: *kc\n"))
	f.Add([]byte("web:\n  image:\n    tag: 1\n---\n...\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "in.yaml")
		kinds := []string{"values", "chart", "app", "idp"}
		for i, kind := range kinds {
			o := migrate.Options{RepoIndex: "testdata/repo/index.yaml"}
			input(&o, kind, p)
			res := fuzzRun(t, kind, p, data, o)
			if res != nil {
				checkRemovals(t, res.Files[0])
			}
			// Each input is also read between documents as one kind of
			// file, chosen by its length, which keeps an execution to
			// half as many runs as every kind would take.
			if i != len(data)%len(kinds) {
				continue
			}

			// The text between two documents that nothing changes.
			body := string(data)
			if !strings.HasSuffix(body, "\n") {
				body += "\n"
			}
			composed := fuzzHead + "---\n" + body + "---\n" + fuzzTail
			around := fuzzRun(t, kind, p, []byte(composed), o)
			if around == nil {
				continue
			}
			after := string(around.Files[0].After)
			if !strings.HasPrefix(after, fuzzHead+"---\n") || !strings.HasSuffix(after, "\n---\n"+fuzzTail) && after != fuzzHead+"---\n"+"---\n"+fuzzTail {
				t.Fatalf("%s: the documents around were changed:\n%s", kind, around.Diff())
			}
			checkRemovals(t, around.Files[0])
			if !oneDocument(data) {
				continue
			}
			alone := fuzzRun(t, kind, p, []byte(body), o)
			if alone == nil {
				t.Fatalf("%s: the text fails alone, not between two documents", kind)
			}
			if want := fuzzHead + "---\n" + string(alone.Files[0].After) + "---\n" + fuzzTail; after != want {
				t.Fatalf("%s: between two documents the text became\n%s\nalone\n%s", kind, after, alone.Files[0].After)
			}
		}
	})
}

// fuzzRun migrates data written to p, writes the result and checks that
// a second run changes nothing. It returns nil when the input is refused.
func fuzzRun(t *testing.T, kind, p string, data []byte, o migrate.Options) *migrate.Result {
	t.Helper()
	m := newMigrate(t, o)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := m.Run(context.Background())
	if err != nil {
		if strings.Contains(err.Error(), "overlapping") {
			t.Fatalf("%s: %v", kind, err)
		}
		return nil
	}
	// Written in place rather than with Result.Write, whose fsyncs would
	// make each input cost a dozen disk flushes; the write itself is
	// tested apart.
	for _, f := range res.Files {
		if err := os.WriteFile(f.Path, f.After, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	again, err := m.Run(context.Background())
	if err != nil {
		t.Fatalf("%s: second run: %v", kind, err)
	}
	if d := again.Diff(); d != "" {
		t.Fatalf("%s: second run changes:\n%s", kind, d)
	}
	return res
}

// oneDocument reports whether a text is a single document that holds a
// value and starts with it, not with a marker, a directive or a BOM.
func oneDocument(data []byte) bool {
	docs, err := decodeAll(data)
	if err != nil || len(docs) != 1 || docs[0] == nil {
		return false
	}
	for _, p := range []string{"---", "...", "%", "\ufeff"} {
		if strings.HasPrefix(string(data), p) {
			return false
		}
	}
	return true
}
