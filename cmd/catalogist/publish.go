package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/base/progress"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/publish/pagesbranch"
	"github.com/catalogist/catalogist/internal/publish/release"
	"github.com/catalogist/catalogist/internal/publish/workflow"
)

// publishFlags are catalogist publish's settings.
type publishFlags struct {
	// build is the build publish runs: catalog, output, base URL, region,
	// platform, schema registries, and the published index to merge.
	build builder.Options
	// repo is the GitHub repository (owner/name), default GITHUB_REPOSITORY.
	repo string
	// token authenticates with GitHub, default GITHUB_TOKEN; never printed.
	token string
	// apiURL is the REST API's address (GitHub Enterprise Server), default
	// GITHUB_API_URL, else https://api.github.com/.
	apiURL string
	// pagesBranch, when set, is the branch the site is committed to;
	// otherwise the site is left in build.Out for upload-pages-artifact.
	pagesBranch string
	// remote is the git remote the pages branch is pushed to.
	remote string
	// makeLatest marks the releases made as the repository's latest.
	makeLatest bool
	// verbose prints how long each step of the build took.
	verbose bool
}

func newPublishCmd() *cobra.Command {
	var f publishFlags
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

Exit status: 0 on success, 1 when lint, the merge or a release refuses
(a published or released version whose package changed), 2 for usage,
input, network or GitHub errors.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.build.Catalog = "."
			if len(args) == 1 {
				f.build.Catalog = args[0]
			}
			if f.build.LintFormat == "" && os.Getenv("GITHUB_ACTIONS") == "true" {
				f.build.LintFormat = "github"
			}
			f.repo = cmp.Or(f.repo, os.Getenv("GITHUB_REPOSITORY"))
			f.token = cmp.Or(f.token, os.Getenv("GITHUB_TOKEN"))
			f.apiURL = cmp.Or(f.apiURL, os.Getenv("GITHUB_API_URL"))
			return runPublish(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.build.Out, "out", "", "directory the repository and the site are built into: the Pages site, unless --pages-branch (required)")
	fl.StringVar(&f.repo, "repo", "", "GitHub repository to release in, OWNER/NAME (default $GITHUB_REPOSITORY)")
	fl.StringVar(&f.token, "token", "", "GitHub token with contents: write (default $GITHUB_TOKEN; prefer the variable, since process listings show flags)")
	fl.StringVar(&f.apiURL, "api-url", "", "GitHub's REST API; for GitHub Enterprise Server https://HOST/api/v3 (default $GITHUB_API_URL, else https://api.github.com)")
	fl.BoolVar(&f.makeLatest, "make-latest", false, "mark the releases made as the repository's latest")
	fl.StringVar(&f.pagesBranch, "pages-branch", "", "commit the site to this branch (gh-pages) and push it, instead of leaving it in --out for actions/upload-pages-artifact")
	fl.StringVar(&f.remote, "remote", "origin", "git remote --pages-branch is fetched from and pushed to")
	addBuildFlags(fl, &f.build, &f.verbose)
	return cmd
}

// published is a chart version built from the sources: a release to make.
type published struct{ name, version, file string }

func runPublish(ctx context.Context, stdout, stderr io.Writer, f publishFlags) error {
	if f.build.Out == "" {
		return usageError(errors.New("--out is required: the directory to write the repository and the site into"))
	}
	owner, repo, ok := strings.Cut(f.repo, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return usageError(fmt.Errorf("--repo %q is not OWNER/NAME: give the GitHub repository to release in (default: GITHUB_REPOSITORY, which a workflow sets)", f.repo))
	}
	check := f.build
	if check.Merge == "" {
		check.Merge = "the default"
	}
	if err := checkBuildFlags(check); err != nil {
		return usageError(err)
	}
	run := workflow.Detect(stdout)
	if run != nil {
		if err := run.Mask(f.token); err != nil {
			return usageError(err)
		}
	}
	// Nothing printed may hold the token, whatever prints it.
	secrets := &secret.Set{}
	secrets.Add(f.token)
	err := publish(ctx, stdout, stderr, f, owner, repo, run)
	if err != nil && run != nil {
		if serr := run.ReportFailure("publish", secrets.Scrub(err.Error())); serr != nil {
			fmt.Fprintln(stderr, "catalogist:", serr)
		}
	}
	return secrets.Err(err)
}

