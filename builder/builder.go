// Package builder turns a catalog repository into a published chart
// repository: reproducible packages, a merged index.yaml and the catalog's
// site, assembled in a staging directory and renamed into place. A build is
// an ordered list of small named steps sharing one Context.
package builder

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/lint"
	"github.com/catalogist/catalogist/region"
	"github.com/catalogist/catalogist/repoindex"
)

// Options configure a build.
type Options struct {
	// Catalog is the catalog repository's directory; Out the output
	// directory, replaced as a whole when the build succeeds.
	Catalog, Out string
	// BaseURL, when set, makes package URLs absolute. The address users add
	// the repository with is BaseURL, else catalog.yaml's baseURL.
	BaseURL string
	// Merge is the currently published index: a file, a directory or a URL.
	Merge string
	// Prune drops published versions that are no longer in the sources.
	Prune bool
	// IndexFormat is "yaml" (default) or "json".
	IndexFormat string
	// RegionFile (with RegionID for a regions.json of several), when set,
	// bounds the options in lint and on the site.
	RegionFile, RegionID string
	// Templates overrides the site's templates by file name.
	Templates string
	// ExtensionKey overrides the catalog's extension key.
	ExtensionKey string
	// CacheDir holds dependencies fetched from remote repositories.
	CacheDir string
	// Now stamps the creation date of new versions; nil means
	// SOURCE_DATE_EPOCH when set, else the current time.
	Now func() time.Time
	// Log receives progress and the lint report.
	Log io.Writer
	// LintFormat is the format of the lint report (default text).
	LintFormat string
}

// Context is what the steps share.
type Context struct {
	Options
	Catalog *catalog.Catalog
	// Stage is the staging directory that becomes Out.
	Stage string
	// Charts are the catalog's charts in dependency order.
	Charts []*Chart
	byName map[string]*Chart
	// Index is the index being built; Published the merged-in one and
	// Previous the one of the last build into Out, whose creation dates
	// unchanged versions keep.
	Index, Published, Previous *repo.IndexFile
	// Merged reports what the merge kept, added, carried and pruned.
	Merged *repoindex.Report
	// Lint is the lint result.
	Lint *lint.Result
	// RepoURL is where the repository is published, when known.
	RepoURL string
	// Region is the loaded RegionFile.
	Region *region.Region
	// Epoch is the file time stamped into packages.
	Epoch time.Time
	// previous is what the last build into Out recorded, for incremental
	// rebuilds; next is what this one records.
	previous, next *state
	stateData      []byte
	// remoteIndexes holds the indexes of dependency repositories, by URL.
	remoteIndexes sync.Map
}

// Chart is one chart being built.
type Chart struct {
	Src *catalog.Chart
	// Meta is the chart's Chart.yaml.
	Meta *chart.Metadata
	// Hash identifies the chart's content and its local dependencies'.
	Hash string
	// File is the package's file name, Digest its sha256.
	File, Digest string
	// Reused is true when the package was taken from the previous build.
	Reused bool
	// deps are the catalog charts this one depends on.
	deps []*Chart
	// ownHash hashes the chart's own files; stamps are their sizes and
	// times.
	ownHash string
	stamps  []fileStamp
}

// Step is one named stage of a build.
type Step struct {
	Name string
	Run  func(*Context) error
	// Skip, when set and true, leaves the step out.
	Skip func(*Context) bool
}

// Pipeline is the ordered list of steps of a build.
var Pipeline = []Step{
	{Name: "discover", Run: discover},
	{Name: "lint", Run: lintCatalog},
	{Name: "stage", Run: stage},
	{Name: "package", Run: packageCharts},
	{Name: "index", Run: buildIndex},
	{Name: "merge", Run: mergePublished, Skip: func(c *Context) bool { return c.Merge == "" }},
	{Name: "write index", Run: writeIndex},
	{Name: "site", Run: renderSite},
	{Name: "record", Run: recordState},
	{Name: "publish", Run: publish},
}

// Result sums a build up.
type Result struct {
	Charts, Packaged, Reused, Carried int
	Lint                              *lint.Result
	// Steps are the steps that ran, with their durations.
	Steps []StepTime
}

// StepTime is how long a step took.
type StepTime struct {
	Name string
	Took time.Duration
}

// Build runs the pipeline. On failure the previous output is left intact.
func Build(opt Options) (*Result, error) {
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.IndexFormat == "" {
		opt.IndexFormat = "yaml"
	}
	if opt.IndexFormat != "yaml" && opt.IndexFormat != "json" {
		return nil, fmt.Errorf("unknown index format %q (yaml or json)", opt.IndexFormat)
	}
	if opt.Now == nil {
		opt.Now = defaultNow
	}
	c := &Context{Options: opt, Epoch: packageEpoch()}
	defer c.cleanup()
	if opt.RegionFile != "" {
		r, err := region.Load(opt.RegionFile, opt.RegionID)
		if err != nil {
			return nil, err
		}
		c.Region = r
	}
	res := &Result{}
	for _, s := range Pipeline {
		if s.Skip != nil && s.Skip(c) {
			continue
		}
		start := time.Now()
		err := s.Run(c)
		res.Steps = append(res.Steps, StepTime{s.Name, time.Since(start)})
		if err != nil {
			res.Lint = c.Lint
			return res, fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	res.Charts, res.Lint = len(c.Charts), c.Lint
	for _, ch := range c.Charts {
		if ch.Reused {
			res.Reused++
		} else {
			res.Packaged++
		}
	}
	if c.Merged != nil {
		res.Carried = len(c.Merged.Carried)
	}
	return res, nil
}

// sourceDateEpoch returns SOURCE_DATE_EPOCH, the reproducible-builds
// convention for "the time of the sources", when set.
func sourceDateEpoch() (time.Time, bool) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC(), true
		}
	}
	return time.Time{}, false
}

func defaultNow() time.Time {
	if t, ok := sourceDateEpoch(); ok {
		return t
	}
	return time.Now().UTC()
}

// packageEpoch is the time stamped on every file of every package, so that
// packages depend on content only.
func packageEpoch() time.Time {
	if t, ok := sourceDateEpoch(); ok {
		return t
	}
	return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
}

func (c *Context) cleanup() {
	if c.Stage != "" {
		os.RemoveAll(c.Stage)
	}
}
