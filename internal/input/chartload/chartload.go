// Package chartload loads a catalog's charts as Helm charts with their
// dependencies, the way a build packages them: charts vendored under charts/
// as they are, the catalog's own charts from their sources (named by a
// file:// path or by the address the catalog is published at), and others
// from the dependency cache. The build, lint's rendering and the version
// comparison all load through it, so that what lint renders is what the
// build packages.
package chartload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/Masterminds/semver/v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"sigs.k8s.io/yaml"
)

// Loader loads chart directories with their dependencies.
type Loader struct {
	// Local returns the directory of the catalog chart that a dependency
	// of the chart in from designates (by its name and repository), if
	// any. Nil means no dependency is the catalog's.
	Local func(from, name, repository string) (dir string, ok bool)
	// Remote loads a dependency that is not one of the catalog's charts,
	// or a version of one that only the published repository still holds;
	// it returns the archive the chart was read from. Nil means the
	// dependency cache alone, offline (Cache.Load with the zero Cache).
	Remote func(ctx context.Context, from string, d *chart.Dependency) (*chart.Chart, string, error)
	// Loaded, when set, is given each chart directory as it is loaded,
	// before its dependencies are added; an error stops the load.
	Loaded func(dir string, hc *chart.Chart) error
}

// Origin says where a loaded chart and its dependencies were read from, so
// that a template Helm names can be found again in the catalog.
type Origin struct {
	// Dir is the chart's source directory, "" for a chart read from an
	// archive.
	Dir string
	// Archive is the .tgz the chart was read from (in the dependency
	// cache, or vendored under charts/), "" for a directory.
	Archive string
	// Deps are the origins of the chart's dependencies, by the name Helm
	// gives them in template names (the alias when there is one).
	Deps map[string]*Origin
}

// Load loads the chart in dir and adds the dependencies Chart.yaml lists
// that are not vendored under charts/.
func (l *Loader) Load(ctx context.Context, dir string) (*chart.Chart, *Origin, error) {
	return l.load(ctx, dir, nil)
}

// Complete is Load for a chart already loaded from dir by LoadChart: it
// adds the dependencies that are not vendored to it.
func (l *Loader) Complete(ctx context.Context, dir string, hc *chart.Chart) (*chart.Chart, *Origin, error) {
	abs, _ := filepath.Abs(dir)
	return l.complete(ctx, dir, hc, []string{abs})
}

// LoadChart loads a chart directory alone, as Helm's loader reads it.
func LoadChart(dir string) (*chart.Chart, error) {
	hc, err := loader.LoadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("loading chart: %w", err)
	}
	return hc, nil
}

func (l *Loader) load(ctx context.Context, dir string, seen []string) (*chart.Chart, *Origin, error) {
	abs, _ := filepath.Abs(dir)
	for _, s := range seen {
		if s == abs {
			return nil, nil, fmt.Errorf("dependency cycle through %s", dir)
		}
	}
	hc, err := LoadChart(dir)
	if err != nil {
		return nil, nil, err
	}
	return l.complete(ctx, dir, hc, append(seen, abs))
}

func (l *Loader) complete(ctx context.Context, dir string, hc *chart.Chart, seen []string) (*chart.Chart, *Origin, error) {
	if l.Loaded != nil {
		if err := l.Loaded(dir, hc); err != nil {
			return nil, nil, err
		}
	}
	o := &Origin{Dir: dir, Deps: map[string]*Origin{}}
	vendored := map[string]bool{}
	for _, d := range hc.Dependencies() {
		vendored[d.Name()] = true
		o.Deps[d.Name()] = vendoredOrigin(dir, d)
	}
	for _, d := range hc.Metadata.Dependencies {
		if d == nil || vendored[d.Name] {
			continue
		}
		sub, so, err := l.dependency(ctx, dir, d, seen)
		if err != nil {
			var de *DependencyError
			if !errors.As(err, &de) {
				err = &DependencyError{Name: d.Name, Err: err}
			}
			return nil, nil, err
		}
		hc.AddDependency(sub)
		vendored[d.Name] = true
		o.Deps[d.Name] = so
	}
	for _, d := range hc.Metadata.Dependencies {
		if d != nil && d.Alias != "" && o.Deps[d.Name] != nil {
			o.Deps[d.Alias] = o.Deps[d.Name]
		}
	}
	return hc, o, nil
}

// dependency loads one dependency that is not vendored: the catalog's
// chart when it satisfies the version asked for, else from Remote.
func (l *Loader) dependency(ctx context.Context, from string, d *chart.Dependency, seen []string) (*chart.Chart, *Origin, error) {
	if l.Local != nil {
		if dir, ok := l.Local(from, d.Name, d.Repository); ok {
			sub, so, err := l.load(ctx, dir, seen)
			if err != nil {
				return nil, nil, fmt.Errorf("dependency %s: %w", d.Name, err)
			}
			err = CheckConstraint(d, sub.Metadata.Version)
			if err == nil {
				return sub, so, nil
			}
			if strings.HasPrefix(d.Repository, "file://") {
				return nil, nil, err
			}
			// An older version of the catalog's own chart: only the
			// published repository still holds it.
		}
	}
	remote := l.Remote
	if remote == nil {
		remote = Cache{}.Load
	}
	sub, archive, err := remote(ctx, from, d)
	if err != nil {
		return nil, nil, err
	}
	return sub, archiveOrigin(archive, sub), nil
}

