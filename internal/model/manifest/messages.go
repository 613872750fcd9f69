package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// typeMessage says what a refused value is and what its field takes, in a
// chart maintainer's words: "spec.ports[0].port: a string ("80") where the
// API expects an integer". written is the scalar as the YAML text has it,
// when known, so that a "yes" read as a boolean is shown as written.
func typeMessage(e typeError, written string) string {
	got := describeValue(e.value, written)
	var msg string
	switch {
	case e.want == quantityType:
		msg = fmt.Sprintf("%s is not a quantity: write a number with an optional suffix, such as 500m, 2 or 1Gi", got)
	case e.want == timeType || e.want == microTimeType:
		msg = fmt.Sprintf("%s is not a time: write an RFC 3339 time such as 2006-01-02T15:04:05Z", got)
	case e.want == intOrStringType:
		msg = fmt.Sprintf("%s where the API expects an integer or a string", got)
	case e.want.Kind() == reflect.Slice && e.want.Elem().Kind() == reflect.Uint8 && e.detail != "":
		msg = fmt.Sprintf("%s is not base64 (%s): encode it (b64enc in a template)", got, e.detail)
		if strings.HasPrefix(string(e.path), "data[") || strings.Contains(string(e.path), "].data[") {
			msg += ", or give the plain text under stringData"
		}
	case e.detail != "":
		msg = fmt.Sprintf("%s is refused: %s", got, e.detail)
	default:
		msg = fmt.Sprintf("%s where the API expects %s", got, describeType(e.want))
		msg += typeHint(e.value, e.want)
	}
	return string(e.path) + ": " + msg
}

// typeHint suggests the usual fix for a value of the wrong scalar type,
// which in a chart comes from a template's quoting.
func typeHint(v any, want reflect.Type) string {
	k := want.Kind()
	for k == reflect.Pointer {
		want = want.Elem()
		k = want.Kind()
	}
	switch v := v.(type) {
	case string:
		if _, err := strconv.ParseInt(v, 10, 64); err == nil && isInt(k) || (v == "true" || v == "false") && k == reflect.Bool {
			return ": remove the quotes (or the template's quote function)"
		}
	case bool:
		if k == reflect.String {
			return ": quote it (in a template, with the quote function)"
		}
	case json.Number:
		switch {
		case k == reflect.String:
			return ": quote it (in a template, with the quote function)"
		case !isInt(k):
		case strings.ContainsAny(string(v), ".eE"):
			return ": write a whole number"
		default:
			return fmt.Sprintf(": it does not fit in %d bits", want.Bits())
		}
	}
	return ""
}

func isInt(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// describeValue names a JSON value: `a string ("80")`, `a number (1.5)`.
func describeValue(v any, written string) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("a string (%s)", quoteShort(v))
	case json.Number:
		return fmt.Sprintf("a number (%s)", shorten(pick(written, string(v))))
	case bool:
		return fmt.Sprintf("a boolean (%s)", shorten(pick(written, strconv.FormatBool(v))))
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return "null"
}

// describeType names what a field of Go type t takes.
func describeType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch k := t.Kind(); {
	case k == reflect.String:
		return "a string"
	case k == reflect.Bool:
		return "a boolean (true or false)"
	case isInt(k):
		return "an integer"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number"
	case k == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return "a base64-encoded string"
	case k == reflect.Slice || k == reflect.Array:
		return "a list"
	case k == reflect.Map || k == reflect.Struct:
		return "a mapping"
	}
	return "another type"
}

func pick(written, fallback string) string {
	if written != "" {
		return written
	}
	return fallback
}

// quoteShort quotes s, cut to a readable length.
func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return strconv.Quote(s)
}

func shorten(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
