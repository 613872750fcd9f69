package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/output/chartdocs"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// docsRun runs catalogist docs in this process, as main would: its
// output, and the exit status run gives.
func docsRun(t *testing.T, args ...string) result {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(append([]string{"docs"}, args...))
	err := root.Execute()
	if err != nil && err.Error() != "" {
		errb.WriteString(err.Error() + "\n")
	}
	return result{out.String(), errb.String(), action.ExitCode(err)}
}

// The examples' READMEs are up to date; a README whose schema changed
// fails --check, at the line that differs, with the command that fixes it,
// and passes once docs wrote it. A README without the marker lines gets
// the section at its end; one with a README.md.gotmpl is written whole.
func TestDocs(t *testing.T) {
	r := docsRun(t, append([]string{"--check"}, examples(t)...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "6 README(s) up to date") {
		t.Fatalf("docs --check on the examples: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	cat := filepath.Join(t.TempDir(), "ide")
	if err := os.CopyFS(cat, os.DirFS("../../examples/ide")); err != nil {
		t.Fatal(err)
	}
	chart := filepath.Join(cat, "charts", "vscode-python")
	readme := filepath.Join(chart, "README.md")
	schemaFile := filepath.Join(chart, "values.schema.json")
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(data), `"title": "Python extension"`, `"title": "Install the Python extension"`, 1)
	if changed == string(data) {
		t.Fatal("the example schema has no Python extension title to change")
	}
	filetree.Write(t, chart, map[string]string{"values.schema.json": changed})
	before, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Count(before[:bytes.Index(before, []byte("| `python.installExtension`"))], []byte("\n")) + 1

	r = docsRun(t, "--check", "--platform", "catalogist", cat)
	want := regexp.QuoteMeta(readme) + `:` + regexp.QuoteMeta(strconv.Itoa(line)) + `: out of date: the options section differs from the chart's schema from this line on\n`
	if r.code != 1 || !regexp.MustCompile(want).MatchString(r.stdout) ||
		!strings.Contains(r.stdout, "1 README(s) out of date; update them with: catalogist docs --platform catalogist "+cat+"\n") {
		t.Errorf("docs --check after the schema changed: exit %d, want 1 and line %d\n%s%s", r.code, line, r.stdout, r.stderr)
	}
	if after, _ := os.ReadFile(readme); !bytes.Equal(after, before) {
		t.Error("docs --check wrote the README")
	}

	// A file stands for its chart: the hook's way of naming what changed.
	r = docsRun(t, schemaFile)
	if r.code != 0 || r.stdout != "wrote "+readme+" (from line "+strconv.Itoa(line)+")\n1 README(s) written, 0 up to date\n" {
		t.Errorf("docs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	after, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(after, []byte("| `python.installExtension` | boolean | `true` | **Install the Python extension.** ")) {
		t.Errorf("the README does not show the new title:\n%s", after)
	}
	if r = docsRun(t, "--check", cat); r.code != 0 || r.stdout != "2 README(s) up to date\n" {
		t.Errorf("docs --check after docs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A file of no chart: nothing to document, which a hook must accept.
	filetree.Write(t, cat, map[string]string{"NOTES.txt": "notes\n"})
	if r = docsRun(t, "--check", filepath.Join(cat, "NOTES.txt")); r.code != 0 || !strings.HasPrefix(r.stdout, "no chart to document: ") {
		t.Errorf("docs --check on a file of no chart: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// Without the marker lines, a template or helm-docs' footer: --check
	// says the section is missing, docs adds it at the end and says so.
	filetree.Write(t, chart, map[string]string{"README.md": "# vscode-python\n"})
	r = docsRun(t, "--check", cat)
	if r.code != 1 || !strings.Contains(r.stdout, readme+": out of date: the README has no options section; docs would add one at its end\n") {
		t.Errorf("docs --check on a README without markers: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(readme); string(got) != "# vscode-python\n" {
		t.Errorf("docs --check wrote a README without markers: %q", got)
	}
	r = docsRun(t, cat)
	if r.code != 0 || !strings.Contains(r.stdout, "added an options section at the end of "+readme+", under ## Options, from line 2: move it, marker lines included, where it belongs\n") {
		t.Errorf("docs on a README without markers: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(readme); !strings.HasPrefix(string(got), "# vscode-python\n\n## Options\n\n"+chartdocs.Begin+"\n") || !strings.HasSuffix(string(got), "\n"+chartdocs.End+"\n") {
		t.Errorf("the README without markers became:\n%s", got)
	}
	if r = docsRun(t, "--check", cat); r.code != 0 {
		t.Errorf("docs --check after the section was added: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A README.md.gotmpl: the README is written whole, as helm-docs
	// renders the template, the values section from the schema.
	filetree.Write(t, chart, map[string]string{"README.md.gotmpl": "{{ template \"chart.header\" . }}\n{{ template \"chart.badgesSection\" . }}\n\n{{ template \"chart.valuesSection\" . }}\n"})
	r = docsRun(t, cat)
	if r.code != 0 || !strings.Contains(r.stdout, "wrote "+readme+" from "+filepath.Join(chart, "README.md.gotmpl")+", as helm-docs would but for the values section (from line 3)\n") {
		t.Errorf("docs on a chart with a template: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(readme); !regexp.MustCompile(`^# vscode-python\n\n!\[Version: [^\n]+\n\n## Values\n\n` + regexp.QuoteMeta(chartdocs.Begin) + `\n`).Match(got) {
		t.Errorf("the README written from the template:\n%s", got)
	}
	// A template that fails: exit 2, the template named, nothing written.
	filetree.Write(t, chart, map[string]string{"README.md.gotmpl": "{{ .Values }}\n"})
	before, _ = os.ReadFile(readme)
	r = docsRun(t, cat)
	if r.code != 2 || !strings.Contains(r.stderr, filepath.Join(chart, "README.md.gotmpl")+":1:3: executing") ||
		!strings.Contains(r.stderr, "1 chart(s) not documented (see above)") {
		t.Errorf("docs on a failing template: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(readme); !bytes.Equal(got, before) {
		t.Error("a failing template wrote the README")
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--platform", "nowhere", cat}, "--platform"},
		{[]string{"--extension-key", "platform", cat}, "must start with x-"},
		{[]string{filepath.Join(t.TempDir(), "no-such-chart")}, "no-such-chart"},
		{[]string{"--check", t.TempDir()}, "no chart found"},
	} {
		if r := docsRun(t, tc.args...); r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("docs %s: exit %d, want 2 and %q\n%s%s", strings.Join(tc.args, " "), r.code, tc.want, r.stdout, r.stderr)
		}
	}
}
