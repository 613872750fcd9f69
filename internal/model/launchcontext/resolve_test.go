package launchcontext

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"testing"
)

// testContext is a launch context as the platform would build it, decoded
// the way the tool decodes documents (numbers as json.Number).
const testContext = `{
  "user": {"idep": "ada", "email": "ada@example.org", "profile": {"nothing": null, "team": "stats"}},
  "project": {"id": "u-ada", "password": "secret"},
  "git": {"name": "Ada Lovelace", "email": "ada@example.org", "credentials_cache_duration": 3600, "token": ""},
  "region": {
    "resources": {"cpuLimit": "4000m", "memoryLimit": "8Gi", "gpu": "1"},
    "customValues": {"a.b": "dotted", "a": {"b": "nested"}}
  },
  "k8s": {"domain": "example.org", "randomSubdomain": "123456", "ingress": true,
          "istio": {"gateways": ["gw-1", "gw-2"]}, "ratio": 1.5},
  "s3_array": [{"AWS_S3_ENDPOINT": "minio.example.org"}, {"AWS_S3_ENDPOINT": "s3.example.org"}]
}`

func decode(t testing.TB, src string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(src)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %s: %v", src, err)
	}
	return v
}

func ctxData(t testing.TB) map[string]any { return decode(t, testContext).(map[string]any) }

func TestResolve(t *testing.T) {
	data := ctxData(t)
	undefined := struct{}{} // marks an expected undefined result
	for _, tc := range []struct {
		name string
		expr any
		want any
	}{
		// A bare string is a path.
		{"bare path", "user.email", "ada@example.org"},
		{"braced path", "{{user.email}}", "ada@example.org"},
		{"bare path to a number", "git.credentials_cache_duration", json.Number("3600")},
		{"bare word with no such key", "lakefs", undefined},
		{"bare path with spaces", " user.email", undefined},

		// A whole placeholder returns the raw value.
		{"whole object", "{{region.resources}}", map[string]any{"cpuLimit": "4000m", "memoryLimit": "8Gi", "gpu": "1"}},
		{"whole array", "{{k8s.istio.gateways}}", []any{"gw-1", "gw-2"}},
		{"whole number", "{{git.credentials_cache_duration}}", json.Number("3600")},
		{"whole boolean", "{{k8s.ingress}}", true},
		{"whole null is a value", "{{user.profile.nothing}}", nil},
		{"empty string is a value", "{{git.token}}", ""},
		{"bare empty string value", "git.token", ""},
		{"missing", "{{git.project}}", undefined},
		{"below a scalar", "{{git.name.first}}", undefined},

		// Templates.
		{"several placeholders", "{{project.id}}-{{k8s.randomSubdomain}}.{{k8s.domain}}", "u-ada-123456.example.org"},
		{"adjacent placeholders", "{{user.idep}}{{project.id}}", "adau-ada"},
		{"scalars rendered as text", "{{user.idep}}:{{git.credentials_cache_duration}}:{{k8s.ingress}}:{{k8s.ratio}}", "ada:3600:true:1.5"},
		{"empty string placeholder", "token={{git.token}}", "token="},
		{"one missing placeholder", "{{user.idep}}-{{user.nope}}", undefined},
		{"object placeholder in a template", "res: {{region.resources}}", undefined},
		{"array placeholder in a template", "{{k8s.istio.gateways}}!", undefined},
		{"null placeholder in a template", "x{{user.profile.nothing}}", undefined},

		// Segments.
		{"index", "{{k8s.istio.gateways[1]}}", "gw-2"},
		{"index then key", "{{s3_array[1].AWS_S3_ENDPOINT}}", "s3.example.org"},
		{"bare index then key", "s3_array[0].AWS_S3_ENDPOINT", "minio.example.org"},
		{"index out of range", "{{k8s.istio.gateways[2]}}", undefined},
		{"index with a leading zero", "{{k8s.istio.gateways[01]}}", undefined},
		{"double-quoted key with a dot", `{{region.customValues["a.b"]}}`, "dotted"},
		{"single-quoted key with a dot", `{{region.customValues['a.b']}}`, "dotted"},
		{"bare quoted key", `region.customValues["a.b"]`, "dotted"},
		{"plain dots are separators", "{{region.customValues.a.b}}", "nested"},

		// No trimming.
		{"spaces inside braces", "{{ user.email }}", undefined},
		{"trailing space inside braces", "{{user.email }}", undefined},
		{"spaces in a template", "{{ user.idep }}-x", undefined},

		// Arrays and objects.
		{"array of literals and templates", []any{"user.email", "{{user.idep}}", "x-{{project.id}}", ""},
			[]any{"user.email", "ada", "x-u-ada", ""}},
		{"array keeps null, bool and numbers", []any{nil, true, false, json.Number("1.5"), 2.0},
			[]any{nil, true, false, json.Number("1.5"), 2.0}},
		{"array with an undefined element", []any{"ok", "{{user.nope}}"}, undefined},
		{"empty array", []any{}, []any{}},
		{"object of literals and templates", map[string]any{"lit": "git.name", "ref": "{{git.name}}", "n": json.Number("3")},
			map[string]any{"lit": "git.name", "ref": "Ada Lovelace", "n": json.Number("3")}},
		{"object with an undefined member", map[string]any{"a": "x", "b": "{{nope}}"}, undefined},
		{"nested containers", []any{[]any{"{{user.idep}}"}, map[string]any{"k": "{{user.idep}}-x", "raw": "{{region.resources}}"}},
			[]any{[]any{"ada"}, map[string]any{"k": "ada-x", "raw": map[string]any{"cpuLimit": "4000m", "memoryLimit": "8Gi", "gpu": "1"}}}},
		{"nested undefined", []any{map[string]any{"k": []any{"{{nope}}"}}}, undefined},

		// Non-string scalars are not references.
		{"number expression", json.Number("3"), undefined},
		{"null expression", nil, undefined},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Resolve(tc.expr, data)
			if tc.want == undefined {
				if ok {
					t.Errorf("Resolve(%#v) = %#v, want undefined", tc.expr, got)
				}
				return
			}
			if !ok {
				t.Fatalf("Resolve(%#v) is undefined, want %#v", tc.expr, tc.want)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Resolve(%#v) = %#v, want %#v", tc.expr, got, tc.want)
			}
		})
	}
}

