package repoindex

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/base/secret"
)

// ConflictError is a version already published with other content: a
// published package must never change under the same version.
type ConflictError struct {
	Chart, Version   string
	Published, Built string // digests, as found in the indexes
	// File is the first file the packages differ by, when their contents
	// were compared; URL is the published package's, redacted.
	File, URL string
}

func (e *ConflictError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("chart %q version %s is already published (%s) with other content: %s differs from the sources'; bump the chart version in Chart.yaml instead of changing a published one",
			e.Chart, e.Version, e.URL, e.File)
	}
	return fmt.Sprintf("chart %q version %s is already published with digest %s but the build produced %s; bump the chart version instead of changing a published one",
		e.Chart, e.Version, showDigest(e.Published), showDigest(e.Built))
}

// Compared holds, by chart name and version, what comparing the contents
// of a built package and of the published one of the same version, whose
// digests differ, found: the first file they differ by, "" when they hold
// the same chart.
type Compared map[string]map[string]string

func showDigest(d string) string {
	if d == "" {
		return "(none)"
	}
	return "sha256:" + normalDigest(d)
}

// normalDigest makes digests comparable: Helm writes bare hex, other
// tools prefix "sha256:" or use upper case.
func normalDigest(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	return strings.TrimPrefix(d, "sha256:")
}

// DuplicateError is a published index listing a chart version twice:
// clients get either package, and merging would have to pick one.
type DuplicateError struct {
	// File is the index's name, Lines the entries' lines (0 when unknown),
	// in the order of Digests.
	File           string
	Chart, Version string
	Digests        [2]string
	Lines          [2]int
}

func (e *DuplicateError) Error() string {
	where := "the published index"
	if e.File != "" {
		where = e.File
	}
	if e.Lines[0] > 0 && e.Lines[1] > 0 {
		where = fmt.Sprintf("%s:%d and line %d", where, e.Lines[0], e.Lines[1])
	}
	digests := fmt.Sprintf("with digests %s and %s", showDigest(e.Digests[0]), showDigest(e.Digests[1]))
	if normalDigest(e.Digests[0]) == normalDigest(e.Digests[1]) {
		digests = "both with digest " + showDigest(e.Digests[0])
	}
	return fmt.Sprintf("%s: chart %q version %s is listed twice, %s; clients may get either package: remove the wrong entry from the published index and publish it again",
		where, e.Chart, e.Version, digests)
}

// checkUnique refuses an index that lists a chart version twice, naming
// the first entry listed again, in chart order, and the entry it repeats.
// file names the index and lines gives its entries' lines, when known.
func checkUnique(idx *repo.IndexFile, file string, lines map[*repo.ChartVersion]int32) error {
	for _, name := range sortedNames(idx.Entries) {
		cvs := idx.Entries[name]
		if len(lines) > 0 {
			// The index is sorted by version: by line, the error names
			// the entries as they come.
			cvs = slices.Clone(cvs)
			slices.SortStableFunc(cvs, func(a, b *repo.ChartVersion) int { return cmp.Compare(lines[a], lines[b]) })
		}
		seen := make(map[string]*repo.ChartVersion, len(cvs))
		for _, cv := range cvs {
			if cv == nil || cv.Metadata == nil {
				continue
			}
			v := cv.Version
			first := seen[v]
			if first == nil {
				seen[v] = cv
				continue
			}
			return &DuplicateError{File: file, Chart: name, Version: v,
				Digests: [2]string{first.Digest, cv.Digest}, Lines: [2]int{int(lines[first]), int(lines[cv])}}
		}
	}
	return nil
}

// Report of a merge.
type Report struct {
	Kept    int                  // versions present in both (published created and digest kept)
	Added   int                  // versions only in the build
	Carried []*repo.ChartVersion // published-only versions kept in the result (the builder must make their relative URLs resolve)
	Pruned  []*repo.ChartVersion // published-only versions dropped because prune was set
	// Same are the versions in both whose packages differ by digest but
	// hold the same content: the published entry is kept as it is, URL
	// included (the builder must make a relative one resolve). They are
	// counted in Kept.
	Same []*repo.ChartVersion
}

