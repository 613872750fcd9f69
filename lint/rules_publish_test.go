package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/lint"
)

// withPublished gives lint, for a fixture with a published/ directory,
// what lint --published gives it: the fixture's charts packaged as a build
// packages them, compared with the packages published/index.yaml lists.
func withPublished(t *testing.T, dir string, cat *catalog.Catalog, opt lint.Options) lint.Options {
	t.Helper()
	pub := filepath.Join(dir, "published")
	if !fileExists(pub) {
		return opt
	}
	compared, found, err := builder.ComparePublished(t.Context(), []*catalog.Catalog{cat}, pub, builder.Options{CacheDir: t.TempDir()})
	if err != nil || !found {
		t.Fatalf("published index of %s: %v (found %v)", dir, err, found)
	}
	opt.Published = compared
	return opt
}

// A chart whose content changed under a published version fails, be the
// change its own or a dependency's; an unchanged chart, a bumped one and
// one never published pass.
func TestVersionBump(t *testing.T) {
	cat := t.TempDir()
	chart := func(name, version, extra string) string {
		return fmt.Sprintf("apiVersion: v2\nname: %s\nversion: %s\ndescription: A chart.\nicon: https://example.org/i.svg\n%s", name, version, extra)
	}
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n"
	filetree.Write(t, cat, map[string]string{
		"catalog.yaml":                     "name: c\nbaseURL: https://example.org/c\n",
		"charts/lib/Chart.yaml":            chart("lib", "1.0.0", "type: library\n"),
		"charts/lib/templates/_lib.tpl":    `{{- define "lib.name" -}}lib{{- end -}}`,
		"charts/app/Chart.yaml":            chart("app", "2.0.0", "dependencies:\n  - {name: lib, version: ^1.0.0, repository: file://../lib}\n"),
		"charts/app/templates/cm.yaml":     cm,
		"charts/solo/Chart.yaml":           chart("solo", "0.1.0", ""),
		"charts/solo/templates/cm.yaml":    cm,
		"charts/second/Chart.yaml":         chart("second", "0.1.0", ""),
		"charts/second/templates/cm.yaml":  cm,
		"charts/second/templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n",
	})
	out := filepath.Join(t.TempDir(), "published")
	if _, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, Now: func() time.Time { return time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC) }}); err != nil {
		t.Fatal(err)
	}
	// second is not published: only the others are compared.
	if err := os.RemoveAll(filepath.Join(cat, "charts", "second")); err != nil {
		t.Fatal(err)
	}
	filetree.Write(t, cat, map[string]string{"charts/fresh/Chart.yaml": chart("fresh", "0.1.0", ""), "charts/fresh/templates/cm.yaml": cm})

	bumps := func() map[string]string {
		t.Helper()
		c, err := catalog.Discover(cat)
		if err != nil {
			t.Fatal(err)
		}
		opt := withPublished(t, filepath.Dir(out), c, lint.Options{Rules: []*lint.Rule{lint.RuleVersionBump}})
		res, err := lint.Run([]*catalog.Catalog{c}, opt)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range res.Findings {
			rel, _ := filepath.Rel(cat, f.File)
			got[f.Chart] = fmt.Sprintf("%s:%d:%d: %s", filepath.ToSlash(rel), f.Line, f.Column, f.Message)
			if f.Severity != lint.Error {
				t.Errorf("%s: severity %s", got[f.Chart], f.Severity)
			}
		}
		return got
	}
	if got := bumps(); len(got) != 0 {
		t.Fatalf("unchanged charts fail: %v", got)
	}

	// A template of the library changes: the library and the chart
	// packaging it fail, at their version, naming the published package
	// and the file that differs.
	filetree.Write(t, cat, map[string]string{"charts/lib/templates/_lib.tpl": `{{- define "lib.name" -}}library{{- end -}}`})
	got := bumps()
	want := regexp.MustCompile(`^charts/(lib|app)/Chart\.yaml:3:10: version (1|2)\.0\.0 of (lib|app) is already published \(file://.*/published/(lib|app)-(1|2)\.0\.0\.tgz\) with other content: ((charts/lib/)?templates/_lib\.tpl) differs; bump version in Chart\.yaml$`)
	for _, name := range []string{"lib", "app"} {
		m := want.FindStringSubmatch(got[name])
		if m == nil || m[1] != name || m[3] != name || m[4] != name || (name == "app") != (m[7] != "") {
			t.Errorf("%s: %q", name, got[name])
		}
	}
	if len(got) != 2 {
		t.Errorf("findings of other charts: %v", got)
	}

	// Bumped, both pass.
	filetree.Write(t, cat, map[string]string{
		"charts/lib/Chart.yaml": chart("lib", "1.0.1", "type: library\n"),
		"charts/app/Chart.yaml": chart("app", "2.0.1", "dependencies:\n  - {name: lib, version: ^1.0.0, repository: file://../lib}\n"),
	})
	if got := bumps(); len(got) != 0 {
		t.Errorf("bumped charts fail: %v", got)
	}
	// Without --published the rule checks nothing.
	c, _ := catalog.Discover(cat)
	filetree.Write(t, cat, map[string]string{"charts/solo/templates/cm.yaml": strings.Replace(cm, "name:", "name: x-", 1)})
	res, err := lint.Run([]*catalog.Catalog{c}, lint.Options{Rules: []*lint.Rule{lint.RuleVersionBump}})
	if err != nil || len(res.Findings) != 0 {
		t.Errorf("without --published: %v %v", res, err)
	}
}
