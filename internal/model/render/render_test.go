package render_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/model/render"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

var opt = render.Options{ReleaseName: "web-281390", Namespace: "user-jdoe", KubeVersion: "1.37"}

// webChart is a chart with a library dependency, an aliased optional
// dependency, a hook, a test hook and notes.
func webChart(t *testing.T) *chart.Chart {
	t.Helper()
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"lib/Chart.yaml":          "apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n",
		"lib/templates/_cm.tpl":   "{{- define \"lib.cm\" -}}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  a: {{ .Values.deep.er.value | quote }}\n{{- end }}\n",
		"cache/Chart.yaml":        "apiVersion: v2\nname: cache\nversion: 2.0.0\n",
		"cache/values.yaml":       "size: 1\n",
		"cache/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-{{ .Chart.Name }}\ndata:\n  size: {{ .Values.size | quote }}\n",
		"web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 1.0.0\ndependencies:\n" +
			"  - {name: lib, version: 1.0.0, repository: file://../lib}\n" +
			"  - {name: cache, version: 2.0.0, repository: file://../cache, alias: redis, condition: redis.enabled}\n",
		"web/values.yaml":               "deep: {er: {value: 1}}\nredis: {enabled: false, size: 3}\n",
		"web/templates/a.yaml":          "{{ include \"lib.cm\" . }}\n",
		"web/templates/NOTES.txt":       "Open {{ .Release.Name }}.\n",
		"web/templates/hook.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pre\n  annotations: {\"helm.sh/hook\": pre-install}\n",
		"web/templates/tests/ping.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ping\n  annotations: {\"helm.sh/hook\": test}\nspec: {containers: [{name: p, image: busybox}]}\n",
		"web/templates/b.yaml": "{{- if .Values.failme }}{{ fail \"you must set x\" }}{{ end }}\n" +
			"{{- if .Values.nilme }}{{ .Values.nope.deeper }}{{ end }}\n" +
			"{{- if .Values.badyaml }}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n   bad: indent\n{{- end }}\n",
	})
	l := &chartload.Loader{Local: func(from, name, repo string) (string, bool) {
		return filepath.Join(dir, strings.TrimPrefix(repo, "file://../")), true
	}}
	hc, _, err := l.Load(context.Background(), filepath.Join(dir, "web"))
	if err != nil {
		t.Fatal(err)
	}
	return hc
}

