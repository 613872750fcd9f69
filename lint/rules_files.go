package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/ignore"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// RuleChartFiles checks the chart's files as helm lint does: what sits in
// templates/, crds/ and charts/.
var RuleChartFiles = &Rule{
	Name: "chart-files", Severity: Error, Scope: PerChart,
	Doc: "the chart's files are where helm lint wants them: templates/ and crds/ are directories, templates end in .yaml, .yml, .tpl or .txt, every document in crds/ is a CustomResourceDefinition of apiextensions.k8s.io, every entry of charts/ is a chart (a directory with a Chart.yaml, or a .tgz archive), and every chart vendored there is listed in Chart.yaml's dependencies",
	Run: checkChartFiles,
}

// templateExtensions are the extensions helm lint accepts in templates/,
// compared as written: it refuses .YAML.
var templateExtensions = []string{".yaml", ".yml", ".tpl", ".txt"}

func checkChartFiles(p *Pass) {
	dir := p.Chart.Dir
	for _, d := range []struct{ name, holds string }{{"templates", "templates"}, {"crds", "CustomResourceDefinitions"}} {
		at := filepath.Join(dir, d.name)
		if info, err := os.Stat(at); err == nil && !info.IsDir() {
			p.Reportf(at, srcpos.Pos{}, "", "%s is a file, where Helm reads a directory, so helm lint refuses the chart: make %s/ a directory holding the %s", d.name, d.name, d.holds)
		}
	}
	files, err := helmFiles(p.Catalog, dir)
	if err != nil {
		return
	}
	w := &filesWalk{p: p, chartFile: map[string]bool{}}
	for _, f := range files {
		w.file(f)
	}
	for _, sub := range w.subcharts {
		if !w.chartFile[sub] {
			name := strings.TrimSuffix(sub, "/")
			p.Reportf(filepath.Join(dir, filepath.FromSlash(name)), srcpos.Pos{}, "", "%s has no Chart.yaml, so Helm cannot load the chart: it takes every directory of charts/ for a chart; move the directory out of charts/, or name it _%s, which Helm skips", name, path.Base(name))
		}
	}
	checkVendoredListed(p, w.vendored)
}

// filesWalk checks the chart's files one by one, and gathers what is
// judged of them together: the charts vendored under charts/.
type filesWalk struct {
	p        *Pass
	vendored []vendoredChart
	// subcharts are the directories of vendored charts holding files, in
	// the order met; chartFile says which have a Chart.yaml.
	subcharts []string
	chartFile map[string]bool
}

func (w *filesWalk) file(f catalog.ChartFile) {
	sub, rest, ok := splitVendored(f.Rel)
	if !ok {
		return
	}
	// Each level of charts/a/charts/b/ is a chart Helm loads.
	parts := strings.Split(strings.TrimSuffix(sub, "/"), "/")
	for k := 2; k <= len(parts); k += 2 {
		if level := strings.Join(parts[:k], "/") + "/"; !slices.Contains(w.subcharts, level) {
			w.subcharts = append(w.subcharts, level)
		}
	}
	if rest == "Chart.yaml" {
		w.chartFile[sub] = true
	}
	p, at := w.p, filepath.Join(w.p.Chart.Dir, filepath.FromSlash(f.Rel))
	switch {
	case sub == "" && strings.HasPrefix(rest, "templates/"):
		checkTemplateName(p, at, rest)
	case strings.HasPrefix(rest, "crds/") && manifestExtension(rest):
		data, err := srcpos.ReadFile(f.Path)
		if err != nil {
			return
		}
		for _, pr := range crdProblems(data) {
			p.Reportf(at, srcpos.Pos{Line: pr.line, Col: 1}, "", "%s", pr.msg)
		}
	case isArchiveEntry(rest):
		sc, err := loader.LoadFile(f.Path)
		if err != nil {
			// Helm cannot load the chart: template-render says why.
			return
		}
		checkArchiveCRDs(p, at, sc)
		if sub == "" {
			w.vendored = append(w.vendored, vendoredChart{name: sc.Name(), version: sc.Metadata.Version, at: at, entry: rest})
		}
	case isStrayEntry(rest):
		p.Reportf(at, srcpos.Pos{}, "", "%s is neither a chart directory nor a .tgz archive, so Helm cannot load the chart: it takes every entry of charts/ for a chart; move the file out of charts/, or name it _%s, which Helm skips", rest, path.Base(rest))
	case sub != "" && strings.Count(sub, "/") == 2 && rest == "Chart.yaml":
		if v, ok := vendoredDir(f.Path); ok {
			v.at, v.entry = at, strings.TrimSuffix(sub, "/")
			w.vendored = append(w.vendored, v)
		}
	}
}

