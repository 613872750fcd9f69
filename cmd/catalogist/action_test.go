package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/catalogist/catalogist/internal/publish/workflow/workflowtest"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/lint"
)

// ghStep is a step of a composite action or of a workflow job.
type ghStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	Shell            string            `yaml:"shell"`
	WorkingDirectory string            `yaml:"working-directory"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
}

type actionFile struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Author      string `yaml:"author"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs map[string]struct {
		Description string  `yaml:"description"`
		Required    bool    `yaml:"required"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string   `yaml:"using"`
		Steps []ghStep `yaml:"steps"`
	} `yaml:"runs"`
}

type workflowFile struct {
	Name        string            `yaml:"name"`
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Concurrency map[string]any    `yaml:"concurrency"`
	Jobs        map[string]struct {
		RunsOn      string            `yaml:"runs-on"`
		Permissions map[string]string `yaml:"permissions"`
		Environment map[string]string `yaml:"environment"`
		Steps       []ghStep          `yaml:"steps"`
	} `yaml:"jobs"`
}

// readYAML decodes a file, refusing keys the type does not know: a
// misspelt key (defualt, with-) would otherwise pass unseen.
func readYAML(t *testing.T, path string, v any) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return data
}

var (
	pinnedUses  = regexp.MustCompile(`^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$`)
	usesLine    = regexp.MustCompile(`^\s*(?:-\s+)?uses:\s*(\S+)\s*(?:#\s*(\S+))?\s*$`)
	versionTag  = regexp.MustCompile(`^v\d+\.\d+\.\d+$`)
	stepOutput  = regexp.MustCompile(`steps\.([\w-]+)\.outputs\.([\w-]+)`)
	outputValue = regexp.MustCompile(`^\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) \}\}$`)
)

// catalogistAction is how the example workflows name the action: its
// release tag, a placeholder their comments say how to pin.
const catalogistAction = "catalogist/catalogist@v1"

// checkPins checks each uses: line of a file: pinned to a commit with the
// version as a comment, but for the catalogist action in the examples.
func checkPins(t *testing.T, name string, data []byte, allowCatalogist bool) {
	t.Helper()
	for i, line := range strings.Split(string(data), "\n") {
		m := usesLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if allowCatalogist && m[1] == catalogistAction {
			continue
		}
		if !pinnedUses.MatchString(m[1]) || !versionTag.MatchString(m[2]) {
			t.Errorf("%s:%d: %q is not pinned to a full commit SHA with its version as a comment (uses: owner/repo@<40 hex> # vX.Y.Z)", name, i+1, strings.TrimSpace(line))
		}
	}
}

// action.yml and the example workflows: the action passes each input to
// its step and reads each in Go, its outputs are its step's, it pins what
// it uses; the workflows give the action only its inputs, read only its
// outputs, and have the permissions and settings their steps need.
func TestActionAndWorkflowFiles(t *testing.T) {
	var act actionFile
	actData := readYAML(t, "../../action.yml", &act)
	checkPins(t, "action.yml", actData, false)
	if act.Runs.Using != "composite" || len(act.Runs.Steps) != 3 {
		t.Fatalf("action.yml runs %q with %d steps, want a composite action of 3", act.Runs.Using, len(act.Runs.Steps))
	}
	setup, build, run := act.Runs.Steps[0], act.Runs.Steps[1], act.Runs.Steps[2]
	if !strings.HasPrefix(setup.Uses, "actions/setup-go@") || setup.With["go-version-file"] != "${{ github.action_path }}/go.mod" ||
		setup.With["cache-dependency-path"] != "${{ github.action_path }}/go.sum" {
		t.Errorf("the first step does not set up Go from the action's go.mod, cached on its go.sum: %+v", setup)
	}
	if !strings.Contains(build.Run, `cd "$GITHUB_ACTION_PATH"`) || !strings.Contains(build.Run, `-o "$RUNNER_TEMP/catalogist" ./cmd/catalogist`) {
		t.Errorf("the second step does not build catalogist from the action's sources into the runner's temporary directory:\n%s", build.Run)
	}
	for _, s := range act.Runs.Steps[1:] {
		if s.Shell != "bash" {
			t.Errorf("step %q: shell %q, want bash (a composite step must name one)", s.Name, s.Shell)
		}
		// An expression in a script is pasted into it before bash reads it.
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q puts an expression into its script; pass it through env:\n%s", s.Name, s.Run)
		}
	}

	// Each input reaches the step, and only inputs do.
	if run.ID == "" {
		t.Fatal("the step running catalogist has no id, so no output can be read from it")
	}
	for name, in := range act.Inputs {
		key := "INPUT_" + strings.ToUpper(name)
		if got := run.Env[key]; got != "${{ inputs."+name+" }}" {
			t.Errorf("input %s reaches the step as %s=%q, want ${{ inputs.%s }}", name, key, got, name)
		}
		if in.Description == "" || in.Default == nil {
			t.Errorf("input %s needs a description and a default", name)
		}
	}
	for key := range run.Env {
		if name := strings.ToLower(strings.TrimPrefix(key, "INPUT_")); strings.HasPrefix(key, "INPUT_") {
			if _, ok := act.Inputs[name]; !ok {
				t.Errorf("the step gets %s, which is no input of action.yml", key)
			}
		}
	}
	ids := map[string]bool{}
	for _, s := range act.Runs.Steps {
		if s.ID != "" {
			ids[s.ID] = true
		}
	}
	for _, name := range []string{"errors", "warnings", "charts", "changed_charts", "published", "index_url", "sarif"} {
		if _, ok := act.Outputs[name]; !ok {
			t.Errorf("action.yml lacks the output %s", name)
		}
	}
	for name, out := range act.Outputs {
		m := outputValue.FindStringSubmatch(out.Value)
		if m == nil || !ids[m[1]] || m[2] != name || out.Description == "" {
			t.Errorf("output %s: value %q is not ${{ steps.<an id of the action's steps>.outputs.%s }}, or it has no description", name, out.Value, name)
		}
	}

	wfs := map[string]workflowFile{}
	for _, name := range []string{"pull-request.yml", "publish.yml"} {
		var wf workflowFile
		path := filepath.Join("../../examples/workflows", name)
		data := readYAML(t, path, &wf)
		checkPins(t, name, data, true)
		if !strings.Contains(string(data), "catalogist/catalogist@<40-hex commit of the release> # v1.x.y") {
			t.Errorf("%s does not say how to pin the catalogist action", name)
		}
		used := false
		for job, j := range wf.Jobs {
			jobIDs := map[string]string{}
			for _, s := range j.Steps {
				if s.ID != "" {
					jobIDs[s.ID] = s.Uses
				}
			}
			for _, s := range j.Steps {
				if s.Uses == catalogistAction {
					used = true
					if s.ID == "" {
						t.Errorf("%s: job %s: the catalogist step has no id, so its outputs cannot be read", name, job)
					}
					for k := range s.With {
						if _, ok := act.Inputs[k]; !ok {
							t.Errorf("%s: job %s: the catalogist step is given %s, which is no input of action.yml", name, job, k)
						}
					}
				}
				// Every expression naming a step's output, wherever it is.
				for _, text := range append(append([]string{s.If, s.Run}, values(s.With)...), values(s.Env)...) {
					for _, m := range stepOutput.FindAllStringSubmatch(text, -1) {
						uses, ok := jobIDs[m[1]]
						switch {
						case !ok:
							t.Errorf("%s: job %s reads %s, but no step has the id %s", name, job, m[0], m[1])
						case uses == catalogistAction:
							if _, ok := act.Outputs[m[2]]; !ok {
								t.Errorf("%s: job %s reads %s, which is no output of action.yml", name, job, m[0])
							}
						}
					}
				}
			}
			if env := j.Environment["url"]; env != "" {
				for _, m := range stepOutput.FindAllStringSubmatch(env, -1) {
					if _, ok := jobIDs[m[1]]; !ok {
						t.Errorf("%s: job %s's environment reads %s, but no step has the id %s", name, job, m[0], m[1])
					}
				}
			}
		}
		if !used {
			t.Errorf("%s does not use the catalogist action", name)
		}
		wfs[name] = wf
	}

	pr := wfs["pull-request.yml"]
	if _, ok := pr.On["pull_request"]; !ok || pr.Permissions["contents"] != "read" || pr.Permissions["security-events"] != "write" {
		t.Errorf("pull-request.yml: on %v, permissions %v; want pull_request, contents read and security-events write", pr.On, pr.Permissions)
	}
	steps := pr.Jobs["lint"].Steps
	if len(steps) != 3 || !strings.HasPrefix(steps[0].Uses, "actions/checkout@") || steps[0].With["fetch-depth"] != "0" {
		t.Fatalf("pull-request.yml: want checkout with fetch-depth 0, the action, upload-sarif; got %+v", steps)
	}
	lintStep, upload := steps[1], steps[2]
	if lintStep.With["command"] != "lint" || lintStep.With["changed_since"] != "origin/${{ github.base_ref }}" || lintStep.With["base_url"] == "" || lintStep.With["out"] != "catalogist.sarif" {
		t.Errorf("pull-request.yml: the action's inputs %v", lintStep.With)
	}
	if !strings.HasPrefix(upload.Uses, "github/codeql-action/upload-sarif@") || !strings.Contains(upload.If, "always()") ||
		upload.With["sarif_file"] != "${{ steps."+lintStep.ID+".outputs.sarif }}" {
		t.Errorf("pull-request.yml: the upload step %+v does not always upload the action's SARIF file", upload)
	}

	pub := wfs["publish.yml"]
	push, _ := pub.On["push"].(map[string]any)
	if fmt.Sprint(push["branches"]) != "[main]" || pub.Permissions["contents"] != "write" || pub.Permissions["pages"] != "write" || pub.Permissions["id-token"] != "write" {
		t.Errorf("publish.yml: on %v, permissions %v; want push to main, contents, pages and id-token write", pub.On, pub.Permissions)
	}
	steps = pub.Jobs["publish"].Steps
	var uses []string
	for _, s := range steps {
		uses = append(uses, strings.Split(s.Uses, "@")[0])
	}
	if want := []string{"actions/checkout", "catalogist/catalogist", "actions/upload-pages-artifact", "actions/deploy-pages", ""}; !slices.Equal(uses, want) {
		t.Fatalf("publish.yml steps use %q, want %q", uses, want)
	}
	if steps[1].With["command"] != "publish" || steps[2].With["path"] != steps[1].With["out"] || steps[1].With["out"] == "" {
		t.Errorf("publish.yml: the action publishes %v, Pages uploads %v: not the same directory", steps[1].With, steps[2].With)
	}
}

