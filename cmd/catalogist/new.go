package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/scaffold"
)

func newNewCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "new",
		Short: "Create a new catalog, or a new chart in a catalog",
		Long: `New writes the files of a new catalog or chart, ready to lint, build and
install, for you to make your own:

  catalogist new catalog DIR     catalog.yaml, charts/, icons/, a README, the
                                 GitHub workflows and a .gitignore, in DIR
  catalogist new chart NAME      charts/NAME/ and icons/NAME.svg in the
                                 catalog of the current directory (or --catalog)

Exit status (docs/exit-codes.md): 0 when written, 2 when refused (nothing
is written then).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return action.Usage(fmt.Errorf("say what to create: catalogist new catalog DIR, or catalogist new chart NAME"))
		},
	}
	cmd.AddCommand(newNewCatalogCmd(), newNewChartCmd())
	return cmd
}

func addScaffoldFlags(fl *pflag.FlagSet, opt *scaffold.Options) {
	fl.StringVar(&opt.Platform, "platform", "", fmt.Sprintf("platform the charts are written for: %s (default: platform in catalog.yaml, else onyxia for the x-onyxia extension key, catalogist otherwise)", strings.Join(schema.PlatformNames(), " or ")))
	fl.StringVar(&opt.ExtensionKey, "extension-key", "", `schema extension key (default: extensionKey in catalog.yaml, else the platform's: x-onyxia for onyxia, x-platform for catalogist)`)
}

func newNewCatalogCmd() *cobra.Command {
	var opt scaffold.Options
	cmd := &cobra.Command{
		Use:   "catalog DIR",
		Short: "Create a new catalog in DIR, which must not exist or be empty",
		Long: `New catalog creates DIR (or fills it when it is empty) with catalog.yaml,
empty charts/ and icons/ directories, a README saying what to do next, the
example GitHub workflows in .github/workflows/, the editor schemas in
.catalogist/schemas/ with the .vscode/settings.json that applies them, and a
.gitignore for the build's output. catalog.yaml records the platform and, when it is not the
platform's own, the extension key: lint, build and new chart then use them.`,
		Args: oneArg("catalogist new catalog DIR: DIR is the directory of the new catalog"),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := scaffold.NewCatalog(args[0], opt)
			if err != nil {
				return action.Usage(err)
			}
			writeNewCatalog(cmd.OutOrStdout(), res)
			return nil
		},
	}
	addScaffoldFlags(cmd.Flags(), &opt)
	return cmd
}

func newNewChartCmd() *cobra.Command {
	var opt scaffold.Options
	var catalogDir string
	cmd := &cobra.Command{
		Use:   "chart NAME [--catalog DIR]",
		Short: "Create a new chart in a catalog",
		Long: `New chart writes charts/NAME/ in the catalog (the current directory unless
--catalog names it): a chart for the platform whose values.schema.json has
the git options, pre-filled from the user's profile, and the resources
options (CPU and memory request and limit sliders, pre-filled and bounded by
the region on the catalogist platform, and a GPU slider); values.yaml with
the same defaults; a Deployment, a Service and a Secret for the git token
using them; and a README. It also writes icons/NAME.svg unless the catalog
has an icon of that name.

NAME is a Helm chart name: lowercase letters, digits and dashes. The schema
is written for the platform and extension key lint takes for the catalog
(catalog.yaml), which --platform and --extension-key override as they do
for lint.`,
		Args: oneArg("catalogist new chart NAME [--catalog DIR]: NAME is the name of the new chart"),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := scaffold.NewChart(catalogDir, args[0], opt)
			if err != nil {
				return action.Usage(err)
			}
			writeNewChart(cmd.OutOrStdout(), catalogDir, res)
			return nil
		},
	}
	cmd.Flags().StringVar(&catalogDir, "catalog", ".", "the catalog directory, holding catalog.yaml")
	addScaffoldFlags(cmd.Flags(), &opt)
	return cmd
}

// oneArg refuses any other number of arguments than one, with the usage.
func oneArg(usage string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != 1 {
			return action.Usage(fmt.Errorf("%d arguments; write %s", len(args), usage))
		}
		return nil
	}
}

func writeNewCatalog(w io.Writer, res *scaffold.Result) {
	fmt.Fprintf(w, "created catalog %s for platform %s (extension key %s):\n", res.Dir, res.Platform, res.ExtensionKey)
	for _, f := range res.Files {
		fmt.Fprintf(w, "  %s\n", filepath.Join(res.Dir, f))
	}
	fmt.Fprintf(w, "  %s/ and %s/ (empty)\n", filepath.Join(res.Dir, "charts"), filepath.Join(res.Dir, "icons"))
	fmt.Fprintln(w, "next: add a chart, then check and build the catalog:")
	if res.Dir != "." {
		fmt.Fprintf(w, "  cd %s\n", res.Dir)
	}
	fmt.Fprintln(w, "  catalogist new chart NAME\n  catalogist lint\n  catalogist build --out out")
}

func writeNewChart(w io.Writer, catalogDir string, res *scaffold.Result) {
	fmt.Fprintf(w, "created chart %s for platform %s (extension key %s):\n", res.Dir, res.Platform, res.ExtensionKey)
	for _, f := range res.Files {
		fmt.Fprintf(w, "  %s\n", filepath.Join(res.Dir, f))
	}
	if res.Icon != "" {
		fmt.Fprintf(w, "  %s\n", res.Icon)
	}
	lintArg := ""
	if catalogDir != "." {
		lintArg = " " + catalogDir
	}
	fmt.Fprintf(w, "next: make it yours (values.schema.json is the form, values.yaml its defaults, templates/ the objects), then:\n  catalogist lint%s\n  catalogist form %s\n", lintArg, res.Dir)
}
