package builder

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/Masterminds/semver/v3"
	"github.com/catalogist/catalogist/chartrepo"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
)

// packageCharts makes <name>-<version>.tgz for every chart in the staging
// directory, reusing the previous build's package when the chart's content
// hash is unchanged. Charts are packaged in parallel, each after the catalog
// charts it depends on; changed charts without dependencies were started
// during discovery already (see packageEarly).
func packageCharts(c *Context) error {
	done := make(map[*Chart]chan struct{}, len(c.Charts))
	for _, ch := range c.Charts {
		done[ch] = make(chan struct{})
	}
	errs := make([]error, len(c.Charts))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, ch := range c.Charts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done[ch])
			if early := c.early[ch]; early != nil && <-early == nil {
				return
			}
			for _, d := range ch.deps {
				<-done[d]
			}
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := c.reuse(ch); err == nil {
				return
			}
			if err := c.packageChart(ch); err != nil {
				errs[i] = fmt.Errorf("%s: %w", ch.Src.Dir, err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// reuse links the previous build's package into the staging directory when
// the chart has not changed since.
func (c *Context) reuse(ch *Chart) error {
	prev := c.previous.Charts[ch.Meta.Name]
	if prev == nil || prev.Hash != ch.Hash || prev.File == "" {
		return errors.New("changed")
	}
	if err := c.linkPrevious(prev.File); err != nil {
		return err
	}
	ch.File, ch.Digest, ch.Reused = prev.File, prev.Digest, true
	return nil
}

// packageEarly starts packaging, while discovery goes on, a chart it has
// just found changed, when the chart has no dependencies: its hash is then
// known already, and nothing else of the catalog is needed. Packaging waits
// for the staging directory; packageCharts takes the result, or packages
// the chart again after a failure, to report it.
func (c *Context) packageEarly(ch *Chart) {
	if len(ch.Meta.Dependencies) > 0 || c.staged == nil {
		return
	}
	if prev := c.previous.Charts[ch.Meta.Name]; prev != nil && prev.File != "" && prev.Hash == chartHash(ch.ownHash, nil) {
		return
	}
	res := make(chan error, 1)
	c.earlyMu.Lock()
	if c.early == nil {
		c.early = map[*Chart]chan error{}
	}
	c.early[ch] = res
	c.earlyMu.Unlock()
	c.earlyWG.Add(1)
	go func() {
		defer c.earlyWG.Done()
		<-c.staged
		c.packSem <- struct{}{}
		defer func() { <-c.packSem }()
		if c.tree == nil {
			res <- errors.New("no staging directory")
			return
		}
		hc, err := loader.LoadDir(ch.Src.Dir)
		switch {
		case err != nil:
		case len(hc.Metadata.Dependencies) > 0:
			err = errors.New("Chart.yaml changed since discovery")
		default:
			err = c.save(ch, hc)
		}
		res <- err
	}()
}

func (c *Context) packageChart(ch *Chart) error {
	hc, err := c.loadWithDependencies(ch)
	if err != nil {
		return err
	}
	return c.save(ch, hc)
}

// save writes a loaded chart's package into the staging directory.
func (c *Context) save(ch *Chart, hc *chart.Chart) error {
	hc.StampModTimes(c.Epoch)
	// Save names the package so, and would write through a file there.
	name := fmt.Sprintf("%s-%s.tgz", hc.Name(), hc.Metadata.Version)
	if err := c.tree.clear(name); err != nil {
		return err
	}
	path, err := chartutil.Save(hc, c.Stage)
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
func (c *Context) loadWithDependencies(ch *Chart) (*chart.Chart, error) {
	hc, err := loader.LoadDir(ch.Src.Dir)
	if err != nil {
		return nil, fmt.Errorf("loading chart: %w", err)
	}
	vendored := map[string]bool{}
	for _, d := range hc.Dependencies() {
		vendored[d.Name()] = true
	}
	for _, d := range hc.Metadata.Dependencies {
		if vendored[d.Name] {
			continue
		}
		var sub *chart.Chart
		if local, ok := c.localDependency(ch, d.Name, d.Repository); ok {
			if sub, err = c.loadWithDependencies(local); err != nil {
				return nil, fmt.Errorf("dependency %s: %w", d.Name, err)
			}
			if err := checkConstraint(d, sub.Metadata.Version); err != nil {
				if strings.HasPrefix(d.Repository, "file://") {
					return nil, err
				}
				// An older version of the catalog's own chart: it is
				// only in the published repository.
				sub = nil
			}
		}
		if sub == nil {
			if sub, err = c.remoteDependency(ch, d); err != nil {
				return nil, err
			}
		}
		hc.AddDependency(sub)
		vendored[d.Name] = true
	}
	return hc, nil
}

func checkConstraint(d *chart.Dependency, version string) error {
	if d.Version == "" {
		return nil
	}
	con, err := semver.NewConstraint(d.Version)
	if err != nil {
		return fmt.Errorf("dependency %s: version %q is not a SemVer range: %w", d.Name, d.Version, err)
	}
	v, err := semver.NewVersion(version)
	if err != nil {
		return fmt.Errorf("dependency %s: version %q is not SemVer: %w", d.Name, version, err)
	}
	if !con.Check(v) {
		return fmt.Errorf("dependency %s: the catalog's chart is at version %s, outside %q: update the range in Chart.yaml", d.Name, version, d.Version)
	}
	return nil
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
