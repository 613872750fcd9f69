package action

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/base/printable"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/publish/release"
)

// A catalog's first publication finds no index where it is to be published.
// So does a mistyped address, whose build would then publish an index
// without every version released before. The two are told apart by the
// repository's releases: before the first publication, no chart of the
// catalog has a <chart>-<version> release (the tag scheme of publish and of
// chart-releaser).

// firstPublication returns nil when the repository pub releases into has
// no release of a chart of cat yet; otherwise an error saying that what
// (where no index was found) would drop the index published with them.
func firstPublication(ctx context.Context, pub *release.Publisher, cat *catalog.Catalog, repo, what string) error {
	var names []string
	for _, ch := range cat.Charts {
		name := ch.Name
		if md, err := chartutil.LoadChartfile(ch.ChartFile); err == nil && md.Name != "" {
			name = md.Name
		}
		names = append(names, name)
	}
	tag, err := pub.ChartRelease(ctx, names)
	if err != nil {
		return inputOrRemote(err)
	}
	if tag != "" {
		return Usage(fmt.Errorf("%s, but %s has released %s before: the index published with it would be dropped; check the address (base_url) or the pages branch", what, repo, printable.Line(tag)))
	}
	return nil
}

// mergeOrFirst makes the Action's build merge the index published at
// opt.Merge as publish does: a missing index is taken as empty only for a
// first publication, told from the releases of the workflow's repository.
func (a *GitHubAction) mergeOrFirst(ctx context.Context, in actionInputs, opt *builder.Options) error {
	opt.MergeOptional = false
	_, found, err := builder.PublishedDigests(ctx, nil, opt.Merge)
	if err != nil {
		return inputOrRemote(err)
	}
	if found {
		return nil
	}
	what := "nothing is published at " + chartrepo.Redact(opt.Merge)
	cat, err := catalog.Discover(opt.Catalog)
	if err != nil {
		return Usage(err)
	}
	full := a.Getenv("GITHUB_REPOSITORY")
	owner, repo, ok := strings.Cut(full, "/")
	if !ok || owner == "" || repo == "" {
		return Usage(errors.New(what + ": build tells a first publication from the releases of the workflow's repository, but GITHUB_REPOSITORY is not OWNER/NAME"))
	}
	pub, err := release.New(release.Config{Owner: owner, Repo: repo, Token: cmp.Or(in.token, a.Getenv("GITHUB_TOKEN")),
		APIURL: a.Getenv("GITHUB_API_URL"), Log: a.Stderr})
	if err != nil {
		return Usage(err)
	}
	if err := firstPublication(ctx, pub, cat, full, what); err != nil {
		return err
	}
	opt.MergeOptional = true
	return nil
}
