package scaffold_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/chartdocs"
	"github.com/catalogist/catalogist/internal/output/editorschema"
	"github.com/catalogist/catalogist/internal/output/scaffold"
	"github.com/catalogist/catalogist/internal/testkit/browsertest"
	"github.com/catalogist/catalogist/internal/testkit/kubetest"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
	"github.com/catalogist/catalogist/lint"
)

// variant is one way of creating a catalog: its options, and the extension
// key and platform the files must then be written for.
type variant struct {
	name          string
	opt           scaffold.Options
	key, platform string
	// lintOnly skips the build, Helm and the cluster: the templates are
	// the same as another variant's, only the schema differs.
	lintOnly bool
}

var variants = []variant{
	{"default", scaffold.Options{}, "x-platform", "catalogist", false},
	{"onyxia", scaffold.Options{Platform: "onyxia"}, "x-onyxia", "onyxia", false},
	{"custom-key", scaffold.Options{ExtensionKey: "x-acme"}, "x-acme", "catalogist", false},
	{"onyxia-key-implies-platform", scaffold.Options{ExtensionKey: "x-onyxia"}, "x-onyxia", "onyxia", true},
	{"onyxia-with-x-platform", scaffold.Options{Platform: "onyxia", ExtensionKey: "x-platform"}, "x-platform", "onyxia", true},
}

// gitAndGPU are values a user launching with a repository, a token and a
// GPU sends.
const gitAndGPU = `git:
  repository: https://github.com/example-org/project.git
  branch: main
  token: test-token-1234
resources:
  limits:
    nvidia.com/gpu: "1"
`

// TestNewCatalogAndChart creates a catalog and a chart for each platform
// target and extension key, and checks that the result lints clean (with
// and without the example region), gives the form its pre-filled values,
// builds, renders with both Helm CLIs and installs into a cluster (the
// variants that differ from others only by their schema are linted only). The
// slow parts are shared: one cluster, started while the rest runs; one
// build per variant.
func TestNewCatalogAndChart(t *testing.T) {
	cluster := startCluster(t)
	reg, err := region.Load("../../../examples/region.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	helms := map[string]*tooltest.Helm{"helm4": tooltest.NewHelm(t, 4), "helm3": tooltest.NewHelm(t, 3)}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			root := t.TempDir()
			catDir := filepath.Join(root, "my-catalog")
			res, err := scaffold.NewCatalog(catDir, v.opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Platform != v.platform || res.ExtensionKey != v.key {
				t.Errorf("catalog written for %s/%s, want %s/%s", res.Platform, res.ExtensionKey, v.platform, v.key)
			}
			checkCatalogFiles(t, catDir, v)

			// The chart takes the catalog's platform and key.
			ch, err := scaffold.NewChart(catDir, "jupyter", scaffold.Options{})
			if err != nil {
				t.Fatal(err)
			}
			chartDir := filepath.Join(catDir, "charts", "jupyter")
			if ch.Dir != chartDir || ch.Icon != filepath.Join(catDir, "icons", "jupyter.svg") || ch.Platform != v.platform || ch.ExtensionKey != v.key {
				t.Errorf("chart result %+v", ch)
			}
			noLeftovers(t, root)
			noLeftovers(t, catDir)
			checkSchema(t, chartDir, v)
			checkValuesAgree(t, chartDir)

			cat, err := catalog.Discover(catDir)
			if err != nil {
				t.Fatal(err)
			}
			lintClean(t, cat, lint.Options{}, v)
			withRegion := lintClean(t, cat, lint.Options{Regions: []*region.Region{reg}, KeepAnalyses: true}, v)
			checkForm(t, withRegion, v)
			checkDocs(t, cat)
			if v.lintOnly {
				return
			}

			out := filepath.Join(root, "out")
			built, err := builder.Build(context.Background(), builder.Options{Catalog: catDir, Out: out, CacheDir: filepath.Join(root, "cache"), Log: &bytes.Buffer{}})
			if err != nil {
				t.Fatal(err)
			}
			if built.Charts != 1 || len(built.Lint.Findings) != 0 {
				t.Errorf("build: %d charts, findings %v", built.Charts, built.Lint.Findings)
			}
			if v.name == variants[0].name {
				checkFormPage(t, out)
			}
			pkg := filepath.Join(out, "jupyter-0.1.0.tgz")
			for _, f := range []string{pkg, filepath.Join(out, "index.yaml"), filepath.Join(out, "index.html")} {
				if _, err := os.Stat(f); err != nil {
					t.Errorf("build output: %v", err)
				}
			}
			values := filepath.Join(root, "git-gpu.yaml")
			if err := os.WriteFile(values, []byte(gitAndGPU), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"helm4", "helm3"} {
				h := helms[name]
				checkRendered(t, name+" defaults", h.Run(t, "template", "rel", pkg), false)
				checkRendered(t, name+" git and GPU", h.Run(t, "template", "rel", pkg, "-f", values), true)
			}

			c := cluster()
			ns := c.NewNamespace(t)
			helms["helm4"].Run(t, "install", "rel", pkg, "-f", values, "--namespace", ns, "--kubeconfig", c.Kubeconfig, "--kube-context", kubetest.Admin)
			client := c.Client(t, kubetest.Admin)
			dep, err := client.AppsV1().Deployments(ns).Get(context.Background(), "rel-jupyter", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("the installed Deployment: %v", err)
			}
			checkDeployment(t, "installed", dep, true)
			if _, err := client.CoreV1().Services(ns).Get(context.Background(), "rel-jupyter", metav1.GetOptions{}); err != nil {
				t.Errorf("the installed Service: %v", err)
			}
			if _, err := client.CoreV1().Secrets(ns).Get(context.Background(), "rel-jupyter-git", metav1.GetOptions{}); err != nil {
				t.Errorf("the installed git Secret: %v", err)
			}
		})
	}
}

