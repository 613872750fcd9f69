//go:build corpus

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/corpustest"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/kubetest"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// The address the reference catalog is published at, which its charts
// name library-chart by.
const corpusURL = "https://inseefrlab.github.io/helm-charts-interactive-services"

type lintReport struct {
	Findings []struct {
		Rule, File, Message, Chart, Severity string
		Line                                 int
	}
	Charts int
}

func lintCorpus(t *testing.T, dir string) (lintReport, result) {
	t.Helper()
	r := catalogist(t, nil, "lint", "--format", "json", "--platform", "onyxia", "--schema-registry", corpustest.Registry(t),
		"--base-url", corpusURL, "--cache-dir", t.TempDir(), dir)
	var rep lintReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s", r.code, err, r.stderr)
	}
	return rep, r
}

// Every chart of the reference catalog renders, with values.yaml and with
// the values the platform sends, and every document passes, but the one
// whose library-chart version only the published repository holds: a note
// says so, and nothing is called broken.
func TestCorpusRenders(t *testing.T) {
	rep, r := lintCorpus(t, corpustest.Charts(t))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var notes []string
	for _, f := range rep.Findings {
		switch f.Rule {
		case "render-dependency":
			notes = append(notes, f.Chart)
			if !strings.Contains(f.Message, "library-chart 2.0.1") || !strings.Contains(f.Message, "this catalog's library-chart is at 2.1.7") {
				t.Errorf("note: %s", f.Message)
			}
		case "template-render", "kube-version", "manifest-yaml", "manifest-fields", "api-removed", "api-deprecated",
			"api-disabled", "manifest-names", "manifest-selector", "manifest-list-policy", "manifest-custom-kind":
			t.Errorf("%s:%d: %s [%s]", f.File, f.Line, f.Message, f.Rule)
		}
	}
	if !slices.Equal(notes, []string{"marimo-python"}) {
		t.Errorf("render-dependency notes for %v, want marimo-python's alone", notes)
	}
}

// planted are failures planted in copies of the reference catalog's charts,
// one of each kind: file (relative to the chart) and content to write, the
// rule and file of the error lint must report, and how Helm or the API
// server fails the same chart.
var planted = []struct {
	chart, file, content string
	rule, at             string
	// helm is what the Helm 4 CLI says of it: "template" (helm template
	// fails with these extra --set values), "install" (helm install into
	// a real API server fails: its --dry-run=server renders with the
	// cluster but sends nothing to be validated), "lint" (helm lint
	// fails). says matches what it says.
	helm string
	set  []string
	says string
}{
	{"jupyter-python", "templates/planted.yaml", "{{ .Values.nope.deeper }}\n", "template-render", "templates/planted.yaml",
		"template", nil, `nil pointer evaluating interface \{\}.deeper`},
	// The platform sends the profile's git name, "Jane Doe" in lint's
	// context; values.yaml has none.
	{"jupyter-pytorch", "templates/planted.yaml", "{{- if contains \" \" .Values.git.name }}{{ fail \"git.name must be one word\" }}{{ end }}\n", "template-render", "templates/planted.yaml",
		"template", []string{"git.name=Jane Doe"}, "git.name must be one word"},
	{"vscode-python", "templates/planted.yaml", "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: {{ .Release.Name }}-legacy\nspec:\n  backend:\n    serviceName: {{ .Release.Name }}\n    servicePort: 80\n", "api-removed", "templates/planted.yaml",
		"install", nil, `no matches for kind "Ingress" in version "extensions/v1beta1"`},
	{"rstudio", "templates/planted.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-extra\nspec:\n  ports:\n    - port: {{ .Values.networking.service.port | quote }}\n", "manifest-fields", "templates/planted.yaml",
		"install", nil, `ports.*port.*(expected numeric|cannot unmarshal string)`},
	{"jupyter-tensorflow", "templates/planted.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-team\n  labels:\n    team: data science\n", "manifest-names", "templates/planted.yaml",
		"install", nil, `metadata.labels: Invalid value: "data science"`},
	{"vscode-tensorflow", "Chart.yaml", "+kubeVersion: \">=1.40.0-0\"\n", "kube-version", "Chart.yaml",
		"template", nil, `requires kubeVersion: >=1.40.0-0 which is incompatible with Kubernetes v1.37`},
	{"vscode-pytorch", "Chart.yaml", "s/^version: .*/version: 2.6/", "chart-version", "Chart.yaml",
		"lint", nil, `version should be of type string but it's of type float64`},
}

// untouched are charts left as they are beside the planted ones.
var untouched = []string{"jupyter-python-gpu", "rstudio-gpu", "library-chart"}

