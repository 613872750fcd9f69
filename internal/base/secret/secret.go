// Package secret holds what catalogist knows to be secret and keeps it out
// of everything it prints: values masked by their keys (options rendered as
// passwords, keys named like password, token or secret, the launch
// context's credentials), texts scrubbed of the secret strings themselves,
// in clear or encoded, and URLs stripped of their credentials. Launch, form
// and their messages all mask through a Set.
package secret

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Mask is printed in place of a secret.
const Mask = "********"

// Each is the key segment standing for every item of a list, as the schema
// package writes an array's items.
const Each = "[]"

// MinScrubbed is the length below which a secret is masked where its key
// says it is one but not searched for in texts: a three-letter string
// occurs in any text, and masking every occurrence would make messages
// unreadable without hiding anything.
const MinScrubbed = 4

var name = regexp.MustCompile(`(?i)pass(word|wd)?$|secret|token|credential(s)?$|private.?key`)

// Named reports whether a key's name says its value is a secret.
func Named(key string) bool { return name.MatchString(key) }

// contextPaths are the launch context's secrets whose names do not say so:
// project.basic is a base64 user:password, and an S3 access key id is half
// of a credential pair.
var contextPaths = [][]string{
	{"project", "basic"},
	{"s3", "AWS_ACCESS_KEY_ID"},
	{"s3_array", Each, "AWS_ACCESS_KEY_ID"},
}

