package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// chartFiles are the files of a small launchable chart named name.
func chartFiles(prefix, name, icon string) map[string]string {
	return map[string]string{
		prefix + "/Chart.yaml":         "apiVersion: v2\nname: " + name + "\nversion: 1.0.0\ndescription: d\nicon: " + icon + "\n",
		prefix + "/values.schema.json": `{"type": "object", "properties": {"replicas": {"type": "integer", "default": 1}}}`,
		prefix + "/values.yaml":        "replicas: 1\n",
	}
}

func merge(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// packageFiles reads every file of a chart package.
func packageFiles(t *testing.T, tgz string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	out := map[string]string{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = string(b)
	}
}

// noPackages fails when any chart package lies below dir.
func noPackages(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tgz") {
			t.Errorf("a refused build left a package: %s", p)
		}
		return nil
	})
}

// A chart whose links lead out of the catalog (the CI's environment, the
// machine's passwords, a loop back to the chart) is refused by lint, one
// error per link naming it and its target, and by build before anything is
// packaged: nothing of what the links point to reaches the output, which is
// not even created.
func TestSymlinksOutOfTheCatalog(t *testing.T) {
	top := t.TempDir()
	cat := filepath.Join(top, "cat")
	filetree.Write(t, top, merge(
		map[string]string{"outside/chart/Chart.yaml": "apiVersion: v2\nname: moved\nversion: 1.0.0\n"},
		chartFiles("cat/charts/leak", "leak", "https://example.org/i.svg"),
		chartFiles("cat/charts/fine", "fine", "https://example.org/i.svg"),
		map[string]string{
			"cat/catalog.yaml":                "name: cat\n",
			"cat/charts/leak/env.txt":         "->/proc/self/environ",
			"cat/charts/leak/README.md":       "->/etc/passwd",
			"cat/charts/leak/templates/up":    "->..",
			"cat/charts/leak/templates/a.tpl": "{{/* a */}}",
			"cat/charts/moved":                "->../../outside/chart",
		},
	))
	// A token in the environment, as CI has one.
	env := []string{"CATALOGIST_TEST_TOKEN=ghp_s3cretTokenValue"}
	r := catalogist(t, env, "lint", cat)
	if r.code != 1 {
		t.Fatalf("lint: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		filepath.Join(cat, "charts/leak/env.txt") + ":1:1: error: symbolic link to /proc/self/environ leads outside the catalog repository " + cat,
		filepath.Join(cat, "charts/leak/README.md") + ":1:1: error: symbolic link to /etc/passwd leads outside the catalog repository " + cat,
		filepath.Join(cat, "charts/leak/templates/up") + ":1:1: error: symbolic link to .. leads back to a directory that holds it",
		filepath.Join(cat, "charts/moved") + ":1:1: error: symbolic link to ../../outside/chart (" + filepath.Join(top, "outside/chart") + ") leads outside",
		"[symlink-outside]",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lint output lacks %q:\n%s", want, r.stdout)
		}
	}
	if n := strings.Count(r.stdout, "[symlink-outside]"); n != 4 {
		t.Errorf("%d symlink-outside findings, want 4 (one per link, the loop once):\n%s", n, r.stdout)
	}
	if strings.Count(r.stdout, "\n") > 6 {
		t.Errorf("the loop made lint say more than it should:\n%s", r.stdout)
	}

	out := filepath.Join(top, "site")
	r = catalogist(t, env, "build", cat, "--out", out)
	if r.code != 1 || !strings.Contains(r.stderr, "nothing was written") || !strings.Contains(r.stderr, "env.txt:1:1: error: symbolic link to /proc/self/environ") {
		t.Fatalf("build: exit %d, want 1 with the lint report\n%s%s", r.code, r.stdout, r.stderr)
	}
	all := r.stdout + r.stderr
	for _, leak := range []string{"ghp_s3cretTokenValue", "root:x:0:0", "found symbolic link in path"} {
		if strings.Contains(all, leak) {
			t.Errorf("the build read what the links point to (%q in its output):\n%s", leak, all)
		}
	}
	if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused build created its output: %v", err)
	}
	entries, _ := os.ReadDir(top)
	for _, e := range entries {
		if e.IsDir() && e.Name() != "cat" && e.Name() != "outside" {
			t.Errorf("a refused build left the directory %s beside its output", e.Name())
		}
	}
	noPackages(t, top)
}

