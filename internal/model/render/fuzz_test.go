package render_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/model/render"
)

// FuzzParseFailure reads arbitrary error texts: no panic, every location
// names a template with lines and columns counted from 1 (or 0 for none),
// and the message is never lost.
func FuzzParseFailure(f *testing.F) {
	for _, s := range []string{
		"execution error at (web/templates/b.yaml:1:27): you must set x",
		"web/templates/a.yaml:1:3\n  executing \"web/templates/a.yaml\" at <include \"lib.cm\" .>:\n    error calling include:\nweb/charts/lib/templates/_x.tpl:7:15\n  executing \"lib.cm\" at <.Values.deep.er.value>:\n    nil pointer evaluating interface {}.value",
		"YAML parse error on web/templates/c.yaml: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context",
		"template: web/templates/c.yaml:9:27: executing \"web/templates/c.yaml\" at <tpl \"{{ .Values.nope.x }}\" .>: error calling tpl",
		"parse error at (p/templates/a.yaml:1): function \"nosuchfunc\" not defined",
		"release name check failed: release name \"Rel_x\": invalid release name",
		"chart requires kubeVersion: >=1.40.0 which is incompatible with Kubernetes v1.37",
		"a:99999999999999999999999:3\n  executing",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := render.ParseFailure(errors.New(s))
		for _, l := range got.Trace {
			if l.Line < 0 || l.Col < 0 || (l.Col > 0 && l.Line == 0) {
				t.Fatalf("%q: location %+v", s, l)
			}
		}
		if strings.TrimSpace(s) != "" && got.Msg == "" && len(got.Trace) == 0 {
			t.Fatalf("%q: nothing read", s)
		}
		_ = got.Detail()
		_ = got.At().String()
	})
}
