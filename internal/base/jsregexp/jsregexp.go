// Package jsregexp evaluates a JSON Schema pattern as the platform's form
// does: new RegExp(pattern).test(value), a JavaScript regular expression
// compiled without flags, on the value's UTF-16 code units. It also tells
// where Go's engine, which Helm validates values with, reads the same
// pattern otherwise.
//
// Matching is regexp2's ECMAScript mode; the syntax check in front of it
// refuses what JavaScript refuses and regexp2 reads as .NET syntax (inline
// flags, conditionals, atomic groups, comments).
package jsregexp

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// MatchTimeout bounds one match: a pattern with catastrophic backtracking
// on a value must not stop a lint run. JavaScript has no such bound; the
// platform's page freezes instead.
const MatchTimeout = 250 * time.Millisecond

// ErrSlow is returned by MatchString when a match took longer than
// MatchTimeout, or backtracked more than the engine allows.
var ErrSlow = errors.New("the match backtracks without end")

// SyntaxError is a pattern JavaScript refuses to compile: new RegExp
// throws, and the platform's form crashes where it evaluates it.
type SyntaxError struct {
	// Offset is the byte offset in the pattern where the problem is, -1
	// when unknown.
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	if e.Offset < 0 {
		return "invalid regular expression: " + e.Msg
	}
	return fmt.Sprintf("invalid regular expression at byte %d: %s", e.Offset, e.Msg)
}

// UnsupportedError is a pattern JavaScript compiles and this engine cannot
// (a repetition count beyond its limits): it is not evaluated.
type UnsupportedError struct{ Err error }

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("a valid JavaScript pattern this engine cannot evaluate: %v", e.Err)
}

func (e *UnsupportedError) Unwrap() error { return e.Err }

var hugeCount = regexp.MustCompile(`\{[0-9]*[0-9]{10}`)

// Regexp is a compiled pattern.
type Regexp struct {
	source string
	re     *regexp2.Regexp
}

// Compile compiles a pattern as new RegExp(pattern) does. The error is a
// *SyntaxError for a pattern JavaScript refuses, an *UnsupportedError for
// one it accepts and this engine cannot evaluate.
func Compile(pattern string) (*Regexp, error) {
	if err := check(pattern); err != nil {
		return nil, err
	}
	re, err := regexp2.Compile(codeUnits(pattern), regexp2.ECMAScript)
	if err != nil {
		var se *syntax.Error
		switch {
		case hugeCount.MatchString(pattern):
			// JavaScript takes counts up to 2^53; regexp2 up to 2^31.
			return nil, &UnsupportedError{Err: err}
		case errors.As(err, &se):
			return nil, &SyntaxError{Offset: -1, Msg: fmt.Sprintf(se.Code.String(), se.Args...)}
		}
		return nil, &UnsupportedError{Err: err}
	}
	re.MatchTimeout = MatchTimeout
	return &Regexp{source: pattern, re: re}, nil
}

// String returns the pattern as written.
func (r *Regexp) String() string { return r.source }

// MatchString reports whether the pattern matches somewhere in s, as
// RegExp.prototype.test does. The error is ErrSlow when the match was
// abandoned.
func (r *Regexp) MatchString(s string) (bool, error) {
	ok, err := r.re.MatchRunes(utf16Runes(s))
	if err != nil {
		return false, fmt.Errorf("%w (%v)", ErrSlow, err)
	}
	return ok, nil
}

// utf16Runes is s as the code units JavaScript holds it in, one rune each:
// without the u flag, a character outside the Basic Multilingual Plane is
// two characters to the pattern.
func utf16Runes(s string) []rune {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			out = append(out, hi, lo)
			continue
		}
		out = append(out, r)
	}
	return out
}

// codeUnits writes each character of the pattern outside the Basic
// Multilingual Plane as the two code units JavaScript reads it as, so that
// it matches the code units utf16Runes gives. An escaped one escapes its
// first code unit, as JavaScript reads it.
func codeUnits(p string) string {
	var b strings.Builder
	escaped := false
	for _, r := range p {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			if escaped {
				// "\" then the high surrogate: the identity escape of it.
				s := b.String()
				b.Reset()
				b.WriteString(s[:len(s)-1])
			}
			fmt.Fprintf(&b, `\u%04X\u%04X`, hi, lo)
			escaped = false
			continue
		}
		b.WriteRune(r)
		escaped = r == '\\' && !escaped
	}
	return b.String()
}
