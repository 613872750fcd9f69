package main

import (
	"context"
	"errors"
	"io"

	"github.com/catalogist/catalogist/builder"
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
}

func runPublish(ctx context.Context, stdout, stderr io.Writer, f publishFlags) error {
	return errors.New("publish: not implemented")
}
