package slider

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		v    any
		unit string
		want float64
		err  string // substring of the error; "" when the value is valid
	}{
		// A string with the unit suffix.
		{"2000m", "m", 2000, ""},
		{"4Gi", "Gi", 4, ""},
		{"0.5Gi", "Gi", 0.5, ""},
		{"1e3m", "m", 1000, ""},
		{"-1m", "m", -1, ""},
		// With an empty unit: a number or a numeric string.
		{"2", "", 2, ""},
		{"2.5", "", 2.5, ""},
		{json.Number("3"), "", 3, ""},
		{json.Number("-0.25"), "", -0.25, ""},
		{4.0, "", 4, ""},
		{7, "", 7, ""},
		// Wrong unit.
		{"2000", "m", 0, `does not end with the unit "m"`},
		{"12Gi", "m", 0, `does not end with the unit "m"`},
		{"8192Mi", "Gi", 0, `does not end with the unit "Gi"`},
		{"2000m", "", 0, "not a number"},
		{json.Number("2000"), "m", 0, "a slider value is a string"},
		{2000.0, "m", 0, "a slider value is a string"},
		{5, "Gi", 0, "a slider value is a string"},
		// Garbage.
		{"m", "m", 0, "not a number"},
		{"", "", 0, "not a number"},
		{"", "m", 0, `does not end with the unit "m"`},
		{"abc", "", 0, "not a number"},
		{"2 m", "m", 0, "not a number"},
		{" 2m", "m", 0, "not a number"},
		{"2x", "", 0, "not a number"},
		{"2m m", "m", 0, "not a number"},
		{json.Number("5x"), "", 0, "5x"},
		// The platform's parseFloat reads "12_000" as 12 and "0x1p4" as 0;
		// a strict reader must refuse them rather than read 12000 and 16.
		{"12_000m", "m", 0, "not a number"},
		{"1_0", "", 0, "not a number"},
		{"0x1p4", "", 0, "not a number"},
		// Other JSON types.
		{true, "", 0, "boolean"},
		{nil, "m", 0, "null"},
		{[]any{"1"}, "", 0, "array"},
		{map[string]any{}, "", 0, "object"},
	} {
		got, err := Parse(tc.v, tc.unit)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("Parse(%#v, %q) = %v, %v; want %v", tc.v, tc.unit, got, err, tc.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("Parse(%#v, %q) = %v, want an error mentioning %q", tc.v, tc.unit, got, tc.err)
		} else if !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Parse(%#v, %q) error %q does not mention %q", tc.v, tc.unit, err, tc.err)
		}
	}
}

func TestContains(t *testing.T) {
	c := Config{Min: 100, Max: 8000, Step: 100, Unit: "m"}
	for _, tc := range []struct {
		x    float64
		want bool
	}{
		{100, true}, {8000, true}, {4000, true}, {99.999, false}, {8000.001, false}, {0, false}, {-100, false},
		{math.NaN(), false}, {math.Inf(1), false}, {math.Inf(-1), false},
	} {
		if got := c.Contains(tc.x); got != tc.want {
			t.Errorf("%v.Contains(%v) = %v, want %v", c, tc.x, got, tc.want)
		}
	}
	if !(Config{Min: 0, Max: 0}).Contains(0) {
		t.Errorf("a one-point range contains its point")
	}
}

func TestOnGrid(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		x    float64
		want bool
	}{
		{Config{Min: 100, Max: 8000, Step: 100}, 100, true},
		{Config{Min: 100, Max: 8000, Step: 100}, 2000, true},
		{Config{Min: 100, Max: 8000, Step: 100}, 2050, false},
		{Config{Min: 1, Max: 400, Step: 1}, 8, true},
		{Config{Min: 1, Max: 400, Step: 1}, 8.5, false},
		{Config{Min: 0, Max: 4, Step: 0.5}, 1.5, true},
		{Config{Min: 0, Max: 4, Step: 0.5}, 1.25, false},
		{Config{Min: 0.25, Max: 4, Step: 0.5}, 0.75, true},
		{Config{Min: 0.25, Max: 4, Step: 0.5}, 1, false},
		{Config{Min: 0.1, Max: 1, Step: 0.1}, 0.3, true}, // 0.3-0.1 is not exactly 0.2 in binary
		{Config{Min: 0.1, Max: 1, Step: 0.1}, 0.7, true},
		{Config{Min: 0.1, Max: 1, Step: 0.1}, 0.35, false},
		{Config{Min: -1, Max: 1, Step: 0.5}, 0, true},
		{Config{Min: 0, Max: 10, Step: 3}, 10, false}, // the max need not be on the grid
		{Config{Min: 0, Max: 10, Step: 0}, 3.14159, true},
		{Config{Min: 0, Max: 10, Step: -1}, 3.5, true},
	} {
		if got := tc.c.OnGrid(tc.x); got != tc.want {
			t.Errorf("%v.OnGrid(%v) = %v, want %v", tc.c, tc.x, got, tc.want)
		}
	}
}

func TestConvert(t *testing.T) {
	for _, tc := range []struct {
		value, unit string
		want        float64
		err         bool
	}{
		{"2", "m", 2000, false},
		{"2000m", "m", 2000, false},
		{"1.5", "m", 1500, false},
		{"0.1", "m", 100, false},
		{"100m", "", 0.1, false},
		{"3", "", 3, false},
		{"1024Mi", "Gi", 1, false},
		{"4Gi", "Mi", 4096, false},
		{"1Gi", "Gi", 1, false},
		{"8G", "Gi", 8e9 / (1 << 30), false},
		{"abc", "m", 0, true},
		{"", "m", 0, true},
		{"2", "xx", 0, true},
		{"2 Gi", "Gi", 0, true},
	} {
		got, err := Convert(tc.value, tc.unit)
		if tc.err {
			if err == nil {
				t.Errorf("Convert(%q, %q) = %v, want an error", tc.value, tc.unit, got)
			}
			continue
		}
		if err != nil || math.Abs(got-tc.want) > 1e-9*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("Convert(%q, %q) = %v, %v; want %v", tc.value, tc.unit, got, err, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		x    float64
		want string
	}{
		{Config{Unit: "m"}, 2000, "2000m"},
		{Config{Unit: "Gi"}, 0.5, "0.5Gi"},
		{Config{Unit: ""}, 1, "1"},
		{Config{Unit: "Gi"}, 1e21, "1000000000000000000000Gi"},
	} {
		if got := tc.c.Format(tc.x); got != tc.want {
			t.Errorf("Format(%v) = %q, want %q", tc.x, got, tc.want)
		}
		// What Format writes, Parse reads back.
		if back, err := Parse(tc.c.Format(tc.x), tc.c.Unit); err != nil || back != tc.x {
			t.Errorf("Parse(Format(%v)) = %v, %v", tc.x, back, err)
		}
	}
	if got, want := (Config{Min: 100, Max: 8000, Step: 100, Unit: "m"}).String(), `[100, 8000] step 100 unit "m"`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
