package launcher

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/target/catalogsfile"
)

// Source says where a chart comes from: a catalog of the catalogs file, or
// a repository given by URL.
type Source struct {
	// Catalog is the catalog entry; for --repo it is a synthetic one whose
	// ID is empty.
	Catalog *catalogsfile.Catalog
	Chart   string
}

// ParseRef reads a launch reference: CATALOG/CHART, or CHART with a
// repository URL.
func ParseRef(ref, repoURL string, file *catalogsfile.File) (*Source, error) {
	if repoURL != "" {
		if strings.Contains(ref, "/") {
			return nil, fmt.Errorf("%q: with --repo, give the chart name alone", ref)
		}
		return &Source{Catalog: &catalogsfile.Catalog{Location: repoURL}, Chart: ref}, nil
	}
	id, name, ok := strings.Cut(ref, "/")
	if !ok || id == "" || name == "" {
		return nil, fmt.Errorf("%q: write CATALOG/CHART (catalogs: %s), or CHART with --repo URL", ref, strings.Join(ids(file), ", "))
	}
	cat, err := file.Get(id)
	if err != nil {
		return nil, err
	}
	if cat.Excludes(name) {
		return nil, fmt.Errorf("catalog %q excludes the chart %q (excludedCharts)", id, name)
	}
	return &Source{Catalog: cat, Chart: name}, nil
}

func ids(f *catalogsfile.File) []string {
	var out []string
	for _, c := range f.Catalogs {
		out = append(out, c.ID)
	}
	return out
}

// Resolved is a chart picked from an index and loaded from its verified
// package.
type Resolved struct {
	Source  *Source
	Version *repo.ChartVersion
	// IndexURL and PackageURL say where they were read.
	IndexURL, PackageURL string
	Chart                *chart.Chart
	// Sliders are the catalog's slider bounds, published in its index
	// (catalog.SlidersAnnotation); empty when it publishes none.
	Sliders map[string]*region.Slider
	// Stale is set when the index came from the cache because the
	// repository could not be reached.
	Stale error
}

// Resolver fetches indexes and packages, with a cache.
type Resolver struct {
	// CacheDir holds indexes and packages; empty means the user's cache.
	CacheDir string
	// Repository returns the client that reads a catalog's index and
	// packages; nil means one built with chartrepo.New from the catalog's
	// TLS settings, keeping indexes under CacheDir.
	Repository func(cat *catalogsfile.Catalog) (*chartrepo.Client, error)
	// Progress, when set, shows package downloads: see
	// chartrepo.Client.WithProgress.
	Progress func(src string, size int64) chartrepo.Meter
}

func (r *Resolver) cacheDir() (string, error) {
	if r.CacheDir != "" {
		return r.CacheDir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: set XDG_CACHE_HOME or HOME: %w", err)
	}
	return filepath.Join(dir, "catalogist"), nil
}

// client returns the catalog's repository client and the cache
// directory.
func (r *Resolver) client(cat *catalogsfile.Catalog) (*chartrepo.Client, string, error) {
	dir, err := r.cacheDir()
	if err != nil {
		return nil, "", err
	}
	// The cache holds what the user's credentials fetched: it is theirs
	// alone, also when an older version left it open.
	for _, sub := range []string{"indexes", "packages"} {
		if err := chartrepo.PrivateDir(filepath.Join(dir, sub)); err != nil {
			return nil, "", fmt.Errorf("the cache directory: %w", err)
		}
	}
	var c *chartrepo.Client
	if r.Repository != nil {
		c, err = r.Repository(cat)
	} else {
		c, err = chartrepo.New(chartrepo.Options{SkipTLSVerify: cat.SkipTLSVerify, CAFile: cat.CAFile, CacheDir: filepath.Join(dir, "indexes")})
	}
	if err != nil {
		return nil, "", err
	}
	if r.Progress != nil {
		c = c.WithProgress(r.Progress)
	}
	return c, dir, nil
}

// lookup reads a chart's catalog index, returning it as Helm would read it
// with the chart alone in its entries (its versions newest first), and
// the index's bytes and address.
func lookup(ctx context.Context, c *chartrepo.Client, src *Source) (*repo.IndexFile, *chartrepo.Index, error) {
	ix, err := c.Index(ctx, src.Catalog.Location)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the index of %s: %w", where(src), err)
	}
	top, err := repoindex.ChartIndex(ix.Data, ix.URL, src.Chart)
	var nf *repoindex.ChartNotFoundError
	if errors.As(err, &nf) {
		msg := fmt.Sprintf("%s has no chart %q", where(src), src.Chart)
		if s := suggest.Closest(src.Chart, nf.Known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return nil, nil, errors.New(msg)
	}
	if err != nil {
		return nil, nil, err
	}
	return top, ix, nil
}

