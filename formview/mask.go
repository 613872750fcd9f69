// Package formview shows a computed configuration form to people: as a
// tree for a terminal, with secrets masked the way launches print them.
package formview

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogist/catalogist/launchcontext"
	"github.com/catalogist/catalogist/launcher"
	"github.com/catalogist/catalogist/schema"
)

// masked is what launcher.Values.Masked prints in place of a secret; asking
// it keeps one spelling.
var masked, _ = (&launcher.Values{Overrides: map[string]any{"password": "-"}}).Masked()["password"].(string)

// Mask returns a copy of d in which secrets are masked by the rule of
// launcher.Values.Masked, the one launches print values with: the values of
// options rendered as passwords, and of keys whose names say they hold a
// secret (token, password, secret, ...). An option pre-filled from such a
// context key (user.accessToken, s3.AWS_SECRET_ACCESS_KEY) is masked too,
// whatever its own name. A masked value quoted in a message is masked there
// too.
func Mask(d *schema.Description) *schema.Description {
	out := *d
	var secrets []string
	// A secret option's value shows in its own line and inside the values
	// of the groups and lists above it.
	var secretKeys [][]string
	for _, o := range d.Options {
		if secretOption(o) {
			secretKeys = append(secretKeys, o.Key)
		}
	}
	maskValue := func(key []string, v any) any {
		mv := copyPlain(v)
		for _, sk := range secretKeys {
			if len(sk) >= len(key) && slices.Equal(sk[:len(key)], key) {
				mv = maskKey(mv, sk[len(key):])
			}
		}
		if len(key) > 0 {
			mv = maskedUnder(key[len(key)-1], mv)
		} else {
			m, _ := mv.(map[string]any)
			mv = (&launcher.Values{Overrides: m}).Masked()
		}
		secrets = append(secrets, changed(v, mv)...)
		return mv
	}
	out.Values, _ = maskValue(nil, d.Values).(map[string]any)

	out.Options = make([]schema.DescribedOption, len(d.Options))
	for i, o := range d.Options {
		o.Value = maskValue(o.Key, o.Value)
		if o.Choices != nil {
			choices := make([]any, len(o.Choices))
			for j, c := range o.Choices {
				choices[j] = maskValue(o.Key, c)
			}
			o.Choices = choices
		}
		if o.Context != nil {
			c := *o.Context
			c.Value = maskValue(o.Key, c.Value)
			o.Context = &c
		}
		out.Options[i] = o
	}

	scrub := strings.NewReplacer(quotedForms(secrets)...)
	for i := range out.Options {
		o := &out.Options[i]
		o.DefaultRejected = scrub.Replace(o.DefaultRejected)
		if o.Context != nil {
			o.Context.Rejected = scrub.Replace(o.Context.Rejected)
		}
	}
	out.Failures = scrubProblems(d.Failures, scrub)
	out.Shapes = scrubProblems(d.Shapes, scrub)
	return &out
}

// secretOption reports whether an option's whole value is a secret: it is
// rendered as a password, or pre-filled from a context key whose name says
// it is one.
func secretOption(o schema.DescribedOption) bool {
	if o.Render == "password" {
		return true
	}
	if o.Context != nil {
		for _, p := range o.Context.Paths {
			segs := launchcontext.SplitPath(p)
			if name := segs[len(segs)-1]; maskedUnder(name, "-") != "-" {
				return true
			}
		}
	}
	return false
}

// maskedUnder masks v as Masked masks the value of a key of that name.
func maskedUnder(name string, v any) any {
	return (&launcher.Values{Overrides: map[string]any{name: v}}).Masked()[name]
}

// maskKey masks the value at key segments of v; an ItemsKey segment stands
// for every item of a list. Like Masked, it leaves null and "" as they are,
// so that an unset password still reads as unset.
func maskKey(v any, key []string) any {
	if len(key) == 0 {
		if v == nil || v == "" {
			return v
		}
		return masked
	}
	switch x := v.(type) {
	case map[string]any:
		if c, ok := x[key[0]]; ok {
			x[key[0]] = maskKey(c, key[1:])
		}
	case []any:
		if key[0] == schema.ItemsKey {
			for i, c := range x {
				x[i] = maskKey(c, key[1:])
			}
		}
	}
	return v
}

// changed lists the strings of orig that masking replaced.
func changed(orig, maskedV any) []string {
	switch o := orig.(type) {
	case string:
		if maskedV != o && o != "" {
			return []string{o}
		}
	case map[string]any:
		m, _ := maskedV.(map[string]any)
		var out []string
		for k, v := range o {
			out = append(out, changed(v, m[k])...)
		}
		return out
	case []any:
		m, _ := maskedV.([]any)
		var out []string
		for i, v := range o {
			if i < len(m) {
				out = append(out, changed(v, m[i])...)
			}
		}
		return out
	}
	return nil
}

// quotedForms returns replacement pairs for each secret as messages quote
// it (JSON and Go quoting), longest first so that a secret holding another
// is replaced whole.
func quotedForms(secrets []string) []string {
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	secrets = slices.Compact(secrets)
	var pairs []string
	for _, s := range secrets {
		j, _ := json.Marshal(s)
		pairs = append(pairs, string(j), strconv.Quote(masked))
		if q := strconv.Quote(s); q != string(j) {
			pairs = append(pairs, q, strconv.Quote(masked))
		}
	}
	return pairs
}

func scrubProblems(ps []schema.DescribedProblem, scrub *strings.Replacer) []schema.DescribedProblem {
	out := make([]schema.DescribedProblem, len(ps))
	for i, p := range ps {
		p.Message = scrub.Replace(p.Message)
		out[i] = p
	}
	return out
}

// copyPlain returns a deep copy of a JSON-shaped value, so that masking
// never writes into the description it was given.
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
