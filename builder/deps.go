package builder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/repoindex"
)

// remoteDependency returns a dependency from another repository, fetched
// once into the cache directory. A version pinned by Chart.lock that is in
// the cache needs no network. It returns the package's path.
func (b *build) remoteDependency(ctx context.Context, from string, d *chart.Dependency) (*chart.Chart, string, error) {
	if err := chartload.CheckRemote(from, d); err != nil {
		return nil, "", err
	}
	cacheDir, err := b.in.cacheDir(d.Repository)
	if err != nil {
		return nil, "", err
	}
	locked := chartload.LockedVersion(from, d)
	if locked != "" {
		p, err := chartload.PackagePath(cacheDir, d.Name, locked)
		if err != nil {
			return nil, "", err
		}
		if hc, err := loader.LoadFile(p); err == nil {
			return hc, p, nil
		}
	}
	offline := func(err error) error {
		return fmt.Errorf("dependency %s: %w; the build needs the network once to fill the cache in %s (or vendor the chart under %s)", d.Name, err, cacheDir, filepath.Join(from, "charts"))
	}
	idx, err := b.fetchIndex(ctx, d.Repository)
	if err != nil {
		return nil, "", offline(err)
	}
	want := d.Version
	if locked != "" {
		want = locked
	}
	cv, err := idx.Get(d.Name, want)
	if err != nil {
		return nil, "", fmt.Errorf("dependency %s: no version matching %q in %s: %w", d.Name, want, d.Repository, err)
	}
	p, err := chartload.PackagePath(cacheDir, cv.Name, cv.Version)
	if err != nil {
		return nil, "", err
	}
	if hc, err := loader.LoadFile(p); err == nil && chartrepo.SameDigest(chartrepo.FileDigest(p), cv.Digest) {
		return hc, p, nil
	}
	if len(cv.URLs) == 0 {
		return nil, "", fmt.Errorf("dependency %s %s: the index of %s lists no URL", cv.Name, cv.Version, d.Repository)
	}
	src, err := chartrepo.ResolveURL(strings.TrimRight(d.Repository, "/")+"/", cv.URLs[0])
	if err != nil {
		return nil, "", fmt.Errorf("dependency %s %s: %w", cv.Name, cv.Version, err)
	}
	if err := b.in.Client.Download(ctx, src, p, cv.Digest); err != nil {
		return nil, "", offline(err)
	}
	hc, err := loader.LoadFile(p)
	if err != nil {
		return nil, "", fmt.Errorf("dependency %s %s from %s: %w", cv.Name, cv.Version, src, err)
	}
	return hc, p, nil
}

func (in *inputs) cacheDir(repository string) (string, error) {
	dir, err := chartload.Cache{Dir: in.CacheDir}.RepoDir(repository)
	if err != nil {
		return "", err
	}
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
