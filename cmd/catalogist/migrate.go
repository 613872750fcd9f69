package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

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

Exit status: 0 on success (with or without changes); 1 when the new
repository's index cannot be read or a file cannot be written; 2 for usage
errors and for files it refuses (unreadable, not valid YAML, binary, a key
twice, the same file given twice).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Values == "" && o.Chart == "" && o.App == "" && o.IdpValues == "" {
				return usageError(fmt.Errorf("nothing to migrate: give --values, --chart, --app or --idp-values"))
			}
			for _, p := range []string{o.Values, o.Chart, o.App, o.IdpValues} {
				if p == "" {
					continue
				}
				if _, err := os.Stat(p); err != nil {
					return usageError(err)
				}
			}
			m, err := migrate.New(o)
			if err != nil {
				return &exitError{code: 1, err: err}
			}
			res, err := m.Run(cmd.Context())
			if ie := (*migrate.InputError)(nil); errors.As(err, &ie) {
				return usageError(err)
			}
			if err != nil {
				return &exitError{code: 1, err: err}
			}
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			fmt.Fprint(out, res.Diff())
			changed := 0
			for _, f := range res.Files {
				if f.Changed() {
					changed++
				}
				for _, c := range f.Changes {
					fmt.Fprintf(errw, "%s: %s\n", f.Path, c)
				}
			}
			for _, n := range res.Notes {
				fmt.Fprintf(errw, "note: %s\n", n)
			}
			switch {
			case changed == 0:
				fmt.Fprintf(errw, "nothing to change: already on %s %s\n", res.Chart, res.Version)
			case write:
				if err := res.Write(); err != nil {
					return &exitError{code: 1, err: err}
				}
				fmt.Fprintf(errw, "wrote %d file(s) for %s %s\n", changed, res.Chart, res.Version)
			default:
				fmt.Fprintf(errw, "%d file(s) would change for %s %s: run again with --write to apply\n", changed, res.Chart, res.Version)
			}
			fmt.Fprintln(errw, "then:")
			for _, c := range res.Commands {
				fmt.Fprintf(errw, "  %s\n", c)
			}
			return nil
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
