package action

import (
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

	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/base/printable"
	"github.com/catalogist/catalogist/internal/base/progress"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/publish/pagesbranch"
	"github.com/catalogist/catalogist/internal/publish/release"
	"github.com/catalogist/catalogist/internal/publish/workflow"
)

// Publish builds a catalog, releases its new chart versions on GitHub, and
// publishes its index and site. Its steps run in this order, each only
// when the one before succeeded: fetch the pages branch (with
// PagesBranch), build, release, publish the site, report.
type Publish struct {
	// Build is the build publish runs: catalog, output, base URL, region,
	// platform, schema registries, and the published index to merge.
	Build builder.Options
	// Verbose prints how long each step of the build took.
	Verbose bool
	// Repo is the GitHub repository, OWNER/NAME.
	Repo string
	// Token authenticates with GitHub; it is never printed.
	Token string
	// APIURL is the REST API's address (GitHub Enterprise Server), empty
	// for https://api.github.com/.
	APIURL string
	// Target is the commit the release tags are made on (GITHUB_SHA),
	// empty for the default branch.
	Target string
	// PagesBranch, when set, is the branch the site is committed to;
	// otherwise the site is left in Build.Out for upload-pages-artifact.
	PagesBranch string
	// Remote is the git remote the pages branch is pushed to.
	Remote string
	// MakeLatest marks the releases made as the repository's latest.
	MakeLatest bool
	// FirstFromReleases tells a first publication from the repository's
	// releases instead of Build.MergeOptional: a missing published index is
	// taken as empty only when no <chart>-<version> release exists yet, so
	// that a mistyped address cannot publish an index without the versions
	// released before.
	FirstFromReleases bool

	Stdout, Stderr io.Writer
}

// Run publishes.
func (p *Publish) Run(ctx context.Context) error {
	if p.Build.Out == "" {
		return Usage(errors.New("--out is required: the directory to write the repository and the site into"))
	}
	owner, repo, ok := strings.Cut(p.Repo, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return Usage(fmt.Errorf("--repo %q is not OWNER/NAME: give the GitHub repository to release in (default: GITHUB_REPOSITORY, which a workflow sets)", p.Repo))
	}
	check := p.Build
	if check.Merge == "" {
		check.Merge = "the default"
	}
	if err := CheckBuildOptions(check); err != nil {
		return Usage(err)
	}
	run := workflow.Detect(p.Stdout)
	if run != nil {
		if err := run.Mask(p.Token); err != nil {
			return Usage(err)
		}
	}
	// Nothing printed may hold the token, whatever prints it.
	secrets := &secret.Set{}
	secrets.Add(p.Token)
	pub := &publication{Publish: p, owner: owner, repo: repo, step: run}
	err := pub.run(ctx)
	if err != nil && run != nil {
		if serr := run.ReportFailure("publish", secrets.Scrub(err.Error())); serr != nil {
			fmt.Fprintln(p.Stderr, "catalogist:", serr)
		}
	}
	return secrets.Err(err)
}

// madeVersion is a chart version built from the sources: a release to
// make.
type madeVersion struct{ name, version, file string }

// publication is one run of Publish.
type publication struct {
	*Publish
	owner, repo string
	step        *workflow.Run
	cat         *catalog.Catalog
	// baseURL is where the catalog is published, "" when unknown.
	baseURL string
	rep     *progress.Reporter
	task    *progress.Task
	pub     *release.Publisher
	// opt is the build, made merges the packages it made.
	opt  builder.Options
	made []madeVersion
	// kept are the versions the build kept as published, their content
	// the same as the sources' (file unset): not released.
	kept []madeVersion
	// branch and snap are the pages branch and what was fetched of it,
	// nil without PagesBranch.
	branch *pagesbranch.Branch
	snap   *pagesbranch.Snapshot
}

func (p *publication) run(ctx context.Context) error {
	if err := p.prepare(); err != nil {
		return err
	}
	if p.branch != nil {
		defer p.branch.Close()
	}
	if err := p.mergeSource(ctx); err != nil {
		return err
	}
	res, err := (&Build{Options: p.opt, Verbose: p.Verbose, Stdout: p.Stdout, Stderr: p.Stderr}).Run(ctx)
	if err != nil {
		return err
	}
	// A version kept as published, chart-releaser's say, is released
	// already, or published with the site: its release is left as it is.
	for _, cv := range res.Same {
		p.kept = append(p.kept, madeVersion{name: cv.Name, version: cv.Version})
	}
	outs, err := p.release(ctx)
	if err != nil {
		return err
	}
	where, err := p.publishSite(ctx)
	if err != nil {
		return err
	}
	return p.report(outs, where)
}

