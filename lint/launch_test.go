package lint_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/lint"
)

// notebookSchema pre-fills the memory limit from the region, with the
// region's slider bounds.
const notebookSchema = `{"type": "object", "properties": {"resources": {"type": "object", "properties": {"limits": {"type": "object", "properties": {
  "memory": {"type": "string", "default": "48Gi", "render": "slider", "sliderMin": 1, "sliderMax": 64, "sliderStep": 1, "sliderUnit": "Gi",
    "x-platform": {"overwriteDefaultWith": "region.resources.memoryLimit", "useRegionSliderConfig": "memory"}}}}}}}}`

// twoRegions is a regions.json whose eu region pre-fills 32Gi and bounds
// memory at 64Gi, and whose us region pre-fills 8Gi and bounds it at 32Gi.
const twoRegions = `{"regions": [
  {"id": "eu", "services": {"defaultConfiguration": {"resources": {"memoryLimit": "32Gi"}, "sliders": {"memory": {"sliderMin": 1, "sliderMax": 64, "sliderStep": 1, "sliderUnit": "Gi"}}}}},
  {"id": "us", "services": {"defaultConfiguration": {"resources": {"memoryLimit": "8Gi"}, "sliders": {"memory": {"sliderMin": 1, "sliderMax": 32, "sliderStep": 1, "sliderUnit": "Gi"}}}}}
]}`

