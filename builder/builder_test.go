package builder_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/output/repoindex"
)

var (
	t1 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	t2 = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
)

func at(t time.Time) func() time.Time { return func() time.Time { return t } }

func build(t *testing.T, opt builder.Options) *builder.Result {
	t.Helper()
	var log bytes.Buffer
	opt.Log = &log
	res, err := builder.Build(t.Context(), opt)
	if err != nil {
		t.Fatalf("build %s: %v\n%s", opt.Catalog, err, log.String())
	}
	return res
}

// snapshot reads every file of a directory.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		files[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameTrees(t *testing.T, a, b map[string][]byte) {
	t.Helper()
	for name, data := range a {
		other, ok := b[name]
		switch {
		case !ok:
			t.Errorf("%s is missing from the second tree", name)
		case !bytes.Equal(data, other):
			t.Errorf("%s differs", name)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			t.Errorf("%s is only in the second tree", name)
		}
	}
}

// settle sets the times of every file of dir an hour back, as sources are
// when a build starts: files changed just before a build are read again by
// the next one, whatever their stat data.
func settle(tb testing.TB, dir string) {
	tb.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	writeFile(t, path, strings.Replace(string(data), old, new, 1))
}

func loadIndex(t *testing.T, dir string) *repo.IndexFile {
	t.Helper()
	idx, err := repoindex.Load(filepath.Join(dir, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// tarNames lists the entries of a package.
func tarNames(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}
