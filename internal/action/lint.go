package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/catalogist/catalogist/internal/base/atomicfile"
	"github.com/catalogist/catalogist/internal/base/progress"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/publish/workflow"
	"github.com/catalogist/catalogist/lint"
)

// Lint lints the catalogs, charts or files Paths name.
type Lint struct {
	// Paths are catalog or chart directories, schema files, or the files
	// a commit hook names (each standing for what it belongs to); "." when
	// empty.
	Paths []string
	// Regions are region files, RegionID the one region of a regions.json
	// to pick.
	Regions  []string
	RegionID string
	// ExtensionKey, Platform and Registries say how schemas are read.
	ExtensionKey, Platform string
	Registries             []string
	// Context is a file of extra context paths overwriteDefaultWith may
	// name.
	Context string
	// Format is one of lint.Formats.
	Format string
	// KubeVersion is the Kubernetes version charts are rendered for;
	// BaseURL the address the catalog is published at; CacheDir the
	// dependency cache.
	KubeVersion       manifest.Version
	BaseURL, CacheDir string
	// Strict makes warnings fail the run too.
	Strict bool
	// ListRules lists the rules instead of linting.
	ListRules bool
	// Baseline is a file of findings to leave out; WriteBaseline records
	// the findings in it instead.
	Baseline      string
	WriteBaseline bool
	// ChangedSince is a git ref: only the charts changed since it, and
	// those depending on them, are linted.
	ChangedSince string
	// Published is the published index (a URL or a file) whose versions
	// the version-bump rule compares packages with.
	Published string
	// SARIF is a file the findings are also written to as SARIF.
	SARIF string
	// ToolVersion is the version SARIF reports (see lint.Result).
	ToolVersion string

	Stdout, Stderr io.Writer
}

// Run lints. It returns a Refused error when the findings fail the run.
func (l *Lint) Run(ctx context.Context) error {
	begin := time.Now()
	if l.ListRules {
		return ListRules(l.Stdout)
	}
	if !slices.Contains(lint.Formats, l.Format) {
		return Usage(fmt.Errorf("unknown format %q (known: %s)", l.Format, strings.Join(lint.Formats, ", ")))
	}
	base, err := l.loadBaseline()
	if err != nil {
		return Usage(err)
	}
	args := l.Paths
	if len(args) == 0 {
		args = []string{"."}
	}
	named, regions, each, err := l.nameFiles(args)
	if err != nil {
		return Usage(err)
	}
	if each != nil {
		return l.eachRegion(ctx, args, each)
	}
	opt, err := l.options(regions)
	if err != nil {
		return Usage(err)
	}
	cats, err := l.catalogs(args, named)
	if err != nil {
		return Usage(err)
	}
	if l.ChangedSince != "" {
		if l.WriteBaseline {
			return Usage(fmt.Errorf("--write-baseline records the findings of every chart: run it without --changed-since"))
		}
		var selected map[string]bool
		if cats, selected, err = l.selectChanged(ctx, cats, regions, &opt); err != nil {
			return Usage(err)
		}
		if base != nil {
			base.Keep(func(chart string) bool { return selected[chart] })
		}
	}
	if l.Published != "" && len(cats) > 0 {
		if err := l.addPublished(ctx, cats, &opt); err != nil {
			return inputOrRemote(err)
		}
	}
	res, err := l.lint(ctx, cats, opt)
	if err != nil {
		return err
	}
	if l.WriteBaseline {
		if err := lint.WriteBaseline(l.Baseline, res.Findings); err != nil {
			return Usage(err)
		}
		fmt.Fprintf(l.Stdout, "recorded %d finding(s) in %s\n", len(res.Findings), l.Baseline)
		return nil
	}
	if base != nil {
		if stale := base.Filter(res); stale > 0 {
			fmt.Fprintf(l.Stderr, "catalogist: %d finding(s) of %s no longer occur; record the baseline again with --write-baseline, so that they cannot hide a regression\n", stale, l.Baseline)
		}
	}
	return l.report(res, cats, begin)
}