func lintWith(t *testing.T, dir string, opt lint.Options) *lint.Result {
	t.Helper()
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if opt.CacheDir == "" {
		opt.CacheDir = t.TempDir()
	}
	res, err := lint.Run([]*catalog.Catalog{cat}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func ofRule(res *lint.Result, rule string) []lint.Finding {
	var out []lint.Finding
	for _, f := range res.Findings {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// Each region of a regions.json is its own set of values: the template
// fails with what one region pre-fills, and the finding names it; a form
// finding of one region only names that region, one of every region none.
func TestRenderEachRegion(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"charts/notebook/Chart.yaml":         "apiVersion: v2\nname: notebook\nversion: 1.0.0\ndescription: A notebook.\nicon: https://example.org/n.svg\n",
		"charts/notebook/values.schema.json": notebookSchema,
		"charts/notebook/values.yaml":        "resources: {limits: {memory: 2Gi}}\n",
		"charts/notebook/templates/cm.yaml": "{{- if gt (int (trimSuffix \"Gi\" .Values.resources.limits.memory)) 16 }}{{ fail \"above 16Gi\" }}{{ end }}\n" +
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n",
		"charts/big/Chart.yaml": "apiVersion: v2\nname: big\nversion: 1.0.0\ndescription: A big one.\nicon: https://example.org/b.svg\n",
		"charts/big/values.schema.json": `{"type": "object", "properties": {"memory": {"type": "string", "default": "48Gi", "render": "slider",
			"sliderMin": 1, "sliderMax": 64, "sliderStep": 1, "sliderUnit": "Gi", "x-platform": {"useRegionSliderConfig": "memory"}}}}`,
		"regions.json": twoRegions,
	})
	regions, err := region.LoadAll(filepath.Join(dir, "regions.json"), "")
	if err != nil || len(regions) != 2 {
		t.Fatalf("%d regions: %v", len(regions), err)
	}
	res := lintWith(t, dir, lint.Options{Regions: regions})
	rendered := ofRule(res, "template-render")
	if len(rendered) != 1 || rendered[0].Message != "does not render with the values the platform sends in region eu: above 16Gi" || rendered[0].Line != 1 {
		t.Errorf("template-render findings: %+v", rendered)
	}
	// big's default 48Gi is above us's 32Gi only.
	defaults := ofRule(res, "region-default")
	if len(defaults) != 1 || !strings.HasSuffix(defaults[0].Message, " (in region us)") {
		t.Errorf("region-default findings: %+v", defaults)
	}
	// So the form of big opens in eu only: no user in us can launch it.
	if opens := ofRule(res, "form-opens"); len(opens) != 1 || !strings.HasSuffix(opens[0].Message, " (in region us)") {
		t.Errorf("form-opens findings: %+v", opens)
	}
	// One region: the same chart renders.
	res = lintWith(t, dir, lint.Options{Regions: regions[1:]})
	if got := ofRule(res, "template-render"); len(got) != 0 {
		t.Errorf("with us alone: %+v", got)
	}
}

// The values of --context are in the context the platform's values are
// computed in: a chart that needs them renders with them.
func TestRenderWithContext(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"charts/assistant/Chart.yaml": "apiVersion: v2\nname: assistant\nversion: 1.0.0\ndescription: An assistant.\nicon: https://example.org/a.svg\n",
		"charts/assistant/values.schema.json": `{"type": "object", "properties": {"ai": {"type": "object", "properties": {
			"model": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "ai.model"}}}}}}`,
		"charts/assistant/values.yaml":       "ai: {model: \"\"}\n",
		"charts/assistant/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  model: {{ required \"ai.model is required\" .Values.ai.model }}\n",
		"context.yaml":                       "ai.model: llama-3\n",
	})
	data, err := os.ReadFile(filepath.Join(dir, "context.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := srcpos.ParseYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	messages := func(res *lint.Result) []string {
		var out []string
		for _, f := range ofRule(res, "template-render") {
			out = append(out, f.Message)
		}
		return out
	}
	without := messages(lintWith(t, dir, lint.Options{}))
	with := messages(lintWith(t, dir, lint.Options{ExtraPaths: []*srcpos.Node{doc}}))
	if !slices.Equal(without, []string{"does not render with values.yaml alone and the values the platform sends: ai.model is required"}) ||
		!slices.Equal(with, []string{"does not render with values.yaml alone: ai.model is required"}) {
		t.Errorf("without --context: %q\nwith: %q", without, with)
	}
}

// A dependency of another repository renders from the dependency cache;
// without it, the chart is not rendered and a note says so.
func TestRenderFromCache(t *testing.T) {
	dir := t.TempDir()
	const repo = "https://charts.example.org/stable"
	filetree.Write(t, dir, map[string]string{
		"charts/app/Chart.yaml":        "apiVersion: v2\nname: app\nversion: 1.0.0\ndescription: An app.\nicon: https://example.org/a.svg\ndependencies:\n  - {name: common, version: ^2.0.0, repository: " + repo + "}\n",
		"charts/app/templates/cm.yaml": "{{ include \"common.cm\" . }}\n",
		"src/common/Chart.yaml":        "apiVersion: v2\nname: common\nversion: 2.3.0\ntype: library\n",
		"src/common/templates/_cm.tpl": "{{- define \"common.cm\" -}}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  a: {{ .Values.common.missing.key }}\n{{- end }}\n",
	})
	cache := t.TempDir()
	notes := ofRule(lintWith(t, dir, lint.Options{CacheDir: cache}), "render-dependency")
	if len(notes) != 1 || notes[0].Severity != lint.Note || !strings.Contains(notes[0].Message, "dependency common ^2.0.0 from "+repo+" is neither in the catalog nor in the dependency cache") {
		t.Fatalf("without the cache: %+v", notes)
	}
	hc, err := loader.LoadDir(filepath.Join(dir, "src", "common"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(repo))
	repoDir := filepath.Join(cache, hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(repoDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := chartutil.Save(hc, repoDir); err != nil {
		t.Fatal(err)
	}
	res := lintWith(t, dir, lint.Options{CacheDir: cache})
	// The failing template is in the cached package: the finding is at the
	// dependency in Chart.yaml, naming the package and the line.
	got := ofRule(res, "template-render")
	if len(got) != 1 || got[0].File != filepath.Join(dir, "charts", "app", "Chart.yaml") || got[0].Line != 7 ||
		got[0].Message != "in dependency common (common-2.3.0.tgz), templates/_cm.tpl:7: does not render with values.yaml alone: nil pointer evaluating interface {}.key (included from app/templates/cm.yaml:1:4)" {
		t.Errorf("with the cache: %+v", got)
	}
	if len(ofRule(res, "render-dependency")) != 0 {
		t.Error("the note stayed")
	}
}
