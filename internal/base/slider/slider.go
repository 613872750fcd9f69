// Package slider holds the bounds of a resource slider (min, max, step and
// unit) and the rules the platform applies to slider values.
package slider

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Config is one slider configuration, as a chart, a catalog or a region
// writes it.
type Config struct {
	Min, Max, Step float64
	Unit           string
}

func (c Config) String() string {
	return fmt.Sprintf("[%s, %s] step %s unit %q", Num(c.Min), Num(c.Max), Num(c.Step), c.Unit)
}

// Num formats a slider number without a trailing ".0".
func Num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Format writes x the way the platform stores a slider value: the number
// followed by the unit.
func (c Config) Format(x float64) string { return Num(x) + c.Unit }

// Contains reports whether x lies within [Min, Max].
func (c Config) Contains(x float64) bool { return x >= c.Min && x <= c.Max }

// OnGrid reports whether x is Min plus a whole number of steps.
func (c Config) OnGrid(x float64) bool {
	if c.Step <= 0 {
		return true
	}
	k := (x - c.Min) / c.Step
	return math.Abs(k-math.Round(k)) < 1e-9
}

var decimal = regexp.MustCompile(`^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// Parse reads a slider value: a string ending in unit whose rest is a
// number, or, when unit is empty, a number or a numeric string. It is stricter
// than the platform's parseFloat, which silently ignores trailing garbage.
func Parse(v any, unit string) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		if unit != "" {
			return 0, fmt.Errorf("is the number %s; a slider value is a string ending in %q", x, unit)
		}
		return strconv.ParseFloat(string(x), 64)
	case float64:
		if unit != "" {
			return 0, fmt.Errorf("is the number %s; a slider value is a string ending in %q", Num(x), unit)
		}
		return x, nil
	case int:
		return Parse(float64(x), unit)
	case string:
		if !strings.HasSuffix(x, unit) {
			return 0, fmt.Errorf("%q does not end with the unit %q", x, unit)
		}
		num := strings.TrimSuffix(x, unit)
		// Only plain decimals: Go would also read "1_000" or "0x1p4", which
		// the platform's parseFloat reads as 1 and 0.
		if !decimal.MatchString(num) {
			if unit == "" {
				return 0, fmt.Errorf("%q is not a number", x)
			}
			return 0, fmt.Errorf("%q is not a number followed by %q", x, unit)
		}
		return strconv.ParseFloat(num, 64)
	}
	return 0, fmt.Errorf("has type %s; a slider value is a string", typeName(v))
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

// Convert expresses a Kubernetes quantity (such as "2" CPUs or "1024Mi") in a
// slider unit (such as "m" or "Gi"). It fails when either is not a quantity.
func Convert(value, unit string) (float64, error) {
	q, err := resource.ParseQuantity(value)
	if err != nil {
		return 0, fmt.Errorf("%q is not a Kubernetes quantity: %w", value, err)
	}
	u, err := resource.ParseQuantity("1" + unit)
	if err != nil {
		return 0, fmt.Errorf("%q is not a quantity unit: %w", unit, err)
	}
	return q.AsApproximateFloat64() / u.AsApproximateFloat64(), nil
}