// prepare reads the catalog, and makes the GitHub client and the pages
// branch.
func (p *publication) prepare() error {
	cat, err := catalog.Discover(p.Build.Catalog)
	if err != nil {
		return Usage(err)
	}
	p.cat, p.baseURL = cat, p.Build.BaseURL
	if p.baseURL == "" && cat.Config != nil {
		p.baseURL = cat.Config.BaseURL
	}
	p.rep = progress.New(p.Stderr, progress.Options{})
	p.pub, err = release.New(release.Config{Owner: p.owner, Repo: p.repo, Token: p.Token, APIURL: p.APIURL,
		Target: p.Target, MakeLatest: p.MakeLatest, Log: p.rep.Writer(),
		Done: func(o release.Outcome, took time.Duration) { p.task.Done(o.Tag, took, string(o.Status)) }})
	if err != nil {
		return Usage(err)
	}
	// What the build makes from the sources is what is released: the
	// index lists each package at its release's download URL.
	p.opt = p.Build
	p.opt.PackageURL = func(name, version, file string) string {
		if m := (madeVersion{name, version, file}); !slices.Contains(p.made, m) {
			p.made = append(p.made, m)
		}
		return p.pub.AssetURL(release.Tag(name, version), file)
	}
	if p.PagesBranch == "" {
		return nil
	}
	p.branch, err = pagesbranch.New(pagesbranch.Options{
		Dir: cat.Dir, Remote: p.Remote, Branch: p.PagesBranch, Log: p.Stderr,
		// The packages are release assets, not files of the site.
		Exclude: func(rel string) bool {
			return slices.ContainsFunc(p.made, func(m madeVersion) bool { return m.file == rel })
		},
		Keep: []string{"CNAME"},
	})
	if err != nil {
		return Usage(err)
	}
	return nil
}

// mergeSource fetches the pages branch, and picks the published index the
// build merges: the branch's, else the one at the base URL.
func (p *publication) mergeSource(ctx context.Context) error {
	if p.branch != nil {
		var err error
		if p.snap, err = p.branch.Fetch(ctx); err != nil {
			return Failed(err)
		}
		if p.opt.Merge == "" {
			p.opt.Merge = p.snap.Index()
			where := fmt.Sprintf("the branch %s of %s", p.PagesBranch, secret.RedactURL(p.Remote))
			if _, err := os.Stat(p.opt.Merge); errors.Is(err, fs.ErrNotExist) {
				return p.missingIndex(ctx, where+" holds no "+pagesbranch.IndexFile+" (or does not exist)")
			}
		}
		return nil
	}
	if p.opt.Merge == "" {
		if p.baseURL == "" {
			return Usage(errors.New("no published index to merge: give --merge INDEX, --base-url URL or baseURL in catalog.yaml (the Pages address), or publish to a branch with --pages-branch"))
		}
		p.opt.Merge = p.baseURL
	}
	if !p.FirstFromReleases {
		return nil
	}
	_, found, err := builder.PublishedDigests(ctx, nil, p.opt.Merge)
	if err != nil {
		return inputOrRemote(err)
	}
	if found {
		p.opt.MergeOptional = false
		return nil
	}
	return p.missingIndex(ctx, "nothing is published at "+chartrepo.Redact(p.opt.Merge))
}

// missingIndex decides what a missing published index means: with
// FirstFromReleases, a first publication when the repository has no
// release of a chart of the catalog yet, else an error naming the address
// and the release; otherwise what MergeOptional says.
func (p *publication) missingIndex(ctx context.Context, what string) error {
	if !p.FirstFromReleases {
		if !p.opt.MergeOptional {
			return Usage(fmt.Errorf("%s: for the first publication, add --merge-optional", what))
		}
		return nil
	}
	if err := firstPublication(ctx, p.pub, p.cat, p.owner+"/"+p.repo, what); err != nil {
		return err
	}
	p.opt.MergeOptional = true
	return nil
}

// release makes a release for each chart version built.
func (p *publication) release(ctx context.Context) ([]release.Outcome, error) {
	made := slices.DeleteFunc(slices.Clone(p.made), func(m madeVersion) bool {
		return slices.ContainsFunc(p.kept, func(k madeVersion) bool { return k.name == m.name && k.version == m.version })
	})
	charts, err := releasable(p.opt.Out, p.cat, made)
	if err != nil {
		return nil, Usage(err)
	}
	p.task = p.rep.Start("release", len(charts))
	outs, err := p.pub.Run(ctx, charts)
	p.task.Finish()
	for _, o := range outs {
		// The address is GitHub's.
		fmt.Fprintf(p.Stdout, "%-8s %s %s  %s\n", o.Status, printable.Line(o.Name), printable.Line(o.Version), printable.Line(o.ReleaseURL))
	}
	if err == nil {
		return outs, nil
	}
	if p.branch == nil {
		// The site must not be published with an index naming
		// packages that are not released.
		index := filepath.Join(p.opt.Out, builder.IndexFile)
		if rerr := os.Remove(index); rerr == nil {
			fmt.Fprintf(p.Stderr, "removed %s: its packages are not all released\n", index)
		}
	}
	var ce *release.ConflictError
	var fe *release.ForeignReleaseError
	if errors.As(err, &ce) || errors.As(err, &fe) {
		return nil, Refused(err)
	}
	return nil, Failed(err)
}

