package schema

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// The platform's form is JavaScript: values are JSON numbers (float64),
// strings are coerced with parseFloat and numbers printed with
// Number.prototype.toString. These functions reproduce those, so that the
// values we compute are the ones it computes.

var jsFloatPrefix = regexp.MustCompile(`^[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)`)

// jsParseFloat is JavaScript's parseFloat: leading white space is skipped,
// the longest decimal prefix is read, and the rest ignored ("4Gi" is 4); NaN
// when there is no number at the start.
func jsParseFloat(s string) float64 {
	s = strings.TrimLeftFunc(s, isJSSpace)
	m := jsFloatPrefix.FindString(s)
	if m == "" {
		return math.NaN()
	}
	// ParseFloat reads "Infinity" and returns ±Inf with a range error for
	// "1e999", which is what JavaScript gives too.
	f, _ := strconv.ParseFloat(m, 64)
	return f
}

// isJSSpace is JavaScript's StrWhiteSpaceChar.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0xFEFF, 0x2028, 0x2029:
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// jsNumberString is Number.prototype.toString for a number.
func jsNumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX, shortest digits
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	ev := strconv.Itoa(abs(n - 1))
	if k == 1 {
		return sign + digits + "e" + es + ev
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + es + ev
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// jsValue returns v with every number as a float64, as JavaScript holds it,
// and every object and array copied.
func jsValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil && !math.IsInf(f, 0) {
			return v
		}
		return f
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case float32:
		return float64(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			out[k] = jsValue(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = jsValue(c)
		}
		return out
	}
	return v
}

// jsArrayIndex reports whether a key is an array index, which JavaScript
// orders before the other keys of an object, in ascending order.
func jsArrayIndex(k string) (uint64, bool) {
	if k == "" || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 32)
	if err != nil || n == math.MaxUint32 {
		return 0, false
	}
	return n, true
}

// nodeValue is a schema node's value as JavaScript holds it: numbers as
// float64. It converts in one pass where Value then jsValue would copy twice.
func nodeValue(n *srcpos.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case srcpos.Bool:
		return n.Text == "true"
	case srcpos.Number:
		f, err := strconv.ParseFloat(n.Text, 64)
		if err != nil && !math.IsInf(f, 0) {
			return json.Number(n.Text)
		}
		return f
	case srcpos.String:
		return n.Text
	case srcpos.Array:
		out := make([]any, len(n.Items))
		for i, c := range n.Items {
			out[i] = nodeValue(c)
		}
		return out
	case srcpos.Object:
		out := make(map[string]any, len(n.Members))
		for _, c := range n.Members {
			out[c.Key] = nodeValue(c)
		}
		return out
	}
	return nil
}
