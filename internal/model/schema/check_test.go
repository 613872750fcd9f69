package schema

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogist/catalogist/internal/input/region"
)

const checkSchema = `{
  "type": "object",
  "properties": {
    "resources": {"type": "object", "properties": {
      "requests": {"type": "object", "properties": {
        "cpu": {"type": "string", "default": "100m", "render": "slider",
          "sliderMin": 50, "sliderMax": 40000, "sliderStep": 50, "sliderUnit": "m",
          "sliderExtremity": "down", "sliderRangeId": "cpu",
          "x-platform": {"useRegionSliderConfig": "cpu"}}}},
      "limits": {"type": "object", "properties": {
        "cpu": {"type": "string", "default": "2000m", "render": "slider",
          "sliderMin": 50, "sliderMax": 40000, "sliderStep": 50, "sliderUnit": "m",
          "sliderExtremity": "up", "sliderRangeId": "cpu",
          "x-platform": {"useRegionSliderConfig": "cpu"}},
        "memory": {"type": "string", "default": "4Gi", "render": "slider",
          "sliderMin": 1, "sliderMax": 64, "sliderStep": 1, "sliderUnit": "Gi"}}}}},
    "size": {"type": "string", "enum": ["small", "large"], "default": "small"},
    "replicas": {"type": "integer", "minimum": 1, "default": 1},
    "password": {"type": "string", "render": "password", "default": ""}
  }
}`

func checkRegion(t *testing.T) *region.Region {
	t.Helper()
	r, err := region.Parse([]byte("sliders:\n  cpu: {sliderMin: 100, sliderMax: 8000, sliderStep: 100, sliderUnit: m}\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	r.File = "region.yaml"
	return r
}

func TestCheckReportsEveryProblemWithItsBound(t *testing.T) {
	s, err := Parse([]byte(checkSchema), "x-platform")
	if err != nil {
		t.Fatal(err)
	}
	ctx := NewContext(nil, checkRegion(t), nil, "")
	vals := map[string]any{
		"resources": map[string]any{
			"requests": map[string]any{"cpu": "9000m"},
			"limits":   map[string]any{"cpu": "20000m", "memory": "4G"},
		},
		"size":     "medium",
		"replicas": int64(2),
	}
	var got []string
	for _, p := range Check(s, ctx, vals) {
		got = append(got, p.String())
	}
	want := []string{
		`resources.limits.cpu: "20000m": "20000m" is outside the slider range 100m to 8000m (allowed 100m to 8000m in steps of 100m, region bound "cpu" from region.yaml)`,
		`resources.limits.memory: "4G": `,
		`resources.requests.cpu: "9000m": "9000m" is outside the slider range 100m to 8000m (allowed 100m to 8000m in steps of 100m, region bound "cpu" from region.yaml)`,
		`size: "medium": "medium" is not one of the allowed values (allowed values: "small", "large")`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d problems:\n%s", len(got), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
	if !strings.Contains(got[1], "the chart's slider") {
		t.Errorf("memory problem does not name the chart's slider: %s", got[1])
	}
}

func TestCheckRangeOrderAndValidValues(t *testing.T) {
	s, err := Parse([]byte(checkSchema), "x-platform")
	if err != nil {
		t.Fatal(err)
	}
	ctx := NewContext(nil, checkRegion(t), nil, "")
	ok := map[string]any{"resources": map[string]any{
		"requests": map[string]any{"cpu": "500m"},
		"limits":   map[string]any{"cpu": "1000m", "memory": "8Gi"},
	}, "size": "large", "replicas": 3.0}
	if ps := Check(s, ctx, ok); len(ps) != 0 {
		t.Fatalf("valid values refused: %v", ps)
	}
	inverted := map[string]any{"resources": map[string]any{
		"requests": map[string]any{"cpu": "3000m"},
		"limits":   map[string]any{"cpu": "1000m"},
	}}
	ps := Check(s, ctx, inverted)
	if len(ps) != 1 || !strings.Contains(ps[0].String(), `resources.requests.cpu: "3000m": "3000m" is above resources.limits.cpu, the other end of the "cpu" range (at most "1000m")`) {
		t.Fatalf("got %v", ps)
	}
}

// A refused item is reported where it is, with what its own option
// allows, and the list whole only for its count.
func TestCheckItemsWhereRefused(t *testing.T) {
	s, err := Parse([]byte(`{"type": "object", "properties": {
	  "volumes": {"type": "array", "maxItems": 3, "default": [], "items": {"type": "object", "properties": {
	    "name": {"type": "string", "default": "data", "pattern": "^[a-z]+$"},
	    "size": {"type": "string", "default": "1Gi", "enum": ["1Gi", "10Gi"]}}}}}}`), "x-platform")
	if err != nil {
		t.Fatal(err)
	}
	item := func(name, size string) map[string]any { return map[string]any{"name": name, "size": size} }
	for _, c := range []struct {
		volumes []any
		want    string
	}{
		{[]any{item("data", "1Gi"), item("Bad Name", "1Gi")}, `volumes.1.name: "Bad Name": "Bad Name" does not match the pattern "^[a-z]+$" (pattern "^[a-z]+$")`},
		{[]any{item("data", "2Gi")}, `volumes.0.size: "2Gi": "2Gi" is not one of the allowed values (allowed values: "1Gi", "10Gi")`},
		{[]any{map[string]any{"name": "data"}}, `volumes.0: {"name":"data"}: it has no property "size" (type object)`},
		{[]any{item("a", "1Gi"), item("b", "1Gi"), item("c", "1Gi"), item("D", "1Gi")}, `volumes: [{"name":"a","size":"1Gi"},{"name":"b","size":"1Gi"},{"name":"c","size":"1Gi"},{"name":"D","size":"1Gi"}]: it has 4 items, outside the allowed count (type array)`},
	} {
		ps := Check(s, nil, map[string]any{"volumes": c.volumes})
		if len(ps) != 1 || ps[0].String() != c.want {
			t.Errorf("got %v\nwant %s", ps, c.want)
		}
	}
}

func TestHelmProblems(t *testing.T) {
	c := newHelmCompiler()
	doc, err := unmarshalForTest(checkSchema)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("file:///s.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("file:///s.json")
	if err != nil {
		t.Fatal(err)
	}
	ps := HelmProblems(sch, map[string]any{"replicas": 0, "size": "huge"})
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	j := strings.Join(got, "\n")
	if len(ps) != 2 || !strings.Contains(j, "replicas: 0: ") || !strings.Contains(j, `size: "huge": `) {
		t.Fatalf("got:\n%s", j)
	}
	if HelmProblems(sch, map[string]any{"replicas": 2}) != nil {
		t.Fatal("valid values refused")
	}
}

func unmarshalForTest(s string) (any, error) {
	return jsonschema.UnmarshalJSON(strings.NewReader(s))
}
