// Package builder turns a catalog repository into a published chart
// repository: reproducible packages, a merged index.yaml and the catalog's
// site, assembled in a staging directory and renamed into place. A build is
// an ordered list of small named steps sharing one Context.
package builder

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/lint"
	"github.com/catalogist/catalogist/region"
	"github.com/catalogist/catalogist/repoindex"
	"github.com/catalogist/catalogist/schema"
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
}

// Context is what the steps share.
type Context struct {
	Options
	Catalog *catalog.Catalog
	// Stage is the staging directory that becomes Out.
	Stage string
	// tree tracks what Stage holds; staged is closed once the stage step
	// has ended.
	tree       *stageTree
	staged     chan struct{}
	stagedOnce sync.Once
	// early are the packages started during discovery, by chart, and
	// packSem bounds how many are made at once.
	early   map[*Chart]chan error
	earlyMu sync.Mutex
	earlyWG sync.WaitGroup
	packSem chan struct{}
	// bg deletes stale directories while the build goes on.
	bg sync.WaitGroup
	// Charts are the catalog's charts in dependency order.
	Charts []*Chart
	byName map[string]*Chart
	// Index is the index being built; Published the merged-in one and
	// Previous the one of the last build into Out, whose creation dates
	// unchanged versions keep (read only when the recorded state does not
	// give them, else nil).
	Index, Published, Previous *repo.IndexFile
	previousOnce               sync.Once
	// Merged reports what the merge kept, added, carried and pruned.
	Merged *repoindex.Report
	// Lint is the lint result.
	Lint *lint.Result
	// RepoURL is where the repository is published, when known.
	RepoURL string
	// Region is the loaded RegionFile.
	Region *region.Region
	// env is how the catalog's schemas are read, worked out once.
	envOnce sync.Once
	envVal  schema.Env
	envErr  error
	// siteKey is what every page depends on besides its chart.
	siteKeyOnce sync.Once
	siteKeyVal  string
	siteKeyErr  error
	// overrides are the command line's settings, with the loaded registry.
	overrides schema.Overrides
	// Epoch is the file time stamped into packages.
	Epoch time.Time
	// previous is what the last build into Out recorded, for incremental
	// rebuilds; next is what this one records.
	previous, next *state
	nextMu         sync.Mutex
	stateData      []byte
	// pages are the page sources readPages read.
	pages map[*Chart]*pageSources
	// icons are the icon files examined by this build.
	icons icons
	// remoteIndexes holds the indexes of dependency repositories, by URL.
	remoteIndexes sync.Map
	// indexData is the index as written.
	indexData []byte
	// digests are the staged packages' digests (*stagedDigest), by slash
	// path; hashWG waits for those being computed.
	digests sync.Map
	hashWG  sync.WaitGroup
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
	// times, stampsSum hashes those.
	ownHash   string
	stamps    []fileStamp
	stampsSum string
}

// Step is one named stage of a build.
type Step struct {
	Name string
	Run  func(*Context) error
	// Skip, when set and true, leaves the step out.
	Skip func(*Context) bool
	// Until, when set, names a later step: this one runs alongside the
	// steps in between, and that one starts once it has ended. The steps
	// in between must not depend on what it does. When one of them fails,
	// the build still waits for this step and reports its error first, as
	// if the steps had run one after the other.
	Until string
}

// Pipeline is the ordered list of steps of a build. Staging, which only
// depends on the output, runs alongside discovery (which starts packaging
// the changed charts that have no dependencies); lint, which only has to
// pass before anything is published, alongside packaging, the index and the
// site; reading what the changed charts' pages show (README, schema and
// form) alongside packaging and the index.
var Pipeline = []Step{
	{Name: "stage", Run: stage, Until: "package"},
	{Name: "discover", Run: discover},
	{Name: "lint", Run: lintCatalog, Until: "record"},
	{Name: "read pages", Run: readPages, Until: "site"},
	{Name: "package", Run: packageCharts},
	{Name: "index", Run: buildIndex},
	{Name: "merge", Run: mergePublished, Skip: func(c *Context) bool { return c.Merge == "" }},
	{Name: "write index", Run: writeIndex},
	{Name: "site", Run: renderSite},
	{Name: "record", Run: recordState},
	{Name: "publish", Run: publish},
	{Name: "verify", Run: verifyPublished},
}

