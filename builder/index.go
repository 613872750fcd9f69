package builder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/repoindex"
)

// IndexFile is the name of the chart repository index. Helm always fetches
// index.yaml; with --index-format json it holds JSON, which Helm reads too.
const IndexFile = "index.yaml"

// buildIndex makes the index of the packages just built. A version that the
// previous build into Out already had with the same digest keeps its
// creation date, so an unchanged catalog rebuilds byte for byte.
func buildIndex(_ context.Context, b *build) error {
	in := b.in
	// Packaging computed the digests of the packages it made; those of the
	// reused ones, which verifyOutput needs for relative URLs, are computed
	// meanwhile.
	for _, ch := range in.charts {
		switch {
		case !ch.Reused:
			b.stagedPackage(ch.File, ch.Digest)
		case in.BaseURL == "" && in.PackageURL == nil:
			b.hashStaged(ch.File)
		}
	}
	idx := repo.NewIndexFile()
	if in.catalog.Config != nil {
		v, err := catalog.EncodeSliders(in.catalog.Config.Sliders)
		if err != nil {
			return err
		}
		if v != "" {
			idx.Annotations = map[string]string{catalog.SlidersAnnotation: v}
		}
	}
	for _, ch := range in.charts {
		md := *ch.Meta
		if err := idx.MustAdd(&md, ch.File, in.BaseURL, ch.Digest); err != nil {
			return fmt.Errorf("%s: %w", ch.Src.ChartFile, err)
		}
		cv := idx.Entries[md.Name][len(idx.Entries[md.Name])-1]
		if in.PackageURL != nil {
			u, err := packageURL(in.PackageURL, md.Name, md.Version, ch.File)
			if err != nil {
				return fmt.Errorf("%s: %w", ch.Src.ChartFile, err)
			}
			cv.URLs = []string{u}
		}
		cv.Created = in.Now().UTC()
		if created, ok := in.previousCreated(ch); ok {
			cv.Created = created
		}
	}
	idx.SortEntries()
	// The index's date is that of its newest version, not the build's, so
	// that rebuilding the same sources gives the same bytes.
	idx.Generated = time.Time{}
	for _, cvs := range idx.Entries {
		for _, cv := range cvs {
			if cv.Created.After(idx.Generated) {
				idx.Generated = cv.Created
			}
		}
	}
	b.out.index = idx
	return nil
}

// packageURL asks Options.PackageURL where a package is published. The
// index must name it absolutely: a relative URL would resolve against the
// index's address, where such a package is not.
func packageURL(f func(name, version, file string) string, name, version, file string) (string, error) {
	u := f(name, version, file)
	if p, err := url.Parse(u); err != nil || !p.IsAbs() || (p.Scheme != "https" && p.Scheme != "http") {
		return "", fmt.Errorf("the package of %s %s would be published at %q, which is not an absolute http(s) URL", name, version, u)
	}
	return u, nil
}

// previousCreated returns the creation date the previous build into Out
// gave the chart's version, if it had the same digest. The recorded state
// holds the date and digest of the version the chart had then: for that
// version, the previous index can say nothing else. For another, the
// previous index is read (once): a merge may have put the version there.
func (in *inputs) previousCreated(ch *Chart) (time.Time, bool) {
	if prev := in.previous.Charts[ch.Meta.Name]; prev != nil && prev.Meta != nil && !prev.Created.IsZero() && prev.Meta.Version == ch.Meta.Version {
		return prev.Created, chartrepo.SameDigest(prev.Digest, ch.Digest)
	}
	if prev, err := in.previousIndex().Get(ch.Meta.Name, ch.Meta.Version); err == nil && prev.Version == ch.Meta.Version && chartrepo.SameDigest(prev.Digest, ch.Digest) {
		return prev.Created, true
	}
	return time.Time{}, false
}

// loadPrevious reads the index of the last build into out; any problem
// means there is nothing to keep.
func loadPrevious(out string) *repo.IndexFile {
	idx, err := repoindex.Load(filepath.Join(out, IndexFile))
	if err != nil {
		return repo.NewIndexFile()
	}
	return idx
}

