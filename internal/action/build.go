package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/base/progress"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/publish/workflow"
	"github.com/catalogist/catalogist/lint"
)

// Build builds a catalog into a chart repository and its site.
type Build struct {
	Options builder.Options
	// Verbose prints how long each step of the build took.
	Verbose bool

	Stdout, Stderr io.Writer
}

// CheckBuildOptions checks a build's settings before anything starts.
func CheckBuildOptions(opt builder.Options) error {
	if opt.LintFormat != "" && !slices.Contains(lint.Formats, opt.LintFormat) {
		return fmt.Errorf("unknown format %q (known: %s)", opt.LintFormat, strings.Join(lint.Formats, ", "))
	}
	if opt.RegionID != "" && opt.RegionFile == "" {
		return errors.New("--region-id needs --region")
	}
	if opt.Prune && opt.Merge == "" {
		return errors.New("--prune needs --merge: there is no published index to prune")
	}
	if opt.MergeOptional && opt.Merge == "" {
		return errors.New("--merge-optional needs --merge: it says the published index may not exist yet")
	}
	// The registry directories are read once, by the build; the other schema
	// settings are checked as lint checks them, before anything starts.
	_, err := SchemaOverrides(opt.ExtensionKey, opt.Platform, nil)
	return err
}

// WriteSteps prints how long each step of a build took.
func WriteSteps(w io.Writer, steps []builder.StepTime) {
	for _, s := range steps {
		fmt.Fprintf(w, "%-12s %8.1f ms\n", s.Name, float64(s.Took.Microseconds())/1000)
	}
}

// Run builds, and returns what the build made.
func (b *Build) Run(ctx context.Context) (*builder.Result, error) {
	begin := time.Now()
	opt := b.Options
	if opt.Out == "" {
		return nil, Usage(errors.New("--out is required: the directory to write the repository and the site into"))
	}
	if err := CheckBuildOptions(opt); err != nil {
		return nil, Usage(err)
	}
	// A line per chart and step in a CI log, a bar on a terminal; the lint
	// report and other messages are written above the bar.
	rep := progress.New(b.Stderr, progress.Options{Quiet: opt.LintFormat == "json" || opt.LintFormat == "sarif"})
	opt.Log = rep.Writer()
	steps := rep.Steps()
	opt.Progress = func(ev builder.Event) {
		status := ""
		if ev.Reused {
			status = "unchanged"
		}
		steps.Done(ev.Step, ev.Total, ev.Chart, ev.Took, status)
	}
	run := workflow.Detect(b.Stdout)
	res, err := builder.Build(ctx, opt)
	steps.Finish()
	if err != nil {
		return nil, b.failed(run, res, err)
	}
	if b.Verbose {
		WriteSteps(b.Stderr, res.Steps)
	}
	_, warns := res.Lint.Count()
	fmt.Fprintf(b.Stdout, "built %d chart(s) into %s: %d packaged, %d unchanged, %d carried from the published index, %d lint warning(s)\n",
		res.Charts, opt.Out, res.Packaged, res.Reused, res.Carried, warns)
	if len(res.Same) > 0 {
		var kept []string
		for _, cv := range res.Same {
			kept = append(kept, cv.Name+" "+cv.Version)
		}
		fmt.Fprintf(b.Stdout, "kept %d published version(s) as published, their content the same as the sources': %s\n", len(kept), strings.Join(kept, ", "))
	}
	if run != nil {
		rb := workflow.Build{Out: opt.Out, Charts: res.Charts, Packaged: res.Packaged, Reused: res.Reused, Carried: res.Carried,
			Took: time.Since(begin), Lint: res.Lint}
		for _, s := range res.Steps {
			rb.Steps = append(rb.Steps, workflow.Step{Name: s.Name, Took: s.Took})
		}
		if err := run.ReportBuild(rb); err != nil {
			fmt.Fprintln(b.Stderr, "catalogist: warning:", err)
		}
	}
	return res, nil
}

// failed reports a build that failed to a workflow, and gives its exit
// code: refused by lint or the merge, a remote that failed or another
// build holding the output, or input that cannot be read.
func (b *Build) failed(run *workflow.Run, res *builder.Result, err error) error {
	var le *builder.ErrLint
	if run != nil {
		// The summary is no place for a URL's credentials either.
		if serr := run.ReportFailure("build", secret.RedactURLs(err.Error())); serr != nil {
			fmt.Fprintln(b.Stderr, "catalogist: warning:", serr)
		}
		// Refused by lint: the summary lists every finding, as
		// lint's own does.
		if errors.As(err, &le) && res != nil && res.Lint != nil {
			if serr := run.ReportLint(workflow.Lint{Result: res.Lint}); serr != nil {
				fmt.Fprintln(b.Stderr, "catalogist: warning:", serr)
			}
		}
	}
	var (
		ce   *repoindex.ConflictError
		de   *repoindex.DuplicateError
		busy *builder.BusyError
	)
	switch {
	case errors.As(err, &le) || errors.As(err, &ce) || errors.As(err, &de):
		return Refused(err)
	case errors.As(err, &busy):
		return Failed(err)
	}
	return inputOrRemote(err)
}
