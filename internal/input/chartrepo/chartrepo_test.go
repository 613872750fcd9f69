package chartrepo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

const indexBody = "apiVersion: v1\nentries: {}\n"

// plainClient is a client without TLS settings nor index cache.
func plainClient(t *testing.T) *Client {
	t.Helper()
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

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
	if _, err := plainClient(t).Index(t.Context(), url); err == nil || !strings.Contains(err.Error(), "fetching "+url+"/index.yaml") {
		t.Fatalf("got %v", err)
	}
}

func TestIndex404(t *testing.T) {
	var body atomic.Value
	body.Store(indexBody)
	srv, _, _ := server(t, &body)
	_, err := plainClient(t).Index(t.Context(), srv.URL+"/elsewhere")
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
		ix, err := plainClient(t).Index(t.Context(), loc)
		if err != nil {
			t.Fatalf("%s: %v", loc, err)
		}
		if string(ix.Data) != indexBody || ix.Base != "file://"+dir+"/" {
			t.Fatalf("%s: base %q data %q", loc, ix.Base, ix.Data)
		}
	}
	if _, err := plainClient(t).Index(t.Context(), filepath.Join(dir, "missing")); err == nil {
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
	if err := plainClient(t).Download(t.Context(), "file://"+src, dst, good); err != nil {
		t.Fatal(err)
	}
	if FileDigest(dst) != NormalDigest(good) {
		t.Fatal("downloaded file differs")
	}
	if d, err := ReadDigest(dst); err != nil || d != NormalDigest(good) {
		t.Fatalf("ReadDigest: %s, %v", d, err)
	}
	missing := filepath.Join(dir, "missing.tgz")
	if d, err := ReadDigest(missing); err == nil || !strings.Contains(err.Error(), missing) || FileDigest(missing) != "" {
		t.Fatalf("a missing file: %q, %v", d, err)
	}
	bad := strings.Repeat("0", 64)
	err := plainClient(t).Download(t.Context(), "file://"+src, filepath.Join(dir, "cache", "b.tgz"), bad)
	var de *DigestError
	if !errors.As(err, &de) || de.Want != bad || de.Got != NormalDigest(good) {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache", "b.tgz")); !os.IsNotExist(err) {
		t.Fatal("a refused download was written")
	}
	if err := plainClient(t).Download(t.Context(), "file://"+src, filepath.Join(dir, "c.tgz"), ""); err == nil || !strings.Contains(err.Error(), "no digest") {
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
	_, err := plainClient(t).Index(t.Context(), u)
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

func TestResolveURL(t *testing.T) {
	for _, tc := range []struct {
		base, ref, want string
	}{
		{"https://x.org/charts/", "a-1.0.0.tgz", "https://x.org/charts/a-1.0.0.tgz"},
		{"https://x.org/charts/", "/etc/passwd", "https://x.org/etc/passwd"},
		{"https://x.org/charts/", "//cdn.x.org/a.tgz", "https://cdn.x.org/a.tgz"},
		{"https://x.org/charts/", "http://mirror.x.org/a.tgz", "http://mirror.x.org/a.tgz"},
		{"https://x.org/charts/", "file:///home/ada/.ssh/id_ed25519", ""},
		{"http://x.org/charts/", "FILE:///etc/passwd", ""},
		{"https://x.org/charts/", "ftp://x.org/a.tgz", ""},
		{"file:///srv/repo/", "a-1.0.0.tgz", "file:///srv/repo/a-1.0.0.tgz"},
		{"file:///srv/repo/", "../other/a.tgz", "file:///srv/other/a.tgz"},
		{"file:///srv/repo/", "file:///srv/pkgs/a.tgz", "file:///srv/pkgs/a.tgz"},
		{"file:///srv/repo/", "https://x.org/a.tgz", "https://x.org/a.tgz"},
		{"file:///srv/repo/", "javascript:alert(1)", ""},
	} {
		got, err := ResolveURL(tc.base, tc.ref)
		var ue *URLError
		switch {
		case tc.want == "" && !errors.As(err, &ue):
			t.Errorf("ResolveURL(%q, %q) = %q, %v; want a *URLError", tc.base, tc.ref, got, err)
		case tc.want != "" && (err != nil || got != tc.want):
			t.Errorf("ResolveURL(%q, %q) = %q, %v; want %q", tc.base, tc.ref, got, err, tc.want)
		}
	}
	_, err := ResolveURL("https://ada:tok@x.org/charts/", "file:///etc/passwd")
	if err == nil || strings.Contains(err.Error(), "tok") || !strings.Contains(err.Error(), "file:///etc/passwd") || !strings.Contains(err.Error(), "ask the catalog's maintainers") {
		t.Errorf("refusal: %v", err)
	}
}

// FuzzResolveURL checks that a remote index never resolves to anything but
// http(s), and that a resolved URL is one of the schemes read.
func FuzzResolveURL(f *testing.F) {
	f.Add("https://x.org/charts/", "a-1.0.0.tgz")
	f.Add("https://x.org/charts/", "file:///etc/passwd")
	f.Add("file:///srv/repo/", "../a.tgz")
	f.Add("http://x.org/", "//host/a")
	f.Fuzz(func(t *testing.T, base, ref string) {
		got, err := ResolveURL(base, ref)
		if err != nil {
			return
		}
		u, perr := url.Parse(got)
		if perr != nil {
			t.Fatalf("ResolveURL(%q, %q) = %q, which does not parse: %v", base, ref, got, perr)
		}
		if IsRemote(base) && !IsRemote(got) {
			t.Fatalf("remote base %q resolved %q to %q", base, ref, got)
		}
		if s := u.Scheme; s != "http" && s != "https" && s != "file" {
			t.Fatalf("ResolveURL(%q, %q) = %q", base, ref, got)
		}
	})
}

func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// endless serves bytes for ever, without a length, as a broken or hostile
// server may.
func endless(t *testing.T) *httptest.Server {
	chunk := make([]byte, 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/declared.tgz" {
			w.Header().Set("Content-Length", strconv.Itoa(MaxDownload+1))
			w.WriteHeader(http.StatusOK)
			return
		}
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Downloads stream to disk: a body past MaxDownload is refused at the cap,
// and memory stays far below the bytes received.
func TestEndlessDownloadMemoryStaysFlat(t *testing.T) {
	srv := endless(t)
	dir := t.TempDir()
	c, err := New(Options{CacheDir: filepath.Join(dir, "indexes")})
	if err != nil {
		t.Fatal(err)
	}
	const budget = 64 << 20
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"package", func() error {
			return c.Cache(context.Background(), srv.URL+"/endless.tgz", filepath.Join(dir, "packages", "p.tgz"), digestOf(nil))
		}},
		{"index", func() error {
			_, err := c.Index(context.Background(), srv.URL+"/repo")
			return err
		}},
	} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := tc.run()
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "larger than 256 MiB") {
			t.Errorf("%s: %v, want a refusal at the cap", tc.name, err)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d KiB allocated", tc.name, alloc>>10)
		if alloc > budget {
			t.Errorf("%s: %d MiB allocated to refuse an endless download, want under %d MiB", tc.name, alloc>>20, budget>>20)
		}
	}
	err = c.Cache(context.Background(), srv.URL+"/declared.tgz", filepath.Join(dir, "packages", "p.tgz"), digestOf(nil))
	if err == nil || !strings.Contains(err.Error(), "larger than 256 MiB") {
		t.Errorf("a declared oversize: %v", err)
	}
	for _, sub := range []string{"packages", "indexes"} {
		if entries, _ := os.ReadDir(filepath.Join(dir, sub)); len(entries) > 0 {
			t.Errorf("refused downloads left files in %s: %v", sub, entries)
		}
	}
}

