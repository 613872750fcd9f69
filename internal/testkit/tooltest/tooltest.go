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
