package region

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
)

// plainRegion is a plain region file, as examples/region.yaml writes one.
const plainRegion = `# Resources of one region.
resources: {cpuRequest: 100m, cpuLimit: 4000m, memoryRequest: 1Gi, memoryLimit: 8Gi, gpu: "1", disk: 10Gi}
sliders:
  cpu:    {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}
  memory: {sliderMin: 1, sliderMax: 32, sliderStep: 1, sliderUnit: Gi}
  gpu:    {sliderMin: 0, sliderMax: 2, sliderStep: 1, sliderUnit: ""}
  disk:   {sliderMin: 1, sliderMax: 100, sliderStep: 1, sliderUnit: Gi}
`

// regionsJSON is the platform's regions.json with two regions.
const regionsJSON = `{
  "regions": [
    {
      "id": "paris",
      "name": "Paris",
      "services": {
        "allowedURIPattern": "^https://",
        "customValues": {"team": "stats"},
        "defaultConfiguration": {
          "ipprotection": true,
          "networkPolicy": false,
          "kafka": {"url": "kafka:9092", "topicName": "events"},
          "nodeSelector": {"disk": "ssd"},
          "tolerations": [{"key": "gpu", "operator": "Exists"}],
          "sliders": {
            "cpu": {"sliderMin": 100, "sliderMax": 80000, "sliderStep": 100, "sliderUnit": "m"},
            "memory": {"sliderMin": 1, "sliderMax": 400, "sliderStep": 1, "sliderUnit": "Gi"},
            "gpu": {"sliderMin": 1, "sliderMax": 4, "sliderStep": 1, "sliderUnit": ""},
            "disk": {"sliderMin": 1, "sliderMax": 100, "sliderStep": 1, "sliderUnit": "Gi"}
          },
          "resources": {"cpuRequest": "100m", "cpuLimit": "5000m", "memoryRequest": "2Gi",
                        "memoryLimit": "40Gi", "disk": "10Gi", "gpu": "1"}
        }
      }
    },
    {
      "id": "lyon",
      "services": {
        "defaultConfiguration": {
          "sliders": {"cpu": {"sliderMin": 50, "sliderMax": 4000, "sliderStep": 50, "sliderUnit": "m"}},
          "resources": {"cpuLimit": "2000m"}
        }
      }
    }
  ]
}`

func mustParse(t *testing.T, src, id string) *Region {
	t.Helper()
	r, err := Parse([]byte(src), id)
	if err != nil {
		t.Fatalf("Parse(id %q): %v", id, err)
	}
	return r
}

func sliderConfigs(r *Region) map[string]slider.Config {
	out := map[string]slider.Config{}
	for name, s := range r.Sliders {
		if s.Name != name || s.Node == nil {
			out[name] = slider.Config{Unit: "<bad name or node>"}
			continue
		}
		out[name] = s.Config
	}
	return out
}

func resourceValues(r *Region) map[string]string {
	out := map[string]string{}
	for name, res := range r.Resources {
		if res.Name != name || res.Node == nil {
			out[name] = "<bad name or node>"
			continue
		}
		out[name] = res.Value
	}
	return out
}

func TestParsePlain(t *testing.T) {
	r := mustParse(t, plainRegion, "")
	if r.ID != "" {
		t.Errorf("ID = %q, want \"\" for a plain region file", r.ID)
	}
	wantSliders := map[string]slider.Config{
		"cpu":    {Min: 100, Max: 8000, Step: 100, Unit: "m"},
		"memory": {Min: 1, Max: 32, Step: 1, Unit: "Gi"},
		"gpu":    {Min: 0, Max: 2, Step: 1, Unit: ""},
		"disk":   {Min: 1, Max: 100, Step: 1, Unit: "Gi"},
	}
	if got := sliderConfigs(r); !reflect.DeepEqual(got, wantSliders) {
		t.Errorf("Sliders = %v, want %v", got, wantSliders)
	}
	wantRes := map[string]string{"cpuRequest": "100m", "cpuLimit": "4000m", "memoryRequest": "1Gi", "memoryLimit": "8Gi", "gpu": "1", "disk": "10Gi"}
	if got := resourceValues(r); !reflect.DeepEqual(got, wantRes) {
		t.Errorf("Resources = %v, want %v", got, wantRes)
	}
	if n := r.Sliders["memory"].Node; n.KeyPos != (srcpos.Pos{Line: 5, Col: 3}) {
		t.Errorf("memory slider key at %v, want 5:3", n.KeyPos)
	}
	if n := r.Resources["cpuLimit"].Node; n.Pos != (srcpos.Pos{Line: 2, Col: 41}) {
		t.Errorf("cpuLimit value at %v, want 2:41", n.Pos)
	}
	wantCtx := map[string]any{
		"resources": map[string]any{"cpuRequest": "100m", "cpuLimit": "4000m", "memoryRequest": "1Gi", "memoryLimit": "8Gi", "gpu": "1", "disk": "10Gi"},
		"sliders": map[string]any{
			"cpu":    map[string]any{"sliderMin": 100.0, "sliderMax": 8000.0, "sliderStep": 100.0, "sliderUnit": "m"},
			"memory": map[string]any{"sliderMin": 1.0, "sliderMax": 32.0, "sliderStep": 1.0, "sliderUnit": "Gi"},
			"gpu":    map[string]any{"sliderMin": 0.0, "sliderMax": 2.0, "sliderStep": 1.0, "sliderUnit": ""},
			"disk":   map[string]any{"sliderMin": 1.0, "sliderMax": 100.0, "sliderStep": 1.0, "sliderUnit": "Gi"},
		},
	}
	if !reflect.DeepEqual(r.Context, wantCtx) {
		t.Errorf("Context =\n%#v\nwant\n%#v", r.Context, wantCtx)
	}
}