func values(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// manyFindingsCatalog writes a catalog of 12 charts with 37 errors (24 of
// option-type, an error by default, 12 of context-path, which the catalog
// raises to one, and a template of svc-11 that does not render) and 36
// warnings (12 of option-key, for the odd key); option names put |, %, :,
// ",", a backtick and <> into messages.
func manyFindingsCatalog(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		"catalog.yaml": "name: many\nlint:\n  rules: {context-path: error}\n",
		// A template that does not render: its finding is summed up with
		// the others.
		"charts/svc-11/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  host: {{ .Values.nope.deeper }}\n",
	}
	for i := range 12 {
		c := fmt.Sprintf("charts/svc-%02d/", i)
		files[c+"Chart.yaml"] = fmt.Sprintf("apiVersion: v2\nname: svc-%02d\nversion: 1.0.0\ndescription: A service\nicon: https://example.org/icons/svc.svg\n", i)
		files[c+"values.yaml"] = "cpu: 150m\n"
		files[c+"values.schema.json"] = `{
  "type": "object",
  "properties": {
    "nickname": {"title": "Nickname", "default": "x"},
    "a|b %25 c:d,e` + "`" + `f<g>": {"title": "Odd", "default": "y"},
    "email": {"title": "E-mail", "type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "git.mail"}},
    "cpu": {"title": "CPU", "type": "string", "default": "150m", "render": "slider", "sliderMin": 100, "sliderMax": 8000, "sliderStep": 100, "sliderUnit": "m"},
    "size": {"title": "Size", "type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "nothing"}}
  }
}
`
	}
	filetree.Write(t, dir, files)
}