// Result sums a build up.
type Result struct {
	Charts, Packaged, Reused, Carried int
	Lint                              *lint.Result
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
	if opt.Out == "" {
		return nil, errors.New("no output directory")
	}
	// Taken before anything reads the output or what is beside it, and
	// released after cleanup (deferred before it, it runs after).
	unlock, err := lockOutput(opt.Out, opt.NoWait, opt.Log)
	if err != nil {
		return nil, err
	}
	defer unlock()
	c := &Context{Options: opt, Epoch: packageEpoch(), staged: make(chan struct{}), packSem: make(chan struct{}, runtime.GOMAXPROCS(0))}
	defer c.cleanup()
	if opt.RegionFile != "" {
		r, err := region.Load(opt.RegionFile, opt.RegionID)
		if err != nil {
			return nil, err
		}
		c.Region = r
	}
	c.overrides = schema.Overrides{ExtensionKey: opt.ExtensionKey, Platform: opt.Platform}
	if len(opt.SchemaRegistry) > 0 {
		reg, err := schema.LoadRegistry(opt.SchemaRegistry...)
		if err != nil {
			return nil, err
		}
		c.overrides.Registry = reg
	}
	res := &Result{}
	p := &pipeline{ran: make([]*StepTime, len(Pipeline))}
	err = p.run(c)
	c.markStaged()
	if err != nil {
		res.Steps, res.Lint = p.times(), c.Lint
		return res, err
	}
	res.Steps = p.times()
	res.Charts, res.Lint = len(c.Charts), c.Lint
	start := time.Now()
	c.cleanup()
	res.Steps = append(res.Steps, StepTime{"clean up", time.Since(start)})
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

// pipeline runs the steps of a build.
type pipeline struct {
	ran []*StepTime
	// bg are the steps running alongside the others.
	bg []*background
}

type background struct {
	step int
	done chan struct{}
	err  error
}

// run runs the steps in order, starting a step with Until in a goroutine,
// and returns the error of the first step that failed.
func (p *pipeline) run(c *Context) error {
	for i, s := range Pipeline {
		if err := p.wait(i, func(b *background) bool { return Pipeline[b.step].Until == s.Name }); err != nil {
			return err
		}
		if err := p.failed(i); err != nil {
			return err
		}
		if s.Skip != nil && s.Skip(c) {
			continue
		}
		if s.Until != "" {
			b := &background{step: i, done: make(chan struct{})}
			p.bg = append(p.bg, b)
			go func() {
				defer close(b.done)
				b.err = p.time(c, i)
			}()
			continue
		}
		if err := p.time(c, i); err != nil {
			return p.fail(i, err)
		}
	}
	return p.wait(len(Pipeline), func(*background) bool { return true })
}

// time runs step i, recording how long it took.
func (p *pipeline) time(c *Context, i int) error {
	start := time.Now()
	err := Pipeline[i].Run(c)
	p.ran[i] = &StepTime{Pipeline[i].Name, time.Since(start)}
	if err != nil {
		return fmt.Errorf("%s: %w", Pipeline[i].Name, err)
	}
	return nil
}

// wait waits, before step i, for the background steps which says.
func (p *pipeline) wait(i int, which func(*background) bool) error {
	for _, b := range p.bg {
		if which(b) {
			<-b.done
		}
	}
	return p.failed(i)
}

// failed returns, before step i, the error of a background step that has
// ended and failed, once every background step has ended: a failed lint
// stops the build early.
func (p *pipeline) failed(i int) error {
	for _, b := range p.bg {
		select {
		case <-b.done:
			if b.err != nil {
				return p.fail(i, nil)
			}
		default:
		}
	}
	return nil
}

// fail waits for every background step and returns the error of the
// earliest step that failed: one of them, or step i with err.
func (p *pipeline) fail(i int, err error) error {
	first := i
	for _, b := range p.bg {
		<-b.done
		if b.err != nil && b.step < first {
			first, err = b.step, b.err
		}
	}
	p.bg = nil
	return err
}

// times lists the steps that ran, in pipeline order.
func (p *pipeline) times() []StepTime {
	var out []StepTime
	for _, t := range p.ran {
		if t != nil {
			out = append(out, *t)
		}
	}
	return out
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

// markStaged tells the packages started early that the staging directory
// is ready, or will not be.
func (c *Context) markStaged() { c.stagedOnce.Do(func() { close(c.staged) }) }

// cleanup disposes of the staging directory of a failed build (a
// successful one has set it aside for the next) and waits for the deletion
// of stale directories. A recycled staging directory is set aside again: the
// next build prunes it like any other, and lint errors, the usual failure,
// then do not cost the next build its recycling.
func (c *Context) cleanup() {
	c.earlyWG.Wait()
	c.hashWG.Wait()
	if c.Stage != "" {
		if c.tree == nil || !c.tree.reused || os.Rename(c.Stage, c.oldDir()) != nil {
			os.RemoveAll(c.Stage)
		}
		c.Stage = ""
	}
	c.bg.Wait()
}

// env returns how the catalog's schemas are read: the command line's
// settings, else catalog.yaml's.
func (c *Context) env() (schema.Env, error) {
	c.envOnce.Do(func() { c.envVal, c.envErr = schema.EnvFor(c.overrides, c.Catalog, &schema.Registries{}) })
	return c.envVal, c.envErr
}
