// Package chartrepo is the client side of a chart repository: it reads an
// index from a URL, a file or a directory, caches remote indexes on disk and
// revalidates them with ETag and If-Modified-Since, and downloads packages
// verified against the digest the index gives. The builder (dependencies,
// published indexes) and the launcher share it.
package chartrepo

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// MaxDownload bounds what one download may weigh: an index or a package.
const MaxDownload = 256 << 20

// IndexFile is the name of a repository's index.
const IndexFile = "index.yaml"

// Options configure a Client.
type Options struct {
	// SkipTLSVerify and CAFile are a catalog's TLS settings.
	SkipTLSVerify bool
	CAFile        string
	// CacheDir holds remote indexes between runs; empty means no cache.
	CacheDir string
	// Timeout bounds each request; zero means two minutes.
	Timeout time.Duration
}

// Client fetches indexes and packages.
type Client struct {
	http     *http.Client
	cacheDir string
}

// New returns a client for the options.
func New(opt Options) (*Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if opt.SkipTLSVerify || opt.CAFile != "" {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12}
		if opt.CAFile != "" {
			pem, err := os.ReadFile(opt.CAFile)
			if err != nil {
				return nil, fmt.Errorf("reading the CA file of the catalog: %w", err)
			}
			pool, err := x509.SystemCertPool()
			if err != nil || pool == nil {
				pool = x509.NewCertPool()
			}
			if !pool.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("%s holds no PEM certificate: give the CA certificate of the catalog's server", opt.CAFile)
			}
			cfg.RootCAs = pool
		}
		// The catalog's owner asked for it, for a server with a
		// self-signed certificate.
		cfg.InsecureSkipVerify = opt.SkipTLSVerify //nolint:gosec
		tr.TLSClientConfig = cfg
	}
	timeout := opt.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	return &Client{http: &http.Client{Transport: tr, Timeout: timeout}, cacheDir: opt.CacheDir}, nil
}

// Default is a client with no TLS settings and no index cache.
var Default, _ = New(Options{})

// Get downloads a URL into memory.
func (c *Client) Get(ctx context.Context, u string) ([]byte, error) {
	data, _, err := c.get(ctx, u, nil)
	return data, err
}

// get downloads u with extra request headers, and returns the response
// headers too. A 304 answer returns nil data and no error.
func (c *Client) get(ctx context.Context, u string, header http.Header) ([]byte, *http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("fetching %s: %w", Redact(u), err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.http.Do(req)
	if err != nil {
		// The url.Error would repeat the address, with its user
		// information.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, nil, fmt.Errorf("fetching %s: %w", Redact(u), err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotModified:
		return nil, resp, nil
	default:
		return nil, resp, &StatusError{URL: Redact(u), Code: resp.StatusCode, Status: resp.Status}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxDownload+1))
	if err != nil {
		return nil, resp, fmt.Errorf("fetching %s: %w", Redact(u), err)
	}
	if len(data) > MaxDownload {
		return nil, resp, fmt.Errorf("fetching %s: larger than %d MiB", Redact(u), MaxDownload>>20)
	}
	return data, resp, nil
}

// StatusError is a server's answer other than 200 or 304. Callers tell a
// missing index (404, a repository not yet published) from a failing server.
type StatusError struct {
	// URL is the address asked, redacted.
	URL    string
	Code   int
	Status string
}

func (e *StatusError) Error() string { return fmt.Sprintf("fetching %s: %s", e.URL, e.Status) }

// NotFound reports whether err is a server's 404 or 410 answer.
func NotFound(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && (se.Code == http.StatusNotFound || se.Code == http.StatusGone)
}

// Redact drops the user information of a URL, so that a token written in a
// catalog's address is never printed.
func Redact(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return u
	}
	p.User = nil
	return p.String()
}

// Fetch reads a package from a URL (http, https or file) and verifies it.
func (c *Client) Fetch(ctx context.Context, src, digest string) ([]byte, error) {
	var data []byte
	var err error
	if u, perr := url.Parse(src); perr == nil && u.Scheme == "file" {
		data, err = os.ReadFile(filepath.FromSlash(u.Path))
	} else {
		data, err = c.Get(ctx, src)
	}
	if err != nil {
		return nil, err
	}
	if err := Verify(data, src, digest); err != nil {
		return nil, err
	}
	return data, nil
}

// Download fetches a package into dst, atomically, after verifying it.
func (c *Client) Download(ctx context.Context, src, dst, digest string) error {
	data, err := c.Fetch(ctx, src, digest)
	if err != nil {
		return err
	}
	return writeFile(dst, data)
}

// Verify checks data against an index digest, which is required: an entry
// without a digest cannot be verified.
func Verify(data []byte, src, digest string) error {
	want := NormalDigest(digest)
	if want == "" {
		return fmt.Errorf("%s: the index gives no digest to verify it against", Redact(src))
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return &DigestError{Src: Redact(src), Got: got, Want: want}
	}
	return nil
}

// DigestError says a download is not what the index describes.
type DigestError struct {
	Src, Got, Want string
}

func (e *DigestError) Error() string {
	return fmt.Sprintf("%s: digest sha256:%s does not match the index's sha256:%s: the published file differs from the index; republish it or fix the index", e.Src, e.Got, e.Want)
}

// writeFile writes data to dst through a temporary file in its directory.
func writeFile(dst string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".download-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// NormalDigest returns a digest as lower-case hex without "sha256:".
func NormalDigest(d string) string {
	return strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "sha256:"))
}

// SameDigest reports whether two digests are set and equal.
func SameDigest(a, b string) bool { return a != "" && NormalDigest(a) == NormalDigest(b) }

// FileDigest is the sha256 of a file, or "" when it cannot be read.
func FileDigest(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ResolveURL resolves a URL an index gives against the index's base URL.
func ResolveURL(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("bad base URL %q: %w", Redact(base), err)
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("bad URL %q in the index: %w", ref, err)
	}
	return b.ResolveReference(r).String(), nil
}

// BaseURL turns a directory or a URL into a base URL ending in a slash.
func BaseURL(base string) string {
	if IsRemote(base) {
		return strings.TrimRight(base, "/") + "/"
	}
	if u, err := url.Parse(base); err == nil && u.Scheme == "file" {
		return strings.TrimRight(base, "/") + "/"
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		abs = base
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs) + "/"}).String()
}

// IsRemote reports whether a location is an http or https URL.
func IsRemote(loc string) bool {
	u, err := url.Parse(loc)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http")
}

// IndexURL returns where the index of a repository location is: the
// location itself when it names a .yaml or .json file, else its index.yaml.
func IndexURL(loc string) string {
	u, err := url.Parse(loc)
	if err == nil && (strings.HasSuffix(u.Path, ".yaml") || strings.HasSuffix(u.Path, ".yml") || strings.HasSuffix(u.Path, ".json")) {
		return loc
	}
	if err == nil && u.Scheme != "" {
		u.Path = strings.TrimRight(u.Path, "/") + "/" + IndexFile
		return u.String()
	}
	return strings.TrimRight(loc, "/") + "/" + IndexFile
}

// baseOf is the directory URL of an index URL.
func baseOf(indexURL string) string {
	u, err := url.Parse(indexURL)
	if err != nil {
		return indexURL
	}
	u.Path = strings.TrimSuffix(path.Dir(u.Path), "/") + "/"
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}