func TestParseExampleRegionFile(t *testing.T) {
	data, err := os.ReadFile("../../../examples/region.yaml")
	if err != nil {
		t.Fatalf("the bundled example region file: %v", err)
	}
	r, err := Parse(data, "")
	if err != nil {
		t.Fatalf("examples/region.yaml: %v", err)
	}
	// Every default must lie inside its slider and carry its unit.
	for name, res := range r.Resources {
		s := r.Sliders[ResourceSlider[name]]
		if s == nil {
			continue
		}
		x, err := slider.Parse(res.Value, s.Unit)
		if err != nil || !s.Contains(x) || !s.OnGrid(x) {
			t.Errorf("examples/region.yaml: %s = %q does not fit slider %s %v (%v)", name, res.Value, s.Name, s.Config, err)
		}
	}
}

func TestPlainRegionExtraKeys(t *testing.T) {
	r := mustParse(t, "defaultIpProtection: true\nkafka: {url: k}\nsliders:\nresources: {gpu: 2}\n", "")
	want := map[string]any{
		"defaultIpProtection": true,
		"kafka":               map[string]any{"url": "k"},
		"resources":           map[string]any{"gpu": "2"},
		"sliders":             map[string]any{},
	}
	if !reflect.DeepEqual(r.Context, want) {
		t.Errorf("Context = %#v, want %#v", r.Context, want)
	}
	if len(r.Sliders) != 0 {
		t.Errorf("an empty sliders key gave %d sliders", len(r.Sliders))
	}
}

func TestParseRegionsJSON(t *testing.T) {
	paris := mustParse(t, regionsJSON, "paris")
	if paris.ID != "paris" {
		t.Errorf("ID = %q, want paris", paris.ID)
	}
	if got, want := sliderConfigs(paris)["cpu"], (slider.Config{Min: 100, Max: 80000, Step: 100, Unit: "m"}); got != want {
		t.Errorf("paris cpu slider = %v, want %v", got, want)
	}
	if got, want := sliderConfigs(paris)["gpu"], (slider.Config{Min: 1, Max: 4, Step: 1, Unit: ""}); got != want {
		t.Errorf("paris gpu slider = %v, want %v", got, want)
	}
	wantRes := map[string]string{"cpuRequest": "100m", "cpuLimit": "5000m", "memoryRequest": "2Gi", "memoryLimit": "40Gi", "disk": "10Gi", "gpu": "1"}
	if got := resourceValues(paris); !reflect.DeepEqual(got, wantRes) {
		t.Errorf("paris Resources = %v, want %v", got, wantRes)
	}
	for key, want := range map[string]any{
		"defaultIpProtection":  true,
		"defaultNetworkPolicy": false,
		"allowedURIPattern":    "^https://",
		"customValues":         map[string]any{"team": "stats"},
		"kafka":                map[string]any{"url": "kafka:9092", "topicName": "events"},
		"nodeSelector":         map[string]any{"disk": "ssd"},
		"tolerations":          []any{map[string]any{"key": "gpu", "operator": "Exists"}},
		"resources":            map[string]any{"cpuRequest": "100m", "cpuLimit": "5000m", "memoryRequest": "2Gi", "memoryLimit": "40Gi", "disk": "10Gi", "gpu": "1"},
	} {
		if got := paris.Context[key]; !reflect.DeepEqual(got, want) {
			t.Errorf("paris Context[%q] = %#v, want %#v", key, got, want)
		}
	}
	if cpu, _ := paris.Context["sliders"].(map[string]any)["cpu"].(map[string]any); cpu["sliderMax"] != 80000.0 || cpu["sliderUnit"] != "m" {
		t.Errorf("paris Context sliders.cpu = %#v", cpu)
	}
	// The region's context is what overwriteDefaultWith reads.
	data := map[string]any{"region": paris.Context}
	for expr, want := range map[string]any{
		"region.resources.cpuLimit":        "5000m",
		"{{region.resources.memoryLimit}}": "40Gi",
		"{{region.sliders.gpu.sliderMax}}": 4.0,
		"{{region.kafka.url}}":             "kafka:9092",
	} {
		if got, ok := launchcontext.Resolve(expr, data); !ok || got != want {
			t.Errorf("Resolve(%q) = %#v, %v; want %#v", expr, got, ok, want)
		}
	}

	lyon := mustParse(t, regionsJSON, "lyon")
	if lyon.ID != "lyon" || len(lyon.Sliders) != 1 || lyon.Sliders["cpu"].Max != 4000 {
		t.Errorf("lyon = id %q sliders %v", lyon.ID, sliderConfigs(lyon))
	}
	if got := lyon.Context["resources"]; !reflect.DeepEqual(got, map[string]any{"cpuLimit": "2000m"}) {
		t.Errorf("lyon resources = %#v", got)
	}
	if _, ok := lyon.Context["kafka"]; ok {
		t.Errorf("lyon has no kafka configuration but its context has one")
	}
}

