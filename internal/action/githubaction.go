package action

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/publish/workflow"
)

// GitHubAction runs lint, build or publish as the inputs of the catalogist
// GitHub Action (action.yml) say, in a workflow's step.
type GitHubAction struct {
	// Getenv reads the step's environment: GITHUB_TOKEN,
	// GITHUB_REPOSITORY, GITHUB_API_URL and GITHUB_SHA, and
	// CATALOGIST_ACTION_REF, the Action's version (built from a copy of
	// the sources without their history, the binary knows no version of
	// its own).
	Getenv func(string) string

	Stdout, Stderr io.Writer
}

// actionInputs are the inputs of action.yml.
type actionInputs struct {
	command, path, platform, region, baseURL, out, failOn, token, changedSince string
	regionID, extensionKey, baseline, pagesBranch                              string
	registries                                                                 []string
	makeLatest                                                                 bool
}

// Allowed values of the inputs that take one of a few.
var (
	actionCommands = []string{"lint", "build", "publish"}
	actionFailOn   = []string{"error", "warning"}
	actionBools    = []string{"true", "false"}
)

// DefaultSARIF is the SARIF file lint writes when the out input is empty.
const DefaultSARIF = "catalogist.sarif"

// DefaultSite is the directory build and publish write when the out input
// is empty: the path actions/upload-pages-artifact takes by default.
const DefaultSite = "_site"

// Run runs the command the inputs name.
func (a *GitHubAction) Run(ctx context.Context) error {
	run := workflow.Detect(a.Stdout)
	if run == nil {
		return Usage(errors.New("catalogist action is the step of the catalogist GitHub Action: it reads its inputs from a job's environment (GITHUB_ACTIONS=true and INPUT_* variables); outside a job, run catalogist lint, build or publish"))
	}
	// Before anything else can print it.
	if err := run.Mask(run.Input("token")); err != nil {
		return Usage(err)
	}
	in, err := readActionInputs(run.Input)
	if err != nil {
		return Usage(err)
	}
	switch in.command {
	case "lint":
		return a.lint(in).Run(ctx)
	case "build":
		opt := in.buildOptions()
		if opt.Merge != "" {
			if err := a.mergeOrFirst(ctx, in, &opt); err != nil {
				return err
			}
		}
		res, err := (&Build{Options: opt, Stdout: a.Stdout, Stderr: a.Stderr}).Run(ctx)
		if err != nil {
			return err
		}
		if _, warns := res.Lint.Count(); in.failOn == "warning" && warns > 0 {
			return Refused(fmt.Errorf("lint found %d warning(s) and the input fail_on is warning: the build in %s is not to be published", warns, in.out))
		}
		return nil
	default:
		return a.publish(in).Run(ctx)
	}
}

