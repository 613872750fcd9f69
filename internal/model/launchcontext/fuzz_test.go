package launchcontext

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"", "git.name", "{{git.name}}", "{{ git.name }}", "{{project.id}}-{{k8s.domain}}",
		"{{k8s.istio.gateways[1]}}", `{{region.customValues["a.b"]}}`, `{{region.customValues['a.b']}}`,
		"{{region.resources}}", "x{{region.resources}}", "{{}}", "{{a}b}}", "{{{{x}}}}", "[[[", `["a"`,
		`["lit", "{{user.idep}}", null, true, 1.5]`, `{"a": "{{git.name}}", "b": ["{{nope}}"]}`,
		`{"a/b": {"~": "{{git.token}}"}}`, "3600", "null", `"{{git.credentials_cache_duration}}"`,
		"s3_array[0].AWS_S3_ENDPOINT", "a[0][1][\"x\"]['y']", "{{a[99999999999999999999]}}",
	} {
		f.Add(s)
	}
	data := ctxData(f)
	model := NewModel("onyxia")
	f.Fuzz(func(t *testing.T, expr string) {
		v1, ok1 := Resolve(expr, data)
		v2, ok2 := Resolve(expr, data)
		if ok1 != ok2 || !reflect.DeepEqual(v1, v2) {
			t.Fatalf("Resolve(%q) is not deterministic", expr)
		}
		// A bare path means the same as the braced one.
		if expr != "" && !strings.ContainsAny(expr, "{}") {
			vb, okb := Resolve("{{"+expr+"}}", data)
			if okb != ok1 || !reflect.DeepEqual(vb, v1) {
				t.Fatalf("Resolve(%q) = %#v, %v but braced = %#v, %v", expr, v1, ok1, vb, okb)
			}
		}
		for _, r := range Refs(expr) {
			_, _ = model.Check(r.Segs)
		}
		var decoded any
		if json.Unmarshal([]byte(expr), &decoded) == nil {
			v, ok := Resolve(decoded, data)
			if ok && decoded != nil {
				if _, err := json.Marshal(v); err != nil {
					t.Fatalf("Resolve(%s) = %#v, which is not plain JSON: %v", expr, v, err)
				}
			}
			for _, r := range Refs(decoded) {
				_, _ = model.Check(r.Segs)
			}
		}
	})
}
