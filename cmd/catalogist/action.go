package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/publish/workflow"
)

func newActionCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "action",
		Short:  "Run lint, build or publish as the catalogist GitHub Action's inputs say",
		Hidden: true,
		Long: `Action is what the catalogist GitHub Action (action.yml) runs: it reads the
action's inputs from the INPUT_* variables of a GitHub Actions step and runs
lint, build or publish with them. Outside a step, run those commands.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runAction(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
}

// actionInputs are the inputs of action.yml.
type actionInputs struct {
	command, path, platform, region, baseURL, out, failOn, token, changedSince string
	registries                                                                 []string
	// ref is the Action's version: built from a copy of the sources
	// without their history, the binary knows no version of its own.
	ref string
}

// Allowed values of the inputs that take one of a few.
var (
	actionCommands = []string{"lint", "build", "publish"}
	actionFailOn   = []string{"error", "warning"}
)

// defaultSARIF is the SARIF file lint writes when the out input is empty.
const defaultSARIF = "catalogist.sarif"

// defaultSite is the directory build and publish write when the out input
// is empty: the path actions/upload-pages-artifact takes by default.
const defaultSite = "_site"

func runAction(ctx context.Context, stdout, stderr io.Writer) error {
	run := workflow.Detect(stdout)
	if run == nil {
		return usageError(errors.New("catalogist action is the step of the catalogist GitHub Action: it reads its inputs from a job's environment (GITHUB_ACTIONS=true and INPUT_* variables); outside a job, run catalogist lint, build or publish"))
	}
	// Before anything else can print it.
	if err := run.Mask(run.Input("token")); err != nil {
		return usageError(err)
	}
	in, err := readActionInputs(run.Input)
	if err != nil {
		return usageError(err)
	}
	in.ref = os.Getenv("CATALOGIST_ACTION_REF")
	switch in.command {
	case "lint":
		return runLint(ctx, stdout, []string{in.path}, in.lintFlags())
	case "build":
		res, err := buildCatalog(ctx, stdout, stderr, in.buildOptions(), false)
		if err != nil {
			return err
		}
		if _, warns := res.Lint.Count(); in.failOn == "warning" && warns > 0 {
			return &exitError{code: 1, err: fmt.Errorf("lint found %d warning(s) and the input fail_on is warning: the build in %s is not to be published", warns, in.out)}
		}
		return nil
	default:
		return runPublish(ctx, stdout, stderr, in.publishFlags())
	}
}

// readActionInputs reads and checks the inputs; an input that is empty
// takes its default.
func readActionInputs(input func(string) string) (actionInputs, error) {
	in := actionInputs{
		command: input("command"), path: input("path"), platform: input("platform"), region: input("region"),
		baseURL: input("base_url"), out: input("out"), failOn: input("fail_on"), token: input("token"),
		changedSince: input("changed_since"), registries: strings.Fields(input("schema_registry")),
	}
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
	if in.platform != "" {
		if _, err := schema.PlatformNamed(in.platform); err != nil {
			return in, fmt.Errorf("input platform: %w", err)
		}
	}
	if in.path == "" {
		in.path = "."
	}
	if in.out == "" {
		in.out = defaultSite
		if in.command == "lint" {
			in.out = defaultSARIF
		}
	}
	return in, nil
}

func oneOf(name, value string, allowed []string) error {
	for _, a := range allowed {
		if value == a {
			return nil
		}
	}
	if value == "" {
		return fmt.Errorf("input %s is empty: set it to %s", name, strings.Join(allowed, ", "))
	}
	return fmt.Errorf("input %s is %q: it must be one of %s", name, value, strings.Join(allowed, ", "))
}

func (in actionInputs) lintFlags() lintFlags {
	f := lintFlags{
		format: "github", platform: in.platform, registries: in.registries, baseURL: in.baseURL,
		strict: in.failOn == "warning", changedSince: in.changedSince, published: in.baseURL, sarif: in.out,
		toolVersion: in.ref,
	}
	if in.region != "" {
		f.regions = []string{in.region}
	}
	return f
}

// buildOptions are the build of build and publish. The repository
// published at base_url is merged, so that the versions published before
// stay in the index; a first publication finds none there.
func (in actionInputs) buildOptions() builder.Options {
	return builder.Options{
		Catalog: in.path, Out: in.out, BaseURL: in.baseURL, Merge: in.baseURL, MergeOptional: in.baseURL != "",
		RegionFile: in.region, Platform: in.platform, SchemaRegistry: in.registries, LintFormat: "github",
	}
}

// publishFlags are publish's settings: its build, and the repository,
// token and API the job gives.
func (in actionInputs) publishFlags() publishFlags {
	b := in.buildOptions()
	// The first publication finds no index where the repository is to be
	// published; an unreadable one (5xx, no answer) still fails.
	b.MergeOptional = true
	return publishFlags{
		build: b, token: cmp.Or(in.token, os.Getenv("GITHUB_TOKEN")),
		repo: os.Getenv("GITHUB_REPOSITORY"), apiURL: os.Getenv("GITHUB_API_URL"),
	}
}