func TestParseRegionsJSONSingle(t *testing.T) {
	one := `{"regions": [{"id": "solo", "services": {"defaultConfiguration": {"resources": {"gpu": "1"}}}}]}`
	for _, id := range []string{"", "solo"} {
		r := mustParse(t, one, id)
		if r.ID != "solo" || r.Resources["gpu"].Value != "1" {
			t.Errorf("id %q: got region %q with %v", id, r.ID, resourceValues(r))
		}
	}
	if _, err := Parse([]byte(one), "other"); err == nil || !strings.Contains(err.Error(), `"other"`) {
		t.Errorf("unknown id in a one-region file: err = %v", err)
	}
	noID := `{"regions": [{"services": {"defaultConfiguration": {"resources": {"gpu": "2"}}}}]}`
	if r := mustParse(t, noID, ""); r.Resources["gpu"].Value != "2" {
		t.Errorf("one region without id: resources %v", resourceValues(r))
	}
	bare := `{"id": "x", "services": {"defaultConfiguration": {"resources": {"cpuLimit": "1000m"}}}}`
	if r := mustParse(t, bare, ""); r.Resources["cpuLimit"].Value != "1000m" {
		t.Errorf("a single platform region object: resources %v", resourceValues(r))
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, id string
		pos           srcpos.Pos // zero: any position
		msg           []string
	}{
		{"several regions and no id", regionsJSON, "", srcpos.Pos{Line: 2, Col: 14}, []string{"2 regions", "--region-id", "lyon, paris"}},
		{"unknown id", regionsJSON, "nice", srcpos.Pos{Line: 2, Col: 14}, []string{`"nice"`, "lyon, paris"}},
		{"id on a plain file", plainRegion, "paris", srcpos.Pos{}, []string{"--region-id", "plain region file"}},
		{"empty regions", `{"regions": []}`, "", srcpos.Pos{Line: 1, Col: 13}, []string{"non-empty list"}},
		{"regions not a list", `{"regions": {"id": "a"}}`, "", srcpos.Pos{Line: 1, Col: 13}, []string{"non-empty list"}},
		{"region without defaultConfiguration", `{"regions": [{"id": "a", "services": {}}]}`, "a", srcpos.Pos{Line: 1, Col: 14}, []string{"services.defaultConfiguration"}},
		{"not a mapping", "- cpu\n- memory\n", "", srcpos.Pos{Line: 1, Col: 1}, []string{"mapping"}},
		{"syntax error", "sliders:\n  cpu: {sliderMin: 1\n", "", srcpos.Pos{}, nil},
		{"slider missing sliderUnit", "sliders:\n  cpu: {sliderMin: 1, sliderMax: 2, sliderStep: 1}\n", "", srcpos.Pos{Line: 2, Col: 8}, []string{`"cpu"`, "sliderUnit"}},
		{"slider missing sliderMax", "sliders:\n  cpu: {sliderMin: 1, sliderStep: 1, sliderUnit: m}\n", "", srcpos.Pos{Line: 2, Col: 8}, []string{"sliderMax"}},
		{"sliderMin not a number", "sliders:\n  memory:\n    sliderMin: one\n    sliderMax: 2\n    sliderStep: 1\n    sliderUnit: Gi\n", "", srcpos.Pos{Line: 3, Col: 16}, []string{"sliderMin", `"memory"`, "number"}},
		{"sliderStep a quoted number", "sliders:\n  cpu: {sliderMin: 1, sliderMax: 2, sliderStep: \"1\", sliderUnit: m}\n", "", srcpos.Pos{Line: 2, Col: 49}, []string{"sliderStep"}},
		{"sliderUnit not a string", "sliders:\n  cpu: {sliderMin: 1, sliderMax: 2, sliderStep: 1, sliderUnit: [m]}\n", "", srcpos.Pos{Line: 2, Col: 64}, []string{"sliderUnit", "string"}},
		{"slider not a mapping", "sliders:\n  cpu: 3\n", "", srcpos.Pos{Line: 2, Col: 8}, []string{`"cpu"`}},
		{"sliders not a mapping", "sliders: [cpu]\n", "", srcpos.Pos{Line: 1, Col: 10}, []string{"sliders must be a mapping"}},
		{"resources not a mapping", "resources:\n  - cpuLimit\n", "", srcpos.Pos{Line: 2, Col: 3}, []string{"resources must be a mapping"}},
		{"resource not a quantity", "resources: {cpuLimit: {x: 1}}\n", "", srcpos.Pos{Line: 1, Col: 23}, []string{"resources.cpuLimit", "object"}},
		{"resource a boolean", "resources:\n  gpu: true\n", "", srcpos.Pos{Line: 2, Col: 8}, []string{"resources.gpu", "boolean"}},
		{"error inside regions.json", `{"regions": [{"id": "a", "services": {"defaultConfiguration": {"sliders": {"cpu": {"sliderMin": 1, "sliderMax": 2, "sliderStep": 1}}}}}]}`, "a", srcpos.Pos{Line: 1, Col: 83}, []string{"sliderUnit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse([]byte(tc.src), tc.id)
			var de *srcpos.Error
			if !errors.As(err, &de) {
				t.Fatalf("Parse = %v, %v; want a *doc.Error", r, err)
			}
			if tc.pos.IsValid() && de.Pos != tc.pos {
				t.Errorf("error at %v, want %v (%s)", de.Pos, tc.pos, de.Msg)
			}
			for _, m := range tc.msg {
				if !strings.Contains(de.Msg, m) {
					t.Errorf("message %q does not mention %q", de.Msg, m)
				}
			}
		})
	}
}

