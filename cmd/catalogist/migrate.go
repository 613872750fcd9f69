package main

import (
	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/target/migrate"
)

func newMigrateCmd() *cobra.Command {
	var (
		o     migrate.Options
		write bool
	)
	cmd := &cobra.Command{
		Use:   "migrate [--values FILE] [--chart Chart.yaml] [--app FILE] [--idp-values FILE]",
		Short: "Move a deployment of the platform from its old chart repository to the new one",
		Long: `Migrate edits a deployment of the platform for its new chart repository:
the repository address, name and chart of an umbrella Chart.yaml or an
Argo CD Application, the version (the newest release of the new repository,
or --to-version), the web.image.tag and api.image.tag the chart version now
decides, and the identity provider's theme (an init container fetching the
theme of the same release into an emptyDir volume named extensions, mounted
at Keycloak's extensions directory).

It prints a unified diff and writes nothing unless --write is given. What it
does not change keeps its bytes: comments, key order, quoting, blank lines,
and the other documents of a file of several. A second run changes nothing.
Shapes it does not recognise, and values reached through a YAML alias or
merge key, are reported and left alone, not guessed. A file given through a
symbolic link is written where the link points.

Exit status (docs/exit-codes.md): 0 on success (with or without changes);
1 when the new repository's index does not have what the migration needs;
2 for usage errors and for files it refuses or cannot write (unreadable,
not valid YAML, binary, a key twice, the same file given twice); 3 when the
new repository's index cannot be fetched.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a := &action.Migrate{Options: o, Write: write, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()}
			return a.Run(cmd.Context())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Values, "values", "", "a values file of the platform's chart (its keycloak: section too, if any)")
	fl.StringVar(&o.Chart, "chart", "", "an umbrella Chart.yaml that depends on the platform's chart")
	fl.StringVar(&o.App, "app", "", "an Argo CD Application manifest of the platform's chart")
	fl.StringVar(&o.IdpValues, "idp-values", "", "the identity provider's (Keycloak chart's) values file")
	fl.StringVar(&o.OldRepoURL, "old-repo", migrate.DefaultOldRepoURL, "the old repository's address")
	fl.StringVar(&o.NewRepoURL, "new-repo", migrate.DefaultNewRepoURL, "the new repository's address")
	fl.StringVar(&o.OldRepoName, "old-repo-name", migrate.DefaultOldRepoName, "the old repository's name (helm repo add NAME)")
	fl.StringVar(&o.NewRepoName, "new-repo-name", migrate.DefaultNewRepoName, "the new repository's name")
	fl.StringVar(&o.OldChart, "old-chart", migrate.DefaultChart, "the chart's name in the old repository")
	fl.StringVar(&o.NewChart, "new-chart", migrate.DefaultChart, "the chart's name in the new repository")
	fl.StringVar(&o.RepoIndex, "repo-index", "", "read the new repository's index from this URL, file or directory (default the new repository)")
	fl.StringVar(&o.ToVersion, "to-version", "", "move to this version (default the newest release)")
	fl.StringVar(&o.IdpPath, "idp-path", "", "the identity provider's extensions directory (default "+migrate.ProvidersPath+", or "+migrate.DeploymentsPath+" for the jboss/keycloak image)")
	fl.StringVar(&o.Release, "release", migrate.DefaultChart, "the release name in the printed helm commands")
	fl.BoolVar(&write, "write", false, "write the changes (default: print the diff only)")
	return cmd
}
