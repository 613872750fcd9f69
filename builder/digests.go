package builder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"golang.org/x/sync/errgroup"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/lint"
)

// Packages are reproducible: the same sources make the same bytes (see
// packageEpoch), so a chart whose package has the digest published under
// its version is unchanged. Another digest may still be the same chart
// packaged by another tool (chart-releaser's `helm package`): the contents
// are compared then (see compare.go). Making the packages takes the
// build's own discovery and packaging, run by a smaller pipeline into a
// directory of its own.

// digestPipeline makes the packages of the charts inputs.only selects.
var digestPipeline = []step{
	{name: "stage", run: stage},
	{name: "discover", run: discover},
	{name: "package", run: packageSelected, needs: []string{"stage", "discover"}},
}

// PackageDigests packages, exactly as a build of opt.Catalog does, the
// charts that want selects by name and version, and returns their
// packages' digests by chart name. The packages are made in a temporary
// directory, removed before it returns. Of opt, only what changes a
// package is read: Catalog, BaseURL (a dependency on the catalog's own
// address is taken from the sources), CacheDir and Client (remote
// dependencies).
func PackageDigests(ctx context.Context, opt Options, want func(name, version string) bool) (map[string]string, error) {
	out := map[string]string{}
	err := packageWith(ctx, opt, want, func(ch *Chart, _ string) error {
		out[ch.Meta.Name] = ch.Digest
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// packageWith packages the charts want selects as PackageDigests does, and
// calls with for each, with its package's path, before the packages are
// removed.
func packageWith(ctx context.Context, opt Options, want func(name, version string) bool, with func(ch *Chart, pkg string) error) error {
	tmp, err := os.MkdirTemp("", "catalogist-digests-")
	if err != nil {
		return fmt.Errorf("packaging to compare: %w", err)
	}
	defer os.RemoveAll(tmp)
	opt = Options{
		Catalog: opt.Catalog, BaseURL: opt.BaseURL, CacheDir: opt.CacheDir, Client: opt.Client,
		Out: filepath.Join(tmp, "out"), Log: io.Discard, Now: defaultNow,
	}
	if opt.Client == nil {
		if opt.Client, err = chartrepo.New(chartrepo.Options{}); err != nil {
			return fmt.Errorf("chart repository client: %w", err)
		}
	}
	steps, err := newSchedule(digestPipeline)
	if err != nil {
		return err
	}
	in, err := newInputs(opt)
	if err != nil {
		return err
	}
	in.only = func(ch *Chart) bool { return want(ch.Meta.Name, ch.Meta.Version) }
	work, wctx := errgroup.WithContext(ctx)
	b := &build{in: in, out: &outputs{}, work: work, steps: steps, cpu: make(chan struct{}, runtime.GOMAXPROCS(0))}
	defer b.cleanup()
	steps.start(wctx, work, b)
	work.Wait()
	if err := steps.result(ctx); err != nil {
		return err
	}
	for _, ch := range in.charts {
		if in.only(ch) {
			if err := with(ch, filepath.Join(b.stage.dir, filepath.FromSlash(ch.File))); err != nil {
				return err
			}
		}
	}
	return nil
}

// packageSelected packages the selected charts and the catalog charts they
// depend on, which packaging a chart waits for.
func packageSelected(ctx context.Context, b *build) error {
	need := map[*Chart]bool{}
	var add func(ch *Chart)
	add = func(ch *Chart) {
		if need[ch] {
			return
		}
		need[ch] = true
		for _, d := range ch.deps {
			add(d)
		}
	}
	for _, ch := range b.in.charts {
		if b.in.only(ch) {
			add(ch)
		}
	}
	var errs []error
	for _, ch := range b.in.charts {
		if need[ch] {
			b.startPackaging(ctx, ch)
		}
	}
	for _, ch := range b.in.charts {
		if !need[ch] {
			continue
		}
		if _, err := ch.pkg.wait(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ch.Src.Dir, err))
		}
	}
	return errors.Join(errs...)
}

// PublishedDigests reads a published index (a file, a directory or a URL,
// as Options.Merge) and returns the digests of its packages by chart name
// and version. A URL that answers 404 or 410 is a repository where nothing
// is published yet: found is false, and the map empty.
func PublishedDigests(ctx context.Context, client *chartrepo.Client, loc string) (digests map[string]map[string]string, found bool, err error) {
	idx, _, found, err := readPublished(ctx, client, loc)
	if err != nil || !found {
		return map[string]map[string]string{}, found, err
	}
	digests = map[string]map[string]string{}
	for name, versions := range byNameVersion(idx) {
		digests[name] = map[string]string{}
		for v, cv := range versions {
			digests[name][v] = cv.Digest
		}
	}
	return digests, true, nil
}

// readPublished reads a published index to compare with, and returns the
// base its relative URLs resolve against; found is false when loc is a URL
// answering 404 or 410.
func readPublished(ctx context.Context, client *chartrepo.Client, loc string) (idx *repo.IndexFile, base string, found bool, err error) {
	if client == nil {
		if client, err = chartrepo.New(chartrepo.Options{}); err != nil {
			return nil, "", false, fmt.Errorf("chart repository client: %w", err)
		}
	}
	ix, err := client.Index(ctx, loc)
	switch {
	case err != nil && chartrepo.NotFound(err):
		return nil, "", false, nil
	case err != nil:
		return nil, "", false, fmt.Errorf("published index: %w", err)
	case ix.Stale != nil:
		// A cached copy could lack the latest versions, whose packages
		// would then not be compared.
		return nil, "", false, fmt.Errorf("published index: %s could not be fetched (%v), and a cached copy may be stale: try again once the server answers", chartrepo.Redact(ix.URL), ix.Stale)
	}
	idx, err = repoindex.ReadPublished(ix.Data, ix.URL)
	if err != nil {
		return nil, "", false, err
	}
	return idx, ix.Base, true, nil
}

// ComparePublished gives rule version-bump what it reports
// (lint.Options.Published): for each chart of the catalogs whose version
// the published index at loc lists, its package, made as a build of its
// catalog makes it, compared with the published one, fetched (and cached
// by digest) when their digests differ. opt gives BaseURL, CacheDir and
// Client. found is false when loc is a URL where nothing is published
// yet. A catalog given as a schema file has no package to compare.
func ComparePublished(ctx context.Context, cats []*catalog.Catalog, loc string, opt Options) (compared map[*catalog.Chart]*lint.PublishedVersion, found bool, err error) {
	if opt.Client == nil {
		if opt.Client, err = chartrepo.New(chartrepo.Options{}); err != nil {
			return nil, false, fmt.Errorf("chart repository client: %w", err)
		}
	}
	idx, base, found, err := readPublished(ctx, opt.Client, loc)
	if err != nil || !found {
		return map[*catalog.Chart]*lint.PublishedVersion{}, found, err
	}
	published := byNameVersion(idx)
	cache, err := publishedCache(opt.CacheDir)
	if err != nil {
		return nil, false, err
	}
	compared = map[*catalog.Chart]*lint.PublishedVersion{}
	for _, cat := range cats {
		// By the name the chart is published under: its Chart.yaml's,
		// whatever its directory's.
		linted := map[string]*catalog.Chart{}
		for _, ch := range cat.Charts {
			if ch.OnlySchema {
				continue
			}
			name := ch.Name
			if md, err := loadChartfile(ch.ChartFile); err == nil && md.Name != "" {
				name = md.Name
			}
			linted[name] = ch
		}
		if len(linted) == 0 {
			continue
		}
		want := func(name, version string) bool {
			return published[name][version] != nil && linted[name] != nil
		}
		opt.Catalog = cat.Dir
		err := packageWith(ctx, opt, want, func(ch *Chart, pkg string) error {
			cv := published[ch.Meta.Name][ch.Meta.Version]
			pv := &lint.PublishedVersion{Name: ch.Meta.Name, Version: ch.Meta.Version, URL: chartrepo.Redact(firstURL(cv.URLs))}
			if u, err := chartrepo.ResolveURL(base, firstURL(cv.URLs)); err == nil && len(cv.URLs) > 0 {
				pv.URL = chartrepo.Redact(u)
			}
			compared[linted[ch.Meta.Name]] = pv
			// A published index without digests (Helm 2's) cannot prove
			// a change.
			if cv.Digest == "" || chartrepo.SameDigest(cv.Digest, ch.Digest) {
				return nil
			}
			pv.File, _, err = diffPublished(ctx, opt.Client, cache, base, cv, pkg)
			return err
		})
		if err != nil {
			return nil, false, fmt.Errorf("packaging %s to compare with the published packages: %w", cat.Dir, err)
		}
	}
	return compared, true, nil
}
