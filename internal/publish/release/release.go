// Package release publishes chart packages as GitHub releases: one release
// per chart version, tagged <chart>-<version>, with the package as its
// asset, as chart-releaser does, but never changing a released package,
// never marking a chart release as the repository's latest unless asked,
// and safe to run again: what is released already is skipped.
package release

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
	"github.com/google/go-github/v89/github"

	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// Config configures a Publisher.
type Config struct {
	// Owner and Repo name the GitHub repository.
	Owner, Repo string
	// Token authenticates the requests; it is never printed.
	Token string
	// APIURL is the REST API's address: "" for github.com, else a GitHub
	// Enterprise Server's (https://HOST/api/v3) or a data-residency
	// instance's (https://api.SUBDOMAIN.ghe.com).
	APIURL string
	// HTTPClient sends the requests; nil means one that gives up on a
	// request after ten minutes. The token is added to the requests to the
	// API's and the uploads' origins only, and a redirect of those to
	// another origin is refused; downloads redirected elsewhere go there
	// without it.
	HTTPClient *http.Client
	// Target is the commit new releases tag (GITHUB_SHA in a workflow);
	// "" means the default branch's head.
	Target string
	// MakeLatest marks the releases made as the repository's latest; by
	// default none is, so that a chart release never displaces the
	// repository's own.
	MakeLatest bool
	// Attempts bounds the tries of one request (default 5); MaxWait the
	// wait before a retry (default 2 minutes): a rate limit that resets
	// later fails at once, saying when to try again.
	Attempts int
	MaxWait  time.Duration
	// Sleep waits before a retry (default: a timer, ended by the context);
	// Now tells the time rate limits reset against (default time.Now).
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
	// Log receives a line for each retry.
	Log io.Writer
	// Done, when set, is told of each chart version once it is released,
	// completed or found released, with the time that took.
	Done func(o Outcome, took time.Duration)
}

// Publisher makes the releases of a repository. It is one user action,
// made from its configuration by New, and run by Run.
type Publisher struct {
	cfg      Config
	client   *github.Client
	download *http.Client
	ep       endpoints
	// secrets scrubs the token from every error and line.
	secrets *secret.Set
}

