package migrate_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/target/migrate"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// index is the fixture index of the new repository: 4.1.0, 4.1.4 and the
// pre-release 4.2.0-rc.1.
const index = "testdata/repo/index.yaml"

// fixture copies a file of testdata into a temporary directory.
func fixture(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), filepath.Dir(rel), filepath.Base(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// newMigrate configures a migration.
func newMigrate(t testing.TB, o migrate.Options) *migrate.Migrate {
	t.Helper()
	m, err := migrate.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// run migrates with the options, reading the test repository's index
// unless they name another.
func run(t *testing.T, o migrate.Options) *migrate.Result {
	t.Helper()
	if o.RepoIndex == "" {
		o.RepoIndex = index
	}
	res, err := newMigrate(t, o).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Each old-style deployment migrates to its golden output, says what it
// changed, and a second run on the output changes nothing.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string // flag -> fixture
		changes []string
		notes   []string
	}{
		{
			name:  "values with keycloak section",
			files: map[string]string{"values": "values/values.yaml"},
			changes: []string{
				"web.image.tag removed (was 2.29.4)",
				"api.image.tag removed (was v2.29.4)",
				"keycloak.extraInitContainers[0]: theme URL https://github.com/InseeFrLab/onyxia-web/releases/download/v2.29.4/keycloak-theme.jar -> https://github.com/InseeFrLab/onyxia/releases/download/v4.1.4/keycloak-theme.jar",
			},
			notes: []string{`the login theme is now called "onyxia"`},
		},
		{
			name:  "umbrella chart",
			files: map[string]string{"chart": "umbrella/Chart.yaml", "values": "umbrella/values.yaml"},
			changes: []string{
				"dependencies[0].repository: https://inseefrlab.github.io/helm-charts -> https://inseefrlab.github.io/onyxia",
				"dependencies[0].version: 4.1.0 -> 4.1.4",
				"onyxia.web.image.tag removed (was 2.13.1)",
				"keycloakx.extraInitContainers added",
				"keycloakx.extraVolumes added",
				"keycloakx.extraVolumeMounts added",
			},
			notes: []string{"run `helm dependency update"},
		},
		{
			name:  "argo cd application with inline values",
			files: map[string]string{"app": "argocd/application.yaml"},
			changes: []string{
				"spec.source.repoURL: https://inseefrlab.github.io/helm-charts/ -> https://inseefrlab.github.io/onyxia",
				"spec.source.targetRevision: 4.1.0 -> 4.1.4",
				"spec.source.helm.values.api.image.tag removed (was v2.13.1)",
			},
		},
		{
			name:  "argo cd application with sources and valuesObject",
			files: map[string]string{"app": "argocd-object/application.yaml"},
			changes: []string{
				"spec.sources[1].repoURL: https://inseefrlab.github.io/helm-charts -> https://inseefrlab.github.io/onyxia",
				"spec.sources[1].targetRevision: 4.1.0 -> 4.1.4",
				"spec.sources[1].helm.valuesObject.web.image.tag removed (was 2.13.1)",
			},
		},
		{
			name:    "codecentric keycloak on the wildfly image",
			files:   map[string]string{"idp": "keycloak/values.yaml"},
			changes: []string{"extraInitContainers[0]: theme URL https://github.com/InseeFrLab/onyxia-web/releases/download/v0.55.4/keycloak-theme.jar -> https://github.com/InseeFrLab/onyxia/releases/download/v4.1.4/keycloak-theme.jar"},
		},
		{
			name:  "bitnami keycloak without a theme",
			files: map[string]string{"idp": "keycloak-bitnami/values.yaml"},
			changes: []string{
				"initContainers: init container fetching the theme added",
				"extraVolumes: emptyDir volume extensions added",
				"extraVolumeMounts added",
			},
		},
		{
			name:    "keycloakx without a theme",
			files:   map[string]string{"idp": "keycloakx/values.yaml"},
			changes: []string{"extraInitContainers added", "extraVolumes added", "extraVolumeMounts added"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o migrate.Options
			paths := map[string]string{}
			for fl, rel := range tc.files {
				p := fixture(t, rel)
				paths[p] = rel
				input(&o, fl, p)
			}
			res := run(t, o)
			if res.Version != "4.1.4" {
				t.Errorf("version %s, want the newest release 4.1.4", res.Version)
			}
			var changes []string
			for _, f := range res.Files {
				changes = append(changes, f.Changes...)
				golden := filepath.Join("testdata", paths[f.Path]+".golden")
				if *update {
					if err := os.WriteFile(golden, f.After, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./migrate -update to write it)", err)
				}
				if string(f.After) != string(want) {
					t.Errorf("%s differs from %s:\n%s", paths[f.Path], golden, f.After)
				}
			}
			all := strings.Join(changes, "\n")
			for _, c := range tc.changes {
				if !strings.Contains(all, c) {
					t.Errorf("changes lack %q:\n%s", c, all)
				}
			}
			notes := strings.Join(res.Notes, "\n")
			for _, n := range tc.notes {
				if !strings.Contains(notes, n) {
					t.Errorf("notes lack %q:\n%s", n, notes)
				}
			}
			if strings.Contains(notes, "left unchanged") {
				t.Errorf("a fixture shape was not recognised:\n%s", notes)
			}
			if !strings.Contains(res.Diff(), "+++ ") {
				t.Error("no diff printed")
			}

			// Nothing is written without Write; then a second run is a no-op.
			for p, rel := range paths {
				if data, _ := os.ReadFile(p); string(data) != string(must(os.ReadFile(filepath.Join("testdata", rel)))) {
					t.Errorf("%s was written before Write", rel)
				}
			}
			if err := res.Write(); err != nil {
				t.Fatal(err)
			}
			again := run(t, o)
			for _, f := range again.Files {
				if f.Changed() || len(f.Changes) > 0 {
					t.Errorf("second run changes %s: %v\n%s", paths[f.Path], f.Changes, again.Diff())
				}
			}
			if again.Diff() != "" {
				t.Errorf("second run prints a diff:\n%s", again.Diff())
			}
		})
	}
}

// input sets the file of one kind of input (values, chart, app, idp).
func input(o *migrate.Options, kind, p string) {
	switch kind {
	case "values":
		o.Values = p
	case "chart":
		o.Chart = p
	case "app":
		o.App = p
	case "idp":
		o.IdpValues = p
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// Shapes the migration does not know are reported and left alone.
func TestUnknownShapesAreReported(t *testing.T) {
	dir := t.TempDir()
	values := filepath.Join(dir, "values.yaml")
	src := "web: {image: {tag: 2.13.1, pullPolicy: Always}}\nkeycloak:\n  extraInitContainers: \"- name: x\"\n  extraVolumes: [{name: extensions, emptyDir: {}}]\n  extraVolumeMounts: |\n    name: not-a-list\n"
	if err := os.WriteFile(values, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, migrate.Options{Values: values})
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{
		"web.image.tag",
		"keycloak.extraInitContainers: unknown shape",
		"keycloak.extraVolumes: unknown shape",
		"keycloak.extraVolumeMounts: unknown shape",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if res.Files[0].Changed() {
		t.Errorf("unknown shapes were edited:\n%s", res.Diff())
	}
}

func TestVersion(t *testing.T) {
	values := fixture(t, "values/values.yaml")
	if v := run(t, migrate.Options{Values: values, ToVersion: "4.1.0"}).Version; v != "4.1.0" {
		t.Errorf("--to-version 4.1.0 gave %s", v)
	}
	if v := run(t, migrate.Options{Values: values, ToVersion: "4.2.0-rc.1"}).Version; v != "4.2.0-rc.1" {
		t.Errorf("--to-version of a pre-release gave %s", v)
	}
	_, err := newMigrate(t, migrate.Options{Values: values, RepoIndex: index, ToVersion: "9.9.9"}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "9.9.9") {
		t.Errorf("unpublished --to-version: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "none", "index.yaml")
	_, err = newMigrate(t, migrate.Options{Values: values, RepoIndex: missing}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--repo-index") {
		t.Errorf("unreadable index: %v", err)
	}
	if v := run(t, migrate.Options{Values: values, RepoIndex: missing, ToVersion: "4.1.4"}).Version; v != "4.1.4" {
		t.Errorf("pinned version without an index gave %s", v)
	}
	if _, err := newMigrate(t, migrate.Options{RepoIndex: index}).Run(context.Background()); err == nil {
		t.Error("no files: want an error")
	}
}

// An existing extensions mount is kept, but for the WildFly-era path under
// another image, and --idp-path moves it.
func TestIdpPath(t *testing.T) {
	src := "image:\n  repository: quay.io/keycloak/keycloak\nextraVolumeMounts: |\n  - name: extensions\n    mountPath: /opt/jboss/keycloak/standalone/deployments\n"
	write := func() string {
		p := filepath.Join(t.TempDir(), "values.yaml")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	res := run(t, migrate.Options{IdpValues: write()})
	if !strings.Contains(string(res.Files[0].After), "mountPath: /opt/keycloak/providers\n") || !strings.Contains(strings.Join(res.Notes, "\n"), "--idp-path /opt/jboss/keycloak/standalone/deployments") {
		t.Errorf("the WildFly path under a current image was not moved with a note:\n%s\n%v", res.Files[0].After, res.Notes)
	}
	res = run(t, migrate.Options{IdpValues: write(), IdpPath: "/custom/providers"})
	if !strings.Contains(string(res.Files[0].After), "mountPath: /custom/providers\n") {
		t.Errorf("--idp-path was not applied:\n%s", res.Files[0].After)
	}
	src = strings.Replace(src, "quay.io/keycloak/keycloak", "jboss/keycloak", 1)
	res = run(t, migrate.Options{IdpValues: write()})
	if strings.Contains(string(res.Files[0].After), "/opt/keycloak/providers") {
		t.Errorf("the jboss/keycloak image lost its deployments path:\n%s", res.Files[0].After)
	}
}
