package formview

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

func describe(t *testing.T, src string, data map[string]any, reg *region.Region) *schema.Description {
	t.Helper()
	root, err := srcpos.ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := schema.Build(root, "chart/values.schema.json", schema.Env{ExtKey: "x-platform"})
	return schema.Describe(s, schema.NewContext(data, reg, nil, ""), nil)
}

const secretsSchema = `{"type": "object", "properties": {
  "db": {"type": "object", "properties": {
    "pwd": {"type": "string", "render": "password", "default": "", "pattern": "^[a-z]+$",
      "x-platform": {"overwriteDefaultWith": "project.password"}},
    "user": {"type": "string", "default": "admin"}
  }},
  "apiToken": {"type": "string", "default": "tok-123"},
  "auth": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "{{user.accessToken}}"}},
  "creds": {"type": "object", "default": {"secret": "hush", "user": "u"}},
  "emptyPassword": {"type": "string", "render": "password", "default": ""},
  "plain": {"type": "string", "default": "visible"}
}}`

func TestMask(t *testing.T) {
	ctx := map[string]any{
		"project": map[string]any{"password": "Hunter2!"},
		"user":    map[string]any{"accessToken": "eyJhbGciOi"},
	}
	d := describe(t, secretsSchema, ctx, nil)
	before, _ := json.Marshal(d)
	m := Mask(d, ctx)
	after, _ := json.Marshal(d)
	if !bytes.Equal(before, after) {
		t.Fatalf("Mask changed the description it was given")
	}
	out, _ := json.Marshal(m)
	for _, secret := range []string{"Hunter2!", "tok-123", "eyJhbGciOi", "hush"} {
		if strings.Contains(string(out), secret) {
			t.Errorf("masked description still holds %q:\n%s", secret, out)
		}
	}
	for _, kept := range []string{`"visible"`, `"admin"`, `"user":"u"`, `"emptyPassword":""`} {
		if !strings.Contains(string(out), kept) {
			t.Errorf("masked description lost %s:\n%s", kept, out)
		}
	}
	if m.Values["apiToken"] != masked || m.Values["auth"] != masked {
		t.Errorf("values = %#v, want apiToken and auth masked", m.Values)
	}
	// The rejected context value is quoted in its message; the message
	// stays, the secret goes.
	var pwd schema.DescribedOption
	for _, o := range m.Options {
		if strings.Join(o.Key, "/") == "db/pwd" {
			pwd = o
		}
	}
	if pwd.Context == nil || !strings.Contains(pwd.Context.Rejected, strings.Trim(jsonQuote(masked), `"`)) || pwd.Context.Value != masked {
		t.Errorf("db/pwd context = %+v, want its value and message masked", pwd.Context)
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

const treeSchema = `{"type": "object", "properties": {
  "git": {"type": "object", "title": "Git", "properties": {
    "enabled": {"type": "boolean", "default": false},
    "name": {"type": "string", "title": "Name", "default": "", "hidden": {"path": "git/enabled", "value": false},
      "x-platform": {"overwriteDefaultWith": "git.name"}}
  }},
  "resources": {"type": "object", "properties": {"limits": {"type": "object", "properties": {
    "nvidia.com/gpu": {"type": "string", "default": "1", "sliderMin": 0, "sliderMax": 4, "sliderStep": 1, "sliderUnit": ""},
    "cpu": {"type": "string", "default": "2000m", "sliderMin": 50, "sliderMax": 4000, "sliderStep": 50, "sliderUnit": "m",
      "x-platform": {"useRegionSliderConfig": "cpu"}}
  }}}},
  "port": {"type": "integer", "default": 8080, "x-platform": {"readonly": true}},
  "mode": {"type": "string", "default": "fast", "enum": ["fast", "slow"]}
}}`

func TestText(t *testing.T) {
	reg, err := region.Parse([]byte("sliders:\n  cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	reg.File = "region.yaml"
	d := describe(t, treeSchema, map[string]any{"git": map[string]any{"name": "Ada"}}, reg)
	var b bytes.Buffer
	if err := Text(&b, d, "a test context"); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, line := range []string{
		"chart/values.schema.json: the form of platform catalogist (extension x-platform), in a test context\n",
		"\ngit (Git):\n",
		"\n  enabled: checkbox = false (default)\n",
		"\n  name (Name): text = \"Ada\" (context git.name) [hidden]\n",
		"\nresources:\n  limits:\n",
		"\n    nvidia.com/gpu: slider = \"1\" (default), 0–4 step 1 (chart)\n",
		"\n    cpu: slider = \"2000m\" (default), 100m–8000m step 100m (region cpu, region.yaml)\n",
		"\nport: number = 8080 (default) [read-only]\n",
		"\nmode: select = \"fast\" (default)\n    choices: \"fast\", \"slow\"\n",
		"\nvalues:\n  git:\n    enabled: false\n    name: Ada\n",
		"\nthe form opens\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("text lacks %q:\n%s", line, got)
		}
	}

	d = describe(t, `{"type": "object", "properties": {"cpus": {"type": "integer", "default": 2, "sliderMin": 1, "sliderMax": 8}}}`, nil, nil)
	b.Reset()
	if err := Text(&b, d, "a test context"); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.Contains(got, "\nfailures:\n  chart/values.schema.json:1:52: slider \"cpus\" has type integer") ||
		!strings.Contains(got, "[option cpus]\n") || !strings.HasSuffix(got, "\nthe form does not open: 1 failure(s), 0 shape problem(s)\n") {
		t.Errorf("text of a form that does not open:\n%s", got)
	}
}

func TestKeyText(t *testing.T) {
	for key, want := range map[string]string{
		"resources|limits|nvidia.com/gpu": `resources/limits/"nvidia.com/gpu"`,
		"list|[]|name":                    "list/[]/name",
	} {
		if got := keyText(strings.Split(key, "|")); got != want {
			t.Errorf("keyText(%q) = %s, want %s", key, got, want)
		}
	}
}
