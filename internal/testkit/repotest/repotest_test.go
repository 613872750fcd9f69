package repotest_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

func TestServe(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.yaml"), []byte("apiVersion: v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := repotest.Serve(t, dir)
	resp, err := http.Get(s.URL + "/index.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "apiVersion: v1\n" {
		t.Fatalf("GET index.yaml: %s %q", resp.Status, body)
	}
	if resp, err := http.Get(s.URL + "/missing.tgz"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET a missing package: %v %v", resp, err)
	}
	if got := s.Requests(); !slices.Equal(got, []string{"/index.yaml", "/missing.tgz"}) {
		t.Errorf("requests = %q", got)
	}
	s.Close()
	if _, err := http.Get(s.URL + "/index.yaml"); err == nil {
		t.Error("a closed repository still answers")
	}
}