// A link inside the catalog (a shared _helpers.tpl, a shared README) is
// followed: the package holds the target's content, the page shows it, and
// editing the target repackages the chart into the bytes a cold build
// makes.
func TestSymlinksInsideTheCatalog(t *testing.T) {
	top := t.TempDir()
	cat := filepath.Join(top, "cat")
	filetree.Write(t, top, merge(
		chartFiles("cat/charts/app", "app", "https://example.org/i.svg"),
		map[string]string{
			"cat/shared/_helpers.tpl":               `{{- define "app.name" -}}first{{- end -}}` + "\n",
			"cat/shared/README.md":                  "# Shared notes\n\nWritten once for every chart.\n",
			"cat/charts/app/templates/_helpers.tpl": "->../../../shared/_helpers.tpl",
			"cat/charts/app/templates/cm.yaml":      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include \"app.name\" . }}\n",
			"cat/charts/app/README.md":              "->../../shared/README.md",
		},
	))
	out := filepath.Join(top, "site")
	r := catalogist(t, nil, "build", cat, "--out", out)
	if r.code != 0 || !strings.Contains(r.stdout, "1 packaged") {
		t.Fatalf("build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	files := packageFiles(t, filepath.Join(out, "app-1.0.0.tgz"))
	if got := files["app/templates/_helpers.tpl"]; !strings.Contains(got, "first") {
		t.Errorf("the package holds %q for the linked helpers, want the target's content", got)
	}
	page, err := os.ReadFile(filepath.Join(out, "charts", "app", "index.html"))
	if err != nil || !strings.Contains(string(page), "Written once for every chart.") {
		t.Errorf("the chart page does not show the linked README (%v)", err)
	}

	if err := os.WriteFile(filepath.Join(cat, "shared", "_helpers.tpl"), []byte(`{{- define "app.name" -}}second-edited{{- end -}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = catalogist(t, nil, "build", cat, "--out", out)
	if r.code != 0 || !strings.Contains(r.stdout, "1 packaged, 0 unchanged") {
		t.Fatalf("rebuild after editing the link's target: exit %d, want the chart packaged again\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := packageFiles(t, filepath.Join(out, "app-1.0.0.tgz"))["app/templates/_helpers.tpl"]; !strings.Contains(got, "second-edited") {
		t.Errorf("the incremental build kept a stale package: helpers %q", got)
	}
	cold := filepath.Join(top, "cold")
	if r := catalogist(t, nil, "build", cat, "--out", cold); r.code != 0 {
		t.Fatalf("cold build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if a, b := indexDigest(t, out, "app"), indexDigest(t, cold, "app"); a != b || a == "" {
		t.Errorf("incremental digest %s, cold digest %s: want the same", a, b)
	}
}

func indexDigest(t *testing.T, out, chart string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var idx repo.IndexFile
	if err := yaml.Unmarshal(data, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Entries[chart]) != 1 {
		t.Fatalf("index lists %d versions of %s", len(idx.Entries[chart]), chart)
	}
	return idx.Entries[chart][0].Digest
}

// An icon path climbing out of the catalog, an icon that is a link out,
// and an iconsDir out of the catalog are refused: the site would publish
// them.
func TestIconsOutOfTheCatalog(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
	top := t.TempDir()
	cat := filepath.Join(top, "cat")
	filetree.Write(t, top, merge(
		chartFiles("cat/charts/climb", "climb", "../outside/x.png"),
		chartFiles("cat/charts/linked", "linked", "icons/linked.png"),
		map[string]string{
			"outside/x.png":             png,
			"cat/icons/linked.png":      "->../../outside/x.png",
			"cat/catalog.yaml":          "name: cat\n",
			"other/catalog.yaml":        "name: other\niconsDir: ../..\n",
			"other/charts/a/x.yaml":     "",
			"other/charts/a/Chart.yaml": "apiVersion: v2\nname: a\nversion: 1.0.0\n",
		},
	))
	r := catalogist(t, nil, "lint", cat)
	if r.code != 1 {
		t.Fatalf("lint: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		filepath.Join(cat, "charts/climb/Chart.yaml") + `:5:7: error: icon "../outside/x.png": the path (` + filepath.Join(top, "outside/x.png") + ") leads outside the catalog repository",
		filepath.Join(cat, "charts/linked/Chart.yaml") + `:5:7: error: icon "icons/linked.png": symbolic link to ../../outside/x.png (` + filepath.Join(top, "outside/x.png") + ") leads outside",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lint output lacks %q:\n%s", want, r.stdout)
		}
	}
	out := filepath.Join(top, "site")
	r = catalogist(t, nil, "build", cat, "--out", out)
	if r.code != 1 || !strings.Contains(r.stderr, "[symlink-outside]") {
		t.Errorf("build: exit %d, want 1 with the findings\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused build created its output: %v", err)
	}

	other := filepath.Join(top, "other")
	for _, args := range [][]string{{"lint", other}, {"build", other, "--out", filepath.Join(top, "other-site")}} {
		r := catalogist(t, nil, args...)
		want := filepath.Join(other, "catalog.yaml") + `:2:11: iconsDir "../..": the path (` + filepath.Dir(top) + ") leads outside the catalog repository " + other + ", whose files are published: name a directory inside it"
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s with iconsDir ../..: exit %d, want 2 and %q\n%s%s", args[0], r.code, want, r.stdout, r.stderr)
		}
	}
}

// An alias bomb in Chart.yaml is refused as input beyond the limits: exit
// 2, naming the file and the line, for lint and build alike.
func TestChartYAMLAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v2\nname: bomb\nversion: 1.0.0\ndescription: d\nannotations:\n")
	b.WriteString(`  a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i := 1; i < 10; i++ {
		b.WriteString("  a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := range 9 {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	top := t.TempDir()
	cat := filepath.Join(top, "cat")
	files := chartFiles("cat/charts/bomb", "bomb", "https://example.org/i.svg")
	files["cat/charts/bomb/Chart.yaml"] = b.String()
	filetree.Write(t, top, files)
	chartYAML := filepath.Join(cat, "charts", "bomb", "Chart.yaml")
	for _, args := range [][]string{{"lint", cat}, {"build", cat, "--out", filepath.Join(top, "site")}} {
		r := catalogist(t, nil, args...)
		// Line 7 is the first alias that goes beyond the limit.
		if r.code != 2 || !strings.Contains(r.stderr, chartYAML+":7:") || !strings.Contains(r.stderr, "alias") {
			t.Errorf("%s: exit %d, want 2 naming %s:7 and the aliases\n%s%s", args[0], r.code, chartYAML, r.stdout, r.stderr)
		}
	}
}

// A charts/ directory, or a chart directory, that cannot be searched is a
// permission error naming it, not "no chart found". root reads everything,
// so the binary then runs as nobody.
func TestUnreadableChartDirectories(t *testing.T) {
	top := t.TempDir()
	run := unprivileged(t, top)
	filetree.Write(t, top, merge(
		chartFiles("nox/charts/a", "a", "https://example.org/i.svg"),
		chartFiles("closed/charts/a", "a", "https://example.org/i.svg"),
		chartFiles("closed/charts/b", "b", "https://example.org/i.svg"),
	))
	for dir, mode := range map[string]os.FileMode{"nox/charts": 0o644, "closed/charts/b": 0o600} {
		p := filepath.Join(top, dir)
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o755) })
	}
	for _, tc := range []struct{ catalog, names string }{
		{"nox", filepath.Join(top, "nox", "charts", "a")},
		{"closed", filepath.Join(top, "closed", "charts", "b")},
	} {
		cat := filepath.Join(top, tc.catalog)
		for _, args := range [][]string{{"lint", cat}, {"build", cat, "--out", filepath.Join(top, tc.catalog+"-site")}} {
			r := run(args...)
			if r.code != 2 || !strings.Contains(r.stderr, "permission denied") || !strings.Contains(r.stderr, tc.names) || strings.Contains(r.stderr, "no chart found") {
				t.Errorf("%s %s: exit %d, want 2 with the permission error naming %s\n%s%s", args[0], tc.catalog, r.code, tc.names, r.stdout, r.stderr)
			}
		}
	}
}

// unprivileged returns a runner of the binary for tests of permission
// errors, which do not bind root: as root, the binary is copied where
// nobody can run it and runs as nobody, with top (which it may write)
// as its home.
func unprivileged(t *testing.T, top string) func(args ...string) result {
	t.Helper()
	var cred *syscall.Credential
	bin := binary
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		// nobody must reach the binary and the catalogs.
		dir := t.TempDir()
		bin = filepath.Join(dir, "catalogist")
		data, err := os.ReadFile(binary)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{dir, filepath.Dir(dir), top, filepath.Dir(top)} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(top, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	return func(args ...string) result {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=", "CI=", "HOME="+top, "XDG_CACHE_HOME="+top)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		code := 0
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("running catalogist: %v", err)
		}
		return result{out.String(), errb.String(), code}
	}
}