// Failures planted in charts nobody on this project wrote: each is an error
// at the file it is in, and the untouched charts get none; and each is a
// real failure of Helm 4 or of the API server.
func TestCorpusPlantedFailures(t *testing.T) {
	dir := t.TempDir()
	for _, name := range untouched {
		filetree.Copy(t, filepath.Join(corpustest.Charts(t), name), filepath.Join(dir, name))
	}
	for _, p := range planted {
		if _, err := os.Stat(filepath.Join(dir, p.chart)); err != nil {
			filetree.Copy(t, filepath.Join(corpustest.Charts(t), p.chart), filepath.Join(dir, p.chart))
		}
		plant(t, filepath.Join(dir, p.chart, p.file), p.content)
	}
	rep, r := lintCorpus(t, dir)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	errorsOf := map[string][]string{}
	for _, f := range rep.Findings {
		if f.Severity == "error" {
			rel, _ := filepath.Rel(dir, f.File)
			errorsOf[f.Chart] = append(errorsOf[f.Chart], f.Rule+" "+filepath.ToSlash(rel))
		}
	}
	for _, p := range planted {
		want := p.rule + " " + p.chart + "/" + p.at
		if got := errorsOf[p.chart]; !slices.Equal(got, []string{want}) {
			t.Errorf("%s: errors %q, want %q", p.chart, got, want)
		}
	}
	for _, name := range untouched {
		if got := errorsOf[name]; len(got) > 0 {
			t.Errorf("untouched %s has errors %q", name, got)
		}
	}

	// What Helm and the API server say of the same charts, with
	// library-chart vendored as helm dependency build would.
	helm := tooltest.NewHelm(t, 4)
	var cluster *kubetest.Cluster
	for _, p := range planted {
		chartDir := filepath.Join(dir, p.chart)
		filetree.Copy(t, filepath.Join(corpustest.Charts(t), "library-chart"), filepath.Join(chartDir, "charts", "library-chart"))
		var args []string
		switch p.helm {
		case "template":
			args = []string{"template", p.chart + "-281390", chartDir, "--kube-version", "1.37"}
			for _, s := range p.set {
				args = append(args, "--set-string", s)
			}
		case "lint":
			args = []string{"lint", chartDir}
		case "install":
			if cluster == nil {
				cluster = kubetest.Start(t)
			}
			args = []string{"install", p.chart + "-281390", chartDir, "--kubeconfig", cluster.Kubeconfig,
				"--kube-context", kubetest.Admin, "--namespace", cluster.NewNamespace(t), "--timeout", "2m"}
		}
		out, errOut, err := helm.Try(args...)
		if err == nil || !regexp.MustCompile(p.says).MatchString(out+errOut) {
			t.Errorf("%s: helm %s: %v, want a failure saying %q\n%s%s", p.chart, p.helm, err, p.says, out, errOut)
		}
	}
}

// plant writes a file, appends a line ("+line") to one, or replaces a line
// ("s/^re/by/" on its first match, as sed would).
func plant(t *testing.T, file, content string) {
	t.Helper()
	old, _ := os.ReadFile(file)
	switch {
	case strings.HasPrefix(content, "+"):
		content = string(old) + strings.TrimPrefix(content, "+")
	case strings.HasPrefix(content, "s/^"):
		parts := strings.Split(strings.TrimPrefix(content, "s/^"), "/")
		lines := strings.Split(string(old), "\n")
		prefix := strings.TrimSuffix(parts[0], ".*")
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
		if i < 0 {
			t.Fatalf("%s has no line starting %q", file, prefix)
		}
		lines[i] = parts[1]
		content = strings.Join(lines, "\n")
	}
	filetree.Write(t, filepath.Dir(file), map[string]string{filepath.Base(file): content})
}

