package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// pageVerdict is what a chart page says of whether its form opens: the
// reasons of its "would not open" banner (none: no banner), the options
// its profile note says only a profile fills, and its form model's opens.
type pageVerdict struct {
	refused, profile []string
	opens            bool
}

// readPageVerdict reads a built chart page.
func readPageVerdict(t *testing.T, page string) pageVerdict {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	var v pageVerdict
	var walk func(n *html.Node, in string)
	walk = func(n *html.Node, in string) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if a.Key == "class" && (a.Val == "form-refused" || a.Val == "form-profile") {
					in = a.Val
				}
			}
			if n.Data == "li" && in != "" {
				text := strings.Join(strings.Fields(nodeText(n)), " ")
				if in == "form-refused" {
					v.refused = append(v.refused, text)
				} else {
					v.profile = append(v.profile, text)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(doc, "")
	m := formModelRe.FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s has no form model", page)
	}
	var model struct{ Opens bool }
	if err := json.Unmarshal(m[1], &model); err != nil {
		t.Fatalf("%s: form model: %v", page, err)
	}
	v.opens = model.Opens
	return v
}

func nodeText(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(nodeText(c))
	}
	return b.String()
}

// lintFinding is a finding of lint's JSON report.
type lintFinding struct {
	Rule, File, Message, Chart, Severity string
	Line, Column                         int
}

// verdictsAgree checks that each chart page of a built site says the form
// would not open exactly when lint reports form-opens for the chart and
// `catalogist form` (with formArgs) refuses it, that each reason the
// banner gives is one of lint's findings, word for word at the same
// place, and that the page's model says what form says. charts maps each
// chart with a form to its directory. It returns what each page says.
func verdictsAgree(t *testing.T, site string, charts map[string]string, findings []lintFinding, formArgs []string) map[string]pageVerdict {
	t.Helper()
	out := map[string]pageVerdict{}
	for name, dir := range charts {
		v := readPageVerdict(t, filepath.Join(site, "charts", name, "index.html"))
		out[name] = v
		var lintSays []string
		said := map[string]bool{}
		for _, f := range findings {
			if f.Chart != name {
				continue
			}
			text := strings.Join(strings.Fields(fmt.Sprintf("%s:%d:%d %s", filepath.Base(f.File), f.Line, f.Column, f.Message)), " ")
			said[text] = true
			if f.Rule == "form-opens" {
				lintSays = append(lintSays, text)
			}
		}
		r := catalogist(t, nil, append(append([]string{"form", "--format", "json"}, formArgs...), dir)...)
		var form struct{ Opens bool }
		if err := json.Unmarshal([]byte(r.stdout), &form); err != nil || (r.code != 0) != !form.Opens || r.code > 1 {
			t.Fatalf("%s: form exit %d, %v\n%s", name, r.code, err, r.stderr)
		}
		banner := len(v.refused) > 0
		if banner != (len(lintSays) > 0) || banner == form.Opens || v.opens != form.Opens {
			t.Errorf("%s: the page's banner %q (model opens %v), lint's form-opens %q, form opens %v: they disagree", name, v.refused, v.opens, lintSays, form.Opens)
		}
		for _, reason := range v.refused {
			if !said[reason] {
				t.Errorf("%s: the banner says %q, which lint does not", name, reason)
			}
		}
		for _, s := range lintSays {
			if !slices.Contains(v.refused, s) {
				t.Errorf("%s: lint says %q, which the banner does not", name, s)
			}
		}
	}
	return out
}

// A chart whose form opens, one whose hostname only a launch context
// fills, one whose form opens for nobody (its catalog lowers form-opens
// to a warning, so that it builds): the page, lint and `catalogist form`
// agree on each, and the hostname is said to be the profile's.
func TestPageVerdictsAgree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "catalog")
	files := map[string]string{
		"catalog.yaml": "name: verdicts\nplatform: catalogist\nlint:\n  rules:\n    form-opens: warning\n",
	}
	schemas := map[string]string{
		"opens":   `{"type": "object", "properties": {"host": {"type": "string", "title": "Host", "default": "example.org"}}}`,
		"profile": `{"type": "object", "properties": {"host": {"type": "string", "title": "Host", "x-platform": {"overwriteDefaultWith": "{{project.id}}.{{k8s.domain}}"}}}}`,
		"broken":  `{"type": "object", "properties": {"host": {"type": "string", "title": "Host"}}}`,
	}
	charts := map[string]string{}
	for name, s := range schemas {
		c := "charts/" + name + "/"
		files[c+"Chart.yaml"] = "apiVersion: v2\nname: " + name + "\nversion: 1.0.0\ndescription: A chart.\n"
		files[c+"values.schema.json"] = s
		files[c+"templates/configmap.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  host: {{ .Values.host | default \"\" | quote }}\n"
		charts[name] = filepath.Join(dir, "charts", name)
	}
	filetree.Write(t, dir, files)
	out := filepath.Join(t.TempDir(), "site")
	if r := catalogist(t, nil, "build", "--out", out, dir); r.code != 0 {
		t.Fatalf("build: exit %d\n%s", r.code, r.stderr)
	}
	r := catalogist(t, nil, "lint", "--format", "json", dir)
	var rep struct{ Findings []lintFinding }
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 {
		t.Fatalf("lint: exit %d, %v\n%s", r.code, err, r.stderr)
	}
	got := verdictsAgree(t, out, charts, rep.Findings, nil)
	if v := got["broken"]; len(v.refused) != 1 || !strings.Contains(v.refused[0], `option "host" gets no value`) {
		t.Errorf("broken: the banner says %q", v.refused)
	}
	if v := got["profile"]; len(v.refused) != 0 || !slices.Equal(v.profile, []string{"Host (host) needs your profile's project.id and k8s.domain; the platform fills it when you launch."}) {
		t.Errorf("profile: banner %q, profile note %q", v.refused, v.profile)
	}
	if v := got["opens"]; len(v.refused)+len(v.profile) != 0 {
		t.Errorf("opens: banner %q, profile note %q", v.refused, v.profile)
	}
}
