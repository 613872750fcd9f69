// Package workflow holds what catalogist writes for a GitHub Actions job:
// annotations on a pull request's lines, step outputs, the step summary and
// collapsible groups in the log. Outside a job (GITHUB_ACTIONS unset) there
// is no Run, and commands print only their usual output.
package workflow

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sethvargo/go-githubactions"
)

// Run is the job step catalogist runs in.
type Run struct {
	a      *githubactions.Action
	getenv func(string) string
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

// New returns a step that reads its environment through getenv. Its
// commands are written to w as commands: w is the step's Stream, or a
// writer that takes commands as lines.
func New(w io.Writer, getenv func(string) string) *Run {
	return &Run{a: githubactions.New(githubactions.WithWriter(commandWriter{w}), githubactions.WithGetenv(getenv)), getenv: getenv}
}

// Input returns the action input name (snake_case), trimmed: the variable
// INPUT_<NAME>, which a composite action must pass to its step itself.
func (r *Run) Input(name string) string { return r.a.GetInput(name) }

// outputDelimiter is the line go-githubactions ends a value with in
// GITHUB_OUTPUT: a value holding it would end early, and its rest would
// set other outputs.
const outputDelimiter = "_GitHubActionsFileCommandDelimeter_"

// SetOutput sets a step output.
func (r *Run) SetOutput(name, value string) error {
	if strings.Contains(value, outputDelimiter) {
		return fmt.Errorf("step output %s: the value holds %s, which would end it early", name, outputDelimiter)
	}
	if err := r.needFile("GITHUB_OUTPUT", "step outputs"); err != nil {
		return err
	}
	return catch(func() { r.a.SetOutput(name, value) }, "setting step output "+name)
}

// AddSummary appends Markdown to the step summary.
func (r *Run) AddSummary(markdown string) error {
	if err := r.needFile("GITHUB_STEP_SUMMARY", "the step summary"); err != nil {
		return err
	}
	return catch(func() { r.a.AddStepSummary(markdown) }, "writing the step summary")
}

// Mask makes the runner hide value wherever the log would show it.
func (r *Run) Mask(value string) error {
	if value == "" {
		return nil
	}
	return catch(func() { r.a.AddMask(value) }, "masking a secret")
}

// needFile checks that the runner named the file a file command writes.
func (r *Run) needFile(env, what string) error {
	if r.getenv(env) == "" {
		return fmt.Errorf("%s is not set, so %s cannot be written: the GitHub Actions runner sets it in every step", env, what)
	}
	return nil
}

// catch turns the panic go-githubactions raises when it cannot write into
// an error.
func catch(f func(), what string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			e, ok := p.(error)
			if !ok {
				e = errors.New(fmt.Sprint(p))
			}
			err = fmt.Errorf("%s: %w", what, e)
		}
	}()
	f()
	return nil
}