func publish(ctx context.Context, stdout, stderr io.Writer, f publishFlags, owner, repo string, run *workflow.Run) error {
	cat, err := catalog.Discover(f.build.Catalog)
	if err != nil {
		return usageError(err)
	}
	baseURL := f.build.BaseURL
	if baseURL == "" && cat.Config != nil {
		baseURL = cat.Config.BaseURL
	}
	rep := progress.New(stderr, progress.Options{})
	var task *progress.Task
	pub, err := release.New(release.Config{Owner: owner, Repo: repo, Token: f.token, APIURL: f.apiURL,
		Target: os.Getenv("GITHUB_SHA"), MakeLatest: f.makeLatest, Log: rep.Writer(),
		Done: func(o release.Outcome, took time.Duration) { task.Done(o.Tag, took, string(o.Status)) }})
	if err != nil {
		return usageError(err)
	}

	// What the build makes from the sources is what is released: the
	// index lists each package at its release's download URL.
	var made []published
	opt := f.build
	opt.PackageURL = func(name, version, file string) string {
		if p := (published{name, version, file}); !slices.Contains(made, p) {
			made = append(made, p)
		}
		return pub.AssetURL(release.Tag(name, version), file)
	}

	var branch *pagesbranch.Branch
	var snap *pagesbranch.Snapshot
	if f.pagesBranch != "" {
		branch, err = pagesbranch.New(pagesbranch.Options{
			Dir: cat.Dir, Remote: f.remote, Branch: f.pagesBranch, Log: stderr,
			// The packages are release assets, not files of the site.
			Exclude: func(rel string) bool {
				return slices.ContainsFunc(made, func(p published) bool { return p.file == rel })
			},
			Keep: []string{"CNAME"},
		})
		if err != nil {
			return usageError(err)
		}
		defer branch.Close()
		if snap, err = branch.Fetch(ctx); err != nil {
			return usageError(err)
		}
		if opt.Merge == "" {
			opt.Merge = snap.Index()
			if _, err := os.Stat(opt.Merge); errors.Is(err, fs.ErrNotExist) && !opt.MergeOptional {
				return usageError(fmt.Errorf("the branch %s of %s holds no %s (or does not exist): for the first publication, add --merge-optional", f.pagesBranch, secret.RedactURL(f.remote), pagesbranch.IndexFile))
			}
		}
	} else if opt.Merge == "" {
		if baseURL == "" {
			return usageError(errors.New("no published index to merge: give --merge INDEX, --base-url URL or baseURL in catalog.yaml (the Pages address), or publish to a branch with --pages-branch"))
		}
		opt.Merge = baseURL
	}

	if _, err := buildCatalog(ctx, stdout, stderr, opt, f.verbose); err != nil {
		return err
	}
	charts, err := releasable(opt.Out, cat, made)
	if err != nil {
		return usageError(err)
	}
	task = rep.Start("release", len(charts))
	outs, err := pub.Run(ctx, charts)
	task.Finish()
	for _, o := range outs {
		fmt.Fprintf(stdout, "%-8s %s %s  %s\n", o.Status, o.Name, o.Version, o.ReleaseURL)
	}
	if err != nil {
		if branch == nil {
			// The site must not be published with an index naming
			// packages that are not released.
			if rerr := os.Remove(filepath.Join(opt.Out, builder.IndexFile)); rerr == nil {
				fmt.Fprintf(stderr, "removed %s: its packages are not all released\n", filepath.Join(opt.Out, builder.IndexFile))
			}
		}
		var ce *release.ConflictError
		if errors.As(err, &ce) {
			return &exitError{code: 1, err: err}
		}
		return usageError(err)
	}

	where := "the site is in " + opt.Out + ", for actions/upload-pages-artifact"
	if branch != nil {
		pushed, err := branch.Publish(ctx, snap, opt.Out, func(ctx context.Context, index string) error {
			again := opt
			again.Merge, again.MergeOptional = index, true
			_, err := buildCatalog(ctx, stdout, stderr, again, f.verbose)
			return err
		})
		if err != nil {
			var ee *exitError
			if errors.As(err, &ee) {
				return err
			}
			return usageError(err)
		}
		where = fmt.Sprintf("%s of %s is up to date", f.pagesBranch, secret.RedactURL(f.remote))
		if pushed.Changed {
			where = fmt.Sprintf("committed %.12s to %s of %s", pushed.Commit, f.pagesBranch, secret.RedactURL(f.remote))
		}
	}
	count := map[release.Status]int{}
	for _, o := range outs {
		count[o.Status]++
	}
	indexURL := ""
	if baseURL != "" {
		indexURL = chartrepo.IndexURL(baseURL)
	} else if chartrepo.IsRemote(opt.Merge) {
		indexURL = chartrepo.IndexURL(opt.Merge)
	}
	fmt.Fprintf(stdout, "published %d chart version(s) in %s/%s: %d released, %d completed, %d already released; %s\n",
		len(outs), owner, repo, count[release.Created], count[release.Uploaded], count[release.Skipped], where)
	if run == nil {
		return nil
	}
	// The build's report set charts, errors and warnings.
	for _, o := range [][2]string{
		{"published", strconv.Itoa(count[release.Created] + count[release.Uploaded])},
		{"index_url", indexURL},
	} {
		if err := run.SetOutput(o[0], o[1]); err != nil {
			return usageError(err)
		}
	}
	if err := run.AddSummary(publishSummary(outs, indexURL, where)); err != nil {
		return usageError(err)
	}
	return nil
}

