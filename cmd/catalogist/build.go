package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/model/manifest"
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

Exit status (docs/exit-codes.md): 0 on success; 1 when lint or the merge
refuses the build (a published version changed, or listed twice); 2 for
usage errors and files that cannot be read or written; 3 when the published
index cannot be fetched, or another build holds --out with --no-wait.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Catalog = "."
			if len(args) == 1 {
				opt.Catalog = args[0]
			}
			if opt.LintFormat == "" && os.Getenv("GITHUB_ACTIONS") == "true" {
				opt.LintFormat = "github"
			}
			_, err := (&action.Build{Options: opt, Verbose: verbose, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()}).Run(cmd.Context())
			return err
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
