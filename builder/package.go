package builder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// packageCharts makes <name>-<version>.tgz for every chart in the staging
// directory, reusing the previous build's package when the chart's content
// hash is unchanged. Charts are packaged in parallel, each after the catalog
// charts it depends on; changed charts without dependencies were started
// during discovery already (see startEarly).
func packageCharts(ctx context.Context, b *build) error {
	for _, ch := range b.in.charts {
		b.startPackaging(ctx, ch)
	}
	errs := make([]error, len(b.in.charts))
	for i, ch := range b.in.charts {
		// Waited for to its end, not ctx's: a packaging stops once ctx
		// ends, and its own error says where.
		if _, err := ch.pkg.wait(); err != nil {
			errs[i] = fmt.Errorf("%s: %w", ch.Src.Dir, err)
			continue
		}
		// Told here, in the order of the charts, rather than as each
		// packaging ends: discovery, which the first ones run alongside,
		// has not counted the charts yet.
		b.in.report("package", ch.Meta.Name, ch.took, ch.Reused)
	}
	return errors.Join(errs...)
}

// startPackaging starts a chart's packaging unless it is started already:
// once the catalog charts it depends on are packaged (or failed to be),
// its package is the previous build's when the chart has not changed since,
// else a new one.
func (b *build) startPackaging(ctx context.Context, ch *Chart) {
	ch.pkg.start(b.work, func() (struct{}, error) {
		for _, d := range ch.deps {
			d.pkg.await(ctx)
		}
		// Discovery starts charts before the staging directory may be
		// there.
		if err := b.steps.await(ctx, "stage"); err != nil {
			return struct{}{}, errors.New("no staging directory")
		}
		select {
		case b.cpu <- struct{}{}:
		case <-ctx.Done():
			return struct{}{}, ctx.Err()
		}
		defer func() { <-b.cpu }()
		begin := time.Now()
		defer func() { ch.took = time.Since(begin) }()
		if err := b.reuse(ch); err == nil {
			return struct{}{}, nil
		}
		return struct{}{}, b.packageChart(ctx, ch)
	})
}

// startEarly starts packaging, while discovery goes on, a chart without
// dependencies it has just found changed: its hash is known already, and
// nothing else of the catalog is needed.
func (b *build) startEarly(ctx context.Context, ch *Chart) {
	if b.in.only != nil && !b.in.only(ch) {
		return
	}
	if prev := b.in.previous.Charts[ch.Meta.Name]; prev == nil || prev.File == "" || prev.Hash != ch.Hash {
		b.startPackaging(ctx, ch)
	}
}

// reuse links the previous build's package into the staging directory when
// the chart has not changed since.
func (b *build) reuse(ch *Chart) error {
	prev := b.in.previous.Charts[ch.Meta.Name]
	if prev == nil || prev.Hash != ch.Hash || prev.File == "" {
		return errors.New("changed")
	}
	if err := b.linkPrevious(prev.File); err != nil {
		return err
	}
	ch.File, ch.Digest, ch.Reused = prev.File, prev.Digest, true
	return nil
}

func (b *build) packageChart(ctx context.Context, ch *Chart) error {
	hc, err := b.loadWithDependencies(ctx, ch)
	if err != nil {
		return err
	}
	return b.save(ch, hc)
}

// save writes a loaded chart's package into the staging directory.
func (b *build) save(ch *Chart, hc *chart.Chart) error {
	hc.StampModTimes(b.in.epoch)
	// Save names the package so, and would write through a file there.
	name := fmt.Sprintf("%s-%s.tgz", hc.Name(), hc.Metadata.Version)
	if err := b.stage.tree.clear(name); err != nil {
		return err
	}
	path, err := chartutil.Save(hc, b.stage.dir)
	if err != nil {
		return fmt.Errorf("packaging: %w", err)
	}
	if filepath.Base(path) != name {
		return fmt.Errorf("packaging: wrote %s, not %s", path, name)
	}
	digest := chartrepo.FileDigest(path)
	if digest == "" {
		return fmt.Errorf("reading back %s", path)
	}
	ch.File, ch.Digest = filepath.Base(path), digest
	return nil
}

// loadWithDependencies loads a chart directory and adds the dependencies
// Chart.yaml lists that are not vendored under charts/: catalog charts from
// their sources, others from the dependency cache.
func (b *build) loadWithDependencies(ctx context.Context, ch *Chart) (*chart.Chart, error) {
	hc, _, err := b.loader(ch).Load(ctx, ch.Src.Dir)
	return hc, err
}

// depLoader loads the catalog's charts for lint to render, as the build
// packages them. Lint starts once discovery has ended.
func (b *build) depLoader() *chartload.Loader {
	l := b.loader(nil)
	l.Loaded = nil
	return l
}

// loader loads a chart as the build packages it: catalog dependencies from
// their sources, others from the cache, fetched once. The catalog's list of
// charts is only read for a chart with dependencies, which discovery
// packages once it has ended.
func (b *build) loader(root *Chart) *chartload.Loader {
	at := func(dir string) *Chart {
		if root != nil && dir == root.Src.Dir {
			return root
		}
		for _, ch := range b.in.byName {
			if ch.Src.Dir == dir {
				return ch
			}
		}
		return nil
	}
	return &chartload.Loader{
		Local: func(from, name, repository string) (string, bool) {
			ch := at(from)
			if ch == nil {
				return "", false
			}
			dep, ok := b.in.localDependency(ch, name, repository)
			if !ok {
				return "", false
			}
			return dep.Src.Dir, true
		},
		Remote: b.remoteDependency,
		Loaded: func(dir string, hc *chart.Chart) error {
			// Packaged while discovery goes on (see startEarly), whose
			// list of charts is not to be read yet.
			if root != nil && dir == root.Src.Dir && len(root.Meta.Dependencies) == 0 && len(hc.Metadata.Dependencies) > 0 {
				return fmt.Errorf("%s changed since the build started: build again", root.Src.ChartFile)
			}
			return nil
		},
	}
}

// linkOrCopy hard-links src to dst, copying when links are not possible
// (another file system). Files of a published output are never written to,
// only replaced, so sharing them is safe.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return nil
}

// parallel runs f(0) to f(n-1) on a few goroutines. The work it is used
// for waits on the file system more than on the processor, hence more
// goroutines than cores.
func parallel(n int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(n, 4*runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
