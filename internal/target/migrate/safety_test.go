package migrate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/catalogist/catalogist/internal/target/migrate"
)

// write writes a file of a test's own.
func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// pieces cuts a text before each line that starts with "---": a split
// independent of the package's own.
func pieces(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); {
		next := strings.IndexByte(text[i:], '\n')
		if next < 0 {
			next = len(text)
		} else {
			next += i + 1
		}
		if i > 0 && strings.HasPrefix(text[i:], "---") {
			out = append(out, text[start:i])
			start = i
		}
		i = next
	}
	return append(out, text[start:])
}

func joined(f *migrate.File) string { return strings.Join(f.Changes, "\n") }

func contains(t *testing.T, what, all string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("%s lack %q:\n%s", what, w, all)
		}
	}
}

// noSecondChange writes the result and checks that a second run finds
// nothing to change.
func noSecondChange(t *testing.T, res *migrate.Result, o migrate.Options) {
	t.Helper()
	if err := res.Write(); err != nil {
		t.Fatal(err)
	}
	again := run(t, o)
	if d := again.Diff(); d != "" {
		t.Errorf("second run changes:\n%s", d)
	}
}

// An Argo CD file with two Applications and a ConfigMap between them:
// each Application is migrated on its own, the ConfigMap (whose data
// looks like values) keeps every byte, and so do the directive, the "..."
// and the comments between documents.
func TestMultiDocumentApplication(t *testing.T) {
	p := fixture(t, "multidoc/application.yaml")
	o := migrate.Options{App: p}
	res := run(t, o)
	f := res.Files[0]
	// The comment and directive, then each document.
	before, after := pieces(string(f.Before)), pieces(string(f.After))
	if len(before) != 4 || len(after) != 4 {
		t.Fatalf("%d pieces before, %d after:\n%s", len(before), len(after), f.After)
	}
	if after[2] != before[2] {
		t.Errorf("the ConfigMap changed:\n%s", res.Diff())
	}
	if after[0] != "# The platform and what it needs, synced together.\n%YAML 1.1\n" ||
		!strings.HasSuffix(after[1], "...\n# The configuration the platform reads: data, not values to migrate.\n") {
		t.Errorf("the directive, the end marker or the comments changed:\n%s", f.After)
	}
	for i, piece := range after {
		if i != 2 && strings.Contains(piece, "helm-charts") {
			t.Errorf("piece %d keeps the old repository:\n%s", i, piece)
		}
	}
	contains(t, "changes", joined(f),
		"document 1: spec.source.repoURL: https://inseefrlab.github.io/helm-charts -> https://inseefrlab.github.io/onyxia",
		"document 1: spec.source.helm.valuesObject.web.image.tag removed (was 2.13.1)",
		"document 3: spec.source.repoURL: https://inseefrlab.github.io/helm-charts -> https://inseefrlab.github.io/onyxia",
		"document 3: spec.source.targetRevision: 4.1.0 -> 4.1.4")
	if strings.Contains(joined(f), "document 2") || strings.Contains(strings.Join(res.Notes, "\n"), "document 2") {
		t.Errorf("the ConfigMap is reported:\n%s\n%v", joined(f), res.Notes)
	}
	noSecondChange(t, res, o)
}

// A values file with a second document is not emptied: each document
// loses its own tags, and a trailing "---" stays.
func TestMultiDocumentValues(t *testing.T) {
	p := fixture(t, "multidoc/values.yaml")
	o := migrate.Options{Values: p}
	res := run(t, o)
	f := res.Files[0]
	want := "# Staging.\nweb:\n  env:\n    KEYCLOAK_REALM: staging\n---\n# Production, appended by the release job.\napi:\n  image:\n    pullPolicy: Always\n---\n"
	if string(f.After) != want {
		t.Errorf("got:\n%s\nwant:\n%s", f.After, want)
	}
	contains(t, "changes", joined(f), "document 1: web.image.tag removed (was 2.29.4)", "document 2: api.image.tag removed (was v2.29.4)")
	if notes := strings.Join(res.Notes, "\n"); strings.Contains(notes, "document 3") {
		t.Errorf("the empty last document is reported:\n%s", notes)
	}
	noSecondChange(t, res, o)

	// A first document that loses all it holds stays a document: without
	// it, the second would become the first.
	dir := t.TempDir()
	p = write(t, dir, "values.yaml", "web:\n  image:\n    tag: 1\n---\nkeep: me\n")
	o = migrate.Options{Values: p}
	res = run(t, o)
	if got := string(res.Files[0].After); got != "{}\n---\nkeep: me\n" {
		t.Errorf("got:\n%s", got)
	}
	noSecondChange(t, res, o)

	// A file of several documents, none an Application, says so once.
	p = write(t, dir, "app.yaml", "kind: ConfigMap\n---\nkind: Secret\n")
	res = run(t, migrate.Options{App: p})
	if notes := strings.Join(res.Notes, "\n"); len(res.Notes) != 1 || !strings.Contains(notes, "no document is an Argo CD Application") {
		t.Errorf("notes:\n%s", notes)
	}
}

