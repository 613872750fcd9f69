// Package chartrepo is the client side of a chart repository: it reads an
// index from a URL, a file or a directory, caches remote indexes on disk and
// revalidates them with ETag and If-Modified-Since, and downloads packages
// verified against the digest the index gives. The builder (dependencies,
// published indexes) and the launcher share it.
//
// What a repository's server sends is not trusted: an index served over
// http(s) names only http(s) packages (ResolveURL), a local file is read
// only when it is a regular file (OpenRegular), and nothing read weighs more
// than MaxDownload or is held in memory more than once.
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

	"github.com/catalogist/catalogist/internal/base/secret"
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
	// progress, when set, starts the meter of each package download.
	progress func(src string, size int64) Meter
}

// Meter is told of a package download as it goes: what is received is
// written to it, and End is called once, with the download's error (nil
// when the package was received and verified).
type Meter interface {
	io.Writer
	End(err error)
}

// WithProgress returns a copy of c that shows its package downloads:
// start is called as each begins, with the package's URL (redacted) and
// size (-1 when the server does not say), and returns its meter.
func (c *Client) WithProgress(start func(src string, size int64) Meter) *Client {
	cc := *c
	cc.progress = start
	return &cc
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

// get asks for u with extra request headers. On 200 the response's body is
// left open for the caller to stream; a 304 answer is returned with its
// body closed and no error; any other answer is a *StatusError.
func (c *Client) get(ctx context.Context, u string, header http.Header) (*http.Response, error) {
	if !IsRemote(u) {
		return nil, fmt.Errorf("fetching %s: only http and https URLs are fetched", Redact(u))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", Redact(u), err)
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
		return nil, &NetworkError{URL: Redact(u), Err: err}
	}
	switch resp.StatusCode {
	case http.StatusOK:
		if resp.ContentLength > MaxDownload {
			resp.Body.Close()
			return nil, tooLarge(u)
		}
		return resp, nil
	case http.StatusNotModified:
		resp.Body.Close()
		return resp, nil
	}
	resp.Body.Close()
	return resp, &StatusError{URL: Redact(u), Code: resp.StatusCode, Status: resp.Status}
}

func tooLarge(src string) error {
	return fmt.Errorf("fetching %s: larger than %d MiB, more than a chart repository serves; check the URL", Redact(src), MaxDownload>>20)
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

// NetworkError is a request that got no answer: the connection refused or
// dropped, a name not resolved, a time-out.
type NetworkError struct {
	// URL is the address asked, redacted.
	URL string
	Err error
}

func (e *NetworkError) Error() string { return fmt.Sprintf("fetching %s: %v", e.URL, e.Err) }

func (e *NetworkError) Unwrap() error { return e.Err }

// NotFound reports whether err is a server's 404 or 410 answer.
func NotFound(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && (se.Code == http.StatusNotFound || se.Code == http.StatusGone)
}

// Redact drops the credentials of a URL (user information, query
// parameters named like secrets), so that a token written in a catalog's
// address is never printed.
func Redact(u string) string { return secret.RedactURL(u) }

// open opens a package's source for reading: an http(s) URL, or a file://
// URL naming a regular file. The size is -1 when the server does not say.
func (c *Client) open(ctx context.Context, src string) (io.ReadCloser, int64, error) {
	u, err := url.Parse(src)
	if err != nil {
		return nil, 0, fmt.Errorf("bad package URL %s: %w", Redact(src), err)
	}
	switch u.Scheme {
	case "http", "https":
		resp, err := c.get(ctx, src, nil)
		if err != nil {
			return nil, 0, err
		}
		if resp.StatusCode != http.StatusOK {
			return nil, 0, fmt.Errorf("fetching %s: the server answered %s to a request without a cached copy", Redact(src), resp.Status)
		}
		return resp.Body, resp.ContentLength, nil
	case "file":
		f, size, err := OpenRegular(filepath.FromSlash(u.Path))
		if err != nil {
			return nil, 0, err
		}
		return f, size, nil
	}
	return nil, 0, fmt.Errorf("%s: a package is fetched over http or https, or read from a file of a local repository; this URL is neither", Redact(src))
}

// OpenRegular opens a local file that a repository names, refusing what is
// not a regular file (a FIFO, whose reader would wait for a writer for
// ever; a device such as /dev/zero, which never ends; a directory) and a
// file larger than MaxDownload.
func OpenRegular(p string) (*os.File, int64, error) {
	// Opened without blocking, a FIFO returns at once and is refused for
	// what it is; reads of a regular file are not affected.
	f, err := os.OpenFile(p, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("reading %s: %w", p, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("reading %s: %w", p, err)
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s is %s, not a regular file: a repository's index and packages are files; check the path", p, fileKind(info.Mode()))
	}
	if info.Size() > MaxDownload {
		f.Close()
		return nil, 0, fmt.Errorf("%s is %d MiB, more than the %d MiB a chart repository's file may weigh; check the path", p, info.Size()>>20, MaxDownload>>20)
	}
	return f, info.Size(), nil
}

func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// Download fetches a package into dst, verified against the index's digest,
// readable by everyone as a published file is (mode 0644). dst is replaced
// by a rename, only once the digest matches.
func (c *Client) Download(ctx context.Context, src, dst, digest string) error {
	return c.download(ctx, src, dst, digest, 0o644, 0o755)
}

// Cache fetches a package into a cache file dst as Download does, for this
// user alone: mode 0600 in a directory of mode 0700.
func (c *Client) Cache(ctx context.Context, src, dst, digest string) error {
	return c.download(ctx, src, dst, digest, 0o600, 0o700)
}

// CachedPackage returns the path of a package in the cache directory dir,
// where packages are named by their digest: a version republished with
// other content is another file. It is fetched from src as Cache fetches
// it unless dir holds it already, verified again as it is found there.
func (c *Client) CachedPackage(ctx context.Context, src, digest, dir string) (string, error) {
	want := NormalDigest(digest)
	if want == "" {
		return "", fmt.Errorf("%s: the index gives no digest to verify it against", Redact(src))
	}
	// The index's text names a file: only a sha256 may.
	if b, err := hex.DecodeString(want); err != nil || len(b) != sha256.Size {
		return "", fmt.Errorf("%s: the index's digest %q is not a sha256", Redact(src), digest)
	}
	p := filepath.Join(dir, want+".tgz")
	if FileDigest(p) == want {
		return p, nil
	}
	if err := c.Cache(ctx, src, p, want); err != nil {
		return "", err
	}
	return p, nil
}

// download streams src into a temporary file beside dst, hashing it on the
// way, so that memory stays flat whatever the size.
func (c *Client) download(ctx context.Context, src, dst, digest string, mode, dirMode os.FileMode) (err error) {
	want := NormalDigest(digest)
	if want == "" {
		return fmt.Errorf("%s: the index gives no digest to verify it against", Redact(src))
	}
	body, size, err := c.open(ctx, src)
	if err != nil {
		return err
	}
	defer body.Close()
	var in io.Reader = body
	if c.progress != nil {
		m := c.progress(Redact(src), size)
		defer func() { m.End(err) }()
		in = io.TeeReader(body, m)
	}
	if size > MaxDownload {
		return tooLarge(src)
	}
	dir := filepath.Dir(dst)
	if err := mkdir(dir, dirMode); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".download-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(in, MaxDownload+1))
	if err == nil && n > MaxDownload {
		err = tooLarge(src)
	} else if err != nil {
		err = fmt.Errorf("fetching %s: %w", Redact(src), err)
	}
	if err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return &DigestError{Src: Redact(src), Got: got, Want: want}
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// mkdir makes a directory of a mode; a private mode (0700) goes through
// PrivateDir.
func mkdir(dir string, mode os.FileMode) error {
	if mode&0o077 == 0 {
		return PrivateDir(dir)
	}
	return os.MkdirAll(dir, mode)
}

// PrivateDir makes a directory of mode 0700, or makes it so when it exists
// with more permissions (a cache written by an older version).
func PrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return os.Chmod(dir, info.Mode().Perm()&0o700)
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

// NormalDigest returns a digest as lower-case hex without "sha256:".
func NormalDigest(d string) string {
	return strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "sha256:"))
}

// SameDigest reports whether two digests are set and equal.
func SameDigest(a, b string) bool { return a != "" && NormalDigest(a) == NormalDigest(b) }

// FileDigest is the sha256 of a file, or "" when it cannot be read.
func FileDigest(p string) string {
	d, _ := ReadDigest(p)
	return d
}

// ReadDigest is the sha256 of a file, as lower-case hex.
func ReadDigest(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", fmt.Errorf("hashing: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ResolveURL resolves a URL an index gives against the index's base URL.
// A remote index (an http or https base) may only name http(s) packages:
// file:// URLs, absolute paths and any other scheme would let whoever
// serves the index read the user's files. A local index, one the user named
// on disk, may also name files. The refusal is a *URLError.
func ResolveURL(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("bad base URL %q: %w", Redact(base), err)
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("bad URL %q in the index: %w", Redact(ref), err)
	}
	res := b.ResolveReference(r)
	switch res.Scheme {
	case "http", "https":
	case "file":
		if IsRemote(base) {
			return "", &URLError{Base: Redact(base), URL: Redact(res.String())}
		}
	default:
		return "", &URLError{Base: Redact(base), URL: Redact(res.String())}
	}
	return res.String(), nil
}

// URLError is a package URL an index may not name.
type URLError struct {
	// Base is where the index is, URL the package URL it names, both
	// redacted.
	Base, URL string
}

func (e *URLError) Error() string {
	if IsRemote(e.Base) {
		return fmt.Sprintf("the package URL %s is not http or https: an index served over http(s) may only name packages served over http(s), so that it never reads your files; ask the catalog's maintainers to publish the package's http(s) URL, or launch from a copy of the repository on disk (--repo DIR)", e.URL)
	}
	return fmt.Sprintf("the package URL %s is not http, https or a file: give the package's URL, or its path relative to the index", e.URL)
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