// Resolve picks the version of the chart that matches want (an exact
// version or a SemVer constraint; empty means the newest release that is
// not a pre-release), downloads its package once into the cache, verifies
// it against the index's digest and loads it.
func (r *Resolver) Resolve(ctx context.Context, src *Source, want string) (*Resolved, error) {
	c, dir, err := r.client(src.Catalog)
	if err != nil {
		return nil, err
	}
	top, ix, err := lookup(ctx, c, src)
	if err != nil {
		return nil, err
	}
	versions := top.Entries[src.Chart]
	sliders, err := catalog.DecodeSliders(top.Annotations[catalog.SlidersAnnotation])
	if err != nil {
		return nil, fmt.Errorf("%s: %w; the catalog's bounds cannot be enforced, ask its maintainers to fix its catalog.yaml sliders", ix.URL, err)
	}
	cv, err := repoindex.PickVersion(versions, want)
	if err != nil {
		return nil, fmt.Errorf("%s, chart %s: %w", where(src), src.Chart, err)
	}
	if len(cv.URLs) == 0 {
		return nil, fmt.Errorf("%s: %s %s lists no download URL", ix.URL, cv.Name, cv.Version)
	}
	pkgURL, err := chartrepo.ResolveURL(ix.Base, cv.URLs[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", ix.URL, cv.Name, cv.Version, err)
	}
	digest := chartrepo.NormalDigest(cv.Digest)
	if digest == "" {
		return nil, fmt.Errorf("%s: %s %s has no digest, so its package cannot be verified; ask the catalog's maintainers to publish one", ix.URL, cv.Name, cv.Version)
	}
	p, err := c.CachedPackage(ctx, pkgURL, cv.Digest, filepath.Join(dir, "packages"))
	if err != nil {
		return nil, fmt.Errorf("downloading %s %s from %s: %w", cv.Name, cv.Version, ix.URL, err)
	}
	ch, err := loadVerified(p, digest)
	if err != nil {
		return nil, fmt.Errorf("loading %s %s from %s: %w", cv.Name, cv.Version, chartrepo.Redact(pkgURL), err)
	}
	return &Resolved{Source: src, Version: cv, IndexURL: ix.URL, PackageURL: chartrepo.Redact(pkgURL), Chart: ch, Sliders: sliders, Stale: ix.Stale}, nil
}

// loadVerified loads a cached package, checking it is still the one the
// index describes; it is read once, from an open file, so that the bytes
// loaded are the bytes hashed.
func loadVerified(p, digest string) (*chart.Chart, error) {
	f, _, err := chartrepo.OpenRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	ch, err := loader.LoadArchive(io.TeeReader(f, h))
	if err != nil {
		return nil, err
	}
	// The loader may stop before the archive's end; what it left is hashed
	// too.
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != digest {
		return nil, &chartrepo.DigestError{Src: p, Got: got, Want: digest}
	}
	return ch, nil
}

func where(src *Source) string {
	if src.Catalog.ID != "" {
		return fmt.Sprintf("catalog %q (%s)", src.Catalog.ID, chartrepo.Redact(src.Catalog.Location))
	}
	return chartrepo.Redact(src.Catalog.Location)
}

// ChartSummary is one chart of a catalog listing.
type ChartSummary struct {
	Name, Version, Description string
}

// Charts lists a catalog's charts with their newest release, leaving out
// those the catalog excludes.
func (r *Resolver) Charts(ctx context.Context, cat *catalogsfile.Catalog) ([]ChartSummary, error) {
	c, _, err := r.client(cat)
	if err != nil {
		return nil, err
	}
	ix, err := c.Index(ctx, cat.Location)
	if err != nil {
		return nil, err
	}
	idx, err := repoindex.Read(ix.Data, ix.URL)
	if err != nil {
		return nil, err
	}
	var out []ChartSummary
	for name, versions := range idx.Entries {
		if cat.Excludes(name) || len(versions) == 0 {
			continue
		}
		cv, err := repoindex.PickVersion(versions, "")
		if err != nil {
			cv = versions[0]
		}
		out = append(out, ChartSummary{Name: name, Version: cv.Version, Description: cv.Description})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
