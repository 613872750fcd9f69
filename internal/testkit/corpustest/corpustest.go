// Package corpustest locates what the corpus tests read: a public catalog
// of the reference platform (CATALOGIST_CORPUS) and its API's schema
// registry (CATALOGIST_REGISTRY). Those tests are built with the corpus
// tag, which `make check-corpus CORPUS=DIR REGISTRY=DIR` sets with both
// variables, so that `make check` passes on a plain clone, which has
// neither.
package corpustest

import (
	"os"
	"path/filepath"
	"testing"
)

// The variables `make check-corpus` sets.
const (
	CorpusEnv   = "CATALOGIST_CORPUS"
	RegistryEnv = "CATALOGIST_REGISTRY"
)

// Catalog is the corpus catalog's directory, the one holding charts/.
func Catalog(t testing.TB) string {
	t.Helper()
	dir := dir(t, CorpusEnv, "CORPUS")
	if _, err := os.Stat(filepath.Join(dir, "charts")); err != nil {
		t.Fatalf("%s=%s is not a catalog with a charts/ directory: %v", CorpusEnv, dir, err)
	}
	return dir
}

// Charts is the charts/ directory of the corpus catalog.
func Charts(t testing.TB) string {
	t.Helper()
	return filepath.Join(Catalog(t), "charts")
}

// Chart is the directory of one chart of the corpus catalog.
func Chart(t testing.TB, name string) string {
	t.Helper()
	d := filepath.Join(Charts(t), name)
	if _, err := os.Stat(filepath.Join(d, "Chart.yaml")); err != nil {
		t.Fatalf("the corpus has no chart %s: %v", name, err)
	}
	return d
}

// dir reads a directory from the environment. It must be absolute, as
// each test runs in its package's directory; make check-corpus makes it so.
func dir(t testing.TB, env, makeVar string) string {
	t.Helper()
	d := os.Getenv(env)
	if d == "" {
		t.Fatalf("%s is not set: the corpus tests run with make check-corpus CORPUS=DIR REGISTRY=DIR (missing %s)", env, makeVar)
	}
	if !filepath.IsAbs(d) {
		t.Fatalf("%s=%s is relative: give an absolute path, as make check-corpus does", env, d)
	}
	info, err := os.Stat(d)
	if err != nil {
		t.Fatalf("%s=%s: %v", env, d, err)
	}
	if !info.IsDir() {
		t.Fatalf("%s=%s is not a directory", env, d)
	}
	return d
}
