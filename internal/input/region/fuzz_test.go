package region

import (
	"errors"
	"os"
	"testing"

	"github.com/catalogist/catalogist/internal/input/srcpos"
)

func FuzzParseRegion(f *testing.F) {
	if data, err := os.ReadFile("../../../examples/region.yaml"); err == nil {
		f.Add(data, "")
	}
	for _, s := range []struct{ src, id string }{
		{plainRegion, ""},
		{plainRegion, "paris"},
		{regionsJSON, ""},
		{regionsJSON, "paris"},
		{regionsJSON, "lyon"},
		{regionsJSON, "nice"},
		{`{"regions": [{"id": "solo", "services": {"defaultConfiguration": {"resources": {"gpu": "1"}}}}]}`, ""},
		{`{"regions": [{"services": 3}, 4, {"id": ["x"]}]}`, ""},
		{`{"regions": []}`, ""},
		{`{"services": {"defaultConfiguration": "x"}}`, ""},
		{"sliders:\n  cpu: {sliderMin: 1, sliderMax: 2, sliderStep: 1}\n", ""},
		{"sliders:\n  memory: {sliderMin: one, sliderMax: 2, sliderStep: 1, sliderUnit: Gi}\n", ""},
		{"resources: [cpuLimit]\n", ""},
		{"resources: {gpu: 1, cpu: {x: 1}}\n", ""},
		{"- a\n", ""},
		{"", ""},
	} {
		f.Add([]byte(s.src), s.id)
	}
	f.Fuzz(func(t *testing.T, data []byte, id string) {
		r, err := Parse(data, id)
		if err != nil {
			var de *srcpos.Error
			if !errors.As(err, &de) || !de.Pos.IsValid() {
				t.Fatalf("error %v (%T) is not a *doc.Error with a position", err, err)
			}
			return
		}
		res, _ := r.Context["resources"].(map[string]any)
		sl, _ := r.Context["sliders"].(map[string]any)
		if res == nil || sl == nil {
			t.Fatalf("Context lacks resources or sliders: %#v", r.Context)
		}
		for name, x := range r.Resources {
			if res[name] != x.Value {
				t.Fatalf("resource %q = %q but the context has %#v", name, x.Value, res[name])
			}
		}
		for name := range r.Sliders {
			if sl[name] == nil {
				t.Fatalf("slider %q is missing from the context", name)
			}
		}
		if len(res) != len(r.Resources) || len(sl) != len(r.Sliders) {
			t.Fatalf("context and region disagree: %d/%d resources, %d/%d sliders", len(res), len(r.Resources), len(sl), len(r.Sliders))
		}
	})
}
