package builder

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	repo "helm.sh/helm/v4/pkg/repo/v1"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/chartrepo"
	"github.com/catalogist/catalogist/repoindex"
)

// remoteDependency returns a dependency from another repository, fetched
// once into the cache directory. A version pinned by Chart.lock that is in
// the cache needs no network.
func (b *build) remoteDependency(ctx context.Context, ch *Chart, d *chart.Dependency) (*chart.Chart, error) {
	u, err := url.Parse(d.Repository)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		if strings.HasPrefix(d.Repository, "file://") {
			return nil, fmt.Errorf("dependency %s: %s is not a chart of this catalog: file:// dependencies must point at a chart directory of the catalog", d.Name, d.Repository)
		}
		return nil, fmt.Errorf("dependency %s: repository %q is not supported: use an https chart repository, a file:// path to a chart of this catalog, or vendor the chart under %s", d.Name, d.Repository, filepath.Join(ch.Src.Dir, "charts"))
	}
	cacheDir, err := b.in.cacheDir(d.Repository)
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
	idx, err := b.fetchIndex(ctx, d.Repository)
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
	if hc, err := loader.LoadFile(p); err == nil && chartrepo.SameDigest(chartrepo.FileDigest(p), cv.Digest) {
		return hc, nil
	}
	if len(cv.URLs) == 0 {
		return nil, fmt.Errorf("dependency %s %s: the index of %s lists no URL", cv.Name, cv.Version, d.Repository)
	}
	src, err := chartrepo.ResolveURL(strings.TrimRight(d.Repository, "/")+"/", cv.URLs[0])
	if err != nil {
		return nil, fmt.Errorf("dependency %s %s: %w", cv.Name, cv.Version, err)
	}
	if err := b.in.Client.Download(ctx, src, p, cv.Digest); err != nil {
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

func (in *inputs) cacheDir(repository string) (string, error) {
	base := in.CacheDir
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

// fetchIndex reads a dependency repository's index, at most once per build
// however many charts depend on the repository.
func (b *build) fetchIndex(ctx context.Context, repository string) (*repo.IndexFile, error) {
	v, _ := b.in.depIndexes.LoadOrStore(repository, newFuture[*repo.IndexFile]())
	f := v.(*future[*repo.IndexFile])
	f.start(b.work, func() (*repo.IndexFile, error) {
		ix, err := b.in.Client.Index(ctx, repository)
		if err != nil {
			return nil, err
		}
		return repoindex.Read(ix.Data, ix.URL)
	})
	return f.await(ctx)
}
