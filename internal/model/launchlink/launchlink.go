// Package launchlink holds the reference platform's launcher links: the
// address that opens a chart's launcher on the platform with values already
// set, written as its front end reads them (platform notes, section 10),
// and which of a form's changes such a link can carry.
//
// A link carries single values only, each as a query parameter whose key is
// the values path: `resources.limits.nvidia%5C.com/gpu=2`, `env[0].name=«x»`.
// The platform applies them over the values its own form computes, so a
// link holds the changes from the form's values, leaf by leaf; what it
// cannot carry (secrets, empty lists, a shortened list, a key the platform
// would read otherwise) is left out and named, never sent differently.
//
// templates/launchlink.js is the same code for the chart pages; the vectors
// of testdata/form/launchlink.json hold the two to the same links.
package launchlink

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/catalogist/catalogist/internal/base/secret"
)

// Target is the launcher a link opens: the platform's address
// (catalog.yaml's platformURL), the catalog's id there, and the chart and
// version.
type Target struct {
	URL, CatalogID, Chart, Version string
}

// An Entry is one value a link sets. Path holds string keys and int list
// indexes; Value is nil, a bool, a float64 or a string. Remove removes the
// key instead (the link's `-`).
type Entry struct {
	Path   []any
	Value  any
	Remove bool
}

// An Omission is a change a link leaves out: the values path, as --set
// writes it (SetKey), and why.
type Omission struct {
	Path   []any
	Key    string
	Reason string
}

// Why a change is left out of a link. The chart pages' script says the
// same, word for word.
const (
	ReasonSecret   = "a secret, which a link never carries: enter it on the platform"
	ReasonTopLevel = "a top-level value: the platform reads a parameter without a dot as its own, not as a value"
	ReasonKey      = "a key the platform would not read back: a link's keys are letters, digits and - _ ~ ! $ ( ) * , ; : @ / ."
	ReasonSignIn   = "a key under oidc-spa, whose parameters the platform keeps for its sign-in"
	ReasonQuote    = "a string holding », where the platform's reading of a string ends"
	ReasonEmpty    = "an empty list or mapping: a link carries single values only"
	ReasonShorter  = "a shorter list: a link sets items, it cannot remove them"
	ReasonMapping  = "a mapping in place of a list, which the platform cannot apply from a link"
	ReasonValue    = "a value a link cannot carry: text that is not UTF-8, or a number that is not finite"
)

// Secrets is the rule of the chart pages for what a link never carries: a
// value under a key named like a secret (secret.Named), at any depth, and
// the value of a password option or under one (their option keys, with
// secret.Each for the items of a list).
func Secrets(passwords [][]string) func(path []any, v any) bool {
	return func(path []any, _ any) bool {
		for _, s := range path {
			if k, ok := s.(string); ok && secret.Named(k) {
				return true
			}
		}
		for _, p := range passwords {
			if len(p) <= len(path) && under(p, path) {
				return true
			}
		}
		return false
	}
}

// under reports whether path starts with an option key.
func under(key []string, path []any) bool {
	for i, k := range key {
		switch s := path[i].(type) {
		case string:
			if s != k {
				return false
			}
		case int:
			if k != secret.Each {
				return false
			}
		}
	}
	return true
}

// Changes lists what a link sets to turn the form's values (defaults) into
// values, leaf by leaf, in the order of the keys (byte order) and indexes;
// and what it leaves out. secret says which values paths hold a secret
// (nil: none). Both documents are JSON-shaped: maps of string keys, []any,
// and nil, bool, float64 (or another number type) and string.
func Changes(defaults, values map[string]any, secret func(path []any, v any) bool) ([]Entry, []Omission) {
	d := &differ{secret: secret}
	d.object(nil, defaults, values)
	return d.entries, d.left
}

type differ struct {
	entries []Entry
	left    []Omission
	secret  func([]any, any) bool
}

func (d *differ) omit(path []any, reason string) {
	p := slices.Clone(path)
	d.left = append(d.left, Omission{Path: p, Key: SetKey(p), Reason: reason})
}

// at appends a segment to a copy of path.
func at(path []any, seg any) []any {
	return append(slices.Clip(path), seg)
}

// object compares two mappings key by key; a key of def that v lacks is
// removed.
func (d *differ) object(path []any, def, v map[string]any) {
	keys := make([]string, 0, len(def)+len(v))
	for k := range v {
		keys = append(keys, k)
	}
	for k := range def {
		if _, ok := v[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := at(path, k)
		dv, had := def[k]
		nv, has := v[k]
		switch {
		case !has:
			d.set(p, nil, true)
		case !had:
			d.leaves(p, nv)
		default:
			d.value(p, dv, nv)
		}
	}
}

// value compares the value at path.
func (d *differ) value(path []any, def, v any) {
	switch x := v.(type) {
	case map[string]any:
		switch dx := def.(type) {
		case map[string]any:
			d.object(path, dx, x)
		case []any:
			// The platform keeps a list where a key is set under it,
			// then fails to set the key.
			d.omit(path, ReasonMapping)
		default:
			d.leaves(path, x)
		}
	case []any:
		dx, ok := def.([]any)
		if !ok {
			d.leaves(path, x)
			return
		}
		for i, c := range x {
			if i < len(dx) {
				d.value(at(path, i), dx[i], c)
			} else {
				d.leaves(at(path, i), c)
			}
		}
		if len(x) < len(dx) {
			d.omit(path, ReasonShorter)
		}
	default:
		if !sameScalar(def, v) {
			d.set(path, v, false)
		}
	}
}

// leaves sets every single value of v, new at path.
func (d *differ) leaves(path []any, v any) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			d.omit(path, ReasonEmpty)
			return
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			d.leaves(at(path, k), x[k])
		}
	case []any:
		if len(x) == 0 {
			d.omit(path, ReasonEmpty)
			return
		}
		for i, c := range x {
			d.leaves(at(path, i), c)
		}
	default:
		d.set(path, v, false)
	}
}

