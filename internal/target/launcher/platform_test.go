package launcher_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/target/catalogsfile"
	"github.com/catalogist/catalogist/internal/target/launcher"
	"github.com/catalogist/catalogist/internal/testkit/kubetest"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

// gpuKey is the GPU limit's path as --set and --set-string name it: the dot
// inside the key nvidia.com/gpu is escaped.
const gpuKey = `resources.limits.nvidia\.com/gpu`

// The examples' region ends its gpu slider at 2, below the chart's own 4; on
// the catalogist platform the region's configuration replaces the chart's,
// so a GPU count is refused by that bound however it is given. The key holds
// a slash, which once kept the bound from being checked at all.
func TestGPURegionBound(t *testing.T) {
	url := repotest.Serve(t, built(t)).URL
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	valuesFile := filepath.Join(t.TempDir(), "gpu.yaml")
	if err := os.WriteFile(valuesFile, []byte("resources: {limits: {nvidia.com/gpu: \"9\"}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	regionRefusal := gpuKey + `: "9": "9" is outside the slider range 0 to 2 (allowed 0 to 2 in steps of 1, region bound "gpu" from ../../../examples/region.yaml)`

	for _, tc := range []struct {
		name                     string
		files, set, str, jsonSet []string
		platform                 string
		// want is a line of the refusal; empty means the launch goes ahead
		// with manifest in its output.
		want, manifest string
	}{
		{name: "values file", files: []string{valuesFile}, want: regionRefusal},
		{name: "set-string", str: []string{gpuKey + "=9"}, want: regionRefusal},
		{name: "set-json", jsonSet: []string{`resources.limits={"nvidia.com/gpu": "9"}`}, want: regionRefusal},
		// --set reads 9 as a number: the type is refused before any bound.
		{name: "set number", set: []string{gpuKey + "=9"}, want: gpuKey + `: 9: got number, want string (allowed 0 to 2 in steps of 1, region bound "gpu" from ../../../examples/region.yaml; --set-string sets a string)`},
		{name: "set number in bounds", set: []string{gpuKey + "=1"}, want: gpuKey + `: 1: got number, want string (--set-string sets a string)`},
		// Helm's order: --set-string comes after -f and --set.
		{name: "set-string last", files: []string{valuesFile}, set: []string{gpuKey + "=1"}, str: []string{gpuKey + "=2"}, manifest: `nvidia.com/gpu: "2"`},
		{name: "set-string over a file", files: []string{valuesFile}, str: []string{gpuKey + "=2"}, manifest: `nvidia.com/gpu: "2"`},
		{name: "within the region", str: []string{gpuKey + "=2"}, manifest: `nvidia.com/gpu: "2"`},
		{name: "region above the chart", str: []string{gpuKey + "=3"}, want: gpuKey + `: "3": "3" is outside the slider range 0 to 2`},
		// The reference platform ignores region slider configurations: the
		// chart's own slider (0 to 4) bounds the option.
		{name: "onyxia keeps the chart's bound", platform: "onyxia", str: []string{gpuKey + "=3"}, manifest: `nvidia.com/gpu: "3"`},
		{name: "onyxia refuses past the chart's bound", platform: "onyxia", files: []string{valuesFile}, want: gpuKey + `: "9": "9" is outside the slider range 0 to 4 (allowed 0 to 4 in steps of 1, the chart's slider)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLaunch(t, url)
			l.DryRun, l.Name, l.Platform = true, "code", tc.platform
			l.ValueFiles, l.Set, l.SetString, l.SetJSON = tc.files, tc.set, tc.str, tc.jsonSet
			res, err := l.Run(context.Background())
			if tc.want == "" {
				if err != nil {
					t.Fatalf("want a launch, got %v", err)
				}
				if !strings.Contains(res.Manifest, tc.manifest) {
					t.Errorf("manifest lacks %q:\n%s", tc.manifest, res.Manifest)
				}
				warned := strings.Contains(strings.Join(res.Values.Warnings, "\n"), "the onyxia platform has no region resources or slider configurations, so those of ../../../examples/region.yaml are not used")
				if warned != (tc.platform == "onyxia") {
					t.Errorf("platform %q, warnings %q", tc.platform, res.Values.Warnings)
				}
				return
			}
			var pe *launcher.ProblemsError
			if !errors.As(err, &pe) {
				t.Fatalf("want a refusal for values, got %v", err)
			}
			if !strings.Contains(err.Error(), "\n  "+tc.want) || !strings.Contains(err.Error(), "nothing was installed") {
				t.Errorf("refusal lacks %q:\n%s", tc.want, err)
			}
			if res.Manifest != "" {
				t.Error("a refused launch rendered its manifests")
			}
		})
	}
}

// The platform's name comes from the flag, else the catalogs entry, else
// the extension key.
func TestPlatformFromCatalogEntry(t *testing.T) {
	url := repotest.Serve(t, built(t)).URL
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	for _, tc := range []struct {
		entry, flag string
		refused     bool
	}{
		{"", "", true},
		{"platform: onyxia", "", false},
		{"platform: onyxia", "catalogist", true},
		{"platform: catalogist", "onyxia", false},
	} {
		file, err := catalogsfile.Parse([]byte(fmt.Sprintf("- {id: ide, location: %q, %s}\n", url, tc.entry)))
		if err != nil {
			t.Fatal(err)
		}
		l := newLaunch(t, url)
		if l.Source, err = launcher.ParseRef("ide/vscode-python", "", file); err != nil {
			t.Fatal(err)
		}
		l.DryRun, l.Platform, l.SetString = true, tc.flag, []string{gpuKey + "=3"}
		_, err = l.Run(context.Background())
		if refused := err != nil; refused != tc.refused {
			t.Errorf("entry %q, flag %q: refused %v, want %v (%v)", tc.entry, tc.flag, refused, tc.refused, err)
		}
	}
}

// exampleChart copies a chart of examples/ide and edits its files.
func exampleChart(t *testing.T, name string, edits ...edit) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("../../../examples/ide/charts", name))); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		p := filepath.Join(dir, e.file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(data), e.old) != 1 {
			t.Fatalf("%s: %q is not there exactly once", e.file, e.old)
		}
		out := strings.Replace(string(data), e.old, e.new, 1)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// edit replaces old, which a file holds once, with new.
type edit struct{ file, old, new string }

// serveCharts packages chart directories with Helm and serves them with
// their index on loopback. Unlike `catalogist build`, it publishes charts
// that lint finds broken, as a careless catalog could.
func serveCharts(t *testing.T, dirs ...string) string {
	t.Helper()
	out := t.TempDir()
	for _, d := range dirs {
		ch, err := loader.Load(d)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := chartutil.Save(ch, out); err != nil {
			t.Fatal(err)
		}
	}
	idx, err := repo.IndexDirectory(out, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(filepath.Join(out, "index.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	return repotest.Serve(t, out).URL
}

// posOf returns where the first occurrence of s starts in a file, as
// line:col.
func posOf(t *testing.T, path, s string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), s)
	if i < 0 {
		t.Fatalf("%s lacks %q", path, s)
	}
	line := strings.Count(string(data[:i]), "\n") + 1
	col := i - strings.LastIndex(string(data[:i]), "\n")
	return fmt.Sprintf("%d:%d", line, col)
}

// brokenChart is vscode-python with two mistakes that keep the platform's
// form from opening: a render it does not know, and a string option with
// no value from any source (no default, and null in values.yaml).
func brokenChart(t *testing.T) string {
	return exampleChart(t, "vscode-python",
		edit{"values.schema.json", `"render": "textArea"`, `"render": "textarea"`},
		edit{"values.schema.json", `"packages": {`, `"mirror": {"title": "Mirror", "type": "string"},
        "packages": {`},
		edit{"values.yaml", `  packages: ""`, "  mirror: null\n  packages: \"\""},
	)
}

func TestFormWouldNotOpenRefused(t *testing.T) {
	dir := brokenChart(t)
	url := serveCharts(t, dir)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	l := newLaunch(t, url)
	l.DryRun = true
	res, err := l.Run(context.Background())
	var fe *launcher.FormError
	if !errors.As(err, &fe) {
		t.Fatalf("want a refusal for the form, got %v", err)
	}
	schemaFile := filepath.Join(dir, "values.schema.json")
	msg := err.Error()
	for _, want := range []string{
		"vscode-python 1.2.0: the catalogist platform's form would not open for this chart, so the platform would not let a user launch it either; nothing was installed:",
		"\n  values.schema.json:" + posOf(t, schemaFile, `"textarea"`) + `: render "textarea" of option "init/script" is not one of slider, textArea, password, list, so the form will not open (did you mean "textArea"?)`,
		"\n  values.schema.json:" + posOf(t, schemaFile, `{"title": "Mirror"`) + ": ",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal lacks %q:\n%s", want, msg)
		}
	}
	if len(fe.Failures) != 2 || res.Manifest != "" {
		t.Errorf("%d reasons (want 2), manifest %d bytes:\n%s", len(fe.Failures), len(res.Manifest), msg)
	}
}

// A chart whose form would not open is refused before anything reaches the
// cluster, as values are.
func TestFormWouldNotOpenNothingCreated(t *testing.T) {
	c := testCluster(t)
	l := launchWith(t, serveCharts(t, brokenChart(t)), launcher.NewConfiguration(launcher.Kube{Kubeconfig: c.Kubeconfig, Context: kubetest.Admin}))
	l.Namespace = fmt.Sprintf("unopenable-%d", time.Now().UnixNano()%1e9)
	_, err := l.Run(context.Background())
	var fe *launcher.FormError
	if !errors.As(err, &fe) {
		t.Fatalf("want a refusal for the form, got %v", err)
	}
	if _, err := c.Client(t, kubetest.Admin).CoreV1().Namespaces().Get(context.Background(), l.Namespace, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the refused launch created its namespace: %v", err)
	}
}

// The form reads values.yaml as YAML 1.2, as the platform does: `yes` is
// the string "yes", a valid value for a string option, where Helm's reader
// would make it a boolean that the option refuses.
func TestValuesYAMLReadAsThePlatformDoes(t *testing.T) {
	dir := exampleChart(t, "vscode-python",
		edit{"values.schema.json", `"packages": {`, `"verbose": {"title": "Verbose", "type": "string"},
        "packages": {`},
		edit{"values.yaml", `  packages: ""`, "  verbose: yes\n  packages: \"\""},
	)
	ch, err := loader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if v := ch.Values["python"].(map[string]any)["verbose"]; v != true {
		t.Fatalf("Helm reads verbose as %#v; the test needs Helm's YAML 1.1 reading", v)
	}
	profile, reg := examples(t)
	v, err := launcher.ComputeValues(ch, launcher.Inputs{Profile: profile, Region: reg})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Unopenable) > 0 || len(v.Problems) > 0 {
		t.Fatalf("the form should open with verbose %q: %v %v", "yes", v.Unopenable, v.Problems)
	}
	if got := v.Overrides["python"].(map[string]any)["verbose"]; got != "yes" {
		t.Errorf("verbose sent as %#v, want the string \"yes\"", got)
	}
}

// Options are masked by their key segments: a password option whose key
// holds a slash and a dot, and one under an array's items, although neither
// key's name says it holds a secret.
func TestMaskedByKeySegments(t *testing.T) {
	dir := exampleChart(t, "vscode-python",
		edit{"values.schema.json", `"fsGroup": {`, `"mirrors": {
          "title": "Mirrors",
          "type": "array",
          "default": [],
          "items": {
            "type": "object",
            "properties": {
              "host": {"type": "string", "title": "Host"},
              "pin": {"type": "string", "title": "PIN", "render": "password"}
            }
          }
        },
        "registry.example.org/api-key": {
          "title": "Registry key",
          "type": "string",
          "render": "password",
          "pattern": "^(k-[0-9]+)?$",
          "default": ""
        },
        "fsGroup": {`},
	)
	ch, err := loader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	profile, reg := examples(t)
	valuesFile := filepath.Join(t.TempDir(), "v.yaml")
	if err := os.WriteFile(valuesFile, []byte(`security:
  registry.example.org/api-key: k-123
  mirrors: [{host: a.example.org, pin: "4711"}, {host: b.example.org, pin: ""}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := launcher.ComputeValues(ch, launcher.Inputs{Profile: profile, Region: reg, ValueFiles: []string{valuesFile}})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Problems) > 0 || len(v.Unopenable) > 0 {
		t.Fatalf("%v %v", v.Problems, v.Unopenable)
	}
	if o := v.Schema.OptionKey("security", "registry.example.org/api-key"); o == nil || o.Render != "password" {
		t.Fatalf("the schema has no password option at the key: %+v", o)
	}
	sec := v.Masked()["security"].(map[string]any)
	if got := sec["registry.example.org/api-key"]; got != "********" {
		t.Errorf("key with a slash and a dot: %#v, want it masked", got)
	}
	mirrors := sec["mirrors"].([]any)
	if a, b := mirrors[0].(map[string]any), mirrors[1].(map[string]any); a["pin"] != "********" || a["host"] != "a.example.org" || b["pin"] != "" {
		t.Errorf("items: %v", mirrors)
	}
	if sec["password"] != "********" {
		t.Errorf("security.password: %#v", sec["password"])
	}
	if got := v.Overrides["security"].(map[string]any)["registry.example.org/api-key"]; got != "k-123" {
		t.Errorf("masking changed the value sent: %#v", got)
	}

	// A refused secret is not repeated in the refusal.
	v, err = launcher.ComputeValues(ch, launcher.Inputs{Profile: profile, Region: reg, SetString: []string{`security.registry\.example\.org/api-key=hunter2`}})
	if err != nil {
		t.Fatal(err)
	}
	msg := (&launcher.ProblemsError{Chart: "c", Problems: v.Problems}).Error()
	if len(v.Problems) != 1 || strings.Contains(msg, "hunter2") || !strings.Contains(msg, `security.registry\.example\.org/api-key: "********": "********" does not match the pattern`) {
		t.Errorf("refusal of a password option:\n%s", msg)
	}
	// Under array items too, where Helm names the item by its index.
	v, err = launcher.ComputeValues(ch, launcher.Inputs{Profile: profile, Region: reg, SetJSON: []string{`security.mirrors=[{"host": "a.example.org", "pin": 4711}]`}})
	if err != nil {
		t.Fatal(err)
	}
	msg = (&launcher.ProblemsError{Chart: "c", Problems: v.Problems}).Error()
	if len(v.Problems) != 1 || strings.Contains(msg, "4711") || !strings.Contains(msg, `security.mirrors.0.pin: "********": got number, want string (--set-string sets a string)`) {
		t.Errorf("refusal of a password option in items:\n%s", msg)
	}
}

// With the platform API's schema registry, the chart's schema is the one the
// platform's form sees: an overwriteSchemaWith property takes the registry's
// schema, its default and its password rendering.
func TestSchemaRegistryAtLaunch(t *testing.T) {
	dir := exampleChart(t, "vscode-python",
		edit{"values.schema.json", `"fsGroup": {`, `"index": {
          "title": "Package index",
          "type": "string",
          "default": "",
          "x-platform": {"overwriteSchemaWith": "ide/index.json"}
        },
        "fsGroup": {`},
	)
	regDir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(regDir, "ide"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(regDir, "ide", "index.json"), []byte(`{
  "title": "Package index",
  "type": "string",
  "render": "password",
  "default": "https://ada:s3cret@pypi.example.org/simple"
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	url := serveCharts(t, dir)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	reg, err := schema.LoadRegistry(regDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, withRegistry := range []bool{false, true} {
		l := newLaunch(t, url)
		l.DryRun = true
		if withRegistry {
			l.Registry = reg
		}
		res, err := l.Run(context.Background())
		if err != nil {
			t.Fatalf("registry %v: %v", withRegistry, err)
		}
		sent := res.Values.Overrides["security"].(map[string]any)["index"]
		shown := res.Values.Masked()["security"].(map[string]any)["index"]
		if withRegistry && (sent != "https://ada:s3cret@pypi.example.org/simple" || shown != "********") {
			t.Errorf("with the registry: sent %#v, shown %#v", sent, shown)
		}
		if !withRegistry && (sent != "" || shown != "") {
			t.Errorf("without the registry: sent %#v, shown %#v", sent, shown)
		}
	}
}

// A --set-json value that is not JSON is named by its key, never echoed: it
// may be a secret.
func TestSetJSONErrorHidesTheValue(t *testing.T) {
	url := repotest.Serve(t, built(t)).URL
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	l := newLaunch(t, url)
	l.DryRun = true
	l.SetJSON = []string{`git.token="ok"`, `security.password=hunter2`}
	_, err := l.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--set-json security.password: the value is not JSON") || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("got %v", err)
	}
	l.SetJSON = []string{`{"git": {"token": "hunter2"`}
	_, err = l.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--set-json value 1 is not a JSON object") || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("got %v", err)
	}
}

// --profile is a whole launch context document: k8s, project and region
// values reach the options that reference them; on the onyxia platform the
// context has no region.resources, so that reference falls back.
func TestProfileIsALaunchContext(t *testing.T) {
	url := repotest.Serve(t, built(t)).URL
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	p := filepath.Join(t.TempDir(), "context.yaml")
	if err := os.WriteFile(p, []byte(`project: {id: u-ada, password: example}
k8s: {domain: lab.example.org, randomSubdomain: "4242", ingress: true, ingressClassName: nginx}
region: {resources: {gpu: "1"}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, err := launcher.LoadProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, platform := range []string{"catalogist", "onyxia"} {
		l := newLaunch(t, url)
		l.DryRun, l.Profile, l.Region, l.Platform = true, ctx, nil, platform
		res, err := l.Run(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", platform, err)
		}
		ing := res.Values.Overrides["ingress"].(map[string]any)
		if ing["enabled"] != true || ing["hostname"] != "u-ada-4242.lab.example.org" || ing["ingressClassName"] != "nginx" {
			t.Errorf("%s: ingress %v", platform, ing)
		}
		gpu := res.Values.Overrides["resources"].(map[string]any)["limits"].(map[string]any)["nvidia.com/gpu"]
		if want := map[string]string{"catalogist": "1", "onyxia": "0"}[platform]; gpu != want {
			t.Errorf("%s: gpu %#v, want %q", platform, gpu, want)
		}
	}
}

// A chart without a schema: the platform opens a launcher with no fields
// and sends values.yaml as its form reads it (YAML 1.2), without the keys
// that hold an empty list, so what it reads otherwise than Helm (0755, yes)
// goes over Helm's reading of the same file.
func TestSchemalessChartSendsValuesYAML(t *testing.T) {
	dir := exampleChart(t, "vscode-python")
	if err := os.Remove(filepath.Join(dir, "values.schema.json")); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "values.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("fileMode: 0755\nverbose: yes\nextraVolumes: []\nnested:\n  none: []\n  some: [a]\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	ch, err := loader.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Values["fileMode"] != float64(493) && ch.Values["fileMode"] != 493 {
		t.Fatalf("Helm reads fileMode as %#v; the test needs Helm's YAML 1.1 reading", ch.Values["fileMode"])
	}
	profile, reg := examples(t)
	v, err := launcher.ComputeValues(ch, launcher.Inputs{Profile: profile, Region: reg, Set: []string{"verbose=no"}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Form == nil || !v.Form.Schemaless() {
		t.Fatal("no launcher form for the chart without a schema")
	}
	if got := v.Overrides["fileMode"]; got != float64(755) {
		t.Errorf("fileMode sent as %#v, want 755 (YAML 1.2)", got)
	}
	if got := v.Overrides["verbose"]; got != "no" {
		t.Errorf("verbose = %#v, want --set over the launcher's values", got)
	}
	if _, sent := v.Overrides["extraVolumes"]; sent {
		t.Error("the empty list extraVolumes is sent")
	}
	nested, _ := v.Overrides["nested"].(map[string]any)
	if _, sent := nested["none"]; sent || nested["some"] == nil {
		t.Errorf("nested sent as %#v, want some without none", nested)
	}
}
