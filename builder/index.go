package builder

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/repoindex"
)

// IndexFile is the name of the chart repository index. Helm always fetches
// index.yaml; with --index-format json it holds JSON, which Helm reads too.
const IndexFile = "index.yaml"

// buildIndex makes the index of the packages just built. A version that the
// previous build into Out already had with the same digest keeps its
// creation date, so an unchanged catalog rebuilds byte for byte.
func buildIndex(c *Context) error {
	c.Previous = loadPrevious(c.Out)
	idx := repo.NewIndexFile()
	for _, ch := range c.Charts {
		md := *ch.Meta
		if err := idx.MustAdd(&md, ch.File, c.BaseURL, ch.Digest); err != nil {
			return fmt.Errorf("%s: %w", ch.Src.ChartFile, err)
		}
		cv := idx.Entries[md.Name][len(idx.Entries[md.Name])-1]
		cv.Created = c.Now().UTC()
		if prev, err := c.Previous.Get(md.Name, md.Version); err == nil && prev.Version == md.Version && sameDigest(prev.Digest, ch.Digest) {
			cv.Created = prev.Created
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
	c.Index = idx
	return nil
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

func sameDigest(a, b string) bool { return normalDigest(a) == normalDigest(b) && a != "" }

// mergePublished merges the published index: versions in both keep their
// publication date, a published version whose package changed is refused,
// published-only versions are kept (unless Prune) and their packages, when
// the index refers to them relatively, are carried into the output.
func mergePublished(c *Context) error {
	pub, base, err := loadPublished(c.Merge)
	if err != nil {
		return err
	}
	c.Published = pub
	merged, report, err := repoindex.Merge(c.Index, pub, c.Prune)
	if err != nil {
		return err
	}
	for _, cv := range report.Carried {
		if err := c.carry(cv, base); err != nil {
			return err
		}
	}
	c.Index, c.Merged = merged, report
	return nil
}

// loadPublished reads the published index from a file, a directory or a
// URL, and returns the base its relative URLs resolve against.
func loadPublished(loc string) (*repo.IndexFile, string, error) {
	if u, err := url.Parse(loc); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		src := loc
		if !strings.HasSuffix(u.Path, ".yaml") && !strings.HasSuffix(u.Path, ".json") {
			src = strings.TrimRight(loc, "/") + "/" + IndexFile
		}
		data, err := get(src)
		if err != nil {
			return nil, "", fmt.Errorf("published index: %w", err)
		}
		idx, err := repoindex.Read(data, src)
		if err != nil {
			return nil, "", err
		}
		base, _ := resolveURL(src, ".")
		return idx, base, nil
	}
	info, err := os.Stat(loc)
	if err != nil {
		return nil, "", fmt.Errorf("published index: %w", err)
	}
	file, dir := loc, filepath.Dir(loc)
	if info.IsDir() {
		file, dir = filepath.Join(loc, IndexFile), loc
	}
	idx, err := repoindex.Load(file)
	if err != nil {
		return nil, "", err
	}
	return idx, dir, nil
}

// carry copies or downloads the package of a published version the sources
// no longer hold, verified against its digest, so that its relative URL
// resolves in the new output. Absolute URLs are left as published.
func (c *Context) carry(cv *repo.ChartVersion, base string) error {
	if len(cv.URLs) == 0 {
		return fmt.Errorf("published %s %s has no URL", cv.Name, cv.Version)
	}
	ref := cv.URLs[0]
	if u, err := url.Parse(ref); err != nil || u.IsAbs() || strings.HasPrefix(ref, "/") {
		return nil
	}
	rel := path.Clean(ref)
	if rel == "." || strings.HasPrefix(rel, "../") || rel == ".." {
		return fmt.Errorf("published %s %s: URL %q leaves the repository: make it absolute or republish it", cv.Name, cv.Version, ref)
	}
	dst := filepath.Join(c.Stage, filepath.FromSlash(rel))
	if sameDigest(fileDigest(dst), cv.Digest) {
		return nil
	}
	src, err := resolveURL(toURLBase(base), rel)
	if err != nil {
		return err
	}
	if err := download(src, dst, cv.Digest); err != nil {
		return fmt.Errorf("carrying published %s %s: %w", cv.Name, cv.Version, err)
	}
	return nil
}

// toURLBase turns a directory or URL into a base URL ending in a slash.
func toURLBase(base string) string {
	if u, err := url.Parse(base); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		return strings.TrimRight(base, "/") + "/"
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		abs = base
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs) + "/"}).String()
}

// writeIndex writes the index into the staging directory.
func writeIndex(c *Context) error {
	return repoindex.WriteFile(filepath.Join(c.Stage, IndexFile), c.Index, c.IndexFormat)
}