// checkTemplateName reports a file of templates/ whose extension helm lint
// refuses.
func checkTemplateName(p *Pass, at, rel string) {
	ext := filepath.Ext(rel)
	if slices.Contains(templateExtensions, ext) {
		return
	}
	base := strings.TrimSuffix(path.Base(rel), ext)
	switch {
	case slices.Contains(templateExtensions, strings.ToLower(ext)):
		p.Reportf(at, srcpos.Pos{}, "", "the extension %q is not one helm lint accepts in templates/, which it compares as written: rename the file to %s%s", ext, base, strings.ToLower(ext))
	case ext == "":
		p.Reportf(at, srcpos.Pos{}, "", "%s has no extension, which helm lint refuses in templates/ (it accepts .yaml, .yml, .tpl and .txt), though Helm renders every file there: rename it to %s.yaml or %s.tpl, or move a file the templates read with .Files.Get out of templates/", rel, base, base)
	default:
		p.Reportf(at, srcpos.Pos{}, "", "the extension %q is not one helm lint accepts in templates/ (.yaml, .yml, .tpl, .txt), though Helm renders every file there: rename the file to %s.yaml, or move a file the templates read with .Files.Get out of templates/", ext, base)
	}
}

// helmFiles are the chart's files Helm's loader reads: those .helmignore
// does not leave out, nor the hidden files of templates/.
func helmFiles(cat *catalog.Catalog, dir string) ([]catalog.ChartFile, error) {
	files, _, err := cat.ChartFiles(dir)
	if err != nil {
		return nil, err
	}
	rules, err := ignore.ParseFile(filepath.Join(dir, ignore.HelmIgnore))
	if err != nil {
		rules = ignore.Empty()
	}
	rules.AddDefaults()
	// Helm skips an ignored directory whole, so each directory on the
	// way is asked first, as its walk asks it.
	ignoredDir := map[string]bool{}
	var out []catalog.ChartFile
	for _, f := range files {
		parts := strings.Split(f.Rel, "/")
		skip := false
		for i := 1; i < len(parts) && !skip; i++ {
			d := strings.Join(parts[:i], "/")
			ig, seen := ignoredDir[d]
			if !seen {
				info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(d)))
				ig = err == nil && rules.Ignore(d, info)
				ignoredDir[d] = ig
			}
			skip = ig
		}
		if skip {
			continue
		}
		if info, err := os.Stat(f.Path); err != nil || rules.Ignore(f.Rel, info) {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// splitVendored splits a chart's file into the vendored chart directory it
// belongs to ("" for the chart, "charts/a/charts/b/" for a chart vendored
// in a vendored chart) and its path in that chart. ok is false for a file
// of a directory of charts/ that Helm skips (named _x or .x).
func splitVendored(rel string) (sub, rest string, ok bool) {
	rest = rel
	for {
		after, found := strings.CutPrefix(rest, "charts/")
		if !found {
			return sub, rest, true
		}
		name, inside, isDir := strings.Cut(after, "/")
		if !isDir {
			return sub, rest, true
		}
		if strings.IndexAny(name, "_.") == 0 {
			return "", "", false
		}
		sub += "charts/" + name + "/"
		rest = inside
	}
}

// isArchiveEntry reports a chart archive vendored in charts/ as Helm's
// loader takes it.
func isArchiveEntry(rest string) bool {
	name, ok := strings.CutPrefix(rest, "charts/")
	return ok && !strings.Contains(name, "/") && filepath.Ext(name) == ".tgz" && strings.IndexAny(name, "_.") != 0
}

// isStrayEntry reports a file of charts/ that Helm takes for a chart
// and cannot load: neither an archive nor a provenance file, nor named _x
// or .x.
func isStrayEntry(rest string) bool {
	name, ok := strings.CutPrefix(rest, "charts/")
	return ok && !strings.Contains(name, "/") && !isArchiveEntry(rest) && filepath.Ext(name) != ".prov" && strings.IndexAny(name, "_.") != 0
}

// manifestExtension is what Helm takes for a file of crds/.
func manifestExtension(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}

// vendoredChart is a chart vendored under the chart's charts/.
type vendoredChart struct {
	name, version string
	// at is the file a finding is placed at (its Chart.yaml, or the
	// archive), entry its name in the chart (charts/x, charts/x.tgz).
	at, entry string
}

// vendoredDir reads the name of a chart vendored as a directory, from its
// Chart.yaml as Helm reads it.
func vendoredDir(chartFile string) (vendoredChart, bool) {
	data, err := srcpos.ReadFile(chartFile)
	if err != nil {
		return vendoredChart{}, false
	}
	var meta chart.Metadata
	if yaml.Unmarshal(data, &meta) != nil || meta.Name == "" {
		return vendoredChart{}, false
	}
	return vendoredChart{name: meta.Name, version: meta.Version}, true
}

// checkVendoredListed reports vendored charts that Chart.yaml does not
// list in its dependencies, by name as Helm compares them.
func checkVendoredListed(p *Pass, vendored []vendoredChart) {
	root := chartDoc(p, false)
	if root == nil || len(vendored) == 0 {
		return
	}
	listed := map[string]bool{}
	if deps := root.Get("dependencies"); deps != nil {
		for _, d := range deps.Items {
			if n := d.Get("name"); n != nil {
				listed[n.Text] = true
			}
		}
	}
	for _, v := range vendored {
		if listed[v.name] {
			continue
		}
		p.Reportf(v.at, srcpos.Pos{}, "", "%s holds chart %s, which Chart.yaml does not list in dependencies, so helm lint refuses the chart: add it to dependencies (name: %s, version: %q, and the repository it comes from), or delete %s", v.entry, v.name, v.name, v.version, v.entry)
	}
}

// checkArchiveCRDs reports the CustomResourceDefinitions of a chart
// vendored as an archive, at the archive.
func checkArchiveCRDs(p *Pass, at string, sc *chart.Chart) {
	for _, crd := range sc.CRDObjects() {
		for _, pr := range crdProblems(crd.File.Data) {
			p.Reportf(at, srcpos.Pos{}, "", "in the archive, %s line %d: %s", crd.Filename, pr.line, pr.msg)
		}
	}
}

// crdProblem is what helm lint refuses in a file of crds/, at a line.
type crdProblem struct {
	line int
	msg  string
}

// crdHead is what helm lint reads of a document of crds/.
type crdHead struct {
	APIVersion string `json:"apiVersion"`
	Kind       string
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// crdProblems reads a file of crds/ as helm lint does, with Kubernetes'
// YAML-or-JSON decoder: each document is a CustomResourceDefinition of
// apiextensions.k8s.io, and the first one that is not YAML ends the file.
func crdProblems(data []byte) []crdProblem {
	data = bytes.TrimPrefix(data, utf8BOM)
	lines := documentLines(data)
	dec := k8syaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []crdProblem
	// The decoder moves on at each call; the bound only guards against
	// one that would not.
	for i := 0; i <= len(data); i++ {
		var head *crdHead
		err := dec.Decode(&head)
		if errors.Is(err, io.EOF) {
			break
		}
		line := lines.of(i)
		if err != nil {
			msg := fmt.Sprintf("this document is not YAML, which helm lint refuses: %v", err)
			if bytes.Contains(data, []byte("{{")) {
				msg += "; Helm installs crds/ as written, without rendering, so it cannot hold template directives"
			}
			out = append(out, crdProblem{lines.errorLine(i, err), msg})
			break
		}
		if head == nil {
			continue
		}
		switch {
		case head.Kind != "CustomResourceDefinition":
			what := "an object without a kind"
			if head.Kind != "" {
				what = fmt.Sprintf("a %s (apiVersion %q)", head.Kind, head.APIVersion)
			}
			out = append(out, crdProblem{line, fmt.Sprintf("this document is %s, not a CustomResourceDefinition, which helm lint refuses in crds/: move it to templates/", what)})
		case !strings.HasPrefix(head.APIVersion, "apiextensions.k8s.io"):
			out = append(out, crdProblem{line, fmt.Sprintf("this CustomResourceDefinition has apiVersion %q, which helm lint refuses: write apiVersion: apiextensions.k8s.io/v1", head.APIVersion)})
		}
	}
	return out
}

// docLines are the lines a stream's documents start on, in the order the
// decoder reads them.
type docLines struct {
	docs []yamlDocument
}

// of is the line of document i, 1 when unknown.
func (d docLines) of(i int) int {
	if i < len(d.docs) {
		return d.docs[i].content
	}
	return 1
}

var yamlErrorLine = regexp.MustCompile(`\bline (\d+)\b`)

// errorLine is the line of the file a decoding error of document i names:
// the decoder numbers a YAML document's lines from its start.
func (d docLines) errorLine(i int, err error) int {
	if i >= len(d.docs) {
		return 1
	}
	doc := d.docs[i]
	if m := yamlErrorLine.FindStringSubmatch(err.Error()); m != nil && !doc.json && !doc.badSeparator {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil && n >= 1 {
			// The reader ends the last line with a newline, so an error
			// at the end may name the line after it.
			return min(doc.first+n-1, doc.last)
		}
	}
	return doc.content
}

// documentLines finds where the documents of a stream start, as the
// decoder cuts it: JSON values one after another when it starts with {,
// else YAML documents between --- lines.
func documentLines(data []byte) docLines {
	// The decoder guesses from what it first reads, as much as this.
	if k8syaml.IsJSONBuffer(data[:min(len(data), 4096)]) {
		return docLines{docs: jsonDocuments(data)}
	}
	return docLines{docs: yamlDocuments(data)}
}

// yamlDocument is a document of a stream: the lines between two separator
// lines, as Kubernetes' YAMLReader cuts them.
type yamlDocument struct {
	// first and last are the lines the document starts and ends on,
	// content the line of its first text that is neither blank nor a
	// comment (first when none).
	first, last, content int
	// badSeparator marks a line starting with --- followed by more than
	// a comment, where the reader stops with an error.
	badSeparator bool
	json         bool
}

// yamlDocuments cuts a YAML stream as Kubernetes' YAMLReader does: a line
// starting with --- ends the document before it, if any, else starts the
// next; and a run of lines, even blank, is a document.
func yamlDocuments(data []byte) []yamlDocument {
	lines := strings.Split(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []yamlDocument
	cur := yamlDocument{}
	push := func() {
		if cur.content == 0 {
			cur.content = cur.first
		}
		out = append(out, cur)
		cur = yamlDocument{}
	}
	for i, l := range lines {
		n := i + 1
		l = strings.TrimSuffix(l, "\r")
		if rest, ok := strings.CutPrefix(l, "---"); ok {
			if t := strings.TrimSpace(rest); t != "" && t[0] != '#' {
				// The reader fails here, dropping the document it was
				// reading.
				cur = yamlDocument{first: n, last: n, badSeparator: true}
				push()
				return out
			}
			if cur.first != 0 {
				push()
				continue
			}
			// A separator that ends nothing starts the next document,
			// whose lines the decoder counts from it.
			cur.first, cur.last = n, n
			continue
		}
		if cur.first == 0 {
			cur.first = n
		}
		cur.last = n
		if t := strings.TrimSpace(l); cur.content == 0 && t != "" && !strings.HasPrefix(t, "#") {
			cur.content = n
		}
	}
	if cur.first != 0 {
		push()
	}
	return out
}

// jsonDocuments finds the lines the JSON values of a stream start on.
func jsonDocuments(data []byte) []yamlDocument {
	var out []yamlDocument
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := int(dec.InputOffset())
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return out
		}
		for start < len(data) && strings.ContainsRune(" \t\r\n", rune(data[start])) {
			start++
		}
		n := bytes.Count(data[:start], []byte("\n")) + 1
		out = append(out, yamlDocument{first: n, last: n, content: n, json: true})
	}
}
