// Package formview shows a computed configuration form to people: as a
// tree for a terminal, with secrets masked the way launches print them.
package formview

import (
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// masked is what a secret reads as.
const masked = secret.Mask

// Mask returns a copy of d in which secrets are masked by the rule launches
// print values with (secret.Set): the values of options rendered as
// passwords, and of keys whose names say they hold a secret (token,
// password, secret, ...). An option pre-filled from a secret of the launch
// context (user.accessToken, s3.AWS_SECRET_ACCESS_KEY, project.basic) is
// masked too, whatever its own name, and so is any value holding one of
// the secrets of context, the launch context the form was computed in
// (nil for none). A masked value quoted in a message is masked there too.
func Mask(d *schema.Description, context map[string]any) *schema.Description {
	out := *d
	sec := &secret.Set{}
	sec.AddContext(context)
	for _, o := range d.Options {
		if secretOption(o) {
			sec.AddPath(o.Key)
		}
	}
	// A secret option's value shows in its own line and inside the values
	// of the groups and lists above it: every place adds what it hides
	// before any is masked, so that messages lose them all.
	sec.AddValues(nil, d.Values)
	for _, o := range d.Options {
		sec.AddValues(o.Key, o.Value)
		for _, c := range o.Choices {
			sec.AddValues(o.Key, c)
		}
		if o.Context != nil {
			sec.AddValues(o.Key, o.Context.Value)
		}
	}
	out.Values, _ = sec.Mask(nil, d.Values).(map[string]any)

	out.Options = make([]schema.DescribedOption, len(d.Options))
	for i, o := range d.Options {
		o.Value = sec.Mask(o.Key, o.Value)
		if o.Choices != nil {
			choices := make([]any, len(o.Choices))
			for j, c := range o.Choices {
				choices[j] = sec.Mask(o.Key, c)
			}
			o.Choices = choices
		}
		o.DefaultRejected = sec.Scrub(o.DefaultRejected)
		if o.Context != nil {
			c := *o.Context
			c.Value = sec.Mask(o.Key, c.Value)
			c.Rejected = sec.Scrub(c.Rejected)
			o.Context = &c
		}
		out.Options[i] = o
	}
	out.Failures = scrubProblems(d.Failures, sec)
	out.Shapes = scrubProblems(d.Shapes, sec)
	return &out
}

// secretOption reports whether an option's whole value is a secret: it is
// rendered as a password, or pre-filled from a secret of the launch
// context.
func secretOption(o schema.DescribedOption) bool {
	if o.Render == "password" {
		return true
	}
	if o.Context != nil {
		for _, p := range o.Context.Paths {
			if secret.ContextPath(launchcontext.SplitPath(p)) {
				return true
			}
		}
	}
	return false
}

func scrubProblems(ps []schema.DescribedProblem, sec *secret.Set) []schema.DescribedProblem {
	out := make([]schema.DescribedProblem, len(ps))
	for i, p := range ps {
		p.Message = sec.Scrub(p.Message)
		out[i] = p
	}
	return out
}