// checkDocs checks that the new chart's README documents its options as
// `catalogist docs --check` wants them.
func checkDocs(t *testing.T, cat *catalog.Catalog) {
	t.Helper()
	env, err := schema.EnvFor(schema.Overrides{}, cat, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range cat.Charts {
		res, err := chartdocs.Sync(cat, ch, env, true)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != chartdocs.UpToDate {
			t.Errorf("%s: README options section out of date (line %d)", ch.Name, res.Line)
		}
		readme, err := os.ReadFile(filepath.Join(ch.Dir, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"`git.enabled`", "`resources.limits.cpu`", "Hidden while `git.enabled` is `false`"} {
			if !strings.Contains(string(readme), want) {
				t.Errorf("%s: README has no %s", ch.Name, want)
			}
		}
	}
}

// checkFormPage opens the built chart page in Chromium: its form is ready,
// without any script error, and the values it would send hold the git and
// resources groups.
func checkFormPage(t *testing.T, site string) {
	t.Helper()
	ctx := browsertest.New(t)
	page := browsertest.Serve(t, site) + "/charts/jupyter/index.html"
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`[data-form-ready]`)), chromedp.Click(chromedp.CSS(`[data-form-mode="full"]`))); err != nil {
		t.Fatalf("the chart page's form: %v", err)
	}
	text, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(`[data-form-yaml]`)))
	if err != nil {
		t.Fatal(err)
	}
	var values map[string]any
	if err := yaml.Unmarshal([]byte(text), &values); err != nil {
		t.Fatalf("the page's values do not parse: %v\n%s", err, text)
	}
	for _, group := range []string{"git", "resources"} {
		if _, ok := values[group].(map[string]any); !ok {
			t.Errorf("the page's values have no %s group:\n%s", group, text)
		}
	}
	browsertest.Screenshot(t, ctx, "new-chart-form.png")
	if errs := browsertest.Errors(ctx); len(errs) > 0 {
		t.Errorf("the chart page's errors: %v", errs)
	}
}

// startCluster starts the test cluster in the background and returns a
// function that waits for it; it is stopped when the test ends.
func startCluster(t *testing.T) func() *kubetest.Cluster {
	type started struct {
		c   *kubetest.Cluster
		err error
	}
	ch := make(chan started, 1)
	go func() {
		if kc := os.Getenv(kubetest.KubeconfigEnv); kc != "" {
			c, err := kubetest.Existing(kc)
			ch <- started{c, err}
			return
		}
		c, err := kubetest.Up("")
		ch <- started{c, err}
	}()
	var once sync.Once
	var s started
	wait := func() { once.Do(func() { s = <-ch }) }
	t.Cleanup(func() {
		wait()
		if s.c != nil {
			if err := s.c.Down(); err != nil {
				t.Error(err)
			}
		}
	})
	return func() *kubetest.Cluster {
		t.Helper()
		wait()
		if s.err != nil {
			t.Fatal(s.err)
		}
		return s.c
	}
}