// Merge returns a new index containing every version of built. A version
// also in published must have the same digest, else the error is a
// *ConflictError, or, when several versions conflict, an errors.Join of
// them all in chart and version order (errors.As finds the first). The
// result takes the published version's created date and digest, so that
// republishing leaves it unchanged, and everything else (URLs included)
// from built. Published-only versions are kept (Report.Carried) unless
// prune is set (Report.Pruned).
//
// Neither input is modified, and the result shares no memory with them:
// the Carried versions are the result's own, for the caller to edit (to
// rewrite their URLs, say). Top-level fields (annotations, public keys,
// server info) are built's. Generated is the latest created date among the
// result's versions (the inputs' latest Generated if it has none), never
// the current time, so that merging the same inputs gives the same bytes.
// A nil input is an empty index. Versions are matched by chart name and
// exact version string; a version built twice is an error, and a version
// published twice a *DuplicateError (ReadPublished names its lines).
func Merge(built, published *repo.IndexFile, prune bool) (*repo.IndexFile, *Report, error) {
	return MergeCompared(built, published, prune, nil)
}

// MergeCompared merges as Merge does, but a version whose digests differ
// is judged by what compared says of its contents: the same, and the
// published entry is kept whole (Report.Same); a file differing, and the
// *ConflictError names it. A version compared does not list is a conflict
// of digests.
func MergeCompared(built, published *repo.IndexFile, prune bool, compared Compared) (*repo.IndexFile, *Report, error) {
	built, published = orEmpty(built), orEmpty(published)
	if err := checkUnique(published, "", nil); err != nil {
		return nil, nil, err
	}
	pub := byVersion(published)
	out := &repo.IndexFile{
		ServerInfo:  cloneAnyMap(built.ServerInfo),
		APIVersion:  repo.APIVersionV1,
		Entries:     make(map[string]repo.ChartVersions, len(built.Entries)+len(published.Entries)),
		PublicKeys:  slices.Clone(built.PublicKeys),
		Annotations: maps.Clone(built.Annotations),
	}
	r := &Report{}
	var conflicts []error
	for _, name := range sortedNames(built.Entries) {
		cvs, errs, err := mergeChart(name, built.Entries[name], pub[name], compared[name], r)
		if err != nil {
			return nil, nil, err
		}
		conflicts = append(conflicts, errs...)
		out.Entries[name] = cvs
	}
	switch len(conflicts) {
	case 0:
	case 1:
		return nil, nil, conflicts[0]
	default:
		return nil, nil, errors.Join(conflicts...)
	}
	carry(out, published, built, prune, r)
	for name, cvs := range out.Entries {
		if len(cvs) == 0 {
			delete(out.Entries, name) // a chart without versions serves no one
			continue
		}
		sortVersions(cvs)
	}
	out.Generated = latest(out, built, published)
	return out, r, nil
}

func orEmpty(idx *repo.IndexFile) *repo.IndexFile {
	if idx == nil {
		return &repo.IndexFile{}
	}
	return idx
}

// byVersion indexes the versions of idx by chart and version. Of two
// entries of one version, Helm clients use the first in sorted order.
func byVersion(idx *repo.IndexFile) map[string]map[string]*repo.ChartVersion {
	out := make(map[string]map[string]*repo.ChartVersion, len(idx.Entries))
	for name, cvs := range idx.Entries {
		sorted := slices.Clone(cvs)
		sortVersions(sorted)
		m := make(map[string]*repo.ChartVersion, len(sorted))
		for _, cv := range sorted {
			if v := versionOf(cv); cv != nil && m[v] == nil {
				m[v] = cv
			}
		}
		out[name] = m
	}
	return out
}