// removed matches a reported removal, with its document.
var removed = regexp.MustCompile(`^(?:document (\d+): )?([\w.-]+) removed \(was `)

// checkRemovals checks, reading the migrated text as YAML readers do
// (aliases and merge keys resolved), that what is reported as removed is
// gone, and that the values given in keep still read as before.
func checkRemovals(t testing.TB, f *migrate.File, keep ...string) {
	t.Helper()
	before, errb := decodeAll(f.Before)
	after, erra := decodeAll(f.After)
	if errb != nil || erra != nil {
		return // what the decoder refuses (aliasing limits) has no reading to compare
	}
	for _, c := range f.Changes {
		m := removed.FindStringSubmatch(c)
		if m == nil {
			continue
		}
		doc := 0
		if m[1] != "" {
			doc, _ = strconv.Atoi(m[1])
			doc--
		}
		if doc >= len(after) {
			continue // a file of one document emptied: nothing reads it
		}
		if v, ok := at(after[doc], strings.Split(m[2], ".")); ok {
			t.Fatalf("%q is reported, yet it still reads %v:\n%s", c, v, f.After)
		}
	}
	for _, k := range keep {
		b, okb := at(before[0], strings.Split(k, "."))
		a, oka := at(after[0], strings.Split(k, "."))
		if okb != oka || !reflect.DeepEqual(a, b) {
			t.Errorf("%s read %v, now %v:\n%s", k, b, a, f.After)
		}
	}
}

func decodeAll(text []byte) ([]any, error) {
	dec := yaml.NewDecoder(strings.NewReader(string(text)))
	var docs []any
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if err.Error() == "EOF" {
				return docs, nil
			}
			return nil, err
		}
		docs = append(docs, v)
	}
}

