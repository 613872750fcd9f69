package repoindex

import (
	"math"
	"strconv"
	"strings"
)

// scalarType is the YAML 1.1 type of a scalar as yaml.v2 resolves it.
type scalarType uint8

const (
	strType scalarType = iota
	nullType
	boolType
	intType
	uintType
	floatType
)

// scalar is a resolved scalar value.
type scalar struct {
	typ scalarType
	s   string // the text; for strType the value
	b   bool
	i   int64
	u   uint64
	f   float64
}

// words are the plain scalars yaml.v2 resolves by table lookup.
var words = map[string]scalar{}

func init() {
	add := func(sc scalar, ss ...string) {
		for _, s := range ss {
			sc.s = s
			words[s] = sc
		}
	}
	add(scalar{typ: boolType, b: true}, "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")
	add(scalar{typ: boolType}, "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")
	add(scalar{typ: nullType}, "", "~", "null", "Null", "NULL")
	add(scalar{typ: floatType, f: math.NaN()}, ".nan", ".NaN", ".NAN")
	add(scalar{typ: floatType, f: math.Inf(1)}, ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")
	add(scalar{typ: floatType, f: math.Inf(-1)}, "-.inf", "-.Inf", "-.INF")
}

// resolvePlain types an unquoted scalar exactly as yaml.v2 (which Helm uses)
// does, so that `version: 1.10` means what Helm thinks it means.
// Timestamps stay strings: yaml.v2 keeps them as text when decoding into
// interface{}, which is what Helm does.
func resolvePlain(in string) scalar {
	if in == "" {
		return scalar{typ: nullType}
	}
	switch c := in[0]; {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if sc, ok := words[in]; ok {
			return sc
		}
		return resolveNumber(in)
	case c == '.':
		if sc, ok := words[in]; ok {
			return sc
		}
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return scalar{typ: floatType, s: in, f: f}
		}
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		if sc, ok := words[in]; ok {
			return sc
		}
	}
	return scalar{typ: strType, s: in}
}

func resolveNumber(in string) scalar {
	if !mayBeNumber(in) {
		return scalar{typ: strType, s: in}
	}
	plain := strings.ReplaceAll(in, "_", "")
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return scalar{typ: intType, s: in, i: i}
	}
	if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return scalar{typ: uintType, s: in, u: u}
	}
	if isYAMLFloat(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return scalar{typ: floatType, s: in, f: f}
		}
	}
	// yaml.v2 also reads "-0b101"; Go's ParseInt already took "0b101".
	if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return scalar{typ: intType, s: in, i: i}
		}
	}
	return scalar{typ: strType, s: in}
}

// mayBeNumber rules out, without the allocations of failed strconv calls,
// most strings that start with a digit but are no number, like versions.
func mayBeNumber(s string) bool {
	dots := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c == 'x', c == 'X', c == 'o', c == 'O', c == '_', c == '+', c == '-':
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return dots <= 1
}

// isYAMLFloat matches ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$,
// yaml.v2's float syntax, without a regexp.
func isYAMLFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// coerced is the string sigs.k8s.io/yaml substitutes for a number or bool
// decoded into a string field it can see (note the 32-bit float
// formatting: Helm reads `appVersion: 1.10` as "1.1"). ok is false for
// null, which leaves the field alone.
func (sc scalar) coerced() (s string, ok bool) {
	switch sc.typ {
	case strType:
		return sc.s, true
	case boolType:
		return strconv.FormatBool(sc.b), true
	case intType:
		return strconv.FormatInt(sc.i, 10), true
	case uintType:
		return strconv.FormatUint(sc.u, 10), true
	case floatType:
		return strconv.FormatFloat(sc.f, 'g', -1, 32), true
	}
	return "", false
}

// key is the string a scalar map key becomes on the way to JSON.
func (sc scalar) key() (string, bool) {
	if sc.typ == floatType {
		switch s := strconv.FormatFloat(sc.f, 'g', -1, 32); s {
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		case "NaN":
			return ".nan", true
		default:
			return s, true
		}
	}
	return sc.coerced()
}

// number is the value of a number or bool, for telling keys apart.
func (sc scalar) number() float64 {
	switch sc.typ {
	case boolType:
		if sc.b {
			return 1
		}
	case intType:
		return float64(sc.i)
	case uintType:
		return float64(sc.u)
	case floatType:
		return sc.f
	}
	return 0
}

// typeName names a scalar's type in error messages.
func (sc scalar) typeName() string {
	switch sc.typ {
	case nullType:
		return "null"
	case boolType:
		return "a boolean"
	case intType, uintType, floatType:
		return "a number"
	}
	return "a string"
}