// New checks a configuration and makes its Publisher.
func New(cfg Config) (*Publisher, error) {
	if cfg.Owner == "" || cfg.Repo == "" {
		return nil, errors.New("no GitHub repository: give it as OWNER/NAME")
	}
	if cfg.Token == "" {
		return nil, errors.New("no GitHub token: set GITHUB_TOKEN (in a workflow: GITHUB_TOKEN: ${{ github.token }}, with permissions contents: write)")
	}
	ep, err := endpointsOf(cfg.APIURL)
	if err != nil {
		return nil, err
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = defaultHTTPClient()
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 5
	}
	if cfg.MaxWait <= 0 {
		cfg.MaxWait = 2 * time.Minute
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	client, err := newClient(cfg.HTTPClient, cfg.Token, ep)
	if err != nil {
		return nil, fmt.Errorf("GitHub client: %w", err)
	}
	secrets := &secret.Set{}
	secrets.Add(cfg.Token)
	return &Publisher{cfg: cfg, client: client, download: cfg.HTTPClient, ep: ep, secrets: secrets}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Tag is the tag of a chart version's release, chart-releaser's.
func Tag(name, version string) string { return name + "-" + version }

// AssetURL is where the asset file of the release tagged tag is
// downloaded from: what the index lists, before the release exists.
func (p *Publisher) AssetURL(tag, file string) string {
	u := *p.ep.web
	u.Path += p.cfg.Owner + "/" + p.cfg.Repo + "/releases/download/" + tag + "/" + file
	return u.String()
}

// Chart is a chart version to release.
type Chart struct {
	Name, Version string
	// File is the package; Digest its sha256 as the index lists it.
	File, Digest string
	// Annotations and Description are Chart.yaml's; Dir is the chart's
	// directory, where a CHANGELOG.md may be.
	Annotations map[string]string
	Description string
	Dir         string
}

func (c Chart) chartFile() string { return filepath.Join(c.Dir, "Chart.yaml") }

// Status is what Run did for a chart version.
type Status string

const (
	// Created: the release was made, with its asset.
	Created Status = "created"
	// Uploaded: the release was there without its asset (an earlier run
	// stopped midway), which was added.
	Uploaded Status = "uploaded"
	// Skipped: the release has the asset already, with the same digest.
	Skipped Status = "skipped"
)

// Outcome is what Run did for a chart version.
type Outcome struct {
	Name, Version, Tag string
	Status             Status
	// ReleaseURL is the release's page; AssetURL the package's download:
	// the addresses GitHub answered with, scrubbed of secrets, when they
	// are on the instance's web host, else the addresses GitHub gives
	// them (pageURL).
	ReleaseURL, AssetURL string
}

// ConflictError is a chart version released already with another package:
// a released package must never change under the same version.
type ConflictError struct {
	Chart, Version, Tag string
	// Released and Built are the digests of the released asset and of the
	// package built; ChartFile is the chart's Chart.yaml.
	Released, Built, ChartFile string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s: chart %q version %s is released already (tag %s) with a package of digest sha256:%s, but the build made sha256:%s: a released package must not change; bump version in this Chart.yaml",
		e.ChartFile, e.Chart, e.Version, e.Tag, chartrepo.NormalDigest(e.Released), chartrepo.NormalDigest(e.Built))
}

// step is what Run found for one chart version and will do.
type step struct {
	c           Chart
	tag, asset  string
	digest      string
	rel         *github.RepositoryRelease // nil: to be created
	done        *github.ReleaseAsset      // released with the same digest
	partial     *github.ReleaseAsset      // half uploaded: deleted first
	releaseNote string
}

// Run releases the chart versions, in their order. It first reads what is
// released: a version released with another package refuses the whole run
// (errors.As finds a *ConflictError) before anything is made. Then it makes
// the missing releases and uploads the missing assets. The outcomes are
// those of the versions done when it returns, an error or not.
func (p *Publisher) Run(ctx context.Context, charts []Chart) ([]Outcome, error) {
	outs, err := p.run(ctx, charts)
	return outs, p.serverErr(err)
}

func (p *Publisher) run(ctx context.Context, charts []Chart) ([]Outcome, error) {
	seen := map[string]bool{}
	steps := make([]*step, 0, len(charts))
	for _, c := range charts {
		s, err := p.check(c)
		if err != nil {
			return nil, err
		}
		if seen[s.tag] {
			return nil, fmt.Errorf("%s %s is to be released twice", c.Name, c.Version)
		}
		seen[s.tag] = true
		steps = append(steps, s)
	}
	var conflicts []error
	for _, s := range steps {
		if err := p.examine(ctx, s); err != nil {
			var ce *ConflictError
			if !errors.As(err, &ce) {
				return nil, err
			}
			conflicts = append(conflicts, err)
		}
	}
	if len(conflicts) > 0 {
		return nil, errors.Join(conflicts...)
	}
	var outs []Outcome
	for _, s := range steps {
		begin := p.cfg.Now()
		o, err := p.apply(ctx, s)
		if err != nil {
			return outs, err
		}
		p.cleanOutcome(&o, s.asset)
		if p.cfg.Done != nil {
			p.cfg.Done(o, p.cfg.Now().Sub(begin))
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// check reads a chart version's package, whose digest must be the index's.
func (p *Publisher) check(c Chart) (*step, error) {
	if c.Name == "" || c.Version == "" {
		return nil, fmt.Errorf("%s: a chart without a name or a version cannot be released", c.File)
	}
	d, err := chartrepo.ReadDigest(c.File)
	if err != nil {
		return nil, fmt.Errorf("package of %s %s: %w", c.Name, c.Version, err)
	}
	if c.Digest != "" && !chartrepo.SameDigest(c.Digest, d) {
		return nil, fmt.Errorf("%s has digest sha256:%s, not the index's sha256:%s: build again", c.File, d, chartrepo.NormalDigest(c.Digest))
	}
	return &step{c: c, tag: Tag(c.Name, c.Version), asset: filepath.Base(c.File), digest: d}, nil
}

// examine finds the release of a step, and in it the asset.
func (p *Publisher) examine(ctx context.Context, s *step) error {
	var rel *github.RepositoryRelease
	err := p.retry(ctx, "reading the release "+s.tag, func() error {
		r, _, err := p.client.Repositories.GetReleaseByTag(ctx, p.cfg.Owner, p.cfg.Repo, url.PathEscape(s.tag))
		rel = r
		return err
	}, nil)
	if status(err) == http.StatusNotFound {
		return nil
	}
	if err != nil {
		return p.explain(err)
	}
	s.rel = rel
	return p.takeAsset(ctx, s, rel.Assets)
}

// takeAsset finds a step's asset among a release's assets: released with
// the package's digest, it is done; half uploaded, it is to be deleted;
// released with another digest, a *ConflictError.
func (p *Publisher) takeAsset(ctx context.Context, s *step, assets []*github.ReleaseAsset) error {
	s.done, s.partial = nil, nil
	for _, a := range assets {
		if a.GetName() != s.asset {
			continue
		}
		if a.GetState() != "" && a.GetState() != "uploaded" {
			s.partial = a
			return nil
		}
		released := a.GetDigest()
		if released == "" {
			var err error
			if released, err = p.hashAsset(ctx, a, s); err != nil {
				return err
			}
		}
		if !chartrepo.SameDigest(released, s.digest) {
			return &ConflictError{Chart: s.c.Name, Version: s.c.Version, Tag: s.tag, Released: released, Built: s.digest, ChartFile: s.c.chartFile()}
		}
		s.done = a
		return nil
	}
	return nil
}

// hashAsset downloads a released asset whose digest GitHub does not give
// (assets uploaded before it computed them), reading at most one byte more
// than the package built: a larger one differs anyway.
func (p *Publisher) hashAsset(ctx context.Context, a *github.ReleaseAsset, s *step) (string, error) {
	info, err := os.Stat(s.c.File)
	if err != nil {
		return "", err
	}
	var sum string
	err = p.retry(ctx, "downloading "+s.tag+"/"+s.asset, func() error {
		rc, _, err := p.client.Repositories.DownloadReleaseAsset(ctx, p.cfg.Owner, p.cfg.Repo, a.GetID(), p.download)
		if err != nil {
			return err
		}
		defer rc.Close()
		h := sha256.New()
		if _, err := io.CopyN(h, rc, info.Size()+1); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		sum = hex.EncodeToString(h.Sum(nil))
		return nil
	}, nil)
	if err != nil {
		return "", fmt.Errorf("the released %s of %s has no digest, and downloading it to compare failed: %w", s.asset, s.tag, p.explain(err))
	}
	return sum, nil
}

// apply makes what examine found missing.
func (p *Publisher) apply(ctx context.Context, s *step) (Outcome, error) {
	o := Outcome{Name: s.c.Name, Version: s.c.Version, Tag: s.tag, Status: Skipped}
	if s.done != nil {
		o.ReleaseURL, o.AssetURL = s.rel.HTMLURL, s.done.GetBrowserDownloadURL()
		return o, nil
	}
	o.Status = Uploaded
	if s.rel == nil {
		rel, err := p.create(ctx, s)
		if err != nil {
			return o, err
		}
		s.rel, o.Status = rel, Created
	}
	if s.done == nil {
		if s.partial != nil {
			if err := p.deleteAsset(ctx, s, s.partial.GetID()); err != nil {
				return o, err
			}
		}
		a, err := p.upload(ctx, s)
		if err != nil {
			return o, err
		}
		s.done = a
	}
	o.ReleaseURL, o.AssetURL = s.rel.HTMLURL, s.done.GetBrowserDownloadURL()
	return o, nil
}

func (p *Publisher) create(ctx context.Context, s *step) (*github.RepositoryRelease, error) {
	latest := "false"
	if p.cfg.MakeLatest {
		latest = "true"
	}
	req := github.CreateReleaseRequest{
		TagName:    s.tag,
		Name:       github.Ptr(s.tag),
		Body:       github.Ptr(Notes(s.c)),
		Prerelease: github.Ptr(prerelease(s.c.Version)),
		MakeLatest: github.Ptr(latest),
	}
	if p.cfg.Target != "" {
		req.TargetCommitish = github.Ptr(p.cfg.Target)
	}
	// A try whose answer was lost (a 5xx, a dropped connection) may have
	// made the release: the next one looks it up by its tag first, and a
	// 422 for a tag taken looks it up too, rather than fail a run whose
	// release is there.
	var rel *github.RepositoryRelease
	lost, found := false, false
	err := p.retry(ctx, "creating the release "+s.tag, func() error {
		if lost {
			r, err := p.releaseByTag(ctx, s.tag)
			if err != nil || r != nil {
				rel, found = r, r != nil
				return err
			}
		}
		r, _, err := p.client.Repositories.CreateRelease(ctx, p.cfg.Owner, p.cfg.Repo, req)
		if alreadyExists(err) {
			r, lerr := p.releaseByTag(ctx, s.tag)
			if lerr != nil {
				return lerr
			}
			if r != nil {
				rel, found = r, true
				return nil
			}
		}
		rel = r
		lost = lost || p.answerLost(err)
		return err
	}, nil)
	if err != nil {
		return nil, p.explain(err)
	}
	if !found {
		return rel, nil
	}
	if differs := differences(rel, req); len(differs) > 0 {
		return nil, &ForeignReleaseError{Chart: s.c.Name, Version: s.c.Version, Tag: s.tag, Repo: p.cfg.Owner + "/" + p.cfg.Repo,
			Differs: differs, ChartFile: s.c.chartFile()}
	}
	fmt.Fprintf(p.cfg.Log, "the release %s is there already, as publish makes it (made by a try whose answer was lost, or by a run alongside): carrying on with it\n", s.tag)
	if err := p.takeAsset(ctx, s, rel.Assets); err != nil {
		return nil, err
	}
	return rel, nil
}

// releaseByTag returns the release tagged tag, nil when there is none.
// One request: the caller's retry tries it again.
func (p *Publisher) releaseByTag(ctx context.Context, tag string) (*github.RepositoryRelease, error) {
	r, _, err := p.client.Repositories.GetReleaseByTag(ctx, p.cfg.Owner, p.cfg.Repo, url.PathEscape(tag))
	if status(err) == http.StatusNotFound {
		return nil, nil
	}
	return r, err
}

// differences names what a release found under the tag of one being made
// has other than what the request asked for. Line ends and the spaces
// around the notes are left aside, the notes being text.
func differences(rel *github.RepositoryRelease, req github.CreateReleaseRequest) []string {
	var d []string
	if rel.GetName() != req.GetName() {
		d = append(d, "name")
	}
	notes := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) }
	if notes(rel.GetBody()) != notes(req.GetBody()) {
		d = append(d, "notes")
	}
	if rel.Prerelease != req.GetPrerelease() {
		d = append(d, "pre-release flag")
	}
	if rel.Draft {
		d = append(d, "draft state")
	}
	return d
}

// ForeignReleaseError is a release found under the tag of one being made,
// after a lost answer or a 422 for a tag taken, with other content than
// publish meant: someone else made it meanwhile.
type ForeignReleaseError struct {
	Chart, Version, Tag, Repo string
	// Differs names what differs: name, notes, pre-release flag, draft
	// state.
	Differs []string
	// ChartFile is the chart's Chart.yaml.
	ChartFile string
}

func (e *ForeignReleaseError) Error() string {
	return fmt.Sprintf("%s: a release tagged %s appeared in %s while publish was making the release of chart %q version %s, and it is someone else's: its %s differ from what publish makes. Look at that release: if it should not be there, delete it (and its tag) and publish again; otherwise bump version in this Chart.yaml",
		e.ChartFile, e.Tag, e.Repo, e.Chart, e.Version, strings.Join(e.Differs, ", "))
}

// upload uploads a step's package. A failed try may have uploaded it
// whole though its answer was lost, or left a half-uploaded asset of that
// name, which would refuse the next try: before trying again, the release's
// assets are looked at, and the package found there whole is taken, a half
// one deleted. A 422 for the name taken looks too.
func (p *Publisher) upload(ctx context.Context, s *step) (*github.ReleaseAsset, error) {
	var asset *github.ReleaseAsset
	tried := false
	err := p.retry(ctx, "uploading "+s.asset+" to the release "+s.tag, func() error {
		if tried {
			a, err := p.uploadedAlready(ctx, s)
			if err != nil {
				return final{err}
			}
			if a != nil {
				asset = a
				return nil
			}
		}
		tried = true
		f, err := os.Open(s.c.File)
		if err != nil {
			return err
		}
		defer f.Close()
		a, _, err := p.client.Repositories.UploadReleaseAsset(ctx, p.cfg.Owner, p.cfg.Repo, s.rel.ID,
			&github.UploadOptions{Name: s.asset, MediaType: "application/gzip"}, f)
		if alreadyExists(err) {
			a, ferr := p.uploadedAlready(ctx, s)
			if ferr != nil {
				return final{ferr}
			}
			if a != nil {
				asset = a
				return nil
			}
		}
		asset = a
		return err
	}, nil)
	if err != nil {
		return nil, p.explain(err)
	}
	return asset, nil
}

// uploadedAlready looks for a step's asset in its release: it returns the
// asset uploaded whole with the package's digest, deletes a half-uploaded
// one, and returns a *ConflictError for one of another digest.
func (p *Publisher) uploadedAlready(ctx context.Context, s *step) (*github.ReleaseAsset, error) {
	var assets []*github.ReleaseAsset
	opts := &github.ListOptions{PerPage: 100}
	for {
		var page []*github.ReleaseAsset
		var next int
		err := p.retry(ctx, "listing the assets of "+s.tag, func() error {
			as, resp, err := p.client.Repositories.ListReleaseAssets(ctx, p.cfg.Owner, p.cfg.Repo, s.rel.ID, opts)
			page = as
			if resp != nil {
				next = resp.NextPage
			}
			return err
		}, nil)
		if err != nil {
			return nil, p.explain(err)
		}
		assets = append(assets, page...)
		if next == 0 {
			break
		}
		opts.Page = next
	}
	if err := p.takeAsset(ctx, s, assets); err != nil {
		return nil, err
	}
	if s.partial != nil {
		err := p.deleteAsset(ctx, s, s.partial.GetID())
		s.partial = nil
		return nil, err
	}
	if s.done != nil {
		fmt.Fprintf(p.cfg.Log, "%s is in the release %s already, whole, with the package's digest: not uploaded again\n", s.asset, s.tag)
	}
	return s.done, nil
}

func (p *Publisher) deleteAsset(ctx context.Context, s *step, id int64) error {
	fmt.Fprintf(p.cfg.Log, "deleting the half-uploaded %s of %s before uploading it again\n", s.asset, s.tag)
	err := p.retry(ctx, "deleting the half-uploaded "+s.asset+" of "+s.tag, func() error {
		_, err := p.client.Repositories.DeleteReleaseAsset(ctx, p.cfg.Owner, p.cfg.Repo, id)
		return err
	}, nil)
	if status(err) == http.StatusNotFound {
		return nil
	}
	return p.explain(err)
}

// prerelease reports whether a version has a SemVer pre-release part.
func prerelease(version string) bool {
	v, err := semver.NewVersion(version)
	return err == nil && v.Prerelease() != ""
}

// explain adds to an error what the user can do about the answers that
// usually mean the token lacks a permission.
func (p *Publisher) explain(err error) error {
	switch status(err) {
	case http.StatusUnauthorized:
		return fmt.Errorf("%w: the token was refused; check GITHUB_TOKEN", err)
	case http.StatusForbidden, http.StatusNotFound:
		return fmt.Errorf("%w: the token may lack the permission contents: write on %s/%s (in a workflow: permissions: contents: write)", err, p.cfg.Owner, p.cfg.Repo)
	}
	return err
}

// ChartRelease returns the tag of a release of one of the charts named, as
// publish and chart-releaser tag them (<chart>-<version>), "" when the
// repository has none: its first publication is still to come.
func (p *Publisher) ChartRelease(ctx context.Context, charts []string) (string, error) {
	opts := &github.ListOptions{PerPage: 100}
	for {
		var page []*github.RepositoryRelease
		var next int
		err := p.retry(ctx, "listing the releases", func() error {
			rs, resp, err := p.client.Repositories.ListReleases(ctx, p.cfg.Owner, p.cfg.Repo, opts)
			page = rs
			if resp != nil {
				next = resp.NextPage
			}
			return err
		}, nil)
		if err != nil {
			return "", p.serverErr(p.explain(err))
		}
		for _, r := range page {
			if tag := r.GetTagName(); isChartTag(tag, charts) {
				return tag, nil
			}
		}
		if next == 0 {
			return "", nil
		}
		opts.Page = next
	}
}

// isChartTag reports whether tag is <chart>-<version> for a chart named.
func isChartTag(tag string, charts []string) bool {
	for _, c := range charts {
		if v, ok := strings.CutPrefix(tag, c+"-"); ok {
			if _, err := semver.NewVersion(v); err == nil {
				return true
			}
		}
	}
	return false
}