// publishSite commits the site to the pages branch and pushes it, merging
// again when another publication pushed first; without a branch the site
// stays in the output. It says where the site is.
func (p *publication) publishSite(ctx context.Context) (string, error) {
	if p.branch == nil {
		return "the site is in " + p.opt.Out + ", for actions/upload-pages-artifact", nil
	}
	pushed, err := p.branch.Publish(ctx, p.snap, p.opt.Out, func(ctx context.Context, index string) error {
		again := p.opt
		again.Merge, again.MergeOptional = index, true
		_, err := (&Build{Options: again, Verbose: p.Verbose, Stdout: p.Stdout, Stderr: p.Stderr}).Run(ctx)
		return err
	})
	if err != nil {
		var ae *Error
		if errors.As(err, &ae) {
			return "", err
		}
		return "", Failed(err)
	}
	remote := secret.RedactURL(p.Remote)
	if pushed.Changed {
		return fmt.Sprintf("committed %.12s to %s of %s", pushed.Commit, p.PagesBranch, remote), nil
	}
	return fmt.Sprintf("%s of %s is up to date", p.PagesBranch, remote), nil
}

// report says what was published, and sets a workflow step's outputs and
// summary.
func (p *publication) report(outs []release.Outcome, where string) error {
	count := map[release.Status]int{}
	for _, o := range outs {
		count[o.Status]++
	}
	indexURL := ""
	if p.baseURL != "" {
		indexURL = chartrepo.IndexURL(p.baseURL)
	} else if chartrepo.IsRemote(p.opt.Merge) {
		indexURL = chartrepo.IndexURL(p.opt.Merge)
	}
	fmt.Fprintf(p.Stdout, "published %d chart version(s) in %s/%s: %d released, %d completed, %d already released; %s\n",
		len(outs), p.owner, p.repo, count[release.Created], count[release.Uploaded], count[release.Skipped], where)
	if p.step == nil {
		return nil
	}
	// The build's report set charts, errors and warnings.
	// The charts released, as chart-releaser-action names them.
	var released []string
	for _, o := range outs {
		if (o.Status == release.Created || o.Status == release.Uploaded) && !slices.Contains(released, o.Name) {
			released = append(released, o.Name)
		}
	}
	for _, o := range [][2]string{
		{"published", strconv.Itoa(count[release.Created] + count[release.Uploaded])},
		{"changed_charts", strings.Join(released, ",")},
		{"index_url", indexURL},
	} {
		if err := p.step.SetOutput(o[0], o[1]); err != nil {
			return Usage(err)
		}
	}
	if err := p.step.AddSummary(publishSummary(outs, indexURL, where)); err != nil {
		return Usage(err)
	}
	return nil
}

// releasable lists the chart versions built from the sources, in the
// order of the index, as the index describes them.
func releasable(out string, cat *catalog.Catalog, made []madeVersion) ([]release.Chart, error) {
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
			i := slices.IndexFunc(made, func(m madeVersion) bool { return m.name == name && m.version == cv.Version })
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

// publishSummary is the step summary's table of what was published. The
// release pages are GitHub's addresses, linked only when they are web
// addresses; every text is escaped, so that none is read as Markdown.
func publishSummary(outs []release.Outcome, indexURL, where string) string {
	var b strings.Builder
	b.WriteString("### catalogist publish\n\n")
	if len(outs) > 0 {
		b.WriteString("| Chart | Version | Release | Status |\n|---|---|---|---|\n")
		for _, o := range outs {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", workflow.Text(o.Name), workflow.Text(o.Version),
				workflow.Link(o.Tag, o.ReleaseURL), workflow.Text(string(o.Status)))
		}
		b.WriteString("\n")
	}
	if indexURL != "" {
		fmt.Fprintf(&b, "Index: %s  \n", workflow.Link(indexURL, indexURL))
	}
	fmt.Fprintf(&b, "Pages: %s.\n", workflow.Text(where))
	return b.String()
}