// releasable lists the chart versions built from the sources, in the
// order of the index, as the index describes them.
func releasable(out string, cat *catalog.Catalog, made []published) ([]release.Chart, error) {
	idx, err := repoindex.Load(filepath.Join(out, builder.IndexFile))
	if err != nil {
		return nil, err
	}
	// A chart's directory is where its CHANGELOG.md is.
	dirs := map[string]string{}
	for _, ch := range cat.Charts {
		if ch.ChartFile == "" {
			continue
		}
		if md, err := chartutil.LoadChartfile(ch.ChartFile); err == nil {
			dirs[md.Name] = ch.Dir
		}
	}
	var charts []release.Chart
	for _, name := range slices.Sorted(maps.Keys(idx.Entries)) {
		for _, cv := range idx.Entries[name] {
			i := slices.IndexFunc(made, func(p published) bool { return p.name == name && p.version == cv.Version })
			if i < 0 || cv.Metadata == nil {
				continue
			}
			charts = append(charts, release.Chart{
				Name: name, Version: cv.Version, File: filepath.Join(out, made[i].file), Digest: cv.Digest,
				Annotations: cv.Annotations, Description: cv.Description, Dir: dirs[name],
			})
		}
	}
	return charts, nil
}

// publishSummary is the step summary's table of what was published.
func publishSummary(outs []release.Outcome, indexURL, where string) string {
	var b strings.Builder
	b.WriteString("### catalogist publish\n\n")
	if len(outs) > 0 {
		b.WriteString("| Chart | Version | Release | Status |\n|---|---|---|---|\n")
		for _, o := range outs {
			fmt.Fprintf(&b, "| %s | %s | [%s](%s) | %s |\n", cell(o.Name), cell(o.Version), cell(o.Tag), o.ReleaseURL, o.Status)
		}
		b.WriteString("\n")
	}
	if indexURL != "" {
		fmt.Fprintf(&b, "Index: %s  \n", indexURL)
	}
	fmt.Fprintf(&b, "Pages: %s.\n", where)
	return b.String()
}

// cell keeps a text from ending a table cell or starting markup.
var cell = strings.NewReplacer("|", `\|`, "[", `\[`, "]", `\]`, "\n", " ").Replace