// Cached packages and indexes are the user's alone.
func TestCacheIsPrivate(t *testing.T) {
	pkg := []byte("package bytes")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/repo/index.yaml":
			_, _ = w.Write([]byte(indexBody))
		case "/repo/a-1.0.0.tgz":
			_, _ = w.Write(pkg)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	c, err := New(Options{CacheDir: filepath.Join(dir, "indexes")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Index(context.Background(), srv.URL+"/repo"); err != nil {
		t.Fatal(err)
	}
	// A packages directory left open by an older version is closed.
	if err := os.Mkdir(filepath.Join(dir, "packages"), 0o755); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "packages", "a.tgz")
	if err := c.Cache(context.Background(), srv.URL+"/repo/a-1.0.0.tgz", dst, digestOf(pkg)); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(dir, "indexes"), filepath.Join(dir, "packages")} {
		entries, err := os.ReadDir(d)
		if err != nil || len(entries) != 1 {
			t.Fatalf("%s: %v %v", d, entries, err)
		}
		if info, _ := os.Stat(d); info.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, want 0700", d, info.Mode().Perm())
		}
		if info, _ := entries[0].Info(); info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", entries[0].Name(), info.Mode().Perm())
		}
	}
	// Published files stay readable by all.
	pub := filepath.Join(dir, "site", "a.tgz")
	if err := c.Download(context.Background(), srv.URL+"/repo/a-1.0.0.tgz", pub, digestOf(pkg)); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(pub); info.Mode().Perm() != 0o644 {
		t.Errorf("published file: mode %v, want 0644", info.Mode().Perm())
	}
}

// CachedPackage fetches a package once into a file named by its digest,
// verified, and then reads it from there, verified again: a cached file
// changed since is fetched anew. A digest that is not a sha256 never names
// a file.
func TestCachedPackage(t *testing.T) {
	data := []byte("package bytes")
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Write(data)
	}))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "packages")
	c := plainClient(t)
	for range 2 {
		p, err := c.CachedPackage(t.Context(), srv.URL+"/a-1.0.0.tgz", "sha256:"+strings.ToUpper(digest), dir)
		if err != nil || p != filepath.Join(dir, digest+".tgz") || FileDigest(p) != digest {
			t.Fatalf("CachedPackage = %s, %v", p, err)
		}
	}
	if hits != 1 {
		t.Errorf("fetched %d times, want once", hits)
	}
	if err := os.WriteFile(filepath.Join(dir, digest+".tgz"), []byte("changed"), 0o600); err != nil {
		t.Fatal(err)
	}
	if p, err := c.CachedPackage(t.Context(), srv.URL+"/a-1.0.0.tgz", digest, dir); err != nil || FileDigest(p) != digest || hits != 2 {
		t.Errorf("a changed cache file: %s, %v, %d fetches", p, err, hits)
	}
	for _, bad := range []string{"../../etc/passwd", strings.Repeat("0", 63), ""} {
		if _, err := c.CachedPackage(t.Context(), srv.URL+"/a-1.0.0.tgz", bad, dir); err == nil {
			t.Errorf("digest %q: no error", bad)
		}
	}
	var de *DigestError
	if _, err := c.CachedPackage(t.Context(), srv.URL+"/a-1.0.0.tgz", strings.Repeat("ab", 32), dir); !errors.As(err, &de) {
		t.Errorf("a package of another digest: %v", err)
	}
}
