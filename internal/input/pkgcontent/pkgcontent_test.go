package pkgcontent

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// entry is a tar entry; a zero Type is a regular file.
type entry struct {
	name, body string
	typ        byte
	mode       int64
	mtime      time.Time
}

// tgz makes a package of the entries, compressed at level.
func tgz(t testing.TB, level int, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		hd := &tar.Header{Name: e.name, Size: int64(len(e.body)), Mode: 0o644, ModTime: e.mtime, Typeflag: tar.TypeReg}
		if e.mode != 0 {
			hd.Mode = e.mode
		}
		if e.typ != 0 {
			hd.Typeflag = e.typ
			if e.typ != tar.TypeReg {
				hd.Size = 0
			}
			if e.typ == tar.TypeSymlink {
				hd.Linkname = e.body
			}
		}
		if err := tw.WriteHeader(hd); err != nil {
			t.Fatal(err)
		}
		if hd.Size > 0 {
			if _, err := io.WriteString(tw, e.body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func mustRead(t *testing.T, data []byte) *Content {
	t.Helper()
	c, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("reading a package: %v", err)
	}
	return c
}

const (
	chartYAML = "apiVersion: v2\nname: app\nversion: 1.0.0\ndescription: An app.\nkeywords: [a, b]\n"
	lockYAML  = "dependencies:\n- name: lib\n  repository: file://../lib\n  version: 1.0.0\ndigest: sha256:abc\ngenerated: \"2026-01-05T00:00:00Z\"\n"
	cm        = "apiVersion: v1\nkind: ConfigMap\n"
)

// Tar metadata, file order, compression and the encoding of Chart.yaml
// and Chart.lock do not tell packages apart; a file's bytes, a file more
// or less, and the data of Chart.yaml do, and Diff names the first such
// file in path order.
func TestDiff(t *testing.T) {
	t0, t1 := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	base := tgz(t, gzip.BestCompression,
		entry{name: "app/Chart.yaml", body: chartYAML, mtime: t0},
		entry{name: "app/Chart.lock", body: lockYAML, mtime: t0},
		entry{name: "app/values.yaml", body: "a: 1\n", mtime: t0},
		entry{name: "app/templates/cm.yaml", body: cm, mtime: t0},
		entry{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n", mtime: t0},
	)
	same := tgz(t, gzip.BestSpeed,
		entry{name: "app/", typ: tar.TypeDir, mtime: t1},
		entry{name: "app/templates/cm.yaml", body: cm, mtime: t1, mode: 0o600},
		entry{name: "app/values.yaml", body: "a: 1\n", mtime: t1},
		// Re-encoded: other key order, quoting, empty fields spelt out.
		entry{name: "app/Chart.yaml", body: "description: An app.\nkeywords:\n  - a\n  - b\nname: \"app\"\nversion: 1.0.0\napiVersion: v2\ndeprecated: false\nsources: []\nhome: \"\"\n", mtime: t1},
		entry{name: "app/Chart.lock", body: "generated: \"2026-01-05T00:00:00Z\"\ndigest: sha256:abc\ndependencies:\n  - version: 1.0.0\n    name: lib\n    repository: file://../lib\n", mtime: t1},
		entry{name: "app/charts/lib/Chart.yaml", body: "type: library\nversion: 1.0.0\nname: lib\napiVersion: v2\n", mtime: t1},
	)
	// What `helm dependency build` writes when the sources have no
	// Chart.lock: the time it resolved the dependencies, or no lock.
	relocked := tgz(t, gzip.DefaultCompression,
		entry{name: "app/Chart.yaml", body: chartYAML},
		entry{name: "app/Chart.lock", body: strings.Replace(lockYAML, "2026-01-05T00:00:00Z", "2026-07-01T12:00:00.123456789Z", 1)},
		entry{name: "app/values.yaml", body: "a: 1\n"},
		entry{name: "app/templates/cm.yaml", body: cm},
		entry{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n"},
	)
	unlocked := tgz(t, gzip.DefaultCompression,
		entry{name: "app/Chart.yaml", body: chartYAML},
		entry{name: "app/values.yaml", body: "a: 1\n"},
		entry{name: "app/templates/cm.yaml", body: cm},
		entry{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n"},
	)
	a := mustRead(t, base)
	for name, data := range map[string][]byte{"packaged otherwise": same, "locked at another time": relocked, "without a lock": unlocked} {
		b := mustRead(t, data)
		if d := Diff(a, b); d != "" {
			t.Errorf("the same chart %s differs by %s", name, d)
		}
		if d := Diff(b, a); d != "" {
			t.Errorf("the same chart %s differs the other way by %s", name, d)
		}
	}
	for _, c := range []struct {
		name    string
		entries []entry
		want    string
	}{
		{"a template changed", []entry{
			{name: "app/Chart.yaml", body: chartYAML}, {name: "app/Chart.lock", body: lockYAML}, {name: "app/values.yaml", body: "a: 1\n"},
			{name: "app/templates/cm.yaml", body: cm + "data: {}\n"},
			{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n"},
		}, "templates/cm.yaml"},
		{"a file added", []entry{
			{name: "app/Chart.yaml", body: chartYAML}, {name: "app/Chart.lock", body: lockYAML}, {name: "app/values.yaml", body: "a: 1\n"},
			{name: "app/templates/cm.yaml", body: cm}, {name: "app/templates/added.yaml", body: cm},
			{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n"},
		}, "templates/added.yaml"},
		{"a file removed, and a later one changed", []entry{
			{name: "app/Chart.yaml", body: chartYAML}, {name: "app/Chart.lock", body: lockYAML},
			{name: "app/templates/cm.yaml", body: cm},
			{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n"},
			{name: "app/zz.txt", body: "new"},
		}, "values.yaml"},
		{"Chart.yaml's data changed", []entry{
			{name: "app/Chart.yaml", body: strings.Replace(chartYAML, "An app.", "Another app.", 1)}, {name: "app/Chart.lock", body: lockYAML}, {name: "app/values.yaml", body: "a: 1\n"},
			{name: "app/templates/cm.yaml", body: cm},
			{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n"},
		}, "Chart.yaml"},
		{"a subchart's Chart.yaml changed", []entry{
			{name: "app/Chart.yaml", body: chartYAML}, {name: "app/Chart.lock", body: lockYAML}, {name: "app/values.yaml", body: "a: 1\n"},
			{name: "app/templates/cm.yaml", body: cm},
			{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.1\ntype: library\n"},
		}, "charts/lib/Chart.yaml"},
		{"a dependency locked at another version", []entry{
			{name: "app/Chart.yaml", body: chartYAML}, {name: "app/Chart.lock", body: strings.Replace(lockYAML, "version: 1.0.0", "version: 1.0.1", 1)}, {name: "app/values.yaml", body: "a: 1\n"},
			{name: "app/templates/cm.yaml", body: cm},
			{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n"},
		}, "Chart.lock"},
		{"values.yaml re-encoded: its bytes count", []entry{
			{name: "app/Chart.yaml", body: chartYAML}, {name: "app/Chart.lock", body: lockYAML}, {name: "app/values.yaml", body: "a:   1\n"},
			{name: "app/templates/cm.yaml", body: cm},
			{name: "app/charts/lib/Chart.yaml", body: "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n"},
		}, "values.yaml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := mustRead(t, tgz(t, gzip.DefaultCompression, c.entries...))
			if d := Diff(a, b); d != c.want {
				t.Errorf("Diff = %q, want %q", d, c.want)
			}
			if d := Diff(b, a); d != c.want {
				t.Errorf("Diff the other way = %q, want %q", d, c.want)
			}
		})
	}
}

// Only Chart.yaml and Chart.lock, the chart's and its subcharts', are
// compared as data: a file of that name elsewhere is compared by its
// bytes.
func TestDecodedOnlyWhereHelmEncodes(t *testing.T) {
	for name, want := range map[string]bool{
		"Chart.yaml": true, "Chart.lock": true, "charts/x/Chart.yaml": true, "charts/x/charts/y/Chart.lock": true,
		"files/Chart.yaml": false, "charts/Chart.yaml": false, "charts/x/files/Chart.yaml": false, "values.yaml": false,
	} {
		if got := decoded(name); got != want {
			t.Errorf("decoded(%q) = %v, want %v", name, got, want)
		}
	}
	a := mustRead(t, tgz(t, 6, entry{name: "c/Chart.yaml", body: chartYAML}, entry{name: "c/files/Chart.yaml", body: "a: 1\n"}))
	b := mustRead(t, tgz(t, 6, entry{name: "c/Chart.yaml", body: chartYAML}, entry{name: "c/files/Chart.yaml", body: "a:  1\n"}))
	if d := Diff(a, b); d != "files/Chart.yaml" {
		t.Errorf("Diff = %q, want files/Chart.yaml", d)
	}
	// A Chart.yaml that is not YAML is compared by its bytes, and never
	// equals a decoded one.
	c := mustRead(t, tgz(t, 6, entry{name: "c/Chart.yaml", body: "{{"}))
	d := mustRead(t, tgz(t, 6, entry{name: "c/Chart.yaml", body: "{{"}))
	if Diff(c, d) != "" || Diff(a, c) != "Chart.yaml" {
		t.Errorf("undecodable Chart.yaml: %q, %q", Diff(c, d), Diff(a, c))
	}
}

// What Helm would refuse to load, or load otherwise than it reads, is
// refused, saying what: no package like it is the same as any other.
func TestRefused(t *testing.T) {
	ok := entry{name: "c/Chart.yaml", body: chartYAML}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not gzip", []byte("apiVersion: v2\n"), "not a chart package (gzip)"},
		{"not tar", gz(t, []byte(strings.Repeat("x", 1000))), "not a chart package (tar)"},
		{"empty", tgz(t, 6), "no files"},
		{"parent", tgz(t, 6, ok, entry{name: "c/../../etc/passwd", body: "x"}), "leaves the chart's directory"},
		{"absolute", tgz(t, 6, ok, entry{name: "c//etc/passwd", body: "x"}), "absolute path"},
		{"drive", tgz(t, 6, ok, entry{name: `c\c:\x`, body: "x"}), "names a drive"},
		{"top", tgz(t, 6, entry{name: "Chart.yaml", body: chartYAML}), "outside the chart's directory"},
		{"twice", tgz(t, 6, ok, entry{name: "c/./Chart.yaml", body: chartYAML}), "Chart.yaml is in the package twice"},
		{"symlink", tgz(t, 6, ok, entry{name: "c/templates/x.yaml", body: "/etc/passwd", typ: tar.TypeSymlink}), "not a regular file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Read = %v, want an error saying %q", err, c.want)
			}
		})
	}
}

func gz(t testing.TB, data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// A package unpacking to more than the bound is refused, be it one huge
// file (a gzip bomb), many small ones or a flood of empty entries, and
// reading stops there: what is read is bounded, not just what is kept.
func TestCapped(t *testing.T) {
	const limit = 1 << 20
	huge := func(w *tar.Writer) {
		w.WriteHeader(&tar.Header{Name: "c/big", Size: 1 << 40, Mode: 0o644, Typeflag: tar.TypeReg})
		zero := make([]byte, 1<<16)
		for {
			if _, err := w.Write(zero); err != nil {
				return
			}
		}
	}
	many := func(w *tar.Writer) {
		for i := 0; ; i++ {
			if err := w.WriteHeader(&tar.Header{Name: "c/f" + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + time.Duration(i).String(), Mode: 0o644, Typeflag: tar.TypeReg}); err != nil {
				return
			}
		}
	}
	for name, write := range map[string]func(*tar.Writer){"huge file": huge, "empty entries": many} {
		t.Run(name, func(t *testing.T) {
			pr, pw := io.Pipe()
			go func() {
				zw := gzip.NewWriter(pw)
				write(tar.NewWriter(zw))
				pw.Close()
			}()
			counted := &counter{r: pr}
			_, err := read(counted, limit)
			pr.CloseWithError(errors.New("done"))
			var tl errTooLarge
			if !errors.As(err, &tl) || !strings.Contains(err.Error(), "unpacks to more than 1 MiB") {
				t.Fatalf("read = %v, want it refused as too large", err)
			}
			// Compressed, the bound is read long before 64 MiB.
			if counted.n > 64<<20 {
				t.Errorf("read %d compressed bytes before refusing", counted.n)
			}
		})
	}
	if MaxSize != 100<<20 {
		t.Errorf("MaxSize = %d, want Helm's 100 MiB", MaxSize)
	}
}

type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// The packages `helm package` makes, Helm 3's and Helm 4's (what
// chart-releaser runs), hold the same chart as catalogist's reproducible
// package of the same sources, a subchart fetched by `helm dependency
// build`, a Chart.lock and a .helmignore included; a changed template makes
// them differ by that template.
func TestHelmPackages(t *testing.T) {
	src := t.TempDir()
	filetree.Write(t, src, map[string]string{
		"lib/Chart.yaml":                  "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\ndescription: A library.\n",
		"lib/templates/_lib.tpl":          `{{- define "lib.name" -}}lib{{- end -}}`,
		"app/Chart.yaml":                  "apiVersion: v2\nname: app\nversion: 1.2.0\ndescription: An app.\nkeywords: [data, notebook]\nmaintainers:\n  - name: Ana\n    email: ana@example.org\nannotations:\n  category: Data\ndependencies:\n  - name: lib\n    version: 1.0.0\n    repository: file://../lib\n",
		"app/values.yaml":                 "# The image.\nimage: {repository: x, tag: \"1\"}\n",
		"app/values.schema.json":          "{\"type\": \"object\"}\n",
		"app/templates/cm.yaml":           "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include \"lib.name\" . }}\n",
		"app/templates/NOTES.txt":         "Hello.\n",
		"app/README.md":                   "# app\n",
		"app/.helmignore":                 "*.bak\n",
		"app/old.bak":                     "ignored\n",
		"app/files/config/settings.json":  "{}\n",
		"app/templates/tests/test-a.yaml": "apiVersion: v1\nkind: Pod\n",
	})
	packages := map[string]string{}
	for _, major := range []int{3, 4} {
		helm := tooltest.NewHelm(t, major)
		dir := t.TempDir()
		// chart-releaser's steps: dependencies, then the package.
		work := filepath.Join(t.TempDir(), "src")
		filetree.Copy(t, src, work)
		helm.Run(t, "dependency", "build", filepath.Join(work, "app"))
		helm.Run(t, "package", filepath.Join(work, "app"), "--destination", dir)
		packages["helm"+string(rune('0'+major))] = filepath.Join(dir, "app-1.2.0.tgz")
	}
	// As the builder packages it: loaded with its dependency, stamped
	// with a fixed time, saved by Helm's SDK.
	work := filepath.Join(t.TempDir(), "src")
	filetree.Copy(t, src, work)
	tooltest.NewHelm(t, 4).Run(t, "dependency", "build", filepath.Join(work, "app"))
	hc, err := loader.LoadDir(filepath.Join(work, "app"))
	if err != nil {
		t.Fatal(err)
	}
	hc.StampModTimes(time.Unix(0, 0))
	sdk, err := chartutil.Save(hc, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	packages["sdk"] = sdk
	digests := map[string]bool{}
	for name, p := range packages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		digests[string(data)] = true
		for other, q := range packages {
			if d, err := Compare(p, q); err != nil || d != "" {
				t.Errorf("%s and %s: differ by %q (%v)", name, other, d, err)
			}
		}
	}
	if len(digests) != 3 {
		t.Errorf("the three packages have %d different contents as bytes, want 3 (else this test proves nothing)", len(digests))
	}
	c, err := ReadFile(packages["helm3"])
	if err != nil {
		t.Fatal(err)
	}
	files := strings.Join(c.Files(), " ")
	for _, want := range []string{"Chart.lock", "charts/lib/Chart.yaml", "templates/tests/test-a.yaml", "files/config/settings.json"} {
		if !strings.Contains(files, want) {
			t.Errorf("Helm 3's package lacks %s: %s", want, files)
		}
	}
	if strings.Contains(files, "old.bak") {
		t.Errorf("Helm 3's package holds the ignored old.bak: %s", files)
	}

	changed := t.TempDir()
	helm := tooltest.NewHelm(t, 4)
	work = filepath.Join(t.TempDir(), "src")
	filetree.Copy(t, src, work)
	filetree.Write(t, work, map[string]string{"app/templates/NOTES.txt": "Hello again.\n"})
	helm.Run(t, "dependency", "build", filepath.Join(work, "app"))
	helm.Run(t, "package", filepath.Join(work, "app"), "--destination", changed)
	if d, err := Compare(packages["helm3"], filepath.Join(changed, "app-1.2.0.tgz")); err != nil || d != "templates/NOTES.txt" {
		t.Errorf("a changed NOTES.txt: differ by %q (%v), want templates/NOTES.txt", d, err)
	}
}
