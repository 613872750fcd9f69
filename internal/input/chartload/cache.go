package chartload

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/Masterminds/semver/v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
)

// Cache is the dependency cache: the packages of other repositories that
// builds fetched, one directory per repository, each package named
// NAME-VERSION.tgz as Helm names it.
type Cache struct {
	// Dir is the cache's root; empty means catalogist/charts in the
	// user's cache directory.
	Dir string
}

// Root returns the cache's root directory.
func (c Cache) Root() (string, error) {
	if c.Dir != "" {
		return c.Dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for dependencies: set --cache-dir: %w", err)
	}
	return filepath.Join(dir, "catalogist", "charts"), nil
}

// RepoDir returns the directory holding a repository's packages, without
// creating it.
func (c Cache) RepoDir(repository string) (string, error) {
	root, err := c.Root()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(strings.TrimRight(repository, "/")))
	return filepath.Join(root, hex.EncodeToString(sum[:8])), nil
}

// Load loads a dependency from the cache alone: the version Chart.lock
// pins, else the newest cached version within the range the dependency
// asks for. A dependency the cache does not hold is a *MissingError.
func (c Cache) Load(_ context.Context, from string, d *chart.Dependency) (*chart.Chart, string, error) {
	if err := CheckRemote(from, d); err != nil {
		return nil, "", err
	}
	dir, err := c.RepoDir(d.Repository)
	if err != nil {
		return nil, "", err
	}
	missing := &MissingError{Name: d.Name, Version: d.Version, Repository: d.Repository, CacheDir: dir}
	if v := LockedVersion(from, d); v != "" {
		p, err := PackagePath(dir, d.Name, v)
		if err != nil {
			return nil, "", err
		}
		hc, err := loader.LoadFile(p)
		if err != nil {
			missing.Version = v
			return nil, "", missing
		}
		return hc, p, nil
	}
	p := c.newest(dir, d)
	if p == "" {
		return nil, "", missing
	}
	hc, err := loader.LoadFile(p)
	if err != nil {
		return nil, "", fmt.Errorf("dependency %s: the cached package %s does not load: %w", d.Name, p, err)
	}
	return hc, p, nil
}

// PackagePath is where a cache directory keeps a chart's package,
// NAME-VERSION.tgz; a name or version that would lead out of the directory
// (a Chart.yaml or Chart.lock is the catalog's to write) is an error.
func PackagePath(dir, name, version string) (string, error) {
	file := fmt.Sprintf("%s-%s.tgz", name, version)
	if strings.ContainsAny(file, `/\`) || strings.Contains(file, "..") || name == "" {
		return "", fmt.Errorf("dependency %q version %q does not name a package file: a chart name and version hold no path", name, version)
	}
	return filepath.Join(dir, file), nil
}

// newest is the cached package of the newest version within d's range,
// "" when none is.
func (Cache) newest(dir string, d *chart.Dependency) string {
	var con *semver.Constraints
	if d.Version != "" {
		var err error
		if con, err = semver.NewConstraint(d.Version); err != nil {
			return ""
		}
	}
	entries, _ := os.ReadDir(dir)
	best, bestPath := (*semver.Version)(nil), ""
	for _, e := range entries {
		v, ok := strings.CutPrefix(e.Name(), d.Name+"-")
		if !ok || e.IsDir() {
			continue
		}
		v, ok = strings.CutSuffix(v, ".tgz")
		if !ok {
			continue
		}
		sv, err := semver.NewVersion(v)
		if err != nil || (con != nil && !con.Check(sv)) {
			continue
		}
		if best == nil || sv.GreaterThan(best) {
			best, bestPath = sv, filepath.Join(dir, e.Name())
		}
	}
	return bestPath
}
