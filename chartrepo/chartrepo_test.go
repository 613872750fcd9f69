package chartrepo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const indexBody = "apiVersion: v1\nentries: {}\n"

// server serves index.yaml with an ETag and counts full and 304 answers.
func server(t *testing.T, body *atomic.Value) (*httptest.Server, *atomic.Int32, *atomic.Int32) {
	var full, notModified atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/repo/index.yaml" {
			http.NotFound(w, r)
			return
		}
		b := body.Load().(string)
		sum := sha256.Sum256([]byte(b))
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		if r.Header.Get("If-None-Match") == etag {
			notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		full.Add(1)
		w.Header().Set("ETag", etag)
		_, _ = w.Write([]byte(b))
	}))
	t.Cleanup(srv.Close)
	return srv, &full, &notModified
}

func TestIndexCacheRevalidates(t *testing.T) {
	var body atomic.Value
	body.Store(indexBody)
	srv, full, notModified := server(t, &body)
	c, err := New(Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 3 {
		ix, err := c.Index(ctx, srv.URL+"/repo")
		if err != nil {
			t.Fatal(err)
		}
		if string(ix.Data) != indexBody || ix.Cached != (i > 0) {
			t.Fatalf("fetch %d: cached=%v data=%q", i, ix.Cached, ix.Data)
		}
		if ix.Base != srv.URL+"/repo/" {
			t.Fatalf("base %q", ix.Base)
		}
	}
	if full.Load() != 1 || notModified.Load() != 2 {
		t.Fatalf("full=%d notModified=%d, want 1 and 2", full.Load(), notModified.Load())
	}
	// A changed index is downloaded again.
	body.Store(indexBody + "# changed\n")
	ix, err := c.Index(ctx, srv.URL+"/repo/index.yaml")
	if err != nil || ix.Cached || !strings.Contains(string(ix.Data), "changed") {
		t.Fatalf("after a change: %v cached=%v", err, ix.Cached)
	}
	// The server gone, the cached copy serves and says why.
	srv.Close()
	ix, err = c.Index(ctx, srv.URL+"/repo")
	if err != nil || !ix.Cached || ix.Stale == nil || !strings.Contains(string(ix.Data), "changed") {
		t.Fatalf("offline: err=%v cached=%v stale=%v", err, ix.Cached, ix.Stale)
	}
}

func TestIndexWithoutCacheFailsOffline(t *testing.T) {
	var body atomic.Value
	body.Store(indexBody)
	srv, _, _ := server(t, &body)
	url := srv.URL + "/repo"
	srv.Close()
	if _, err := Default.Index(context.Background(), url); err == nil || !strings.Contains(err.Error(), "fetching "+url+"/index.yaml") {
		t.Fatalf("got %v", err)
	}
}

func TestIndex404(t *testing.T) {
	var body atomic.Value
	body.Store(indexBody)
	srv, _, _ := server(t, &body)
	_, err := Default.Index(context.Background(), srv.URL+"/elsewhere")
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("got %v", err)
	}
}

func TestLocalIndex(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, IndexFile), []byte(indexBody), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, loc := range []string{dir, filepath.Join(dir, IndexFile), "file://" + dir} {
		ix, err := Default.Index(context.Background(), loc)
		if err != nil {
			t.Fatalf("%s: %v", loc, err)
		}
		if string(ix.Data) != indexBody || ix.Base != "file://"+dir+"/" {
			t.Fatalf("%s: base %q data %q", loc, ix.Base, ix.Data)
		}
	}
	if _, err := Default.Index(context.Background(), filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing directory gave no error")
	}
}

func TestDownloadVerifies(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a-1.0.0.tgz")
	data := []byte("package bytes")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	good := "sha256:" + hex.EncodeToString(sum[:])
	dst := filepath.Join(dir, "cache", "a.tgz")
	if err := Default.Download(context.Background(), "file://"+src, dst, good); err != nil {
		t.Fatal(err)
	}
	if FileDigest(dst) != NormalDigest(good) {
		t.Fatal("downloaded file differs")
	}
	bad := strings.Repeat("0", 64)
	err := Default.Download(context.Background(), "file://"+src, filepath.Join(dir, "cache", "b.tgz"), bad)
	var de *DigestError
	if !errors.As(err, &de) || de.Want != bad || de.Got != NormalDigest(good) {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache", "b.tgz")); !os.IsNotExist(err) {
		t.Fatal("a refused download was written")
	}
	if err := Default.Download(context.Background(), "file://"+src, filepath.Join(dir, "c.tgz"), ""); err == nil || !strings.Contains(err.Error(), "no digest") {
		t.Fatalf("no digest: %v", err)
	}
}

func TestRedactHidesUserInfo(t *testing.T) {
	got := Redact("https://user:s3cret@example.org/charts")
	if strings.Contains(got, "s3cret") || strings.Contains(got, "user") {
		t.Fatalf("got %q", got)
	}
	var body atomic.Value
	body.Store(indexBody)
	srv, _, _ := server(t, &body)
	u := strings.Replace(srv.URL, "http://", "http://ada:s3cret@", 1) + "/nothing"
	_, err := Default.Index(context.Background(), u)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("error %v", err)
	}
}

func TestIndexURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://x.org/charts":            "https://x.org/charts/index.yaml",
		"https://x.org/charts/":           "https://x.org/charts/index.yaml",
		"https://x.org/charts/index.yaml": "https://x.org/charts/index.yaml",
		"https://x.org/c/index.json":      "https://x.org/c/index.json",
		"https://x.org/charts?ref=main":   "https://x.org/charts/index.yaml?ref=main",
	} {
		if got := IndexURL(in); got != want {
			t.Errorf("IndexURL(%q) = %q, want %q", in, got, want)
		}
	}
}