// vendoredOrigin finds the entry of dir/charts/ that Helm read a vendored
// dependency from: a directory whose Chart.yaml names it, or its archive.
func vendoredOrigin(dir string, d *chart.Chart) *Origin {
	base := filepath.Join(dir, "charts")
	entries, _ := os.ReadDir(base)
	for _, e := range entries {
		p := filepath.Join(base, e.Name())
		if e.IsDir() {
			var meta chart.Metadata
			if data, err := os.ReadFile(filepath.Join(p, "Chart.yaml")); err == nil && yaml.Unmarshal(data, &meta) == nil && meta.Name == d.Name() {
				return &Origin{Dir: p, Deps: subOrigins(p, d)}
			}
			continue
		}
		if strings.HasSuffix(e.Name(), ".tgz") && d.Metadata != nil && e.Name() == d.Name()+"-"+d.Metadata.Version+".tgz" {
			return archiveOrigin(p, d)
		}
	}
	return archiveOrigin("", d)
}

// subOrigins are the origins of a vendored directory's own vendored
// dependencies.
func subOrigins(dir string, c *chart.Chart) map[string]*Origin {
	out := map[string]*Origin{}
	for _, d := range c.Dependencies() {
		out[d.Name()] = vendoredOrigin(dir, d)
	}
	return out
}

// archiveOrigin is the origin of a chart read from an archive, and of the
// dependencies inside it.
func archiveOrigin(archive string, c *chart.Chart) *Origin {
	o := &Origin{Archive: archive, Deps: map[string]*Origin{}}
	for _, d := range c.Dependencies() {
		o.Deps[d.Name()] = archiveOrigin(archive, d)
	}
	return o
}

// Locate finds the file of a template Helm names ("web/templates/a.yaml",
// "web/charts/lib/templates/_b.tpl"), given the loaded chart's origin: the
// file in the sources, or, for a template read from an archive, the
// archive and the template's path inside its chart. ok is false when the
// name does not lead to a known chart.
func (o *Origin) Locate(name string) (file, archive, inChart string, ok bool) {
	_, rest, found := strings.Cut(name, "/")
	if !found || o == nil {
		return "", "", "", false
	}
	cur := o
	for {
		sub, after, isSub := strings.Cut(rest, "/")
		if sub != "charts" || !isSub {
			break
		}
		depName, deeper, found := strings.Cut(after, "/")
		next := cur.Deps[depName]
		if !found || next == nil {
			return "", "", "", false
		}
		cur, rest = next, deeper
	}
	if cur.Dir != "" {
		return filepath.Join(cur.Dir, filepath.FromSlash(rest)), "", rest, true
	}
	return "", cur.Archive, rest, true
}

// CheckConstraint reports whether version satisfies the range a
// dependency asks for.
func CheckConstraint(d *chart.Dependency, version string) error {
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

// LockedVersion is the version the Chart.lock beside a chart pins a
// dependency to, if any.
func LockedVersion(dir string, d *chart.Dependency) string {
	data, err := os.ReadFile(filepath.Join(dir, "Chart.lock"))
	if err != nil {
		return ""
	}
	var lock chart.Lock
	if yaml.Unmarshal(data, &lock) != nil {
		return ""
	}
	for _, l := range lock.Dependencies {
		if l != nil && l.Name == d.Name && strings.TrimRight(l.Repository, "/") == strings.TrimRight(d.Repository, "/") {
			return l.Version
		}
	}
	return ""
}

// CheckRemote refuses a dependency whose repository no cache or fetch can
// serve: only http(s) chart repositories are fetched.
func CheckRemote(from string, d *chart.Dependency) error {
	if strings.HasPrefix(d.Repository, "https://") || strings.HasPrefix(d.Repository, "http://") {
		return nil
	}
	if strings.HasPrefix(d.Repository, "file://") {
		return fmt.Errorf("dependency %s: %s is not a chart of this catalog: file:// dependencies must point at a chart directory of the catalog", d.Name, d.Repository)
	}
	return fmt.Errorf("dependency %s: repository %q is not supported: use an https chart repository, a file:// path to a chart of this catalog, or vendor the chart under %s", d.Name, d.Repository, filepath.Join(from, "charts"))
}

// DependencyError is a dependency that could not be loaded: the chart
// itself loads.
type DependencyError struct {
	Name string
	Err  error
}

func (e *DependencyError) Error() string { return e.Err.Error() }
func (e *DependencyError) Unwrap() error { return e.Err }

// MissingError is a dependency that neither the catalog nor the cache
// holds, which an offline load cannot get.
type MissingError struct {
	Name, Version, Repository string
	// CacheDir is where the cache keeps the repository's charts.
	CacheDir string
}

func (e *MissingError) Error() string {
	v := e.Version
	if v == "" {
		v = "(any version)"
	}
	return fmt.Sprintf("dependency %s %s from %s is not in the catalog nor in the dependency cache %s", e.Name, v, e.Repository, e.CacheDir)
}

// IsMissing reports whether err is a dependency that could not be had
// offline.
func IsMissing(err error) (*MissingError, bool) {
	var me *MissingError
	ok := errors.As(err, &me)
	return me, ok
}
