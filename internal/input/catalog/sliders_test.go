package catalog

import (
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/region"
)

func TestSlidersAnnotationRoundTrip(t *testing.T) {
	in := map[string]*region.Slider{
		"memory": {Config: slider.Config{Min: 1, Max: 16, Step: 1, Unit: "Gi"}},
		"cpu":    {Config: slider.Config{Min: 100, Max: 4000, Step: 100, Unit: "m"}},
		"gpu":    {Config: slider.Config{Min: 0, Max: 2, Step: 0.5}},
	}
	v, err := EncodeSliders(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"cpu":{"sliderMin":100,"sliderMax":4000,"sliderStep":100,"sliderUnit":"m"},"gpu":{"sliderMin":0,"sliderMax":2,"sliderStep":0.5,"sliderUnit":""},"memory":{"sliderMin":1,"sliderMax":16,"sliderStep":1,"sliderUnit":"Gi"}}`
	if v != want {
		t.Fatalf("EncodeSliders = %s\nwant %s", v, want)
	}
	out, err := DecodeSliders(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("decoded %d sliders, want %d", len(out), len(in))
	}
	for name, s := range in {
		if out[name] == nil || out[name].Config != s.Config {
			t.Errorf("slider %s: decoded %+v, want %+v", name, out[name], s.Config)
		}
	}
	if v, err := EncodeSliders(nil); v != "" || err != nil {
		t.Errorf("EncodeSliders(nil) = %q, %v; want no annotation", v, err)
	}
	if out, err := DecodeSliders(""); err != nil || len(out) != 0 {
		t.Errorf(`DecodeSliders("") = %v, %v`, out, err)
	}
}

func TestDecodeSlidersRefusesBadBounds(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{`{"cpu": {"sliderMin": 4000, "sliderMax": 100, "sliderStep": 100, "sliderUnit": "m"}}`, `sliderMin 4000 of slider "cpu" is not below its sliderMax 100`},
		{`{"cpu": {"sliderMin": 1, "sliderMax": 2, "sliderStep": 1}}`, `slider "cpu" has no sliderUnit`},
		{`{"cpu": `, "annotation catalogist.dev/sliders:1:"},
		{`[1]`, "sliders must be a mapping"},
	} {
		_, err := DecodeSliders(tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodeSliders(%s) = %v, want an error with %q", tc.value, err, tc.want)
		}
	}
}
