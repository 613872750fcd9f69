package main

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

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

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

type lintFlags struct {
	regions                           []string
	regionID, extKey, context, format string
	platform                          string
	// kubeVersion is the Kubernetes version charts are rendered for;
	// baseURL the address the catalog is published at; cacheDir the
	// dependency cache.
	kubeVersion       manifest.Version
	baseURL, cacheDir string
	registries        []string
	strict, listRules bool
	baseline          string
	writeBaseline     bool
	// changedSince is a git ref: only the charts changed since it, and
	// those depending on them, are linted.
	changedSince string
	// published is the published index (a URL or a file) whose versions
	// the version-bump rule compares packages with.
	published string
	// sarif is a file the findings are also written to as SARIF.
	sarif string
	// toolVersion is the version SARIF reports (see lint.Result).
	toolVersion string
}

func newLintCmd() *cobra.Command {
	var f lintFlags
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check catalogs, charts or schemas offline, with exact positions",
		Long: `Lint checks every chart of a catalog for mistakes that would break or
silently degrade the platform's configuration form: JSON Schema validity as
Helm judges it, the vendor extension, sliders, hidden conditions, region and
catalog bounds, and Chart.yaml. It renders every launchable chart as helm
template does, with values.yaml alone, each ci/*-values.yaml and the values
the platform sends in each region, and judges the manifests as the API
server of the target Kubernetes version (--kube-version) would.

PATH is a catalog directory (charts under charts/*/ or */), a chart
directory, or a values.schema.json file; the default is the current directory.
When every PATH is a file, as a commit hook passes them, each stands for
what it belongs to: a file of a chart for the chart, catalog.yaml for every
chart of its catalog, and a region file (region.yaml, regions.json,
region-NAME.yaml) for --region and every chart of the catalogs it belongs
to: the one whose catalog.yaml is in its directory or above, else those in
the directories beside it.

Exit status: 0 without errors, 1 with errors (or warnings with --strict),
2 for usage or input errors.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.format == "" {
				f.format = "text"
				if os.Getenv("GITHUB_ACTIONS") == "true" {
					f.format = "github"
				}
			}
			return runLint(cmd.Context(), cmd.OutOrStdout(), args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.regions, "region", nil, "region file (YAML or JSON, or the platform's regions.json) whose values and slider bounds are injected; repeat it, or name a regions.json with several regions, to check each region")
	fl.StringVar(&f.regionID, "region-id", "", "the one region to pick from a regions.json with several regions (default: each)")
	fl.Var((*kubeVersion)(&f.kubeVersion), "kube-version", fmt.Sprintf("Kubernetes version the charts are rendered for and their manifests judged against (default %s)", manifest.Default))
	fl.StringVar(&f.baseURL, "base-url", "", "address the catalog is published at (default: baseURL in catalog.yaml); a dependency on it is rendered from the catalog's sources")
	fl.StringVar(&f.cacheDir, "cache-dir", "", "dependency cache the charts are rendered with, which catalogist build fills (default: catalogist/charts in the user cache directory)")
	fl.StringVar(&f.extKey, "extension-key", "", `schema extension key (default "x-platform", or extensionKey in catalog.yaml; the reference platform uses x-onyxia)`)
	fl.StringVar(&f.context, "context", "", "YAML or JSON file whose keys are extra context paths overwriteDefaultWith may name (a deployment's additions, such as ai.*)")
	addSchemaFlags(fl, &f.platform, &f.registries)
	fl.StringVar(&f.format, "format", "", "output format: text, json, github or sarif (default text; github when GITHUB_ACTIONS=true)")
	fl.BoolVar(&f.strict, "strict", false, "exit 1 on warnings too")
	fl.BoolVar(&f.listRules, "rules", false, "list the rules and exit")
	fl.StringVar(&f.baseline, "baseline", "", "report only findings not recorded in this baseline file (matched by rule, chart, option and message, not by line)")
	fl.BoolVar(&f.writeBaseline, "write-baseline", false, "record the current findings in the --baseline file and exit 0")
	fl.StringVar(&f.changedSince, "changed-since", "", "git ref: lint only the charts whose files differ from it (since the merge base), and the catalog's charts depending on them")
	fl.StringVar(&f.published, "published", "", "published index (a URL, a file or a directory): report version-bump for each chart whose package differs from the one published under its version")
	fl.StringVar(&f.sarif, "sarif", "", "also write the findings as SARIF 2.1.0 to this file, for code scanning")
	return cmd
}

func runLint(ctx context.Context, stdout io.Writer, args []string, f lintFlags) error {
	begin := time.Now()
	if f.listRules {
		return listRules(stdout)
	}
	if !slices.Contains(lint.Formats, f.format) {
		return usageError(fmt.Errorf("unknown format %q (known: %s)", f.format, strings.Join(lint.Formats, ", ")))
	}
	base, err := loadBaseline(f)
	if err != nil {
		return usageError(err)
	}
	ov, err := schemaOverrides(f.extKey, f.platform, f.registries)
	if err != nil {
		return usageError(err)
	}
	opt := lint.Options{Overrides: ov}
	if len(args) == 0 {
		args = []string{"."}
	}
	// A commit hook names the files that changed: each stands for the
	// charts it belongs to, and a region file for --region.
	var named *catalog.Named
	if catalog.AllFiles(args) {
		if named, err = catalog.NameFiles(args); err != nil {
			return usageError(err)
		}
		regions := named.Regions
		if len(f.regions) > 0 {
			regions = slices.DeleteFunc(slices.Clone(regions), func(r string) bool {
				return slices.ContainsFunc(f.regions, func(g string) bool { return catalog.SameFile(r, g) })
			})
			if len(regions) > 0 {
				return usageError(fmt.Errorf("%s is a region file, and --region names %s: a region file a hook names stands for the catalogs it belongs to; name the region file with --region, or drop --region", regions[0], strings.Join(f.regions, ", ")))
			}
		}
		// Each region file stands for its own catalogs: one pass each.
		if len(regions) > 1 {
			return lintEachRegion(ctx, stdout, args, regions, f)
		}
		if len(regions) == 1 {
			f.regions = regions
		}
	}
	if f.regionID != "" && len(f.regions) != 1 {
		return usageError(fmt.Errorf("--region-id needs --region, naming one region file"))
	}
	for _, file := range f.regions {
		rs, err := region.LoadAll(file, f.regionID)
		if err != nil {
			return usageError(err)
		}
		opt.Regions = append(opt.Regions, rs...)
	}
	opt.KubeVersion, opt.BaseURL, opt.CacheDir = f.kubeVersion, strings.TrimRight(f.baseURL, "/"), f.cacheDir
	if f.context != "" {
		d, err := launchcontext.ReadFile(f.context)
		if err != nil {
			return usageError(err)
		}
		opt.ExtraPaths = append(opt.ExtraPaths, d)
	}
	var cats []*catalog.Catalog
	if named == nil {
		if cats, err = discoverPaths(args, "lint"); err != nil {
			return usageError(err)
		}
	} else {
		if cats, err = named.Catalogs(); err != nil {
			return usageError(err)
		}
		if len(cats) == 0 {
			w := stdout
			if f.format == "json" || f.format == "sarif" {
				// The report itself is a document.
				w = os.Stderr
			}
			verb := "belongs"
			if len(args) > 1 {
				verb = "belong"
			}
			fmt.Fprintf(w, "no chart to lint: %s %s to no chart\n", strings.Join(args, " "), verb)
		}
	}
	if f.changedSince != "" {
		if f.writeBaseline {
			return usageError(fmt.Errorf("--write-baseline records the findings of every chart: run it without --changed-since"))
		}
		var selected map[string]bool
		if cats, selected, err = selectChanged(ctx, stdout, cats, f, &opt); err != nil {
			return usageError(err)
		}
		if base != nil {
			base.Keep(func(chart string) bool { return selected[chart] })
		}
	}
	if f.published != "" && len(cats) > 0 {
		if err := addPublished(ctx, cats, f, &opt); err != nil {
			return usageError(err)
		}
	}
	// A line per chart in a CI log, a bar on a terminal; nothing beside
	// output meant for programs.
	rep := progress.New(os.Stderr, progress.Options{Quiet: f.format == "json" || f.format == "sarif"})
	steps := rep.Steps()
	opt.Progress = func(d lint.ChartDone) {
		steps.Done("lint", d.Of, d.Chart, d.Took, findingCounts(d.Errors, d.Warnings))
	}
	res, err := lint.RunContext(ctx, cats, opt)
	steps.Finish()
	if err != nil {
		return usageError(err)
	}
	res.ToolVersion = f.toolVersion
	if f.writeBaseline {
		if err := lint.WriteBaseline(f.baseline, res.Findings); err != nil {
			return usageError(err)
		}
		fmt.Fprintf(stdout, "recorded %d finding(s) in %s\n", len(res.Findings), f.baseline)
		return nil
	}
	if base != nil {
		if stale := base.Filter(res); stale > 0 {
			fmt.Fprintf(os.Stderr, "catalogist: %d finding(s) of %s no longer occur; record the baseline again with --write-baseline, so that they cannot hide a regression\n", stale, f.baseline)
		}
	}
	if err := lint.Write(stdout, res, f.format); err != nil {
		return usageError(err)
	}
	if f.sarif != "" {
		if err := atomicfile.Write(f.sarif, 0o644, func(w io.Writer) error { return lint.Write(w, res, "sarif") }); err != nil {
			return usageError(fmt.Errorf("--sarif: %w", err))
		}
	}
	if run := workflow.Detect(stdout); run != nil {
		// The findings are printed and the exit status says what they
		// are: a step's outputs or summary that cannot be written change
		// neither.
		if err := run.ReportLint(workflow.Lint{Result: res, Linted: chartNames(cats), SARIF: f.sarif, Took: time.Since(begin)}); err != nil {
			fmt.Fprintln(os.Stderr, "catalogist: warning:", err)
		}
	}
	errs, warns := res.Count()
	if errs > 0 || (f.strict && warns > 0) {
		return &exitError{code: 1}
	}
	return nil
}

// discoverPaths finds the catalogs that PATHs designate when one at least
// is a directory.
func discoverPaths(args []string, verb string) ([]*catalog.Catalog, error) {
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

// lintEachRegion lints once for each region file a hook names, with the
// other files named: each stands for the catalogs it belongs to. The
// reports follow one another, so a format that is one document is refused.
func lintEachRegion(ctx context.Context, stdout io.Writer, args, regions []string, f lintFlags) error {
	if f.format == "json" || f.format == "sarif" || f.sarif != "" || f.writeBaseline {
		return usageError(fmt.Errorf("%s are region files, each linted with the catalogs it belongs to: with --format json or sarif, --sarif or --write-baseline, name one of them at a time, or name each with --region to check every chart against each", strings.Join(regions, " and ")))
	}
	var failed error
	for _, r := range regions {
		pass := slices.DeleteFunc(slices.Clone(args), func(a string) bool {
			return a != r && slices.Contains(regions, a)
		})
		fmt.Fprintf(stdout, "with region %s:\n", r)
		err := runLint(ctx, stdout, pass, f)
		var ee *exitError
		if err != nil && (!errors.As(err, &ee) || ee.code != 1) {
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

// loadBaseline reads the --baseline file, nil without one. Writing it needs
// no existing file.
func loadBaseline(f lintFlags) (*lint.Baseline, error) {
	if f.writeBaseline && f.baseline == "" {
		return nil, fmt.Errorf("--write-baseline needs --baseline FILE, the file to write")
	}
	if f.baseline == "" || f.writeBaseline {
		return nil, nil
	}
	b, err := lint.ReadBaseline(f.baseline)
	if errors.Is(err, lint.ErrBaselineMissing) {
		return nil, fmt.Errorf("baseline %s does not exist; record the current findings in it first with: catalogist lint --baseline %s --write-baseline [PATH...]", f.baseline, f.baseline)
	}
	return b, err
}

func listRules(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tCHECKS THAT")
	for _, r := range lint.All {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Severity, r.Doc)
	}
	return tw.Flush()
}

// addSchemaFlags adds the flags that say how schemas are read, shared by
// lint, build, form and launch.
func addSchemaFlags(fl *pflag.FlagSet, platform *string, registries *[]string) {
	fl.StringVar(platform, "platform", "", fmt.Sprintf("platform whose form the charts are judged for: %s (default: platform in catalog.yaml, else onyxia for the x-onyxia extension key, catalogist otherwise)", strings.Join(schema.PlatformNames(), " or ")))
	fl.StringArrayVar(registries, "schema-registry", nil, "directory of the platform API's schema registry, whose schemas replace properties with overwriteSchemaWith and resolve $ref (repeatable; a later directory wins; default schemaRegistry in catalog.yaml)")
}

// schemaOverrides checks and loads the command line's schema settings.
func schemaOverrides(extKey, platform string, registries []string) (schema.Overrides, error) {
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