// nameFiles reads the files a commit hook names, when every path is a
// file: each stands for the charts it belongs to, and a region file for
// --region. It returns the files named (nil when a path is a directory),
// the region files to lint with, and the region files that each need a
// pass of their own (nil unless the hook names several).
func (l *Lint) nameFiles(args []string) (named *catalog.Named, regions, each []string, err error) {
	regions = l.Regions
	if !catalog.AllFiles(args) {
		return nil, regions, nil, nil
	}
	if named, err = catalog.NameFiles(args); err != nil {
		return nil, nil, nil, err
	}
	if len(regions) > 0 {
		given := slices.DeleteFunc(slices.Clone(named.Regions), func(r string) bool {
			return slices.ContainsFunc(regions, func(g string) bool { return catalog.SameFile(r, g) })
		})
		if len(given) > 0 {
			return nil, nil, nil, fmt.Errorf("%s is a region file, and --region names %s: a region file a hook names stands for the catalogs it belongs to; name the region file with --region, or drop --region", given[0], strings.Join(regions, ", "))
		}
		return named, regions, nil, nil
	}
	// Each region file stands for its own catalogs: one pass each.
	if len(named.Regions) > 1 {
		return named, nil, named.Regions, nil
	}
	return named, named.Regions, nil, nil
}

// options are the lint's settings: the schema overrides, the regions, the
// target Kubernetes version, the dependency sources and the context paths.
func (l *Lint) options(regions []string) (lint.Options, error) {
	ov, err := SchemaOverrides(l.ExtensionKey, l.Platform, l.Registries)
	if err != nil {
		return lint.Options{}, err
	}
	opt := lint.Options{Overrides: ov}
	if l.RegionID != "" && len(regions) != 1 {
		return opt, fmt.Errorf("--region-id needs --region, naming one region file")
	}
	for _, file := range regions {
		rs, err := region.LoadAll(file, l.RegionID)
		if err != nil {
			return opt, err
		}
		opt.Regions = append(opt.Regions, rs...)
	}
	opt.KubeVersion, opt.BaseURL, opt.CacheDir = l.KubeVersion, strings.TrimRight(l.BaseURL, "/"), l.CacheDir
	if l.Context != "" {
		d, err := launchcontext.ReadFile(l.Context)
		if err != nil {
			return opt, err
		}
		opt.ExtraPaths = append(opt.ExtraPaths, d)
	}
	return opt, nil
}

// catalogs are the catalogs the paths designate: the ones named files
// belong to, or the ones found under the paths.
func (l *Lint) catalogs(args []string, named *catalog.Named) ([]*catalog.Catalog, error) {
	if named == nil {
		return DiscoverPaths(args, "lint")
	}
	cats, err := named.Catalogs()
	if err != nil || len(cats) > 0 {
		return cats, err
	}
	verb := "belongs"
	if len(args) > 1 {
		verb = "belong"
	}
	fmt.Fprintf(l.noteWriter(), "no chart to lint: %s %s to no chart\n", strings.Join(args, " "), verb)
	return nil, nil
}

// noteWriter is where a note about what is linted goes: beside a report
// that is itself a document.
func (l *Lint) noteWriter() io.Writer {
	if l.Format == "json" || l.Format == "sarif" {
		return l.Stderr
	}
	return l.Stdout
}

// lint runs the rules over the catalogs, with a line per chart in a CI log
// or a bar on a terminal, and nothing beside output meant for programs.
func (l *Lint) lint(ctx context.Context, cats []*catalog.Catalog, opt lint.Options) (*lint.Result, error) {
	rep := progress.New(l.Stderr, progress.Options{Quiet: l.Format == "json" || l.Format == "sarif"})
	steps := rep.Steps()
	opt.Progress = func(d lint.ChartDone) {
		steps.Done("lint", d.Of, d.Chart, d.Took, findingCounts(d.Errors, d.Warnings))
	}
	res, err := lint.RunContext(ctx, cats, opt)
	steps.Finish()
	if err != nil {
		return nil, inputOrRemote(err)
	}
	res.ToolVersion = l.ToolVersion
	for _, n := range res.Notes {
		fmt.Fprintln(l.Stderr, "catalogist: note:", n)
	}
	return res, nil
}

// report writes the findings, the SARIF file and a workflow's outputs, and
// says whether the findings fail the run.
func (l *Lint) report(res *lint.Result, cats []*catalog.Catalog, begin time.Time) error {
	if err := lint.Write(l.Stdout, res, l.Format); err != nil {
		return Usage(err)
	}
	if l.SARIF != "" {
		if err := atomicfile.Write(l.SARIF, 0o644, func(w io.Writer) error { return lint.Write(w, res, "sarif") }); err != nil {
			return Usage(fmt.Errorf("--sarif: %w", err))
		}
	}
	if run := workflow.Detect(l.Stdout); run != nil {
		// The findings are printed and the exit status says what they
		// are: a step's outputs or summary that cannot be written change
		// neither.
		if err := run.ReportLint(workflow.Lint{Result: res, Linted: chartNames(cats), SARIF: l.SARIF, Took: time.Since(begin)}); err != nil {
			fmt.Fprintln(l.Stderr, "catalogist: warning:", err)
		}
	}
	errs, warns := res.Count()
	if errs > 0 || (l.Strict && warns > 0) {
		return Refused(nil)
	}
	return nil
}

