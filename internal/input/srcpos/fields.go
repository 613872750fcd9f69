package srcpos

import (
	"fmt"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
)

// A Field is a key a mapping of a configuration file may hold, and how its
// value is read.
type Field struct {
	Key  string
	Read func(*Node) error
}

// ReadFields reads the members of the mapping n in the order they are
// written, each with the Read of its key, and stops at the first error. A
// key no field has is an error at the key: unknown says what it is, with
// one %q for the key ("unknown setting %q"), and the message goes on with
// the known keys and the closest one, when the key looks like a typo.
func ReadFields(n *Node, unknown string, fields ...Field) error {
	for _, m := range n.Members {
		i := indexOfKey(fields, m.Key)
		if i < 0 {
			return UnknownKey(m, unknown, fieldKeys(fields))
		}
		if err := fields[i].Read(m); err != nil {
			return err
		}
	}
	return nil
}

func indexOfKey(fields []Field, key string) int {
	for i, f := range fields {
		if f.Key == key {
			return i
		}
	}
	return -1
}

func fieldKeys(fields []Field) []string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Key
	}
	return keys
}

// UnknownKey is the error of a mapping key that is not among known, at the
// key: format holds one %q, the key; the known keys follow, and the
// closest one when the key looks like a typo.
func UnknownKey(m *Node, format string, known []string) error {
	msg := fmt.Sprintf(format+" (known: %s)", m.Key, strings.Join(known, ", "))
	if s := suggest.Closest(m.Key, known); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return &Error{Pos: m.KeyPos, Msg: msg}
}

// Text reads a string value into dst; another kind is an error at the
// value.
func Text(dst *string) func(*Node) error {
	return func(m *Node) error {
		if m.Kind != String {
			return &Error{Pos: m.Pos, Msg: fmt.Sprintf("%s must be a string, not %s", m.Key, m.Kind.WithArticle())}
		}
		*dst = m.Text
		return nil
	}
}