func TestRender(t *testing.T) {
	hc := webChart(t)
	res, err := render.Render(t.Context(), hc, map[string]any{"redis": map[string]any{"enabled": true}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range res.Docs {
		got[d.Template] = d.Hook
		if d.Test != (d.Template == "web/templates/tests/ping.yaml") {
			t.Errorf("%s: Test = %v", d.Template, d.Test)
		}
	}
	want := map[string]string{
		"web/templates/a.yaml": "", "web/charts/redis/templates/cm.yaml": "",
		"web/templates/hook.yaml": "pre-install", "web/templates/tests/ping.yaml": "test",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("documents by template: %v, want %v", got, want)
	}
	for _, d := range res.Docs {
		if d.Template == "web/charts/redis/templates/cm.yaml" && !strings.Contains(d.Data, "name: web-281390-redis") || strings.Contains(d.Data, "# Source") {
			t.Errorf("%s:\n%s", d.Template, d.Data)
		}
	}
	if res.Notes != "Open web-281390.\n" {
		t.Errorf("notes %q", res.Notes)
	}
	// Helm's install processed a copy: the alias and the condition are
	// applied again, and the disabled dependency is left out.
	if hc.Metadata.Dependencies[1].Alias != "redis" || len(hc.Dependencies()) != 2 || hc.Dependencies()[1].Name() != "cache" {
		t.Fatalf("the chart was changed: %+v %v", hc.Metadata.Dependencies[1], hc.Dependencies())
	}
	res, err = render.Render(t.Context(), hc, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Docs {
		if strings.Contains(d.Template, "redis") {
			t.Errorf("the disabled dependency rendered: %s", d.Template)
		}
	}
}

// Helm's own errors read back: where and what, for each way it fails.
func TestParseFailure(t *testing.T) {
	hc := webChart(t)
	for _, tc := range []struct {
		name string
		vals map[string]any
		opt  render.Options
		want render.Failure
	}{
		{"fail", map[string]any{"failme": true}, opt, render.Failure{
			Trace: []render.Location{{"web/templates/b.yaml", 1, 28}}, Msg: "you must set x"}},
		{"nil pointer", map[string]any{"nilme": true}, opt, render.Failure{
			Trace: []render.Location{{"web/templates/b.yaml", 2, 34}}, Msg: "nil pointer evaluating interface {}.deeper"}},
		{"included", map[string]any{"deep": map[string]any{"er": nil}}, opt, render.Failure{
			Trace: []render.Location{{"web/templates/a.yaml", 1, 4}, {"web/charts/lib/templates/_cm.tpl", 7, 16}},
			Msg:   "nil pointer evaluating interface {}.value"}},
		{"YAML", map[string]any{"badyaml": true}, opt, render.Failure{Kind: render.KindYAML,
			Trace: []render.Location{{Template: "web/templates/b.yaml"}},
			Msg:   "error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context"}},
		{"release name", nil, render.Options{ReleaseName: "Web_1", KubeVersion: "1.37"}, render.Failure{Kind: render.KindReleaseName,
			Msg: `release name "Web_1": invalid release name, must match regex ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ and the length must not be longer than 53`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := render.Render(t.Context(), hc, tc.vals, tc.opt)
			if err == nil {
				t.Fatal("rendered")
			}
			if got := render.ParseFailure(err); !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("%q read as\n%+v, want\n%+v", err, *got, tc.want)
			}
		})
	}

	hc.Metadata.KubeVersion = ">=1.40.0-0"
	_, err := render.Render(t.Context(), hc, nil, opt)
	if f := render.ParseFailure(err); f.Kind != render.KindKubeVersion || !strings.Contains(f.Msg, "incompatible with Kubernetes v1.37") {
		t.Errorf("kubeVersion: %+v", f)
	}
	hc.Metadata.KubeVersion = ""
	hc.Templates = append(hc.Templates, &common.File{Name: "templates/p.yaml", Data: []byte("{{ .Values.x | nosuchfunc }}\n")})
	_, err = render.Render(t.Context(), hc, nil, opt)
	f := render.ParseFailure(err)
	if f.Kind != render.KindTemplate || f.At() != (render.Location{Template: "web/templates/p.yaml", Line: 1}) || f.Msg != `function "nosuchfunc" not defined` {
		t.Errorf("parse error: %+v", f)
	}
	if f.Detail() != f.Msg {
		t.Errorf("detail %q", f.Detail())
	}
	if got := render.ParseFailure(errors.New("something else")); got.Kind != render.KindOther || got.Msg != "something else" || len(got.Trace) != 0 {
		t.Errorf("other: %+v", got)
	}
}

func TestDetail(t *testing.T) {
	f := render.Failure{Trace: []render.Location{{"a/templates/x.yaml", 1, 4}, {"a/charts/l/templates/_y.tpl", 7, 16}}, Msg: "m"}
	if got := f.Detail(); got != "m (included from a/templates/x.yaml:1:4)" {
		t.Errorf("detail %q", got)
	}
}

func TestSplit(t *testing.T) {
	docs := render.Split("---\n# Source: a/templates/x.yaml\nkind: A\n---\n# Source: a/templates/y.yaml\nkind: B\n---\nkind: C\n")
	want := []render.Doc{{Template: "a/templates/x.yaml", Data: "kind: A"}, {Template: "a/templates/y.yaml", Data: "kind: B"}}
	if !reflect.DeepEqual(docs, want) {
		t.Errorf("split %+v", docs)
	}
}

// Copy leaves the original alone whatever is written to the copy.
func TestCopy(t *testing.T) {
	hc := webChart(t)
	cp := render.Copy(hc)
	cp.Metadata.Dependencies[0].Enabled = true
	cp.Values["deep"].(map[string]any)["er"] = nil
	cp.SetDependencies()
	if hc.Metadata.Dependencies[0].Enabled || hc.Values["deep"].(map[string]any)["er"] == nil || len(hc.Dependencies()) != 2 {
		t.Error("writing to the copy changed the chart")
	}
	if hc.Dependencies()[0].Parent() != hc {
		t.Error("the dependencies' parent changed")
	}
}
