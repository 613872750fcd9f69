package builder

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	repo "helm.sh/helm/v4/pkg/repo/v1"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/repoindex"
)

// maxDownload bounds what a download may weigh: an index or a package.
const maxDownload = 256 << 20

// httpClient fetches remote indexes and packages.
var httpClient = &http.Client{Timeout: 2 * time.Minute}

// remoteIndex is a repository's index, fetched at most once per build
// however many charts depend on the repository.
type remoteIndex struct {
	once sync.Once
	idx  *repo.IndexFile
	err  error
}

// remoteDependency returns a dependency from another repository, fetched
// once into the cache directory. A version pinned by Chart.lock that is in
// the cache needs no network.
func (c *Context) remoteDependency(ch *Chart, d *chart.Dependency) (*chart.Chart, error) {
	u, err := url.Parse(d.Repository)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		if strings.HasPrefix(d.Repository, "file://") {
			return nil, fmt.Errorf("dependency %s: %s is not a chart of this catalog: file:// dependencies must point at a chart directory of the catalog", d.Name, d.Repository)
		}
		return nil, fmt.Errorf("dependency %s: repository %q is not supported: use an https chart repository, a file:// path to a chart of this catalog, or vendor the chart under %s", d.Name, d.Repository, filepath.Join(ch.Src.Dir, "charts"))
	}
	cacheDir, err := c.cacheDir(d.Repository)
	if err != nil {
		return nil, err
	}
	if v := lockedVersion(ch, d); v != "" {
		p := filepath.Join(cacheDir, fmt.Sprintf("%s-%s.tgz", d.Name, v))
		if hc, err := loader.LoadFile(p); err == nil {
			return hc, nil
		}
	}
	offline := func(err error) error {
		return fmt.Errorf("dependency %s: %w; the build needs the network once to fill the cache in %s (or vendor the chart under %s)", d.Name, err, cacheDir, filepath.Join(ch.Src.Dir, "charts"))
	}
	idx, err := c.fetchIndex(d.Repository)
	if err != nil {
		return nil, offline(err)
	}
	want := d.Version
	if v := lockedVersion(ch, d); v != "" {
		want = v
	}
	cv, err := idx.Get(d.Name, want)
	if err != nil {
		return nil, fmt.Errorf("dependency %s: no version matching %q in %s: %w", d.Name, want, d.Repository, err)
	}
	p := filepath.Join(cacheDir, fmt.Sprintf("%s-%s.tgz", cv.Name, cv.Version))
	if hc, err := loader.LoadFile(p); err == nil && fileDigest(p) == normalDigest(cv.Digest) {
		return hc, nil
	}
	if len(cv.URLs) == 0 {
		return nil, fmt.Errorf("dependency %s %s: the index of %s lists no URL", cv.Name, cv.Version, d.Repository)
	}
	src, err := resolveURL(strings.TrimRight(d.Repository, "/")+"/", cv.URLs[0])
	if err != nil {
		return nil, fmt.Errorf("dependency %s %s: %w", cv.Name, cv.Version, err)
	}
	if err := download(src, p, cv.Digest); err != nil {
		return nil, offline(err)
	}
	hc, err := loader.LoadFile(p)
	if err != nil {
		return nil, fmt.Errorf("dependency %s %s from %s: %w", cv.Name, cv.Version, src, err)
	}
	return hc, nil
}

// lockedVersion is the version Chart.lock pins a dependency to, if any.
func lockedVersion(ch *Chart, d *chart.Dependency) string {
	data, err := os.ReadFile(filepath.Join(ch.Src.Dir, "Chart.lock"))
	if err != nil {
		return ""
	}
	var lock chart.Lock
	if yaml.Unmarshal(data, &lock) != nil {
		return ""
	}
	for _, l := range lock.Dependencies {
		if l.Name == d.Name && strings.TrimRight(l.Repository, "/") == strings.TrimRight(d.Repository, "/") {
			return l.Version
		}
	}
	return ""
}

func (c *Context) cacheDir(repository string) (string, error) {
	base := c.CacheDir
	if base == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory for dependencies: set --cache-dir: %w", err)
		}
		base = filepath.Join(dir, "catalogist", "charts")
	}
	sum := sha256.Sum256([]byte(strings.TrimRight(repository, "/")))
	dir := filepath.Join(base, hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("dependency cache: %w", err)
	}
	return dir, nil
}

func (c *Context) fetchIndex(repository string) (*repo.IndexFile, error) {
	v, _ := c.remoteIndexes.LoadOrStore(repository, &remoteIndex{})
	ri := v.(*remoteIndex)
	ri.once.Do(func() {
		u := strings.TrimRight(repository, "/") + "/index.yaml"
		data, err := get(u)
		if err != nil {
			ri.err = err
			return
		}
		ri.idx, ri.err = repoindex.Read(data, u)
	})
	return ri.idx, ri.err
}

// get downloads a URL into memory.
func get(u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: %s", u, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDownload+1))
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", u, err)
	}
	if len(data) > maxDownload {
		return nil, fmt.Errorf("fetching %s: larger than %d MiB", u, maxDownload>>20)
	}
	return data, nil
}

// download fetches a package into dst, atomically, after checking it
// against the digest the index gives.
func download(src, dst, digest string) error {
	var data []byte
	var err error
	if u, perr := url.Parse(src); perr == nil && u.Scheme == "file" {
		data, err = os.ReadFile(filepath.FromSlash(u.Path))
	} else {
		data, err = get(src)
	}
	if err != nil {
		return err
	}
	return writeVerified(data, src, dst, digest)
}

// writeVerified writes data to dst through a temporary file when its sha256
// is the digest, which is required: an index entry without a digest cannot
// be verified.
func writeVerified(data []byte, src, dst, digest string) error {
	want := normalDigest(digest)
	if want == "" {
		return fmt.Errorf("%s: the index gives no digest to verify it against", src)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("%s: digest sha256:%s does not match the index's sha256:%s: the published file differs from the index; republish it or fix the index", src, got, want)
	}
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

func normalDigest(d string) string {
	return strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "sha256:"))
}

func fileDigest(p string) string {
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

// resolveURL resolves a URL an index gives against the index's base URL.
func resolveURL(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("bad base URL %q: %w", base, err)
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("bad URL %q in the index: %w", ref, err)
	}
	return b.ResolveReference(r).String(), nil
}