func TestResolveBareEqualsBraced(t *testing.T) {
	data := ctxData(t)
	for _, p := range []string{"user.email", "git", "region.resources.gpu", "k8s.istio.gateways[0]", "s3_array[1]", "nope", "git.nope.deeper", "user.profile.nothing"} {
		bv, bok := Resolve(p, data)
		wv, wok := Resolve("{{"+p+"}}", data)
		if bok != wok || !reflect.DeepEqual(bv, wv) {
			t.Errorf("Resolve(%q) = %#v, %v but Resolve(%q) = %#v, %v", p, bv, bok, "{{"+p+"}}", wv, wok)
		}
	}
}

func TestSplitPath(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"git.name", []string{"git", "name"}},
		{"a[0].b", []string{"a", "0", "b"}},
		{"a[0][12]", []string{"a", "0", "12"}},
		{`a["b.c"].d`, []string{"a", "b.c", "d"}},
		{`a['b.c'].d`, []string{"a", "b.c", "d"}},
		{`a["x"]['y.z']`, []string{"a", "x", "y.z"}},
		{" user.email ", []string{" user", "email "}},
		{"a..b", []string{"a", "", "b"}},
		{"single", []string{"single"}},
	} {
		if got := SplitPath(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLookup(t *testing.T) {
	data := ctxData(t)
	for _, tc := range []struct {
		segs []string
		want any
		ok   bool
	}{
		{nil, data, true},
		{[]string{"git", "token"}, "", true},
		{[]string{"user", "profile", "nothing"}, nil, true},
		{[]string{"k8s", "istio", "gateways", "0"}, "gw-1", true},
		{[]string{"k8s", "istio", "gateways", "-1"}, nil, false},
		{[]string{"k8s", "istio", "gateways", "+1"}, nil, false},
		{[]string{"k8s", "istio", "gateways", "x"}, nil, false},
		{[]string{"git", "name", "x"}, nil, false},
		{[]string{"missing"}, nil, false},
	} {
		got, ok := Lookup(data, tc.segs)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Lookup(%q) = %#v, %v; want %#v, %v", tc.segs, got, ok, tc.want, tc.ok)
		}
	}
}

func TestRefs(t *testing.T) {
	for _, tc := range []struct {
		name string
		expr any
		want []Ref // sorted by Where, then Path
	}{
		{"bare path", "git.name", []Ref{{Path: "git.name", Segs: []string{"git", "name"}, Bare: true}}},
		{"bare word", "lakefs", []Ref{{Path: "lakefs", Segs: []string{"lakefs"}, Bare: true}}},
		{"braced path", "{{git.name}}", []Ref{{Path: "git.name", Segs: []string{"git", "name"}}}},
		{"template", "{{project.id}}-{{k8s.domain}}", []Ref{
			{Path: "k8s.domain", Segs: []string{"k8s", "domain"}},
			{Path: "project.id", Segs: []string{"project", "id"}},
		}},
		{"spaces kept", "{{ user.email }}", []Ref{{Path: " user.email ", Segs: []string{" user", "email "}}}},
		{"quoted segment", `{{a["b.c"]}}`, []Ref{{Path: `a["b.c"]`, Segs: []string{"a", "b.c"}}}},
		{"array: literals are not refs", []any{"lit", "{{user.idep}}", "x{{git.name}}y", nil, json.Number("1")}, []Ref{
			{Path: "user.idep", Segs: []string{"user", "idep"}, Where: "/1"},
			{Path: "git.name", Segs: []string{"git", "name"}, Where: "/2"},
		}},
		{"nested", []any{map[string]any{"k": []any{"{{z}}"}}}, []Ref{{Path: "z", Segs: []string{"z"}, Where: "/0/k/0"}}},
		{"object", map[string]any{"a": "literal", "b": "{{q}}"}, []Ref{{Path: "q", Segs: []string{"q"}, Where: "/b"}}},
		// Where is a JSON pointer: "/" and "~" in a key are escaped.
		{"object keys needing escapes", map[string]any{"a/b": "{{q}}", "t~": "{{r}}"}, []Ref{
			{Path: "q", Segs: []string{"q"}, Where: "/a~1b"},
			{Path: "r", Segs: []string{"r"}, Where: "/t~0"},
		}},
		{"number", json.Number("3"), nil},
		{"literal without braces inside an object", map[string]any{"k": "git.name"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Refs(tc.expr)
			sort.SliceStable(got, func(i, j int) bool {
				if got[i].Where != got[j].Where {
					return got[i].Where < got[j].Where
				}
				return got[i].Path < got[j].Path
			})
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Refs(%#v) =\n%#v\nwant\n%#v", tc.expr, got, tc.want)
			}
		})
	}
}
