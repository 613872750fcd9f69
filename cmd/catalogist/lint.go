package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/internal/model/schema"
)

func newLintCmd() *cobra.Command {
	var f action.Lint
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
the directories beside it. After --, every argument is a PATH, even one
starting with a dash: the commit hooks end their entry with --.

Exit status (docs/exit-codes.md): 0 without errors, 1 with errors (or
warnings with --strict), 2 for usage errors and files that cannot be read
or written, 3 when the --published index cannot be fetched.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.Format == "" {
				f.Format = "text"
				if os.Getenv("GITHUB_ACTIONS") == "true" {
					f.Format = "github"
				}
			}
			f.Paths, f.Stdout, f.Stderr = args, cmd.OutOrStdout(), cmd.ErrOrStderr()
			return f.Run(cmd.Context())
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.Regions, "region", nil, "region file (YAML or JSON, or the platform's regions.json) whose values and slider bounds are injected; repeat it, or name a regions.json with several regions, to check each region")
	fl.StringVar(&f.RegionID, "region-id", "", "the one region to pick from a regions.json with several regions (default: each)")
	fl.Var((*kubeVersion)(&f.KubeVersion), "kube-version", fmt.Sprintf("Kubernetes version the charts are rendered for and their manifests judged against (default %s)", manifest.Default))
	fl.StringVar(&f.BaseURL, "base-url", "", "address the catalog is published at (default: baseURL in catalog.yaml); a dependency on it is rendered from the catalog's sources")
	fl.StringVar(&f.CacheDir, "cache-dir", "", "dependency cache the charts are rendered with, which catalogist build fills (default: catalogist/charts in the user cache directory)")
	fl.StringVar(&f.ExtensionKey, "extension-key", "", `schema extension key (default "x-platform", or extensionKey in catalog.yaml; the reference platform uses x-onyxia)`)
	fl.StringVar(&f.Context, "context", "", "YAML or JSON file whose keys are extra context paths overwriteDefaultWith may name (a deployment's additions, such as ai.*)")
	addSchemaFlags(fl, &f.Platform, &f.Registries)
	fl.StringVar(&f.Format, "format", "", "output format: text, json, github or sarif (default text; github when GITHUB_ACTIONS=true)")
	fl.BoolVar(&f.Strict, "strict", false, "exit 1 on warnings too")
	fl.BoolVar(&f.ListRules, "rules", false, "list the rules and exit")
	fl.StringVar(&f.Baseline, "baseline", "", "report only findings not recorded in this baseline file (matched by rule, chart, option and message, not by line)")
	fl.BoolVar(&f.WriteBaseline, "write-baseline", false, "record the current findings in the --baseline file and exit 0")
	fl.StringVar(&f.ChangedSince, "changed-since", "", "git ref: lint only the charts whose files differ from it (since the merge base), and the catalog's charts depending on them")
	fl.StringVar(&f.Published, "published", "", "published index (a URL, a file or a directory): report version-bump for each chart whose package holds other content than the one published under its version (other files or bytes; the packaging itself aside)")
	fl.StringVar(&f.SARIF, "sarif", "", "also write the findings as SARIF 2.1.0 to this file, for code scanning")
	return cmd
}

// addSchemaFlags adds the flags that say how schemas are read, shared by
// lint, build, form and launch.
func addSchemaFlags(fl *pflag.FlagSet, platform *string, registries *[]string) {
	fl.StringVar(platform, "platform", "", fmt.Sprintf("platform whose form the charts are judged for: %s (default: platform in catalog.yaml, else onyxia for the x-onyxia extension key, catalogist otherwise)", strings.Join(schema.PlatformNames(), " or ")))
	fl.StringArrayVar(registries, "schema-registry", nil, "directory of the platform API's schema registry, whose schemas replace properties with overwriteSchemaWith and resolve $ref (repeatable; a later directory wins; default schemaRegistry in catalog.yaml)")
}
