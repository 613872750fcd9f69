// Package workflow holds what catalogist writes for a GitHub Actions job:
// annotations on a pull request's lines, step outputs, the step summary and
// collapsible groups in the log. Outside a job (GITHUB_ACTIONS unset) there
// is no Run, and commands print only their usual output.
package workflow

import (
	"io"
	"os"

	"github.com/sethvargo/go-githubactions"
)

// Run is the job step catalogist runs in.
type Run struct {
	a *githubactions.Action
}

// Detect returns the step when GITHUB_ACTIONS is "true", nil otherwise.
// Workflow commands (annotations, groups) go to w, outputs to the file
// GITHUB_OUTPUT names and the summary to GITHUB_STEP_SUMMARY's.
func Detect(w io.Writer) *Run {
	if os.Getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	return New(w, os.Getenv)
}

// New returns a step that reads its environment through getenv.
func New(w io.Writer, getenv func(string) string) *Run {
	return &Run{a: githubactions.New(githubactions.WithWriter(w), githubactions.WithGetenv(getenv))}
}

// Input returns the action input name (snake_case), trimmed.
func (r *Run) Input(name string) string { return r.a.GetInput(name) }

// SetOutput sets a step output.
func (r *Run) SetOutput(name, value string) { r.a.SetOutput(name, value) }

// AddSummary appends Markdown to the step summary.
func (r *Run) AddSummary(markdown string) { r.a.AddStepSummary(markdown) }

// Group starts a collapsible group of log lines; EndGroup ends it.
func (r *Run) Group(title string) { r.a.Group(title) }

// EndGroup ends the group Group started.
func (r *Run) EndGroup() { r.a.EndGroup() }

// Mask makes the runner hide value wherever the log would show it.
func (r *Run) Mask(value string) { r.a.AddMask(value) }
