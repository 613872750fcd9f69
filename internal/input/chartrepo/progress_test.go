package chartrepo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// meter records what a download tells it.
type meter struct {
	mu    sync.Mutex
	src   string
	size  int64
	got   int64
	ends  int
	err   error
	early bool // written to after End
}

func (m *meter) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.got += int64(len(p))
	m.early = m.early || m.ends > 0
	return len(p), nil
}

func (m *meter) End(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ends++
	m.err = err
}

// TestDownloadProgress checks that a client made WithProgress tells a
// meter of each package download: its URL without credentials, its size,
// every byte, and its end with its error.
func TestDownloadProgress(t *testing.T) {
	pkg := bytes.Repeat([]byte("chart package "), 10<<10)
	sum := sha256.Sum256(pkg)
	digest := hex.EncodeToString(sum[:])
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/chunked.tgz" {
			// Flushed before the end: sent chunked, with no length.
			w.Write(pkg[:100])
			w.(http.Flusher).Flush()
			w.Write(pkg[100:])
			return
		}
		http.ServeContent(w, r, "a.tgz", time.Time{}, bytes.NewReader(pkg))
	}))
	defer srv.Close()
	withCreds := strings.Replace(srv.URL, "http://", "http://user:secret@", 1)

	var meters []*meter
	base := plainClient(t)
	c := base.WithProgress(func(src string, size int64) Meter {
		m := &meter{src: src, size: size}
		meters = append(meters, m)
		return m
	})
	dir := t.TempDir()
	if err := c.Download(t.Context(), withCreds+"/a-1.0.0.tgz", filepath.Join(dir, "a.tgz"), digest); err != nil {
		t.Fatal(err)
	}
	if err := c.Cache(t.Context(), srv.URL+"/chunked.tgz", filepath.Join(dir, "cache", "b.tgz"), digest); err != nil {
		t.Fatal(err)
	}
	bad := strings.Repeat("0", 64)
	err := c.Download(t.Context(), srv.URL+"/a-1.0.0.tgz", filepath.Join(dir, "c.tgz"), bad)
	var de *DigestError
	if !errors.As(err, &de) {
		t.Fatalf("a wrong digest: %v", err)
	}
	// The client it was made from shows nothing.
	if err := base.Download(t.Context(), srv.URL+"/a-1.0.0.tgz", filepath.Join(dir, "d.tgz"), digest); err != nil {
		t.Fatal(err)
	}

	if len(meters) != 3 {
		t.Fatalf("%d meters, want one per download of the client with progress", len(meters))
	}
	n := int64(len(pkg))
	for i, want := range []struct {
		src  string
		size int64
		err  error
	}{
		{srv.URL + "/a-1.0.0.tgz", n, nil},
		{srv.URL + "/chunked.tgz", -1, nil},
		{srv.URL + "/a-1.0.0.tgz", n, de},
	} {
		m := meters[i]
		if strings.Contains(m.src, "secret") {
			t.Errorf("download %d: the meter is told the credentials: %s", i, m.src)
		}
		if m.src != want.src || m.size != want.size || m.got != n || m.ends != 1 || m.err != want.err || m.early {
			t.Errorf("download %d: told %q of %d bytes, got %d, ended %d times with %v (written after the end: %t); want %q of %d, %d, once with %v",
				i, m.src, m.size, m.got, m.ends, m.err, m.early, want.src, want.size, n, want.err)
		}
	}
}
