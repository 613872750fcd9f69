// Package builder turns a catalog repository into a published chart
// repository: reproducible packages, a merged index.yaml and the catalog's
// site, assembled in a staging directory and renamed into place. A build is
// a table of small named steps, each naming the steps it needs (see
// pipeline), run by one scheduler. What the steps share is split into the
// build's inputs, its charts (each with its own packaging) and its outputs.
package builder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/lint"
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
	// ExtensionKey, Platform and SchemaRegistry override the catalog's
	// extension key, platform and schema registry directories.
	ExtensionKey   string
	Platform       string
	SchemaRegistry []string
	// CacheDir holds dependencies fetched from remote repositories.
	CacheDir string
	// KubeVersion is the Kubernetes version lint renders the charts for;
	// the zero Version means manifest.Default.
	KubeVersion manifest.Version
	// Now stamps the creation date of new versions; nil means
	// SOURCE_DATE_EPOCH when set, else the current time.
	Now func() time.Time
	// Log receives progress and the lint report.
	Log io.Writer
	// LintFormat is the format of the lint report (default text).
	LintFormat string
	// MergeOptional accepts a Merge location that does not exist (a 404
	// or 410 answer, a missing file) as an empty published index: the
	// first publication. Any other failure to read it still fails.
	MergeOptional bool
	// NoWait fails with a *BusyError when another build into Out is
	// running, instead of waiting for it.
	NoWait bool
	// PackageURL, when set, gives the URL the index lists a new package
	// at (a GitHub release asset, for instance), instead of its file name
	// relative to the index or under BaseURL. Such packages are not
	// carried: they are published elsewhere.
	PackageURL func(name, version, file string) string
	// Progress, when set, is told of each chart as a step is done with
	// it: "lint", "package" and "page", in each a chart's findings,
	// package or page kept from the last build being Reused. It is called
	// from several goroutines at once.
	Progress func(Event)
	// Client fetches the published index (Merge), the indexes of remote
	// dependencies and the packages; nil means a client without TLS
	// settings nor index cache.
	Client *chartrepo.Client
}

// Event is a build step done with a chart, as Options.Progress is told of
// it.
type Event struct {
	// Step is "lint", "package" or "page".
	Step, Chart string
	// Total is the number of charts the step is done with once it ends:
	// every chart of the catalog.
	Total int
	// Took is the time the step spent on the chart: zero for findings
	// and pages Reused, which cost nothing more.
	Took   time.Duration
	Reused bool
}

// report tells Options.Progress that a step is done with a chart.
func (in *inputs) report(step, chart string, took time.Duration, reused bool) {
	if in.Progress != nil {
		in.Progress(Event{Step: step, Chart: chart, Total: len(in.charts), Took: took, Reused: reused})
	}
}

// build is one run of the pipeline: what it reads, the staging directory
// it assembles the output in, and what its steps make.
type build struct {
	in    *inputs
	stage *staging
	out   *outputs
	// work runs the build's goroutines: the steps and what they start
	// alongside (packaging, hashing packages, deleting stale directories).
	// The build ends once they all have.
	work  *errgroup.Group
	steps *schedule
	// cpu bounds the processor-bound work (packaging, hashing packages) to
	// one goroutine per core.
	cpu chan struct{}
}

// inputs are what a build reads: the options and what they designate. All
// is set before the steps start, but for what discovery finds, which the
// steps needing discover read.
type inputs struct {
	Options
	region    *region.Region
	overrides schema.Overrides
	// epoch is the file time stamped into packages.
	epoch time.Time

	// Read by discover: previous is what the last build into Out
	// recorded.
	previous *state
	catalog  *catalog.Catalog
	// charts are the catalog's charts in dependency order.
	charts []*Chart
	byName map[string]*Chart
	// repoURL is where the repository is published, when known.
	repoURL string
	// only, when set, selects the charts to package (see PackageDigests);
	// discovery starts packaging no other.
	only func(*Chart) bool

	// Worked out on first use: env is how the catalog's schemas are read.
	env func() (schema.Env, error)
	// siteKey is what every page depends on besides its chart.
	siteKey func() (string, error)
	// previousIndex is the index of the last build into Out, whose
	// creation dates unchanged versions keep (read only when the recorded
	// state does not give them).
	previousIndex func() *repo.IndexFile
	// depIndexes are the indexes of dependency repositories, by URL, each
	// a *future[*repo.IndexFile].
	depIndexes sync.Map
}

// staging is the directory the output is assembled in, made by the stage
// step.
type staging struct {
	// dir becomes Out; tree tracks what it holds.
	dir  string
	tree *stageTree
}

// outputs are what the steps make.
type outputs struct {
	// index is the index built (merged, once merge has run), indexData
	// its bytes as written.
	index     *repo.IndexFile
	indexData []byte
	// merged reports what the merge kept, added, carried and pruned.
	merged *repoindex.Report
	lint   *lint.Result
	// pages are the page sources read pages read.
	pages map[*Chart]*pageSources
	// icons are the icon files the site examined.
	icons icons
	// digests are the staged packages' digests, by slash path, each a
	// *future[string].
	digests sync.Map
	// record is the state this build records.
	record record
}