// TestCorpus lints a public catalog of the reference platform that this
// project did not write: no crash, and the known true findings are there.
func TestCorpus(t *testing.T) {
	dir := corpustest.Charts(t)
	r := catalogist(t, nil, "lint", "--format", "json", "--extension-key", "x-onyxia", dir)
	// Without the API's registry, the defects of inline copies the API
	// replaces are warnings: nothing the platform serves is an error.
	if r.code != 0 {
		t.Fatalf("exit %d, want 0 (no error the platform would meet)\n%s%s", r.code, r.stdout, r.stderr)
	}
	var out struct {
		Findings []struct{ Rule, Severity, File, Message string }
		Charts   int
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{}
	for _, f := range out.Findings {
		rules[f.Rule]++
	}
	if out.Charts != 22 {
		t.Errorf("linted %d charts, want 22", out.Charts)
	}
	// Known defects of the corpus: a {path, value} condition inside x-onyxia
	// (3 in rstudio-sparkr's inline copy of the registry's proxy.json),
	// references to paths the platform dropped.
	if rules["ext-boolean"] != 3 || rules["context-path"] == 0 {
		t.Errorf("unexpected findings by rule: %v", rules)
	}
	for _, f := range out.Findings {
		if f.Rule == "ext-boolean" && (f.Severity != "warning" || !strings.Contains(f.Message, `the inline copy of option "proxy"`)) {
			t.Errorf("ext-boolean without the registry: %+v, want a warning about the inline copy", f)
		}
	}
	// Without a key named, the key the schemas use is taken, and a note
	// says so and how to pin it.
	r = catalogist(t, nil, "lint", dir+"/jupyter-python")
	if !strings.Contains(r.stderr, "under x-onyxia, so it is judged for the onyxia platform") || strings.Contains(r.stdout, "ext-foreign-key") {
		t.Errorf("the schemas' key was not taken:\n%s%s", r.stdout, r.stderr)
	}
	r = catalogist(t, nil, "lint", "--format", "json", dir)
	if strings.Contains(r.stdout, "ext-foreign-key") || strings.Contains(r.stdout, "form-opens") {
		t.Errorf("the catalog's root, without flags, was not judged as the reference platform's:\n%s", r.stdout)
	}

	// As the reference platform serves it, with its API's registry: the
	// API replaces the broken inline proxy options of rstudio-sparkr, so the
	// form of every chart opens; what remains are names the registry lacks
	// (the API keeps their inline copies) and context paths the onyxia
	// context lacks.
	registry := corpustest.Registry(t)
	r = catalogist(t, nil, "lint", "--format", "json", "--platform", "onyxia", "--schema-registry", registry, dir)
	if r.code != 0 {
		t.Fatalf("with the registry: exit %d, want 0 (no error)\n%s%s", r.code, r.stdout, r.stderr)
	}
	out.Findings = nil
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	rules = map[string]int{}
	for _, f := range out.Findings {
		rules[f.Rule]++
		if f.Rule == "context-path" && (strings.Contains(f.Message, "no longer") || strings.Contains(f.Message, "removed")) {
			t.Errorf("a message claims the platform changed: %s", f.Message)
		}
	}
	if rules["schema-registry"] == 0 || rules["context-path"] == 0 || rules["ext-boolean"] != 0 {
		t.Errorf("findings by rule with the registry: %v", rules)
	}
}

// TestCorpusFormVectorsCLI runs the vectors of charts of the corpus
// (testdata/form-corpus/) through the command.
func TestCorpusFormVectorsCLI(t *testing.T) { formVectorsCLI(t, "../../testdata/form-corpus") }

// Every chart page of the reference catalog, built as `build` builds it
// for the onyxia platform with its API's registry, says the form would not
// open exactly when lint reports form-opens for the chart and `catalogist
// form` refuses it: none does. rstudio-sparkr's Spark hostname, built from
// the project's id and the cluster's domain, is said to be the profile's.
func TestCorpusPageVerdicts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "catalog")
	filetree.Copy(t, corpustest.Catalog(t), dir)
	entries, err := os.ReadDir(filepath.Join(dir, "charts"))
	if err != nil {
		t.Fatal(err)
	}
	charts := map[string]string{}
	for _, e := range entries {
		chartDir := filepath.Join(dir, "charts", e.Name())
		// The icons are https URLs the build would fetch: the pages
		// show the default icon, and the test needs no network.
		chartYAML := filepath.Join(chartDir, "Chart.yaml")
		data, err := os.ReadFile(chartYAML)
		if err != nil {
			t.Fatal(err)
		}
		lines := slices.DeleteFunc(strings.Split(string(data), "\n"), func(l string) bool { return strings.HasPrefix(l, "icon:") })
		filetree.Write(t, chartDir, map[string]string{"Chart.yaml": strings.Join(lines, "\n")})
		if e.Name() != "library-chart" {
			charts[e.Name()] = chartDir
		}
	}
	// marimo-python depends on library-chart 2.0.1, which only the
	// published repository holds: the catalog's library-chart is vendored
	// under that version, as helm dependency build would fetch it. The
	// page does not depend on it.
	vendored := filepath.Join(charts["marimo-python"], "charts", "library-chart")
	filetree.Copy(t, filepath.Join(dir, "charts", "library-chart"), vendored)
	plant(t, filepath.Join(vendored, "Chart.yaml"), "s/^version: .*/version: 2.0.1")

	common := []string{"--platform", "onyxia", "--schema-registry", corpustest.Registry(t)}
	out := filepath.Join(t.TempDir(), "site")
	if r := catalogist(t, nil, append([]string{"build", "--out", out, "--base-url", corpusURL, "--cache-dir", t.TempDir(), dir}, common...)...); r.code != 0 {
		t.Fatalf("build: exit %d\n%s", r.code, r.stderr)
	}
	_, r := lintCorpus(t, dir)
	var rep struct{ Findings []lintFinding }
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 {
		t.Fatalf("lint: exit %d, %v\n%s", r.code, err, r.stderr)
	}
	got := verdictsAgree(t, out, charts, rep.Findings, common)
	if len(got) != 21 {
		t.Errorf("%d chart pages judged, want 21", len(got))
	}
	for name, v := range got {
		if len(v.refused) > 0 || !v.opens {
			t.Errorf("%s: the page says the form would not open: %q", name, v.refused)
		}
	}
	want := []string{"Hostname (route.sparkHostname) needs your profile's project.id, k8s.randomSubdomain and k8s.domain; the platform fills it when you launch."}
	if p := got["rstudio-sparkr"].profile; !slices.Equal(p, want) {
		t.Errorf("rstudio-sparkr: the profile note lists %q, want %q", p, want)
	}
}
