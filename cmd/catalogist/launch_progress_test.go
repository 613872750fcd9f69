package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLaunchShowsDownload checks that a launch in CI writes one line for
// the package it downloads, with its size and time, and none for the
// package its cache holds.
func TestLaunchShowsDownload(t *testing.T) {
	dir, cats := servedIDE(t)
	env := []string{"CI=true", "XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "KUBECONFIG=" + filepath.Join(dir, "none")}
	args := []string{"launch", "ide/vscode-python", "--dry-run", "--catalogs", cats, "--profile", "../../examples/profile.yaml"}
	line := regexp.MustCompile(`(?m)^download vscode-python-[0-9.]+\.tgz  \d+\.\d KiB in \d+ ms$`)
	r := catalogist(t, env, args...)
	if r.code != 0 || len(line.FindAllString(r.stderr, -1)) != 1 || strings.ContainsAny(r.stderr, "\r\x1b") {
		t.Fatalf("first launch: exit %d, want one download line and no redrawing:\n%q", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "download ") {
		t.Errorf("progress on standard output:\n%s", r.stdout)
	}
	r = catalogist(t, env, args...)
	if r.code != 0 || strings.Contains(r.stderr, "download ") {
		t.Errorf("second launch, from the cache: exit %d, want no download line:\n%s", r.code, r.stderr)
	}
}