func TestSliderUnitForms(t *testing.T) {
	for _, src := range []string{
		"sliders:\n  gpu: {sliderMin: 0, sliderMax: 2, sliderStep: 1, sliderUnit: \"\"}\n",
		"sliders:\n  gpu: {sliderMin: 0, sliderMax: 2, sliderStep: 1, sliderUnit: }\n",
		"sliders:\n  gpu: {sliderMin: 0, sliderMax: 2, sliderStep: 1, sliderUnit: null}\n",
	} {
		r := mustParse(t, src, "")
		if got := r.Sliders["gpu"].Config; got != (slider.Config{Min: 0, Max: 2, Step: 1}) {
			t.Errorf("%q: gpu = %v, want [0, 2] step 1 with no unit", src, got)
		}
	}
}

func TestReadSliders(t *testing.T) {
	for _, src := range []string{"", "~\n"} {
		n, err := srcpos.ParseYAML([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadSliders(n)
		if err != nil || len(got) != 0 {
			t.Errorf("ReadSliders(%q) = %v, %v; want an empty set", src, got, err)
		}
	}
	if got, err := ReadSliders(nil); err != nil || got == nil || len(got) != 0 {
		t.Errorf("ReadSliders(nil) = %v, %v; want an empty, non-nil set", got, err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "regions.json")
	if err := os.WriteFile(p, []byte(regionsJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := Load(p, "lyon")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if r.File != p || r.ID != "lyon" {
		t.Errorf("Load = file %q id %q, want %q lyon", r.File, r.ID, p)
	}
	_, err = Load(p, "")
	if err == nil || !strings.HasPrefix(err.Error(), p+":2:14: ") {
		t.Errorf("Load without id: err = %v, want it to start with %q", err, p+":2:14: ")
	}
	if _, err := Load(filepath.Join(dir, "absent.yaml"), ""); err == nil {
		t.Errorf("Load of a missing file succeeded")
	}
}