// DiscoverPaths finds the catalogs that PATHs designate when one at least
// is a directory; verb says what is done with them, in the error when
// there is none.
func DiscoverPaths(args []string, verb string) ([]*catalog.Catalog, error) {
	var cats []*catalog.Catalog
	for _, a := range args {
		if info, err := os.Stat(a); err == nil && !info.IsDir() && filepath.Ext(a) != ".json" {
			// A shell glob such as examples/* also names the files beside
			// the catalogs.
			continue
		}
		cat, err := catalog.Discover(a)
		if err != nil {
			// The same glob names directories beside the catalogs too
			// (examples/workflows); nothing left to lint is still refused
			// below.
			if errors.Is(err, catalog.ErrNoCharts) && len(args) > 1 {
				continue
			}
			return nil, err
		}
		cats = append(cats, cat)
	}
	if len(cats) == 0 {
		return nil, fmt.Errorf("nothing to %s in %s: %w", verb, strings.Join(args, " "), catalog.ErrNoCharts)
	}
	return cats, nil
}

// eachRegion lints once for each region file a hook names, with the other
// files named: each stands for the catalogs it belongs to. The reports
// follow one another, so a format that is one document is refused.
func (l *Lint) eachRegion(ctx context.Context, args, regions []string) error {
	if l.Format == "json" || l.Format == "sarif" || l.SARIF != "" || l.WriteBaseline {
		return Usage(fmt.Errorf("%s are region files, each linted with the catalogs it belongs to: with --format json or sarif, --sarif or --write-baseline, name one of them at a time, or name each with --region to check every chart against each", strings.Join(regions, " and ")))
	}
	var failed error
	for _, r := range regions {
		pass := *l
		pass.Paths = slices.DeleteFunc(slices.Clone(args), func(a string) bool {
			return a != r && slices.Contains(regions, a)
		})
		fmt.Fprintf(l.Stdout, "with region %s:\n", r)
		err := pass.Run(ctx)
		if code := ExitCode(err); err != nil && code != ExitRefused {
			return err
		}
		if err != nil {
			failed = err
		}
	}
	return failed
}

// chartNames returns the names of the catalogs' charts.
func chartNames(cats []*catalog.Catalog) []string {
	var names []string
	for _, c := range cats {
		for _, ch := range c.Charts {
			names = append(names, ch.Name)
		}
	}
	return names
}

// findingCounts is a chart's status in the progress lines: its findings,
// or nothing when it has none.
func findingCounts(errs, warns int) string {
	if errs+warns == 0 {
		return ""
	}
	return fmt.Sprintf("%d error(s), %d warning(s)", errs, warns)
}

// loadBaseline reads the baseline file, nil without one. Writing it needs
// no existing file.
func (l *Lint) loadBaseline() (*lint.Baseline, error) {
	if l.WriteBaseline && l.Baseline == "" {
		return nil, fmt.Errorf("--write-baseline needs --baseline FILE, the file to write")
	}
	if l.Baseline == "" || l.WriteBaseline {
		return nil, nil
	}
	b, err := lint.ReadBaseline(l.Baseline)
	if errors.Is(err, lint.ErrBaselineMissing) {
		return nil, fmt.Errorf("baseline %s does not exist; record the current findings in it first with: catalogist lint --baseline %s --write-baseline [PATH...]", l.Baseline, l.Baseline)
	}
	return b, err
}

// ListRules writes the rule table.
func ListRules(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tCHECKS THAT")
	for _, r := range lint.All {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Severity, r.Doc)
	}
	if err := tw.Flush(); err != nil {
		return Usage(err)
	}
	return nil
}

// SchemaOverrides checks and loads the command line's schema settings.
func SchemaOverrides(extKey, platform string, registries []string) (schema.Overrides, error) {
	ov := schema.Overrides{ExtensionKey: extKey, Platform: platform}
	if extKey != "" && !strings.HasPrefix(extKey, "x-") {
		return ov, fmt.Errorf("--extension-key %q must start with x- (for example x-onyxia)", extKey)
	}
	if platform != "" {
		if _, err := schema.PlatformNamed(platform); err != nil {
			return ov, fmt.Errorf("--platform: %w", err)
		}
	}
	if len(registries) > 0 {
		reg, err := schema.LoadRegistry(registries...)
		if err != nil {
			return ov, err
		}
		ov.Registry = reg
	}
	return ov, nil
}
