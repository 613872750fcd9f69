package main

import (
	"cmp"
	"os"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/spf13/cobra"
)

func newPublishCmd() *cobra.Command {
	var f action.Publish
	cmd := &cobra.Command{
		Use:   "publish [CATALOG] --out DIR [--pages-branch BRANCH]",
		Short: "Build a catalog, release its new chart versions on GitHub, and publish its index and site",
		Long: `Publish builds the catalog as build does, makes a GitHub release for each
chart version not released yet, and publishes the index and the site for
GitHub Pages.

Each release is tagged <chart>-<version>, holds the package as its asset,
and says what changed: the chart's artifacthub.io/changes annotation, else
its CHANGELOG.md section for the version, else its description. A version
with a SemVer pre-release part is a prerelease; no release is marked as the
repository's latest unless --make-latest. Running publish again is safe: a
version released with the same package is skipped, one released with
another package is refused (bump its version), and a release an earlier
run left without its package gets it.

The index lists the packages at their release download URLs, merged with
the published index (--merge; default: the pages branch's index.yaml with
--pages-branch, else the index at --base-url or catalog.yaml's baseURL;
--merge-optional for the first publication). It is published only once
every release is made: committed to --pages-branch and pushed (fetching,
merging again and pushing again when another publication pushed first), or
else left in --out for actions/upload-pages-artifact.

The token is taken from GITHUB_TOKEN: prefer it to --token, which process
listings show. It needs the permission contents: write, and is never
printed.

Exit status (docs/exit-codes.md): 0 on success; 1 when lint, the merge or
a release refuses (a published or released version whose package
changed); 2 for usage errors and files that cannot be read or written; 3
when GitHub, the published index or the pages branch's remote fails.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Build.Catalog = "."
			if len(args) == 1 {
				f.Build.Catalog = args[0]
			}
			if f.Build.LintFormat == "" && os.Getenv("GITHUB_ACTIONS") == "true" {
				f.Build.LintFormat = "github"
			}
			f.Repo = cmp.Or(f.Repo, os.Getenv("GITHUB_REPOSITORY"))
			f.Token = cmp.Or(f.Token, os.Getenv("GITHUB_TOKEN"))
			f.APIURL = cmp.Or(f.APIURL, os.Getenv("GITHUB_API_URL"))
			f.Target = os.Getenv("GITHUB_SHA")
			f.Stdout, f.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return f.Run(cmd.Context())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Build.Out, "out", "", "directory the repository and the site are built into: the Pages site, unless --pages-branch (required)")
	fl.StringVar(&f.Repo, "repo", "", "GitHub repository to release in, OWNER/NAME (default $GITHUB_REPOSITORY)")
	fl.StringVar(&f.Token, "token", "", "GitHub token with contents: write (default $GITHUB_TOKEN; prefer the variable, since process listings show flags)")
	fl.StringVar(&f.APIURL, "api-url", "", "GitHub's REST API; for GitHub Enterprise Server https://HOST/api/v3 (default $GITHUB_API_URL, else https://api.github.com)")
	fl.BoolVar(&f.MakeLatest, "make-latest", false, "mark the releases made as the repository's latest")
	fl.StringVar(&f.PagesBranch, "pages-branch", "", "commit the site to this branch (gh-pages) and push it, instead of leaving it in --out for actions/upload-pages-artifact")
	fl.StringVar(&f.Remote, "remote", "origin", "git remote --pages-branch is fetched from and pushed to")
	addBuildFlags(fl, &f.Build, &f.Verbose)
	return cmd
}