func checkCatalogFiles(t *testing.T, dir string, v variant) {
	t.Helper()
	cfgData, err := os.ReadFile(filepath.Join(dir, "catalog.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := catalog.ParseConfig(cfgData)
	if err != nil {
		t.Fatalf("catalog.yaml: %v\n%s", err, cfgData)
	}
	if cfg.Name != "my-catalog" || cfg.IconsDir != "icons" || cfg.Platform != v.platform || cfg.Source == "" || cfg.BaseURL == "" || cfg.Description == "" {
		t.Errorf("catalog.yaml reads as %+v\n%s", cfg, cfgData)
	}
	// The key is written only when it is not the platform's own.
	wantKey := v.key
	if v.key == schema.PlatformKey(v.platform) {
		wantKey = ""
	}
	if cfg.ExtensionKey != wantKey {
		t.Errorf("extensionKey %q, want %q", cfg.ExtensionKey, wantKey)
	}
	for _, d := range []string{"charts", "icons"} {
		entries, err := os.ReadDir(filepath.Join(dir, d))
		if err != nil || len(entries) != 0 {
			t.Errorf("%s: want an empty directory, got %v %v", d, entries, err)
		}
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil || !strings.Contains(string(readme), "catalogist new chart NAME") || !strings.Contains(string(readme), "catalogist build --out out") {
		t.Errorf("README.md does not say what to do next: %v\n%s", err, readme)
	}
	ignore, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil || !strings.Contains(string(ignore), "/out/") {
		t.Errorf(".gitignore does not ignore the build output: %v\n%s", err, ignore)
	}
	checkEditorSettings(t, dir, cfgData, v)
	examples, _ := filepath.Glob("../../../examples/workflows/*.yml")
	if len(examples) == 0 {
		t.Fatal("no example workflows")
	}
	for _, e := range examples {
		want, _ := os.ReadFile(e)
		got, err := os.ReadFile(filepath.Join(dir, ".github", "workflows", filepath.Base(e)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("workflow %s differs from the example (%v)", filepath.Base(e), err)
		}
	}
}

// noLeftovers fails when a staging directory is left in dir.
func noLeftovers(t *testing.T, dir string) {
	t.Helper()
	if m, _ := filepath.Glob(filepath.Join(dir, ".catalogist-new-*")); len(m) > 0 {
		t.Errorf("staging directories left: %v", m)
	}
}

// checkSchema checks that the schema writes its extension under the key in
// force only, and names the region only on a platform that has region
// sliders.
func checkSchema(t *testing.T, chartDir string, v variant) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(chartDir, "values.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("values.schema.json: %v", err)
	}
	prop := func(path ...string) map[string]any {
		n := s
		for _, p := range path {
			n, _ = n["properties"].(map[string]any)[p].(map[string]any)
			if n == nil {
				t.Fatalf("no option %s", strings.Join(path, "/"))
			}
		}
		return n
	}
	ext := func(path ...string) map[string]any {
		e, _ := prop(path...)[v.key].(map[string]any)
		return e
	}
	for _, f := range []string{"name", "email", "cache", "token"} {
		if got := ext("git", f)["overwriteDefaultWith"]; !strings.HasPrefix(got.(string), "git.") {
			t.Errorf("git/%s pre-filled from %v", f, got)
		}
		if h := prop("git", f)["hidden"]; !reflect.DeepEqual(h, map[string]any{"value": false, "path": "git/enabled"}) {
			t.Errorf("git/%s hidden %v", f, h)
		}
	}
	if prop("git", "token")["render"] != "password" {
		t.Error("git/token is not rendered as a password")
	}
	regionSliders := v.platform == "catalogist"
	for _, o := range [][]string{{"requests", "cpu"}, {"requests", "memory"}, {"limits", "cpu"}, {"limits", "memory"}, {"limits", "nvidia.com/gpu"}} {
		p := prop(append([]string{"resources"}, o...)...)
		if p["render"] != "slider" {
			t.Errorf("resources/%s is not a slider", strings.Join(o, "/"))
		}
		e := ext(append([]string{"resources"}, o...)...)
		if got := e["useRegionSliderConfig"] != nil; got != regionSliders {
			t.Errorf("resources/%s has useRegionSliderConfig: %v, want %v", strings.Join(o, "/"), got, regionSliders)
		}
	}
	if regionSliders {
		if e := ext("resources", "limits", "cpu"); e["overwriteDefaultWith"] != "region.resources.cpuLimit" {
			t.Errorf("the CPU limit is pre-filled from %v", e["overwriteDefaultWith"])
		}
	}
	for _, other := range []string{"x-platform", "x-onyxia", "x-acme"} {
		if other != v.key && bytes.Contains(data, []byte(`"`+other+`"`)) {
			t.Errorf("the schema writes %s, not only %s", other, v.key)
		}
	}
}

// checkValuesAgree checks that values.yaml holds exactly the schema's
// defaults.
func checkValuesAgree(t *testing.T, chartDir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(chartDir, "values.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	vdata, err := os.ReadFile(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(vdata, &values); err != nil {
		t.Fatalf("values.yaml: %v", err)
	}
	if want := defaults(s); !reflect.DeepEqual(values, want) {
		t.Errorf("values.yaml is\n%v\nthe schema's defaults are\n%v", values, want)
	}
}

// defaults is the tree of an object schema's defaults.
func defaults(s map[string]any) map[string]any {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		p := p.(map[string]any)
		if p["type"] == "object" {
			out[name] = defaults(p)
		} else {
			out[name] = p["default"]
		}
	}
	return out
}

// lintClean lints as catalogist lint does and fails on any finding, but
// for the onyxia platform's own finding on the example region: it was
// written for region-bounded sliders, which that platform has not.
func lintClean(t *testing.T, cat *catalog.Catalog, opt lint.Options, v variant) *lint.Result {
	t.Helper()
	res, err := lint.Run([]*catalog.Catalog{cat}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Charts != 1 {
		t.Errorf("linted %d charts", res.Charts)
	}
	for _, f := range res.Findings {
		if v.platform == "onyxia" && len(opt.Regions) > 0 && f.Rule == "region-file" && f.Chart == "" {
			continue
		}
		t.Errorf("lint (region %v): %s:%d:%d: %s [%s]", len(opt.Regions) > 0, f.File, f.Line, f.Column, f.Message, f.Rule)
	}
	return res
}

// checkForm checks what the form pre-fills in the example region: the
// profile's git identity, and the region's resources and slider bounds
// where the platform has them.
func checkForm(t *testing.T, res *lint.Result, v variant) {
	t.Helper()
	if len(res.Analyses) != 1 {
		t.Fatalf("%d analyses", len(res.Analyses))
	}
	for _, a := range res.Analyses {
		f := a.Form
		if !f.Opens() {
			t.Errorf("the form does not open: %v", f.Failures)
		}
		if got := f.Field("git/name").Value; got != "Jane Doe" {
			t.Errorf("git/name pre-filled with %v", got)
		}
		want := map[string]struct {
			value  any
			bounds string
		}{
			"resources/limits/cpu":    {"4000m", schema.BoundsRegion},
			"resources/limits/memory": {"8Gi", schema.BoundsRegion},
			// The example region pre-fills no GPU: the chart's none.
			"resources/limits/nvidia.com/gpu": {"0", schema.BoundsRegion},
			"resources/requests/cpu":          {"100m", schema.BoundsRegion},
		}
		if v.platform == "onyxia" {
			want = map[string]struct {
				value  any
				bounds string
			}{
				"resources/limits/cpu":            {"2000m", schema.BoundsChart},
				"resources/limits/memory":         {"4Gi", schema.BoundsChart},
				"resources/limits/nvidia.com/gpu": {"0", schema.BoundsChart},
				"resources/requests/cpu":          {"100m", schema.BoundsChart},
			}
		}
		for path, w := range want {
			fd := f.Field(path)
			if fd == nil {
				t.Errorf("no field %s", path)
				continue
			}
			if fd.Value != w.value || fd.BoundsFrom != w.bounds {
				t.Errorf("%s = %v, bounds from %s; want %v from %s", path, fd.Value, fd.BoundsFrom, w.value, w.bounds)
			}
		}
	}
}

// checkRendered checks the objects helm template renders.
func checkRendered(t *testing.T, what, manifest string, gitAndGPU bool) {
	t.Helper()
	kinds := map[string]int{}
	var dep *appsv1.Deployment
	var secret *corev1.Secret
	for doc := range strings.SplitSeq(manifest, "\n---") {
		var head metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, doc)
		}
		if head.Kind == "" {
			continue
		}
		kinds[head.Kind]++
		switch head.Kind {
		case "Deployment":
			dep = &appsv1.Deployment{}
			if err := yaml.UnmarshalStrict([]byte(doc), dep); err != nil {
				t.Fatalf("%s: the Deployment: %v\n%s", what, err, doc)
			}
		case "Secret":
			secret = &corev1.Secret{}
			if err := yaml.UnmarshalStrict([]byte(doc), secret); err != nil {
				t.Fatalf("%s: the Secret: %v\n%s", what, err, doc)
			}
		}
	}
	wantKinds := map[string]int{"Deployment": 1, "Service": 1}
	if gitAndGPU {
		wantKinds["Secret"] = 1
	}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Errorf("%s: rendered %v, want %v", what, kinds, wantKinds)
	}
	if dep == nil {
		t.Fatalf("%s: no Deployment\n%s", what, manifest)
	}
	checkDeployment(t, what, dep, gitAndGPU)
	if gitAndGPU && (secret == nil || secret.StringData["token"] != "test-token-1234") {
		t.Errorf("%s: the git Secret is %+v", what, secret)
	}
}