// mergeChart merges the built versions of one chart with the published
// ones, returning the conflicts in version order.
func mergeChart(name string, built repo.ChartVersions, pub map[string]*repo.ChartVersion, compared map[string]string, r *Report) (repo.ChartVersions, []error, error) {
	sorted := slices.Clone(built)
	sortVersions(sorted)
	out := make(repo.ChartVersions, 0, len(sorted)+len(pub))
	seen := make(map[string]bool, len(sorted))
	var conflicts []error
	for _, cv := range sorted {
		if cv == nil || cv.Metadata == nil {
			return nil, nil, fmt.Errorf("merge index: chart %q has an entry without metadata", name)
		}
		if seen[cv.Version] {
			return nil, nil, fmt.Errorf("merge index: chart %q version %s is built twice", name, cv.Version)
		}
		seen[cv.Version] = true
		c := cloneVersion(cv)
		if p := pub[cv.Version]; p != nil {
			if p.Digest != "" && normalDigest(p.Digest) != normalDigest(cv.Digest) {
				file, ok := compared[cv.Version]
				if !ok || file != "" {
					conflicts = append(conflicts, &ConflictError{Chart: name, Version: cv.Version, Published: p.Digest, Built: cv.Digest, File: file, URL: publishedURL(p)})
					continue
				}
				// The same chart, packaged by another tool: what is
				// published stays as it is.
				c = cloneVersion(p)
				r.Same = append(r.Same, c)
				r.Kept++
				out = append(out, c)
				continue
			}
			// A published index without a digest (Helm 2 era) cannot
			// prove a change: the build's digest is taken.
			c.Created = p.Created
			if p.Digest != "" {
				c.Digest = p.Digest
			}
			r.Kept++
		} else {
			r.Added++
		}
		out = append(out, c)
	}
	return out, conflicts, nil
}

// publishedURL is the first URL of a published version, redacted.
func publishedURL(cv *repo.ChartVersion) string {
	if len(cv.URLs) == 0 {
		return "no URL"
	}
	return secret.RedactURL(cv.URLs[0])
}

// carry adds to out, or reports as pruned, the published versions built
// does not have, in chart and version order.
func carry(out, published, built *repo.IndexFile, prune bool, r *Report) {
	builtVersions := byVersion(built)
	for _, name := range sortedNames(published.Entries) {
		cvs := slices.Clone(published.Entries[name])
		sortVersions(cvs)
		seen := map[string]bool{}
		for _, p := range cvs {
			v := versionOf(p)
			if p == nil || p.Metadata == nil || builtVersions[name][v] != nil || seen[v] {
				continue
			}
			seen[v] = true
			c := cloneVersion(p)
			if prune {
				r.Pruned = append(r.Pruned, c)
				continue
			}
			r.Carried = append(r.Carried, c)
			out.Entries[name] = append(out.Entries[name], c)
		}
	}
}

// latest is the newest created date of out's versions, or of the inputs'
// Generated when it has none.
func latest(out, built, published *repo.IndexFile) time.Time {
	var t time.Time
	for _, cvs := range out.Entries {
		for _, cv := range cvs {
			if cv.Created.After(t) {
				t = cv.Created
			}
		}
	}
	if t.IsZero() {
		t = built.Generated
		if published.Generated.After(t) {
			t = published.Generated
		}
	}
	return t
}

// cloneVersion copies cv deeply enough that editing the copy, its
// metadata, lists and maps included, leaves cv alone.
func cloneVersion(cv *repo.ChartVersion) *repo.ChartVersion {
	c := *cv
	c.URLs = slices.Clone(cv.URLs)
	if cv.Metadata != nil {
		md := *cv.Metadata
		md.Sources = slices.Clone(md.Sources)
		md.Keywords = slices.Clone(md.Keywords)
		md.Annotations = maps.Clone(md.Annotations)
		md.Maintainers = cloneEach(md.Maintainers, func(m chart.Maintainer) chart.Maintainer { return m })
		md.Dependencies = cloneEach(md.Dependencies, func(d chart.Dependency) chart.Dependency {
			d.Tags = slices.Clone(d.Tags)
			d.ImportValues = cloneAnyList(d.ImportValues)
			return d
		})
		c.Metadata = &md
	}
	return &c
}

func cloneEach[T any](list []*T, clone func(T) T) []*T {
	if list == nil {
		return nil
	}
	out := make([]*T, len(list))
	for i, p := range list {
		if p != nil {
			v := clone(*p)
			out[i] = &v
		}
	}
	return out
}

func cloneAny(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return cloneAnyMap(v)
	case []any:
		return cloneAnyList(v)
	}
	return v
}

func cloneAnyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneAny(v)
	}
	return out
}

func cloneAnyList(list []any) []any {
	if list == nil {
		return nil
	}
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = cloneAny(v)
	}
	return out
}
