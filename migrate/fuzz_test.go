package migrate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/migrate"
)

// FuzzMigrate feeds any text as each kind of input: the migration must not
// panic, must produce YAML that parses, and must leave nothing for a second
// run to change.
func FuzzMigrate(f *testing.F) {
	for _, rel := range []string{"values/values.yaml", "umbrella/Chart.yaml", "umbrella/values.yaml", "argocd/application.yaml", "argocd-object/application.yaml", "keycloak/values.yaml", "keycloak-bitnami/values.yaml", "keycloakx/values.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata", rel))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("web: {image: {tag: 1}}\n"))
	f.Add([]byte("onyxia:\n  web:\n    image:\n      tag: 1\n\n  api:\n    image:\n      tag: 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "in.yaml")
		for _, kind := range []string{"values", "chart", "app", "idp"} {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			m := migrate.Migrate{RepoIndex: "testdata/repo/index.yaml"}
			input(&m, kind, p)
			res, err := m.Run(context.Background())
			if err != nil {
				if strings.Contains(err.Error(), "overlapping") {
					t.Fatalf("%s: %v", kind, err)
				}
				continue
			}
			if err := res.Write(); err != nil {
				t.Fatal(err)
			}
			again, err := m.Run(context.Background())
			if err != nil {
				t.Fatalf("%s: second run: %v", kind, err)
			}
			if d := again.Diff(); d != "" {
				t.Fatalf("%s: second run changes:\n%s", kind, d)
			}
		}
	})
}