// set adds one entry, or says why the link leaves it out.
func (d *differ) set(path []any, v any, remove bool) {
	if d.secret != nil && d.secret(path, v) {
		d.omit(path, ReasonSecret)
		return
	}
	if reason := keyProblem(path); reason != "" {
		d.omit(path, reason)
		return
	}
	if remove {
		d.entries = append(d.entries, Entry{Path: slices.Clone(path), Remove: true})
		return
	}
	v, ok := scalar(v)
	if !ok {
		d.omit(path, ReasonValue)
		return
	}
	if s, isStr := v.(string); isStr && strings.Contains(s, "»") {
		d.omit(path, ReasonQuote)
		return
	}
	d.entries = append(d.entries, Entry{Path: slices.Clone(path), Value: v})
}

// keyProblem says why the platform would not read a path back from its
// parameter's key, "" when it would.
func keyProblem(path []any) string {
	for _, s := range path {
		if k, ok := s.(string); ok && !keyText(k) {
			return ReasonKey
		}
	}
	key := ParamKey(path)
	if !strings.Contains(key, ".") {
		return ReasonTopLevel
	}
	if strings.HasPrefix(key, "oidc-spa.") {
		return ReasonSignIn
	}
	return ""
}

// keyText reports whether a key reaches the platform as written: the
// platform does not decode a parameter's key, and a browser percent-encodes
// what is not among these characters (or ', in a query); & = # % + [ ] \
// would cut or change the key.
func keyText(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_~!$()*,;:@/.", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// scalar is v as the link writes it: nil, a bool, a finite float64 or a
// UTF-8 string; false for anything else.
func scalar(v any) (any, bool) {
	switch x := v.(type) {
	case nil, bool:
		return x, true
	case string:
		return x, utf8.ValidString(x)
	}
	f, ok := number(v)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false
	}
	return f, true
}

// number reads the number types a values document may hold.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case uint32:
		return float64(x), true
	}
	return 0, false
}

// sameScalar is the platform's equality of two values, one of which is no
// list or mapping.
func sameScalar(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch a.(type) {
	case nil, bool, string:
		return a == b
	}
	return false
}

// Link is the launcher's address with the entries set, and autoLaunch
// false: the platform opens the form, it does not launch.
func (t Target) Link(entries []Entry) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(t.URL, "/"))
	b.WriteString("/launcher/")
	b.WriteString(EncodeURIComponent(t.CatalogID))
	b.WriteString("/")
	b.WriteString(EncodeURIComponent(t.Chart))
	b.WriteString("?")
	if t.Version != "" {
		b.WriteString("version=")
		b.WriteString(EncodeURIComponent(t.Version))
		b.WriteString("&")
	}
	b.WriteString("autoLaunch=false")
	for _, e := range entries {
		b.WriteString("&")
		b.WriteString(ParamKey(e.Path))
		b.WriteString("=")
		b.WriteString(ParamValue(e))
	}
	return b.String()
}

// ParamKey is a path as a parameter's key: keys joined with dots, a dot
// inside a key written %5C. and a list index [n] after its key.
func ParamKey(path []any) string {
	var b strings.Builder
	for _, s := range path {
		switch x := s.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(x) + "]")
		case string:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(strings.ReplaceAll(x, ".", "%5C."))
		}
	}
	return b.String()
}

// ParamValue is an entry's value as a parameter's: true, false, null, - for
// a removal, a number as JavaScript writes it, a string in guillemets.
func ParamValue(e Entry) string {
	if e.Remove {
		return "-"
	}
	switch x := e.Value.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return "«" + EncodeURIComponent(x) + "»"
	}
	f, _ := number(e.Value)
	return Number(f)
}

// SetKey names a path as --set does, for messages: keys joined with dots,
// a dot inside a key escaped, a list index [n].
func SetKey(path []any) string {
	var b strings.Builder
	for _, s := range path {
		switch x := s.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(x) + "]")
		case string:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(strings.ReplaceAll(x, ".", `\.`))
		}
	}
	return b.String()
}

// EncodeURIComponent is JavaScript's encodeURIComponent of a UTF-8 string:
// every byte but letters, digits and - _ . ! ~ * ' ( ) percent-encoded, in
// upper case.
func EncodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// Number writes a finite number as JavaScript's Number#toString does: the
// shortest digits that read back as the same number, in plain notation
// from 1e-6 up to 1e21 and as 1.5e+21 or 1e-7 beyond.
func Number(x float64) string {
	if x == 0 {
		return "0" // -0 too
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	e := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	pow, _ := strconv.Atoi(exp)
	k, n := len(digits), pow+1
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
	exps := strconv.Itoa(int(math.Abs(float64(n - 1))))
	if k == 1 {
		return sign + digits + "e" + es + exps
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + es + exps
}
