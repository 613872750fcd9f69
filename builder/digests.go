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

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/repoindex"
)

// Packages are reproducible: the same sources make the same bytes (see
// packageEpoch), so whether a chart's content differs from what is
// published under its version is a comparison of digests. Making the
// packages takes the build's own discovery and packaging, run by a smaller
// pipeline into a directory of its own.

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
	tmp, err := os.MkdirTemp("", "catalogist-digests-")
	if err != nil {
		return nil, fmt.Errorf("packaging to compare: %w", err)
	}
	defer os.RemoveAll(tmp)
	opt = Options{
		Catalog: opt.Catalog, BaseURL: opt.BaseURL, CacheDir: opt.CacheDir, Client: opt.Client,
		Out: filepath.Join(tmp, "out"), Log: io.Discard, Now: defaultNow,
	}
	if opt.Client == nil {
		if opt.Client, err = chartrepo.New(chartrepo.Options{}); err != nil {
			return nil, fmt.Errorf("chart repository client: %w", err)
		}
	}
	steps, err := newSchedule(digestPipeline)
	if err != nil {
		return nil, err
	}
	in, err := newInputs(opt)
	if err != nil {
		return nil, err
	}
	in.only = func(ch *Chart) bool { return want(ch.Meta.Name, ch.Meta.Version) }
	work, wctx := errgroup.WithContext(ctx)
	b := &build{in: in, out: &outputs{}, work: work, steps: steps, cpu: make(chan struct{}, runtime.GOMAXPROCS(0))}
	defer b.cleanup()
	steps.start(wctx, work, b)
	work.Wait()
	if err := steps.result(ctx); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, ch := range in.charts {
		if in.only(ch) {
			out[ch.Meta.Name] = ch.Digest
		}
	}
	return out, nil
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
	if client == nil {
		if client, err = chartrepo.New(chartrepo.Options{}); err != nil {
			return nil, false, fmt.Errorf("chart repository client: %w", err)
		}
	}
	ix, err := client.Index(ctx, loc)
	switch {
	case err != nil && chartrepo.NotFound(err):
		return map[string]map[string]string{}, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("published index: %w", err)
	case ix.Stale != nil:
		// A cached copy could lack the latest versions, whose packages
		// would then not be compared.
		return nil, false, fmt.Errorf("published index: %s could not be fetched (%v), and a cached copy may be stale: try again once the server answers", chartrepo.Redact(ix.URL), ix.Stale)
	}
	idx, err := repoindex.ReadPublished(ix.Data, ix.URL)
	if err != nil {
		return nil, false, err
	}
	digests = map[string]map[string]string{}
	for name, cvs := range idx.Entries {
		for _, cv := range cvs {
			if cv == nil || cv.Metadata == nil {
				continue
			}
			if digests[name] == nil {
				digests[name] = map[string]string{}
			}
			digests[name][cv.Version] = cv.Digest
		}
	}
	return digests, true, nil
}

// ComparePublished gives rule version-bump what it compares
// (lint.Options.Published and Packages): the digests the published index
// at loc lists, by chart name and version, and the digests of the packages
// of the catalogs' charts whose version it lists, made as a build of each
// catalog makes them. opt gives BaseURL, CacheDir and Client. found is
// false when loc is a URL where nothing is published yet. A catalog given
// as a schema file has no package to compare.
func ComparePublished(ctx context.Context, cats []*catalog.Catalog, loc string, opt Options) (published map[string]map[string]string, packages map[*catalog.Chart]string, found bool, err error) {
	published, found, err = PublishedDigests(ctx, opt.Client, loc)
	if err != nil {
		return nil, nil, false, err
	}
	packages = map[*catalog.Chart]string{}
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
			_, ok := published[name][version]
			return ok && linted[name] != nil
		}
		opt.Catalog = cat.Dir
		digests, err := PackageDigests(ctx, opt, want)
		if err != nil {
			return nil, nil, false, fmt.Errorf("packaging %s to compare with the published packages: %w", cat.Dir, err)
		}
		for name, d := range digests {
			packages[linted[name]] = d
		}
	}
	return published, packages, found, nil
}