// expression is a ${{ ... }} of a composite action; only plain context
// paths are used.
var expression = regexp.MustCompile(`\$\{\{\s*([\w.-]+)\s*\}\}`)

// evaluate replaces the expressions of s with their values; a path not in
// ctx fails the test.
func evaluate(t *testing.T, s string, ctx map[string]string) string {
	t.Helper()
	return expression.ReplaceAllStringFunc(s, func(e string) string {
		path := expression.FindStringSubmatch(e)[1]
		v, ok := ctx[path]
		if !ok {
			t.Fatalf("expression %s: no %s in the test's context", e, path)
		}
		return v
	})
}

// actionStepRun is what a step of the action did.
type actionStepRun struct {
	stdout, stderr, outputFile, summaryFile string
	code                                    int
}

// runActionStep runs a run step of the action as the runner does: its
// script in bash, in the workspace ws, with its env's expressions
// evaluated (the inputs from with, else their defaults), GITHUB_ACTIONS
// and files of its own for GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. The
// test's own GITHUB_*, INPUT_* and RUNNER_* variables are left out.
func runActionStep(t *testing.T, act actionFile, s ghStep, ws string, ctx, with map[string]string) actionStepRun {
	t.Helper()
	ctx = maps.Clone(ctx)
	for name, in := range act.Inputs {
		v, ok := with[name]
		if !ok {
			v = evaluate(t, *in.Default, ctx)
		}
		ctx["inputs."+name] = v
	}
	dir := t.TempDir()
	script, output, summary := filepath.Join(dir, "script.sh"), filepath.Join(dir, "output"), filepath.Join(dir, "summary")
	if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = ws
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "GITHUB_") && !strings.HasPrefix(k, "INPUT_") && !strings.HasPrefix(k, "RUNNER_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GOFLAGS="+binaryGoFlags, "GITHUB_ACTIONS=true", "GITHUB_WORKSPACE="+ws, "GITHUB_ACTION_PATH="+ctx["github.action_path"],
		"RUNNER_TEMP="+ctx["runner.temp"], "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+summary)
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+evaluate(t, v, ctx))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := actionStepRun{stdout: stdout.String(), stderr: stderr.String(), outputFile: output, summaryFile: summary}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("step %q panicked:\n%s", s.Name, r.stderr)
	}
	return r
}