// checkDeployment checks the resources of the Deployment's container, and
// the clone of the repository when one is given.
func checkDeployment(t *testing.T, what string, dep *appsv1.Deployment, gitAndGPU bool) {
	t.Helper()
	spec := dep.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("%s: %d containers", what, len(spec.Containers))
	}
	c := spec.Containers[0]
	res := map[string]string{}
	for k, q := range c.Resources.Requests {
		res["requests."+string(k)] = q.String()
	}
	for k, q := range c.Resources.Limits {
		res["limits."+string(k)] = q.String()
	}
	want := map[string]string{"requests.cpu": "100m", "requests.memory": "1Gi", "limits.cpu": "2", "limits.memory": "4Gi"}
	if gitAndGPU {
		want["requests.nvidia.com/gpu"], want["limits.nvidia.com/gpu"] = "1", "1"
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("%s: resources %v, want %v", what, res, want)
	}
	var env []string
	for _, e := range c.Env {
		env = append(env, e.Name)
	}
	if !slices.Contains(env, "GIT_USER_NAME") || slices.Contains(env, "GIT_PERSONAL_ACCESS_TOKEN") != gitAndGPU {
		t.Errorf("%s: container environment %v", what, env)
	}
	if gitAndGPU {
		if len(spec.InitContainers) != 1 || spec.InitContainers[0].Name != "git-clone" || !strings.Contains(strings.Join(spec.InitContainers[0].Args, " "), "git clone") {
			t.Errorf("%s: init containers %+v", what, spec.InitContainers)
		}
	} else if len(spec.InitContainers) != 0 {
		t.Errorf("%s: an init container without a repository", what)
	}
}

