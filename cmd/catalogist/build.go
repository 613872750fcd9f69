package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/base/progress"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/publish/workflow"
	"github.com/catalogist/catalogist/lint"
)

func newBuildCmd() *cobra.Command {
	var opt builder.Options
	var verbose bool
	cmd := &cobra.Command{
		Use:   "build [CATALOG] --out DIR",
		Short: "Package a catalog, write its index.yaml and its static site",
		Long: `Build turns a catalog repository into a static chart repository and a site
for GitHub Pages: reproducible packages (<name>-<version>.tgz), a merged
index.yaml, and index.html with one page per chart.

It lints first: errors stop the build, warnings are printed. The output is
assembled next to --out and put in place only when everything succeeded;
charts whose content is unchanged since the last build into --out are not
repackaged.

With --merge, the published index (a file, a directory or a URL) is merged:
published versions keep their date, a published version whose package
changed is refused, and published versions no longer in the sources are
kept (their packages carried into the output) unless --prune. An index that
cannot be fetched (a server error, no answer) fails the build, and so does
a missing one unless --merge-optional, for the first publication.

One build at a time writes into an output: a second one waits for the
first to finish (--no-wait: fails instead). A build succeeds only once it
has checked the output in place: every file there, every package with the
index's digest.

Each chart page lists the options of the form the platform shows, from the
schema as the platform's API serves it: --platform names the platform and
--schema-registry the API's schema registry, whose schemas replace the
properties marked with overwriteSchemaWith (default: platform and
schemaRegistry in catalog.yaml).

Exit status: 0 on success, 1 when lint or the merge refuses the build
(a published version changed, or listed twice), 2 for usage, input or
output errors, another build running with --no-wait included.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Catalog = "."
			if len(args) == 1 {
				opt.Catalog = args[0]
			}
			if opt.LintFormat == "" && os.Getenv("GITHUB_ACTIONS") == "true" {
				opt.LintFormat = "github"
			}
			return runBuild(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), opt, verbose)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opt.Out, "out", "", "output directory, replaced as a whole when the build succeeds (required)")
	fl.BoolVar(&opt.NoWait, "no-wait", false, "fail rather than wait when another build into --out is running")
	addBuildFlags(fl, &opt, &verbose)
	return cmd
}

// addBuildFlags declares what a build is made of, for build and serve.
func addBuildFlags(fl *pflag.FlagSet, opt *builder.Options, verbose *bool) {
	fl.StringVar(&opt.BaseURL, "base-url", "", "absolute URL the repository is published at: makes package URLs absolute (default: catalog.yaml baseURL, else relative URLs)")
	fl.StringVar(&opt.Merge, "merge", "", "currently published index to merge: index.yaml file, directory or URL")
	fl.BoolVar(&opt.Prune, "prune", false, "with --merge, drop published versions that are no longer in the sources")
	fl.BoolVar(&opt.MergeOptional, "merge-optional", false, "with --merge, take a missing published index (404 or 410, no such file) as empty: the first publication")
	fl.StringVar(&opt.RegionFile, "region", "", "region file whose bounds lint checks and the pages show")
	fl.StringVar(&opt.RegionID, "region-id", "", "region to pick from a regions.json with several regions")
	fl.StringVar(&opt.Templates, "templates", "", "directory of templates overriding the embedded ones by file name")
	fl.StringVar(&opt.IndexFormat, "index-format", "yaml", "index.yaml content: yaml, or json (which Helm reads faster)")
	fl.StringVar(&opt.ExtensionKey, "extension-key", "", `schema extension key (default "x-platform", or extensionKey in catalog.yaml)`)
	addSchemaFlags(fl, &opt.Platform, &opt.SchemaRegistry)
	fl.StringVar(&opt.CacheDir, "cache-dir", "", "cache of dependencies fetched from other repositories (default: the user cache directory)")
	fl.Var((*kubeVersion)(&opt.KubeVersion), "kube-version", fmt.Sprintf("Kubernetes version lint renders the charts for and judges their manifests against (default %s)", manifest.Default))
	fl.BoolVarP(verbose, "verbose", "v", false, "print how long each step took")
	fl.StringVar(&opt.LintFormat, "format", "", "format of the lint report: text, json, github or sarif")
}

// checkBuildFlags checks the flags addBuildFlags declares, before anything
// starts.
func checkBuildFlags(opt builder.Options) error {
	if opt.LintFormat != "" && !slices.Contains(lint.Formats, opt.LintFormat) {
		return fmt.Errorf("unknown format %q (known: %s)", opt.LintFormat, strings.Join(lint.Formats, ", "))
	}
	if opt.RegionID != "" && opt.RegionFile == "" {
		return errors.New("--region-id needs --region")
	}
	if opt.Prune && opt.Merge == "" {
		return errors.New("--prune needs --merge: there is no published index to prune")
	}
	if opt.MergeOptional && opt.Merge == "" {
		return errors.New("--merge-optional needs --merge: it says the published index may not exist yet")
	}
	// The registry directories are read once, by the build; the other schema
	// settings are checked as lint checks them, before anything starts.
	_, err := schemaOverrides(opt.ExtensionKey, opt.Platform, nil)
	return err
}

// writeSteps prints how long each step of a build took (-v).
func writeSteps(w io.Writer, steps []builder.StepTime) {
	for _, s := range steps {
		fmt.Fprintf(w, "%-12s %8.1f ms\n", s.Name, float64(s.Took.Microseconds())/1000)
	}
}

func runBuild(ctx context.Context, stdout, stderr io.Writer, opt builder.Options, verbose bool) error {
	_, err := buildCatalog(ctx, stdout, stderr, opt, verbose)
	return err
}

// buildCatalog is runBuild, which also gives the build's result to the
// action command.
func buildCatalog(ctx context.Context, stdout, stderr io.Writer, opt builder.Options, verbose bool) (*builder.Result, error) {
	begin := time.Now()
	if opt.Out == "" {
		return nil, usageError(errors.New("--out is required: the directory to write the repository and the site into"))
	}
	if err := checkBuildFlags(opt); err != nil {
		return nil, usageError(err)
	}
	// A line per chart and step in a CI log, a bar on a terminal; the lint
	// report and other messages are written above the bar.
	rep := progress.New(stderr, progress.Options{Quiet: opt.LintFormat == "json" || opt.LintFormat == "sarif"})
	opt.Log = rep.Writer()
	steps := rep.Steps()
	opt.Progress = func(ev builder.Event) {
		status := ""
		if ev.Reused {
			status = "unchanged"
		}
		steps.Done(ev.Step, ev.Total, ev.Chart, ev.Took, status)
	}
	run := workflow.Detect(stdout)
	res, err := builder.Build(ctx, opt)
	steps.Finish()
	if err != nil {
		if run != nil {
			// The summary is no place for a URL's credentials either.
			if serr := run.ReportFailure("build", secret.RedactURLs(err.Error())); serr != nil {
				fmt.Fprintln(stderr, "catalogist: warning:", serr)
			}
			// Refused by lint: the summary lists every finding, as
			// lint's own does.
			var le *builder.ErrLint
			if errors.As(err, &le) && res != nil && res.Lint != nil {
				if serr := run.ReportLint(workflow.Lint{Result: res.Lint}); serr != nil {
					fmt.Fprintln(stderr, "catalogist: warning:", serr)
				}
			}
		}
		var le *builder.ErrLint
		var ce *repoindex.ConflictError
		var de *repoindex.DuplicateError
		if errors.As(err, &le) || errors.As(err, &ce) || errors.As(err, &de) {
			return nil, &exitError{code: 1, err: err}
		}
		return nil, usageError(err)
	}
	if verbose {
		writeSteps(stderr, res.Steps)
	}
	_, warns := res.Lint.Count()
	fmt.Fprintf(stdout, "built %d chart(s) into %s: %d packaged, %d unchanged, %d carried from the published index, %d lint warning(s)\n",
		res.Charts, opt.Out, res.Packaged, res.Reused, res.Carried, warns)
	if run != nil {
		b := workflow.Build{Out: opt.Out, Charts: res.Charts, Packaged: res.Packaged, Reused: res.Reused, Carried: res.Carried,
			Took: time.Since(begin), Lint: res.Lint}
		for _, s := range res.Steps {
			b.Steps = append(b.Steps, workflow.Step{Name: s.Name, Took: s.Took})
		}
		if err := run.ReportBuild(b); err != nil {
			fmt.Fprintln(stderr, "catalogist: warning:", err)
		}
	}
	return res, nil
}

// kubeVersion is a --kube-version flag.
type kubeVersion manifest.Version

func (v *kubeVersion) String() string {
	if *v == (kubeVersion{}) {
		return ""
	}
	return manifest.Version(*v).String()
}

func (v *kubeVersion) Set(s string) error {
	p, err := manifest.ParseVersion(s)
	if err != nil {
		return err
	}
	*v = kubeVersion(p)
	return nil
}

func (v *kubeVersion) Type() string { return "version" }