// ContextPath reports whether a launch context path (its segments, as
// launchcontext.SplitPath gives them) holds a secret: its last segment is
// named like one, or it is one of the context's credentials.
func ContextPath(segs []string) bool {
	if len(segs) == 0 {
		return false
	}
	if Named(segs[len(segs)-1]) {
		return true
	}
	for _, p := range contextPaths {
		if len(p) != len(segs) {
			continue
		}
		match := true
		for i := range p {
			if p[i] != segs[i] && !(p[i] == Each && isIndex(segs[i])) {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func isIndex(s string) bool {
	if s == Each {
		return true
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// Set is what one command knows to be secret: the key paths of secret
// values (options rendered as passwords) and the secret strings, collected
// from the values and the launch context before anything is printed. The
// zero Set, and a nil one, know only the rule of names.
type Set struct {
	paths [][]string
	strs  map[string]bool
	// patterns are the forms the strings take in texts, longest first;
	// nil until a Scrub after an Add.
	patterns []string
}

// AddPath marks the value at key segments as a secret whatever its key's
// name; an Each segment stands for every item of a list.
func (s *Set) AddPath(key []string) {
	if len(key) > 0 {
		s.paths = append(s.paths, slices.Clone(key))
	}
}

// Add adds secret strings; empty ones are ignored.
func (s *Set) Add(strs ...string) {
	for _, str := range strs {
		if str == "" {
			continue
		}
		if s.strs == nil {
			s.strs = map[string]bool{}
		}
		if !s.strs[str] {
			s.strs[str] = true
			s.patterns = nil
		}
	}
}

// Strings returns the secret strings, sorted.
func (s *Set) Strings() []string {
	out := make([]string, 0, len(s.strs))
	for str := range s.strs {
		out = append(out, str)
	}
	slices.Sort(out)
	return out
}

// AddValues adds the strings that Mask would mask in v, the value at key
// segments (nil for a whole values document).
func (s *Set) AddValues(key []string, v any) {
	s.Add(removed(v, s.mask(key, copyPlain(v), false))...)
}

// AddContext adds the secrets of a launch context document: the values of
// its keys named like secrets, at any depth, and its credentials
// (ContextPath).
func (s *Set) AddContext(ctx map[string]any) {
	var walk func(path []string, v any)
	walk = func(path []string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(append(path, k), c)
			}
		case []any:
			for i, c := range x {
				walk(append(path, strconv.Itoa(i)), c)
			}
		case string:
			if ContextPath(path) {
				s.Add(x)
			}
		}
	}
	walk(nil, ctx)
}

// Mask returns a copy of v, the value at key segments (nil for a whole
// values document), with its secrets masked: the values at the Set's
// paths, the string values of keys named like secrets, and the strings
// that are one of its secret strings. A null or empty value stays as it is: it hides nothing,
// and an unset password still reads as unset. v is JSON-shaped (maps of
// string keys, lists, scalars); it is never written to.
func (s *Set) Mask(key []string, v any) any {
	return s.mask(key, copyPlain(v), true)
}

// mask masks c in place (returning it, or its replacement); strs says
// whether strings holding a known secret are masked too.
func (s *Set) mask(key []string, c any, strs bool) any {
	if s == nil {
		s = &Set{}
	}
	for _, p := range s.paths {
		if len(p) >= len(key) && prefixMatch(p[:len(key)], key) {
			c = maskPath(c, p[len(key):])
		}
	}
	if len(key) > 0 {
		c = maskedUnder(key[len(key)-1], c)
	} else {
		maskNamed(c)
	}
	if strs && len(s.strs) > 0 {
		c = s.maskHolding(c)
	}
	return c
}

// prefixMatch reports whether key matches a path's prefix, an Each segment
// matching a list index.
func prefixMatch(path, key []string) bool {
	for i := range path {
		if path[i] != key[i] && !(path[i] == Each && isIndex(key[i])) {
			return false
		}
	}
	return true
}

// maskPath masks the value at key segments of v.
func maskPath(v any, key []string) any {
	if len(key) == 0 {
		return maskWhole(v)
	}
	switch x := v.(type) {
	case map[string]any:
		if c, ok := x[key[0]]; ok {
			x[key[0]] = maskPath(c, key[1:])
		}
	case []any:
		if key[0] == Each {
			for i, c := range x {
				x[i] = maskPath(c, key[1:])
			}
		} else if i, err := strconv.Atoi(key[0]); err == nil && i >= 0 && i < len(x) {
			x[i] = maskPath(x[i], key[1:])
		}
	}
	return v
}

func maskWhole(v any) any {
	if v == nil || v == "" {
		return v
	}
	return Mask
}

// maskedUnder masks v as the value of a key of that name.
func maskedUnder(key string, v any) any {
	if str, ok := v.(string); ok && str != "" && Named(key) {
		return Mask
	}
	maskNamed(v)
	return v
}

// maskNamed masks, in place, the string values of keys named like secrets.
func maskNamed(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			x[k] = maskedUnder(k, c)
		}
	case []any:
		for _, c := range x {
			maskNamed(c)
		}
	}
}

// maskHolding masks the strings of v that are a secret string. One that
// holds a secret among other text is left to Scrub, which masks the secret
// alone: a password that is a common word ("example") would otherwise mask
// every host name holding it.
func (s *Set) maskHolding(v any) any {
	switch x := v.(type) {
	case string:
		if s.strs[x] {
			return Mask
		}
		return RedactURLs(x)
	case map[string]any:
		for k, c := range x {
			x[k] = s.maskHolding(c)
		}
	case []any:
		for i, c := range x {
			x[i] = s.maskHolding(c)
		}
	}
	return v
}

// removed lists the strings of orig that masking replaced.
func removed(orig, masked any) []string {
	switch o := orig.(type) {
	case string:
		if masked != o {
			return []string{o}
		}
	case map[string]any:
		m, _ := masked.(map[string]any)
		var out []string
		for k, v := range o {
			out = append(out, removed(v, m[k])...)
		}
		return out
	case []any:
		m, _ := masked.([]any)
		var out []string
		for i, v := range o {
			if i < len(m) {
				out = append(out, removed(v, m[i])...)
			}
		}
		return out
	}
	return nil
}

// copyPlain returns a deep copy of a JSON-shaped value.
func copyPlain(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			out[k] = copyPlain(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = copyPlain(c)
		}
		return out
	}
	return v
}

// Scrub returns text with every secret string masked, in each form a
// printed text may hold it: as given, line by line, quoted (JSON, Go),
// URL-escaped and base64-encoded (also inside a longer encoded string, such
// as a user:password pair), and with the credentials of its URLs removed.
// Overlapping matches are masked as one, so no part of a secret is left
// beside the mask; strings shorter than MinScrubbed are not searched for.
func (s *Set) Scrub(text string) string {
	return s.scrubStrings(RedactURLs(text))
}

func (s *Set) scrubStrings(text string) string {
	pats := s.forms()
	if len(pats) == 0 {
		return text
	}
	// Masking can join a mask and the text after it into another secret
	// (one that begins with asterisks), so masking repeats until none is
	// left. Each pass replaces at least one character other than an
	// asterisk, so it ends.
	for {
		out, changed := maskOnce(text, pats)
		if !changed {
			return out
		}
		text = out
	}
}

// maskOnce masks the union of every pattern's occurrences.
func maskOnce(text string, pats []string) (string, bool) {
	var spans [][2]int
	for _, p := range pats {
		for i := 0; i+len(p) <= len(text); {
			j := strings.Index(text[i:], p)
			if j < 0 {
				break
			}
			spans = append(spans, [2]int{i + j, i + j + len(p)})
			i += j + 1
		}
	}
	if len(spans) == 0 {
		return text, false
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for k := 0; k < len(spans); {
		start, end := spans[k][0], spans[k][1]
		for k++; k < len(spans) && spans[k][0] <= end; k++ {
			end = max(end, spans[k][1])
		}
		b.WriteString(text[last:start])
		b.WriteString(Mask)
		last = end
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// forms returns the patterns texts are searched for.
func (s *Set) forms() []string {
	if s == nil || s.patterns != nil || len(s.strs) == 0 {
		if s == nil {
			return nil
		}
		return s.patterns
	}
	seen := map[string]bool{}
	add := func(p string) {
		if len(p) >= MinScrubbed && strings.Trim(p, "*") != "" {
			seen[p] = true
		}
	}
	for str := range s.strs {
		if len(str) < MinScrubbed {
			continue
		}
		forms := []string{str}
		for _, line := range strings.Split(str, "\n") {
			forms = append(forms, strings.TrimSpace(line))
		}
		forms = append(forms, quotedInner(str)...)
		forms = append(forms, url.QueryEscape(str), url.PathEscape(str))
		for _, f := range forms {
			add(f)
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			add(enc.EncodeToString([]byte(str)))
			for _, core := range base64Cores(enc, []byte(str)) {
				add(core)
			}
		}
	}
	pats := make([]string, 0, len(seen))
	for p := range seen {
		pats = append(pats, p)
	}
	slices.SortFunc(pats, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	s.patterns = pats
	return pats
}

// quotedInner returns s as JSON and Go quote it, without the quotes.
func quotedInner(s string) []string {
	var out []string
	for _, html := range []bool{true, false} {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if enc.Encode(s) == nil {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(b.String()), `"`)[1:])
		}
	}
	q := strconv.Quote(s)
	out = append(out, q[1:len(q)-1])
	return out
}

// base64Cores returns, for each of the three alignments a string can have
// inside a longer one, the characters of its base64 encoding that depend
// on its bytes alone: what any encoding of a text holding it contains.
func base64Cores(enc *base64.Encoding, b []byte) []string {
	var out []string
	for off := range 3 {
		full := enc.EncodeToString(append(make([]byte, off), b...))
		// Character i carries bits 6i to 6i+6; keep those within the
		// string's bits 8*off to 8*(off+len(b)).
		from := (8*off + 5) / 6
		to := 8 * (off + len(b)) / 6
		if to-from >= MinScrubbed {
			out = append(out, full[from:to])
		}
	}
	return out
}

// Err returns err with its message scrubbed; errors.Is and errors.As still
// see err.
func (s *Set) Err(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := s.Scrub(msg); clean != msg {
		return &scrubbed{msg: clean, err: err}
	}
	return err
}

type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }
