package builder

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"golang.org/x/sync/errgroup"

	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/input/pkgcontent"
	"github.com/catalogist/catalogist/internal/output/repoindex"
)

// A published version whose digest is not the one of the package the
// sources make now may still be the same chart: packaged by another tool
// (chart-releaser runs `helm package`, which stamps every file with the
// time and re-encodes Chart.yaml), or by an older catalogist. Its package
// is fetched then, verified against the published index's digest and kept
// in the cache by digest, and the two packages' contents are compared (see
// pkgcontent). The same content keeps what is published as it is: it is
// never released again. A package that cannot be fetched is never taken as
// the same.

// publishedCache is the directory the published packages fetched to
// compare are kept in, named by their digests.
func publishedCache(dir string) (string, error) {
	root, err := chartload.Cache{Dir: dir}.Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "published"), nil
}

// byNameVersion indexes the versions of a published index by chart name
// and version, the first listed of a version twice (which a merge then
// refuses).
func byNameVersion(idx *repo.IndexFile) map[string]map[string]*repo.ChartVersion {
	out := map[string]map[string]*repo.ChartVersion{}
	for name, cvs := range idx.Entries {
		for _, cv := range cvs {
			if cv == nil || cv.Metadata == nil {
				continue
			}
			if out[name] == nil {
				out[name] = map[string]*repo.ChartVersion{}
			}
			if out[name][cv.Version] == nil {
				out[name][cv.Version] = cv
			}
		}
	}
	return out
}

// diffPublished compares the package pkg, made from the sources, with the
// published package of the same version cv, listed by the index at base,
// fetched into cache unless it is there already. It returns the first
// file they differ by, "" when they hold the same chart, and where the
// published package is cached.
func diffPublished(ctx context.Context, client *chartrepo.Client, cache, base string, cv *repo.ChartVersion, pkg string) (file, cached string, err error) {
	if len(cv.URLs) == 0 {
		return "", "", fmt.Errorf("%s %s is published with another digest than the package of the sources, and the published index gives no URL to fetch its package from and compare their contents: bump the chart's version", cv.Name, cv.Version)
	}
	where := chartrepo.Redact(cv.URLs[0])
	src, err := chartrepo.ResolveURL(base, cv.URLs[0])
	if err != nil {
		return "", "", fmt.Errorf("published %s %s: %w", cv.Name, cv.Version, err)
	}
	cached, err = client.CachedPackage(ctx, src, cv.Digest, cache)
	if err != nil {
		what := "try again once it can be fetched"
		if chartrepo.NotFound(err) {
			what = "the published index lists a package that is not there: republish it, or bump the chart's version"
		}
		return "", "", fmt.Errorf("%s %s is published with another digest than the package of the sources, and its package %s could not be fetched to compare their contents: %w; %s", cv.Name, cv.Version, where, err, what)
	}
	published, err := pkgcontent.ReadFile(cached)
	if err != nil {
		return "", "", fmt.Errorf("the published package %s of %s %s cannot be compared with the sources': %w; bump the chart's version", where, cv.Name, cv.Version, err)
	}
	built, err := pkgcontent.ReadFile(pkg)
	if err != nil {
		return "", "", fmt.Errorf("the package of %s %s: %w", cv.Name, cv.Version, err)
	}
	return pkgcontent.Diff(published, built), cached, nil
}

// compareWithPublished compares, for each version built whose published
// package has another digest, the contents of the two packages, a few at
// a time. It returns what the merge judges the versions by, and where the
// published packages compared are cached, by digest.
func (b *build) compareWithPublished(ctx context.Context, pub *repo.IndexFile, base string) (repoindex.Compared, map[string]string, error) {
	published := byNameVersion(pub)
	type job struct {
		ch *Chart
		cv *repo.ChartVersion
	}
	var jobs []job
	for _, ch := range b.in.charts {
		cv := published[ch.Meta.Name][ch.Meta.Version]
		if cv == nil || cv.Digest == "" || chartrepo.SameDigest(cv.Digest, ch.Digest) {
			continue
		}
		jobs = append(jobs, job{ch, cv})
	}
	compared, cached := repoindex.Compared{}, map[string]string{}
	if len(jobs) == 0 {
		return compared, cached, nil
	}
	cache, err := publishedCache(b.in.CacheDir)
	if err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for _, j := range jobs {
		g.Go(func() error {
			pkg := filepath.Join(b.stage.dir, filepath.FromSlash(j.ch.File))
			file, p, err := diffPublished(gctx, b.in.Client, cache, base, j.cv, pkg)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if compared[j.ch.Meta.Name] == nil {
				compared[j.ch.Meta.Name] = map[string]string{}
			}
			compared[j.ch.Meta.Name][j.ch.Meta.Version] = file
			cached[chartrepo.NormalDigest(j.cv.Digest)] = p
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	return compared, cached, nil
}

// keepPublished puts in the output the published package of a version
// kept as published, its content the same as the sources': at its
// relative URL, copied from the cache, so that the index's digest is the
// package's. When that is where the build put its own package, the
// published one takes its place, and the chart's recorded digest becomes
// the published one, which the next build reuses. An absolute URL is left
// as published.
func (b *build) keepPublished(ctx context.Context, cv *repo.ChartVersion, cached string) error {
	rel, ok, err := relativeURL(firstURL(cv.URLs))
	if err != nil {
		return fmt.Errorf("published %s %s: %w", cv.Name, cv.Version, err)
	}
	if !ok {
		return nil
	}
	if err := b.stage.tree.clear(rel); err != nil {
		return err
	}
	dst := filepath.Join(b.stage.dir, filepath.FromSlash(rel))
	src := (&url.URL{Scheme: "file", Path: filepath.ToSlash(cached)}).String()
	if err := b.in.Client.Download(ctx, src, dst, cv.Digest); err != nil {
		return fmt.Errorf("keeping published %s %s: %w", cv.Name, cv.Version, err)
	}
	b.stagedPackage(rel, cv.Digest)
	if ch := b.in.byName[cv.Name]; ch != nil && ch.Meta.Version == cv.Version && ch.File == rel {
		ch.Digest = chartrepo.NormalDigest(cv.Digest)
	}
	return nil
}