// checkEditorSettings checks that a new catalog carries the editor schemas
// of its extension key and platform, as a build publishes them, and that
// catalog.yaml's modeline and VS Code's settings name them by paths that
// exist in the catalog. testdata/editor/newcatalog.test.mjs opens the files
// in the editors' language services.
func checkEditorSettings(t *testing.T, dir string, cfgData []byte, v variant) {
	t.Helper()
	if first, _, _ := strings.Cut(string(cfgData), "\n"); first != scaffold.CatalogModeline {
		t.Errorf("catalog.yaml starts with %q, want the modeline %q", first, scaffold.CatalogModeline)
	}
	p, err := schema.PlatformNamed(v.platform)
	if err != nil {
		t.Fatal(err)
	}
	want, err := editorschema.Files(v.key, p, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range editorschema.Names {
		got, err := os.ReadFile(filepath.Join(dir, scaffold.EditorDir, name))
		if err != nil || !bytes.Equal(got, want[name]) {
			t.Errorf("%s/%s differs from the schema a build publishes (%v)", scaffold.EditorDir, name, err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, scaffold.EditorSettings))
	if err != nil {
		t.Fatal(err)
	}
	var set struct {
		JSON []struct {
			FileMatch []string `json:"fileMatch"`
			URL       string   `json:"url"`
		} `json:"json.schemas"`
		YAML map[string][]string `json:"yaml.schemas"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		t.Fatalf("%s: %v\n%s", scaffold.EditorSettings, err, data)
	}
	urls := map[string]bool{}
	for _, s := range set.JSON {
		urls[s.URL] = true
	}
	for u := range set.YAML {
		urls[u] = true
	}
	for u := range urls {
		if !strings.HasPrefix(u, "./") {
			t.Errorf("%s names %q, which is not a path relative to the catalog", scaffold.EditorSettings, u)
		} else if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(u))); err != nil {
			t.Errorf("%s names %q: %v", scaffold.EditorSettings, u, err)
		}
	}
	if len(set.JSON) != 2 || len(set.YAML) != 3 {
		t.Errorf("%s: %d json.schemas and %d yaml.schemas, want 2 and 3:\n%s", scaffold.EditorSettings, len(set.JSON), len(set.YAML), data)
	}
}