// Chart is one chart being built.
type Chart struct {
	Src *catalog.Chart
	// Meta is the chart's Chart.yaml.
	Meta *chart.Metadata
	// Hash identifies the chart's content and its local dependencies'.
	Hash string
	// File is the package's file name, Digest its sha256; Reused is true
	// when the package was taken from the previous build. pkg sets them.
	File, Digest string
	Reused       bool
	// took is the time packaging took, set with File.
	took time.Duration
	// pkg is the chart's packaging: started by discovery for a changed
	// chart without dependencies, else by the package step, and awaited by
	// the charts depending on it and the package step.
	pkg *future[struct{}]
	// deps are the catalog charts this one depends on.
	deps []*Chart
	// ownHash hashes the chart's own files; files are their records.
	ownHash string
	files   []fileRecord
}

// Result sums a build up.
type Result struct {
	Charts, Packaged, Reused, Carried int
	Lint                              *lint.Result
	// Same are the versions built that the merge kept as published: their
	// packages differ from the build's by digest but hold the same chart
	// (packaged by chart-releaser, say). They are never released again.
	Same []*repo.ChartVersion
	// Steps are the steps that ran, with their durations. A step that runs
	// alongside others counts its own time, so the durations may add up to
	// more than the build took.
	Steps []StepTime
}

// StepTime is how long a step took.
type StepTime struct {
	Name string
	Took time.Duration
}

// Build runs the pipeline. On failure the previous output is left intact.
// ctx bounds the build: its network requests, and the steps yet to start.
func Build(ctx context.Context, opt Options) (*Result, error) {
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
	if opt.Out == "" {
		return nil, errors.New("no output directory")
	}
	if opt.Client == nil {
		client, err := chartrepo.New(chartrepo.Options{})
		if err != nil {
			return nil, fmt.Errorf("chart repository client: %w", err)
		}
		opt.Client = client
	}
	steps, err := newSchedule(pipeline)
	if err != nil {
		return nil, err
	}
	in, err := newInputs(opt)
	if err != nil {
		return nil, err
	}
	// Taken before anything reads the output or what is beside it, and
	// released after cleanup (deferred before it, it runs after).
	unlock, err := lockOutput(opt.Out, opt.NoWait, opt.Log)
	if err != nil {
		return nil, err
	}
	defer unlock()
	work, wctx := errgroup.WithContext(ctx)
	b := &build{in: in, out: &outputs{}, work: work, steps: steps, cpu: make(chan struct{}, runtime.GOMAXPROCS(0))}
	defer b.cleanup()
	steps.start(wctx, work, b)
	work.Wait()
	res := &Result{Steps: steps.times(), Lint: b.out.lint}
	if err := steps.result(ctx); err != nil {
		return res, err
	}
	res.Charts = len(b.in.charts)
	start := time.Now()
	b.cleanup()
	res.Steps = append(res.Steps, StepTime{"clean up", time.Since(start)})
	for _, ch := range b.in.charts {
		if ch.Reused {
			res.Reused++
		} else {
			res.Packaged++
		}
	}
	if b.out.merged != nil {
		res.Carried = len(b.out.merged.Carried)
		res.Same = b.out.merged.Same
	}
	return res, nil
}

// newInputs reads what the options name besides the catalog, which
// discovery reads.
func newInputs(opt Options) (*inputs, error) {
	in := &inputs{Options: opt, epoch: packageEpoch()}
	if opt.RegionFile != "" {
		r, err := region.Load(opt.RegionFile, opt.RegionID)
		if err != nil {
			return nil, err
		}
		in.region = r
	}
	in.overrides = schema.Overrides{ExtensionKey: opt.ExtensionKey, Platform: opt.Platform}
	if len(opt.SchemaRegistry) > 0 {
		reg, err := schema.LoadRegistry(opt.SchemaRegistry...)
		if err != nil {
			return nil, err
		}
		in.overrides.Registry = reg
	}
	// The command line's settings, else catalog.yaml's.
	in.env = sync.OnceValues(func() (schema.Env, error) {
		return schema.EnvFor(in.overrides, in.catalog, nil, &schema.Registries{})
	})
	in.siteKey = sync.OnceValues(in.computeSiteKey)
	in.previousIndex = sync.OnceValue(func() *repo.IndexFile { return loadPrevious(in.Out) })
	return in, nil
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

// cleanup disposes of the staging directory of a failed build (a
// successful one has set it aside for the next). A recycled staging
// directory is set aside again: the next build prunes it like any other, and
// lint errors, the usual failure, then do not cost the next build its
// recycling. It runs once the work group has ended.
func (b *build) cleanup() {
	if b.stage == nil || b.stage.dir == "" {
		return
	}
	if !b.stage.tree.reused || os.Rename(b.stage.dir, b.oldDir()) != nil {
		os.RemoveAll(b.stage.dir)
	}
	b.stage.dir = ""
}
