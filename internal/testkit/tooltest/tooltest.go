// Package tooltest gives tests the external programs `make tools` installs
// (the Helm 4 and Helm 3 CLIs, Chromium) and runs Helm in a private home.
// A missing tool fails the test with what to run: tests never skip.
package tooltest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// Tool returns the path of the tool whose location is in the environment
// variable env (set by the Makefile), else the first of names on PATH.
func Tool(t testing.TB, env string, names ...string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v; run `make tools` to install it", env, p, err)
		}
		return p
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s is not set: run `make tools` then `make test` (or set %s)", env, env)
	}
	t.Fatalf("%s is not set and none of %s is on PATH: run `make tools` then `make test` (or set %s)", env, strings.Join(names, ", "), env)
	return ""
}

// Helm is a Helm CLI with its own configuration, cache and data homes, so
// tests neither read nor change the user's repositories.
type Helm struct {
	Bin string
	env []string
}

// NewHelm returns Helm 4 (major 4) or the oldest supported Helm 3 (major 3).
func NewHelm(t testing.TB, major int) *Helm {
	t.Helper()
	var bin string
	switch major {
	case 4:
		bin = Tool(t, "CATALOGIST_HELM4")
	case 3:
		bin = Tool(t, "CATALOGIST_HELM3")
	default:
		t.Fatalf("no Helm %d", major)
	}
	home := t.TempDir()
	return &Helm{Bin: bin, env: []string{
		"HELM_CONFIG_HOME=" + filepath.Join(home, "config"),
		"HELM_CACHE_HOME=" + filepath.Join(home, "cache"),
		"HELM_DATA_HOME=" + filepath.Join(home, "data"),
		"HOME=" + home,
	}}
}

// Run runs helm and returns its standard output; a failure fails the test
// with everything Helm printed.
func (h *Helm) Run(t testing.TB, args ...string) string {
	t.Helper()
	out, errOut, err := h.Try(args...)
	if err != nil {
		t.Fatalf("helm %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// Try runs helm and returns its outputs and error.
func (h *Helm) Try(args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(h.Bin, args...)
	cmd.Env = append(os.Environ(), h.env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// ChartRelease publishes the charts of a catalog (charts/*) as
// chart-releaser does, with this Helm: on a copy of the catalog, each
// chart's dependencies are built and the chart packaged by `helm package`;
// upload is given each package, to release as the asset of the release
// <chart>-<version> (its tag), and `helm repo index --merge` adds it to
// the index file index at the URL download(tag) gives its directory.
func (h *Helm) ChartRelease(t testing.TB, catalog, index string, download func(tag string) string, upload func(tag, file string, data []byte)) {
	t.Helper()
	work := filepath.Join(t.TempDir(), "work")
	filetree.Copy(t, catalog, work)
	charts, err := filepath.Glob(filepath.Join(work, "charts", "*", "Chart.yaml"))
	if err != nil || len(charts) == 0 {
		t.Fatalf("no chart in %s: %v", catalog, err)
	}
	for _, c := range charts {
		dir := filepath.Dir(c)
		if data, _ := os.ReadFile(c); bytes.Contains(data, []byte("dependencies:")) {
			h.Run(t, "dependency", "build", dir)
		}
		tmp := t.TempDir()
		h.Run(t, "package", dir, "--destination", tmp)
		pkgs, _ := filepath.Glob(filepath.Join(tmp, "*.tgz"))
		if len(pkgs) != 1 {
			t.Fatalf("helm package %s made %v", dir, pkgs)
		}
		data, err := os.ReadFile(pkgs[0])
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Base(pkgs[0])
		tag := strings.TrimSuffix(file, ".tgz")
		upload(tag, file, data)
		args := []string{"repo", "index", tmp, "--url", download(tag)}
		if _, err := os.Stat(index); err == nil {
			args = append(args, "--merge", index)
		}
		h.Run(t, args...)
		data, err = os.ReadFile(filepath.Join(tmp, "index.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(index), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(index, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
