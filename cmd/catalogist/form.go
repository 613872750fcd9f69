package main

import (
	"strings"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/spf13/cobra"
)

func newFormCmd() *cobra.Command {
	var f action.Form
	cmd := &cobra.Command{
		Use:   "form CHART",
		Short: "Show the configuration form the platform computes for a chart, and whether it opens",
		Long: `Form computes a chart's configuration form as the platform does: for each
option its widget, its pre-filled value and where it comes from (const, the
launch context, the default, values.yaml), its slider bounds and their
origin, whether it is hidden or read-only, and the choices of a select; then
the values the platform would send, and every failure that makes the form
refuse to open or crash, at its file:line:col.

CHART is a chart directory, a values.schema.json (with the values.yaml beside
it, when there is one) or a packaged chart (.tgz).

Without --profile the form is computed in a sample launch context holding
what every deployment provides (the one lint uses). Secrets (password options,
keys named like token, password or secret, and options pre-filled from such
context keys) are masked in every format unless --show-secrets is given.

--launch-url prints instead the link that opens the chart's launcher on the
platform (onyxia) whose address catalog.yaml gives (platformURL and
platformCatalogID), with the changes the -f values files make to the form's
values set, and autoLaunch false: the platform shows its form with them,
and launches nothing until the user confirms. Secrets, and what such a link
cannot carry (an empty list, a shortened list, a top-level value), are left
out and named on standard error.

Exit status (docs/exit-codes.md): 0 when the form opens, 1 when it does
not (everything is still printed) or when the link leaves out a change
that is no secret, 2 for usage errors and unreadable files (a catalog.yaml
without platformURL and platformCatalogID, with --launch-url).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Chart, f.Stdout, f.Stderr = args[0], cmd.OutOrStdout(), cmd.ErrOrStderr()
			return f.Run(cmd.Context())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Profile, "profile", "", "launch context document (YAML or JSON: user, project, git, vault, s3, s3_array, region, k8s, ...) as the platform builds it (default a sample context)")
	fl.StringVar(&f.Region, "region", "", "region file whose values are merged under region and whose sliders bound the options")
	fl.StringVar(&f.RegionID, "region-id", "", "region to pick from a regions.json with several regions")
	fl.StringVar(&f.ExtensionKey, "extension-key", "", `schema extension key (default extensionKey in catalog.yaml, else "x-platform"; for a .tgz, x-onyxia when the schema uses it)`)
	addSchemaFlags(fl, &f.Platform, &f.Registries)
	fl.StringVar(&f.Format, "format", "text", "output format: "+strings.Join(action.FormFormats, ", "))
	fl.BoolVar(&f.ShowSecrets, "show-secrets", false, "print secrets in clear (they are masked otherwise, in every format)")
	fl.BoolVar(&f.LaunchURL, "launch-url", false, "print the link to the chart's launcher on the platform of catalog.yaml's platformURL, with the changes of the -f files set")
	fl.StringArrayVarP(&f.ValueFiles, "values", "f", nil, "values file whose changes to the form's values the launch link carries, merged as helm -f (repeatable; with --launch-url)")
	return cmd
}