func at(v any, path []string) (any, bool) {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// A tag reached through a merge key or an alias, or shared with an alias
// elsewhere, is never reported as removed nor edited: it is left alone
// with a note that says why and where to change it.
func TestAliasesAreLeftAlone(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		notes     []string
		// keep are values that must read the same after the migration.
		keep []string
		// want is the migrated text; empty means unchanged.
		want string
	}{
		{
			name:  "merge key beside the tag",
			src:   "base: &img\n  repository: x\n  tag: v1\napi:\n  image:\n    <<: *img\n    tag: v2\n",
			notes: []string{"api.image.tag also comes through the merge key at line 6 (anchor &img at line 1), which would still give it; remove it here and there by hand"},
			keep:  []string{"api.image.tag", "base.tag"},
		},
		{
			name:  "tag through a merge key",
			src:   "base: &img\n  tag: v1\nweb:\n  image:\n    <<: *img\n    pullPolicy: Always\n",
			notes: []string{"web.image.tag comes through the merge key at line 5 (anchor &img at line 1); remove it there by hand"},
			keep:  []string{"web.image.tag"},
		},
		{
			name:  "merge key list",
			src:   "a: &a\n  pullPolicy: Always\nb: &b\n  tag: v1\nweb:\n  image:\n    <<: [*a, *b]\n",
			notes: []string{"web.image.tag comes through the merge key at line 7 (anchor &b at line 3)"},
			keep:  []string{"web.image.tag"},
		},
		{
			name:  "component through a merge key",
			src:   "defaults: &d\n  image:\n    tag: v1\nweb:\n  <<: *d\n",
			notes: []string{"web.image.tag comes through the merge key at line 5 (anchor &d at line 1)"},
			keep:  []string{"web.image.tag"},
		},
		{
			name:  "image through an alias",
			src:   "common: &img\n  tag: v1\nweb:\n  image: *img\n",
			notes: []string{"web.image.tag comes through the alias *img at line 4 (anchor &img at line 1); remove it there by hand"},
			keep:  []string{"web.image.tag", "common.tag"},
		},
		{
			name: "anchor shared by two components",
			src:  "web:\n  image: &img\n    tag: v1\napi:\n  image: *img\n",
			notes: []string{
				"web.image.tag is inside the anchor &img at line 2, which the alias at line 5 also uses",
				"api.image.tag comes through the alias *img at line 5 (anchor &img at line 2)",
			},
			keep: []string{"web.image.tag", "api.image.tag"},
		},
		{
			name:  "tag shared with another value",
			src:   "web:\n  image:\n    tag: &v v1\nsidecar:\n  version: *v\napi:\n  image:\n    tag: v1\n",
			notes: []string{"web.image.tag is the anchor &v at line 3, which the alias at line 5 also uses"},
			keep:  []string{"sidecar.version", "web.image.tag"},
			want:  "web:\n  image:\n    tag: &v v1\nsidecar:\n  version: *v\n",
		},
		{
			name: "merge key that brings other keys",
			src:  "common: &c\n  pullPolicy: Always\napi:\n  image:\n    <<: *c\n    tag: v2\n",
			keep: []string{"api.image.pullPolicy"},
			want: "common: &c\n  pullPolicy: Always\napi:\n  image:\n    <<: *c\n",
		},
		{
			name:  "identity provider lists through a merge key",
			src:   "kcbase: &kc\n  extraInitContainers: |\n    - name: other\n      image: busybox\nkeycloak:\n  <<: *kc\n  replicas: 1\n",
			notes: []string{"keycloak.extraInitContainers comes through the merge key at line 6 (anchor &kc at line 1); add the theme settings there by hand"},
			keep:  []string{"keycloak.extraInitContainers"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(t, t.TempDir(), "values.yaml", tc.src)
			o := migrate.Options{Values: p}
			res := run(t, o)
			f := res.Files[0]
			contains(t, "notes", strings.Join(res.Notes, "\n"), tc.notes...)
			want := tc.want
			if want == "" {
				want = tc.src
			}
			if tc.name == "identity provider lists through a merge key" {
				if strings.Count(string(f.After), "extraInitContainers") != 1 {
					t.Errorf("an init container list was added over the merged one:\n%s", f.After)
				}
			} else if string(f.After) != want {
				t.Errorf("got:\n%s\nwant:\n%s", f.After, want)
			}
			for _, c := range f.Changes {
				for _, n := range tc.notes {
					if what, _, _ := strings.Cut(n, " "); strings.HasPrefix(c, what+" removed") {
						t.Errorf("%s is reported as removed: %s", what, c)
					}
				}
			}
			checkRemovals(t, f, tc.keep...)
			noSecondChange(t, res, o)
		})
	}
}

// An edit of an Application's value that an alias shares is refused the
// same way, and the rest of the Application is migrated.
func TestSharedRepositoryAddress(t *testing.T) {
	src := "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  annotations:\n    upstream: &repo https://inseefrlab.github.io/helm-charts\nspec:\n  source:\n    repoURL: *repo\n    chart: onyxia\n    targetRevision: 4.1.0\n"
	p := write(t, t.TempDir(), "app.yaml", src)
	res := run(t, migrate.Options{App: p})
	f := res.Files[0]
	contains(t, "notes", strings.Join(res.Notes, "\n"), "spec.source.repoURL comes through the alias *repo at line 8 (anchor &repo at line 5); change it there by hand")
	contains(t, "changes", joined(f), "spec.source.targetRevision: 4.1.0 -> 4.1.4")
	if !strings.Contains(string(f.After), "upstream: &repo https://inseefrlab.github.io/helm-charts\n") {
		t.Errorf("the anchored address was edited:\n%s", f.After)
	}
}

func runErr(o migrate.Options) error {
	if o.RepoIndex == "" {
		o.RepoIndex = index
	}
	m, err := migrate.New(o)
	if err != nil {
		return err
	}
	_, err = m.Run(context.Background())
	return err
}

