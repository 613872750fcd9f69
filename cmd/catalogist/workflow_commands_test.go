package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/publish/workflow/workflowtest"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// forgedKey is an option key that, printed as it is in a step's log, makes
// the runner raise an error annotation and mask a word.
const forgedKey = "x ##[error]FORGED ##[add-mask]word"

// The reproduction: the action lints a chart whose option keys
// hold workflow commands (legacy ##[ in the middle of a line, :: after
// white space, a stop-commands). The runner reads in the step's log (its
// stdout and stderr, which action.yml merges) only catalogist's own
// commands: the token's mask, the groups and the annotations, each with
// its file and title; the keys show in the log as they are.
func TestActionLogCannotBeForged(t *testing.T) {
	ws := t.TempDir()
	filetree.Write(t, ws, map[string]string{
		"catalog.yaml":           "name: forged\n",
		"charts/svc/Chart.yaml":  "apiVersion: v2\nname: svc\nversion: 1.0.0\ndescription: A service\nicon: https://example.org/icons/svc.svg\n",
		"charts/svc/values.yaml": "cpu: 150m\n",
		"charts/svc/values.schema.json": `{
  "type": "object",
  "properties": {
    "` + forgedKey + `": {"title": "A", "default": "x"},
    "  ::warning::indented": {"title": "B", "default": "y"},
    "##[stop-commands]tok": {"title": "C", "default": "z"}
  }
}
`,
	})
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	runnerTemp := t.TempDir()
	copyFile(t, binary, filepath.Join(runnerTemp, "catalogist"))
	const token = "ghs_ForgedLogTESTtoken123"
	var act actionFile
	readYAML(t, "../../action.yml", &act)
	ctx := map[string]string{"github.action_path": root, "github.action_ref": "v9.8.7", "github.token": token, "runner.temp": runnerTemp}
	r := runActionStep(t, act, act.Runs.Steps[len(act.Runs.Steps)-1], ws, ctx, map[string]string{"command": "lint"})
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (lint errors):\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r.stderr != "" {
		t.Errorf("the action's step writes to stderr, which the runner reads apart:\n%s", r.stderr)
	}
	cmds, plain, err := workflowtest.Commands(r.stdout)
	if err != nil {
		t.Fatal(err)
	}
	annotations := 0
	for _, c := range cmds {
		switch {
		case c.Name == "stop-commands" || c.Resume:
		case c.Legacy:
			t.Errorf("the runner reads the legacy command %s %q on line %d", c.Name, c.Message, c.Line)
		case c.Name == "add-mask":
			if c.Message != token {
				t.Errorf("the runner masks %q", c.Message)
			}
		case c.Name == "group" || c.Name == "endgroup":
		case c.Name == "error" || c.Name == "warning" || c.Name == "notice":
			if !strings.HasPrefix(c.Properties["title"], "catalogist ") || !strings.HasPrefix(c.Properties["file"], "charts/svc/") {
				t.Errorf("annotation %+v is not one of catalogist's", c)
			}
			annotations++
		default:
			t.Errorf("the runner carries out %s %q", c.Name, c.Message)
		}
	}
	if annotations == 0 || !slices.ContainsFunc(cmds, func(c workflowtest.Command) bool {
		return c.Name == "error" && strings.Contains(c.Message, forgedKey)
	}) {
		t.Errorf("no error annotation quotes the key %q:\n%s", forgedKey, r.stdout)
	}
	if !slices.ContainsFunc(plain, func(l string) bool { return strings.Contains(l, forgedKey) }) {
		t.Errorf("the log does not show the key as it is:\n%s", r.stdout)
	}
}

// step runs catalogist with stdout and stderr into one log, as a step run
// with 2>&1 gives them to the runner, and returns it.
func step(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(append(os.Environ(), "GITHUB_ACTIONS=", "CI="), env...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return log.String(), cmd.ProcessState.ExitCode()
}

// catalogist's own error line, quoting what it was given, is read as no
// command in a job step; on a terminal, it holds no control character.
func TestErrorLineCannotBeForged(t *testing.T) {
	path := filepath.Join(t.TempDir(), forgedKey, "::error::x")
	log, code := step(t, []string{"GITHUB_ACTIONS=true"}, "lint", path)
	if code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, log)
	}
	cmds, plain, err := workflowtest.Commands(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if c.Name != "stop-commands" && !c.Resume {
			t.Errorf("the runner carries out %s %q:\n%s", c.Name, c.Message, log)
		}
	}
	if len(plain) != 1 || !strings.HasPrefix(plain[0], "catalogist: ") || !strings.Contains(plain[0], path) {
		t.Errorf("the log shows %q, want the error line with the path as it is", plain)
	}

	r := catalogist(t, nil, "lint", filepath.Join(t.TempDir(), "\x1b[2Jcleared\rback"))
	if r.code != 2 || strings.ContainsAny(r.stderr, "\x1b\r") || !strings.Contains(r.stderr, `\x1b[2Jcleared\rback`) {
		t.Errorf("exit %d, stderr %q: want the path's control characters escaped", r.code, r.stderr)
	}
}
