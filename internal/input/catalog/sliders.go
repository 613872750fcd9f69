package catalog

import (
	"encoding/json"
	"fmt"

	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// SlidersAnnotation is the index.yaml annotation that publishes a catalog's
// slider bounds (catalog.yaml `sliders`), so that a launch from the
// published index enforces them as the platform does. Its value is JSON in
// the shape catalog.yaml writes: {"cpu": {"sliderMin": 0.1, ...}}.
const SlidersAnnotation = "catalogist.dev/sliders"

type publishedSlider struct {
	Min  float64 `json:"sliderMin"`
	Max  float64 `json:"sliderMax"`
	Step float64 `json:"sliderStep"`
	Unit string  `json:"sliderUnit"`
}

// EncodeSliders is the value of SlidersAnnotation for a set of sliders, ""
// for none. Keys come out sorted, so the same sliders give the same bytes.
func EncodeSliders(sliders map[string]*region.Slider) (string, error) {
	if len(sliders) == 0 {
		return "", nil
	}
	out := make(map[string]publishedSlider, len(sliders))
	for name, s := range sliders {
		out[name] = publishedSlider{Min: s.Min, Max: s.Max, Step: s.Step, Unit: s.Unit}
	}
	data, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("encoding the catalog's sliders: %w", err)
	}
	return string(data), nil
}

// DecodeSliders reads the value of SlidersAnnotation with the checks
// catalog.yaml's sliders get. Positions in errors are within the value.
func DecodeSliders(value string) (map[string]*region.Slider, error) {
	if value == "" {
		return map[string]*region.Slider{}, nil
	}
	root, err := srcpos.ParseJSON([]byte(value))
	if err != nil {
		return nil, fmt.Errorf("annotation %s:%w", SlidersAnnotation, err)
	}
	s, err := region.ReadSliders(root)
	if err != nil {
		return nil, fmt.Errorf("annotation %s:%w", SlidersAnnotation, err)
	}
	return s, nil
}