// The acceptance: the action's own steps, run as the runner runs
// a composite action (its run steps in bash, inputs through env, with
// GITHUB_ACTIONS, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY), lint a catalog
// with many findings: at most 10 annotations of each severity, the most
// severe, with file and line; the outputs action.yml declares; a summary
// holding every finding; a SARIF file; and the token masked, never shown.
func TestActionRunsLint(t *testing.T) {
	ws := t.TempDir()
	manyFindingsCatalog(t, ws)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	runnerTemp := t.TempDir()
	// The action's build step runs for real. Given the binary TestMain
	// linked from the same sources with the same flags (GOFLAGS below), go
	// build finds it up to date rather than link it again.
	copyFile(t, binary, filepath.Join(runnerTemp, "catalogist"))
	const token = "ghs_TestToken1234567890"

	// What the findings are, from the JSON format.
	truth := catalogist(t, nil, "lint", "--format", "json", ws)
	var want struct {
		Findings []struct {
			Rule, Severity, File, Chart, Message string
			Line, Column                         int
		}
	}
	if err := json.Unmarshal([]byte(truth.stdout), &want); err != nil {
		t.Fatalf("lint --format json: %v\n%s%s", err, truth.stdout, truth.stderr)
	}
	counts := map[string]int{}
	for i, f := range want.Findings {
		rel, err := filepath.Rel(ws, f.File)
		if err != nil {
			t.Fatal(err)
		}
		want.Findings[i].File = filepath.ToSlash(rel)
		counts[f.Severity]++
	}
	if counts["error"] != 37 || counts["warning"] != 36 {
		t.Fatalf("the catalog has %v findings, want 37 errors and 36 warnings", counts)
	}

	var act actionFile
	readYAML(t, "../../action.yml", &act)
	ctx := map[string]string{"github.action_path": root, "github.action_ref": "v9.8.7", "github.token": token, "runner.temp": runnerTemp}
	var runs []actionStepRun
	for i, s := range act.Runs.Steps {
		if s.Uses != "" {
			// actions/setup-go: the test's Go stands in for it.
			continue
		}
		r := runActionStep(t, act, s, ws, ctx, map[string]string{"command": "lint", "path": "."})
		if r.code != 0 && i < len(act.Runs.Steps)-1 {
			t.Fatalf("step %q failed (exit %d):\n%s%s", s.Name, r.code, r.stdout, r.stderr)
		}
		runs = append(runs, r)
	}
	r := runs[len(runs)-1]
	if r.code != 1 {
		t.Fatalf("catalogist action: exit %d, want 1 (lint errors)\n%s%s", r.code, r.stdout, r.stderr)
	}
	readFile := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	outputFile, summary := readFile(r.outputFile), readFile(r.summaryFile)
	sarif := readFile(filepath.Join(ws, "catalogist.sarif"))

	// The token: masked first, then never printed nor written.
	if !strings.HasPrefix(r.stdout, "::add-mask::"+token+"\n") {
		t.Errorf("the log does not start by masking the token:\n%.300s", r.stdout)
	}
	for what, s := range map[string]string{"log": strings.TrimPrefix(r.stdout, "::add-mask::"+token+"\n"), "stderr": r.stderr, "outputs": outputFile, "summary": summary, "SARIF": sarif} {
		if strings.Contains(s, token) {
			t.Errorf("the token is in the %s", what)
		}
	}

	// Annotations: 10 errors, the most severe (option-type, an error by
	// default, before the raised context-path), 10 warnings, then a notice.
	cmds, _, err := workflowtest.Commands(r.stdout)
	if err != nil {
		t.Fatal(err)
	}
	annotations := map[string][]workflowtest.Command{}
	for _, c := range cmds {
		annotations[c.Name] = append(annotations[c.Name], c)
	}
	if len(annotations["error"]) != 10 || len(annotations["warning"]) != 10 {
		t.Fatalf("%d error and %d warning annotations, want 10 of each", len(annotations["error"]), len(annotations["warning"]))
	}
	for _, c := range append(annotations["error"], annotations["warning"]...) {
		p := c.Properties
		if _, err := os.Stat(filepath.Join(ws, p["file"])); err != nil || filepath.IsAbs(p["file"]) || p["line"] == "" || p["line"] == "0" || p["col"] == "" {
			t.Errorf("annotation without a file of the repository and a line: %+v", c)
		}
	}
	for _, c := range annotations["error"] {
		if c.Properties["title"] != "catalogist option-type" {
			t.Errorf("error annotation %+v: want option-type findings first", c)
		}
	}
	if !slices.ContainsFunc(annotations["error"], func(c workflowtest.Command) bool { return strings.Contains(c.Message, "a|b %25 c:d,e`f<g>") }) {
		t.Errorf("no error annotation carries the option name with |, %%, :, a comma and a backtick intact")
	}
	notices := annotations["notice"]
	if len(notices) != 1 || !strings.HasPrefix(notices[0].Message, "27 more errors and 26 more warnings not annotated") {
		t.Errorf("notices %+v, want one counting 27 errors and 26 warnings left out", notices)
	}
	var groups []string
	for _, c := range cmds {
		if c.Name == "group" {
			groups = append(groups, c.Message)
		}
	}
	if len(groups) != 12 || groups[0] != "svc-00 (3 errors, 3 warnings)" || len(annotations["endgroup"]) != 12 {
		t.Errorf("log groups %q, want one per chart", groups)
	}

	// The outputs, as the action's outputs read them.
	stepOutputs, err := workflowtest.Outputs(outputFile)
	if err != nil {
		t.Fatal(err)
	}
	for name := range stepOutputs {
		if _, ok := act.Outputs[name]; !ok {
			t.Errorf("catalogist sets the output %s, which action.yml does not declare", name)
		}
	}
	got := map[string]string{}
	for name, out := range act.Outputs {
		m := outputValue.FindStringSubmatch(out.Value)
		got[name] = stepOutputs[m[2]]
	}
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("svc-%02d", i))
	}
	changed, _ := json.Marshal(names)
	wantOutputs := map[string]string{"errors": "37", "warnings": "36", "charts": "12", "changed_charts": string(changed),
		"sarif": "catalogist.sarif", "published": "", "index_url": ""}
	if fmt.Sprint(got) != fmt.Sprint(wantOutputs) {
		t.Errorf("action outputs %v\nwant %v", got, wantOutputs)
	}

	// The summary: the totals and every finding, each exactly once.
	if !strings.Contains(summary, "**37 errors, 36 warnings** in 12 charts") {
		t.Errorf("summary lacks the totals:\n%.500s", summary)
	}
	rows := map[string]int{}
	for line := range strings.Lines(summary) {
		if strings.HasPrefix(line, "| error |") || strings.HasPrefix(line, "| warning |") {
			rows[strings.TrimSuffix(line, "\n")]++
		}
	}
	md := strings.NewReplacer("|", `\|`, "`", "\\`", "_", `\_`, "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`)
	for _, f := range want.Findings {
		row := fmt.Sprintf("| %s | [%s](%s) | %s | %s | %s |", f.Severity, f.Rule, lint.RulesURL, f.Chart,
			md.Replace(fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)), md.Replace(f.Message))
		if rows[row] != 1 {
			t.Errorf("the summary has %d rows for the finding\n%s", rows[row], row)
		}
	}
	if len(rows) != len(want.Findings) {
		t.Errorf("the summary has %d finding rows, want %d", len(rows), len(want.Findings))
	}

	// The SARIF file: every finding, and the action's ref as the version.
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Version, SemanticVersion string }
			}
			Results []json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(sarif), &log); err != nil {
		t.Fatal(err)
	}
	if d := log.Runs[0].Tool.Driver; d.Version != "v9.8.7" || d.SemanticVersion != "9.8.7" || len(log.Runs[0].Results) != len(want.Findings) {
		t.Errorf("SARIF driver %+v with %d results, want version v9.8.7 and %d results", d, len(log.Runs[0].Results), len(want.Findings))
	}

	// build, with the binary the steps above built: refused by the lint
	// errors, with the reason in the summary; then a catalog that builds.
	step := act.Runs.Steps[len(act.Runs.Steps)-1]
	r = runActionStep(t, act, step, ws, ctx, map[string]string{"command": "build"})
	if sum := readFile(r.summaryFile); r.code != 1 || !strings.Contains(sum, "**Failed:**\n\n```text\nlint: ") || !strings.Contains(sum, "lint found 37 error(s)") {
		t.Errorf("build of a catalog with errors: exit %d, summary:\n%s", r.code, readFile(r.summaryFile))
	}
	// The build's lint report, on stderr, which action.yml merges into
	// the log.
	buildCmds, _, err := workflowtest.Commands(r.stdout)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(slices.DeleteFunc(buildCmds, func(c workflowtest.Command) bool { return c.Name != "error" })); n != 10 || r.stderr != "" {
		t.Errorf("build's lint report: %d error annotations, want 10; stderr %q", n, r.stderr)
	}
	ide := t.TempDir()
	if err := os.CopyFS(ide, os.DirFS("../../examples/ide")); err != nil {
		t.Fatal(err)
	}
	r = runActionStep(t, act, step, ide, ctx, map[string]string{"command": "build"})
	if r.code != 0 {
		t.Fatalf("build of examples/ide: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	stepOutputs, err = workflowtest.Outputs(readFile(r.outputFile))
	if err != nil {
		t.Fatal(err)
	}
	if stepOutputs["charts"] != "2" || stepOutputs["errors"] != "0" {
		t.Errorf("build outputs %v, want 2 charts and no error", stepOutputs)
	}
	if sum := readFile(r.summaryFile); !strings.Contains(sum, "Built 2 charts into \\_site in ") {
		t.Errorf("build summary:\n%s", sum)
	}
	if _, err := os.Stat(filepath.Join(ide, "_site", "index.yaml")); err != nil {
		t.Errorf("build wrote no index into the default out, _site: %v", err)
	}
}