// A mapping with a key twice is refused with the file and both lines; in
// an Application's inline values text it is left alone with a note.
func TestDuplicateKeys(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, src, want string }{
		{"nested", "web:\n  image:\n    tag: 1\n    tag: 2\n", `line 4: the key "tag" is already at line 3`},
		{"second document", "a: 1\n---\nb: 1\nc: 2\nb: 3\n", `line 5: the key "b" is already at line 3`},
		{"through an alias key", "k: &k tag\nweb:\n  image:\n    tag: 1\n    *k : 2\n", `line 5: the key "tag" is already at line 4`},
	} {
		p := write(t, dir, tc.name+".yaml", tc.src)
		err := runErr(migrate.Options{Values: p})
		var ie *migrate.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an input error naming %s and %q", tc.name, err, p, tc.want)
		}
	}
	// Merge keys may repeat: each brings its mapping in.
	p := write(t, dir, "merges.yaml", "a: &a {x: 1}\nb: &b {y: 1}\nc:\n  <<: *a\n  <<: *b\n")
	if err := runErr(migrate.Options{Values: p}); err != nil {
		t.Errorf("two merge keys: %v", err)
	}

	app := "kind: Application\nspec:\n  source:\n    repoURL: https://inseefrlab.github.io/helm-charts\n    chart: onyxia\n    targetRevision: 4.1.0\n    helm:\n      values: |\n        web:\n          image:\n            tag: 1\n            tag: 2\n"
	p = write(t, dir, "app.yaml", app)
	res := run(t, migrate.Options{App: p})
	contains(t, "notes", strings.Join(res.Notes, "\n"), `spec.source.helm.values could not be read as YAML (line 12: the key "tag" is already at line 11`)
	if strings.Contains(joined(res.Files[0]), "removed") || !strings.Contains(string(res.Files[0].After), "            tag: 1\n            tag: 2\n") {
		t.Errorf("the inline values were edited:\n%s", res.Diff())
	}
}

// A values file given through a symbolic link is written where the link
// points: the link stays, the target keeps its mode, and no temporary file
// is left in either directory.
func TestSymlinkWriteThrough(t *testing.T) {
	dir := t.TempDir()
	target := write(t, dir, "shared/values.yaml", "web:\n  image:\n    tag: 1\n  env:\n    A: b\n")
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "deploy", "values.yaml")
	if err := os.Symlink("../shared/values.yaml", link); err != nil {
		t.Fatal(err)
	}
	o := migrate.Options{Values: link}
	res := run(t, o)
	if err := res.Write(); err != nil {
		t.Fatal(err)
	}
	if dest, err := os.Readlink(link); err != nil || dest != "../shared/values.yaml" {
		t.Fatalf("the link became %q (%v)", dest, err)
	}
	st, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); string(data) != "web:\n  env:\n    A: b\n" || st.Mode().Perm() != 0o640 {
		t.Errorf("target %q mode %v", data, st.Mode().Perm())
	}
	for _, d := range []string{"shared", "deploy"} {
		if es, _ := os.ReadDir(filepath.Join(dir, d)); len(es) != 1 {
			t.Errorf("%s holds %v", d, es)
		}
	}
	if d := run(t, o).Diff(); d != "" {
		t.Errorf("second run changes:\n%s", d)
	}

	// The same file twice would be migrated twice from its old text.
	err = runErr(migrate.Options{Values: link, IdpValues: target})
	var ie *migrate.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), target+" is the same file as "+link) {
		t.Errorf("the same file twice: %v", err)
	}
}

// A file that is not UTF-8 text is called what it is, with its line.
func TestBinaryInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, src, want string }{
		{"nul", "web:\n  image: \x00\x01\n", "is binary, not YAML (a NUL byte at line 2)"},
		{"latin1", "a: 1\nweb: caf\xe9\n", "is binary, not YAML (bytes that are not UTF-8 at line 2)"},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is binary, not YAML (bytes that are not UTF-8 at line 1)"},
		{"utf16", "\xff\xfea\x00:\x00 \x001\x00\n\x00", "is UTF-16 text; convert it to UTF-8"},
		{"carriage returns", "a: 1\nb: 2\rc: 3\n", "line 2: line breaks other than LF and CRLF"},
	} {
		p := write(t, dir, tc.name+".yaml", tc.src)
		err := runErr(migrate.Options{Values: p})
		var ie *migrate.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), p) {
			t.Errorf("%s: %v, want an input error about %s saying %q", tc.name, err, p, tc.want)
		}
	}
}