// mergePublished merges the published index: versions in both keep their
// publication date, a published version whose package holds the same
// content under another digest is kept as published (see compare.go), one
// whose content changed is refused,
// published-only versions are kept (unless Prune) and their packages, when
// the index refers to them relatively, are carried into the output.
func mergePublished(ctx context.Context, b *build) error {
	in := b.in
	pub, base, err := loadPublished(ctx, in.Client, in.Merge)
	if err != nil && in.MergeOptional && missing(err) {
		fmt.Fprintf(in.Log, "no published index at %s yet: merging nothing, as for a first publication\n", chartrepo.Redact(in.Merge))
		pub, err = repo.NewIndexFile(), nil
	}
	if err != nil {
		return err
	}
	compared, cached, err := b.compareWithPublished(ctx, pub, base)
	if err != nil {
		return err
	}
	merged, report, err := repoindex.MergeCompared(b.out.index, pub, in.Prune, compared)
	if err != nil {
		return err
	}
	for _, cv := range report.Same {
		if err := b.keepPublished(ctx, cv, cached[chartrepo.NormalDigest(cv.Digest)]); err != nil {
			return err
		}
	}
	for _, cv := range report.Carried {
		if err := b.carry(ctx, cv, base); err != nil {
			return err
		}
	}
	b.out.index, b.out.merged = merged, report
	return nil
}

// loadPublished reads the published index from a file, a directory or a
// URL, and returns the base its relative URLs resolve against. The index
// the build replaces must be the one published now: a cached copy, which
// a failing server leaves, would drop what was published since, so any
// failure to fetch it fails the build.
func loadPublished(ctx context.Context, client *chartrepo.Client, loc string) (*repo.IndexFile, string, error) {
	ix, err := client.Index(ctx, loc)
	switch {
	case err != nil && missing(err):
		return nil, "", fmt.Errorf("published index: %w: for the first publication, when nothing is published there yet, add --merge-optional", err)
	case err != nil:
		return nil, "", fmt.Errorf("published index: %w: the build does not go on without it, for it would drop what is published: try again once it can be read", err)
	case ix.Stale != nil:
		return nil, "", fmt.Errorf("published index: %s could not be fetched (%v), and a cached copy may be stale: try again once the server answers", ix.URL, ix.Stale)
	}
	idx, err := repoindex.ReadPublished(ix.Data, ix.URL)
	if err != nil {
		return nil, "", err
	}
	return idx, ix.Base, nil
}

// missing reports whether reading a published index failed because there
// is none: a 404 or 410 answer, or no such file. Any other failure, a
// permission denied included, could hide a published index.
func missing(err error) bool {
	return chartrepo.NotFound(err) || errors.Is(err, fs.ErrNotExist)
}

// relativeURL returns the path in the output of a package URL relative to
// the index, ok false for an absolute URL, and an error for one that
// leaves the repository.
func relativeURL(ref string) (string, bool, error) {
	if u, err := url.Parse(ref); err != nil || u.IsAbs() || strings.HasPrefix(ref, "/") {
		return "", false, nil
	}
	rel := path.Clean(ref)
	if rel == "." || strings.HasPrefix(rel, "../") || rel == ".." {
		return "", false, fmt.Errorf("URL %q leaves the repository: make it absolute or republish it", ref)
	}
	return rel, true, nil
}

// carry copies or downloads the package of a published version the sources
// no longer hold, verified against its digest, so that its relative URL
// resolves in the new output. Absolute URLs are left as published.
func (b *build) carry(ctx context.Context, cv *repo.ChartVersion, base string) error {
	if len(cv.URLs) == 0 {
		return fmt.Errorf("published %s %s has no URL", cv.Name, cv.Version)
	}
	rel, ok, err := relativeURL(cv.URLs[0])
	if err != nil {
		return fmt.Errorf("published %s %s: %w", cv.Name, cv.Version, err)
	}
	if !ok {
		return nil
	}
	dst := filepath.Join(b.stage.dir, filepath.FromSlash(rel))
	// A package kept from a recycled staging directory, or carried for
	// another version already, may be the one.
	if b.stage.tree.keep(rel) || b.stage.tree.claimedFile(rel) {
		if chartrepo.SameDigest(chartrepo.FileDigest(dst), cv.Digest) {
			b.stagedPackage(rel, cv.Digest)
			return nil
		}
	}
	// The download replaces the file by a rename, never writing through it.
	if err := b.stage.tree.clear(rel); err != nil {
		return err
	}
	src, err := chartrepo.ResolveURL(base, rel)
	if err != nil {
		return err
	}
	if err := b.in.Client.Download(ctx, src, dst, cv.Digest); err != nil {
		return fmt.Errorf("carrying published %s %s: %w", cv.Name, cv.Version, err)
	}
	if cv.Digest != "" {
		// Download verified it.
		b.stagedPackage(rel, cv.Digest)
	}
	return nil
}

// writeIndex writes the index into the staging directory.
func writeIndex(_ context.Context, b *build) error {
	var buf bytes.Buffer
	if err := repoindex.Encode(&buf, b.out.index, b.in.IndexFormat); err != nil {
		return err
	}
	b.out.indexData = buf.Bytes()
	return b.writeFile(IndexFile, b.out.indexData)
}