// readActionInputs reads and checks the inputs; an input that is empty
// takes its default.
func readActionInputs(input func(string) string) (actionInputs, error) {
	in := actionInputs{
		command: input("command"), path: input("path"), platform: input("platform"), region: input("region"),
		baseURL: input("base_url"), out: input("out"), failOn: input("fail_on"), token: input("token"),
		changedSince: input("changed_since"), registries: strings.Fields(input("schema_registry")),
		regionID: input("region_id"), extensionKey: input("extension_key"), baseline: input("baseline"),
		pagesBranch: input("pages_branch"),
	}
	makeLatest := cmp.Or(input("make_latest"), "false")
	if err := oneOf("make_latest", makeLatest, actionBools); err != nil {
		return in, err
	}
	in.makeLatest = makeLatest == "true"
	if err := oneOf("command", in.command, actionCommands); err != nil {
		return in, err
	}
	if in.failOn == "" {
		in.failOn = "error"
	}
	if err := oneOf("fail_on", in.failOn, actionFailOn); err != nil {
		return in, err
	}
	if in.failOn == "warning" && in.command == "publish" {
		return in, errors.New(`input fail_on is warning, which publish cannot honour: it publishes as it builds. Lint with fail_on: warning in a step before it (command: lint)`)
	}
	if in.changedSince != "" && in.command != "lint" {
		return in, fmt.Errorf("input changed_since is set, but it applies to command lint only (command is %s): a build publishes every chart", in.command)
	}
	if in.baseline != "" && in.command != "lint" {
		return in, fmt.Errorf("input baseline is set, but it applies to command lint only (command is %s): a build is refused by every lint error", in.command)
	}
	for _, only := range []struct {
		name string
		set  bool
	}{{"pages_branch", in.pagesBranch != ""}, {"make_latest", in.makeLatest}} {
		if only.set && in.command != "publish" {
			return in, fmt.Errorf("input %s is set, but it applies to command publish only (command is %s)", only.name, in.command)
		}
	}
	if in.extensionKey != "" && !strings.HasPrefix(in.extensionKey, "x-") {
		return in, fmt.Errorf("input extension_key is %q: it must start with x- (for example x-onyxia)", in.extensionKey)
	}
	if in.platform != "" {
		if _, err := schema.PlatformNamed(in.platform); err != nil {
			return in, fmt.Errorf("input platform: %w", err)
		}
	}
	if in.path == "" {
		in.path = "."
	}
	if in.out == "" {
		in.out = DefaultSite
		if in.command == "lint" {
			in.out = DefaultSARIF
		}
	}
	return in, nil
}

func oneOf(name, value string, allowed []string) error {
	if slices.Contains(allowed, value) {
		return nil
	}
	if value == "" {
		return fmt.Errorf("input %s is empty: set it to %s", name, strings.Join(allowed, ", "))
	}
	return fmt.Errorf("input %s is %q: it must be one of %s", name, value, strings.Join(allowed, ", "))
}

// lint is the lint the inputs ask for.
func (a *GitHubAction) lint(in actionInputs) *Lint {
	l := &Lint{
		Paths: []string{in.path}, Format: "github", Platform: in.platform, Registries: in.registries, BaseURL: in.baseURL,
		ExtensionKey: in.extensionKey, RegionID: in.regionID, Baseline: in.baseline,
		Strict: in.failOn == "warning", ChangedSince: in.changedSince, Published: in.baseURL, SARIF: in.out,
		ToolVersion: a.Getenv("CATALOGIST_ACTION_REF"), Stdout: a.Stdout, Stderr: a.Stderr,
	}
	if in.region != "" {
		l.Regions = []string{in.region}
	}
	return l
}

// buildOptions are the build of build and publish. The repository
// published at base_url is merged, so that the versions published before
// stay in the index; a first publication finds none there, which both tell
// from the repository's releases (mergeOrFirst, FirstFromReleases).
func (in actionInputs) buildOptions() builder.Options {
	return builder.Options{
		Catalog: in.path, Out: in.out, BaseURL: in.baseURL, Merge: in.baseURL,
		RegionFile: in.region, RegionID: in.regionID, Platform: in.platform, ExtensionKey: in.extensionKey,
		SchemaRegistry: in.registries, LintFormat: "github",
	}
}

// publish is publish's settings: its build, and the repository, token and
// API the job gives.
func (a *GitHubAction) publish(in actionInputs) *Publish {
	b := in.buildOptions()
	if in.pagesBranch != "" {
		// The index to merge is the one the branch holds.
		b.Merge = ""
	}
	return &Publish{
		Build: b, Token: cmp.Or(in.token, a.Getenv("GITHUB_TOKEN")),
		Repo: a.Getenv("GITHUB_REPOSITORY"), APIURL: a.Getenv("GITHUB_API_URL"), Target: a.Getenv("GITHUB_SHA"),
		PagesBranch: in.pagesBranch, MakeLatest: in.makeLatest, FirstFromReleases: true,
		Remote: "origin", Stdout: a.Stdout, Stderr: a.Stderr,
	}
}
