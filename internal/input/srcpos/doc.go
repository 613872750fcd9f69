// Package srcpos holds JSON and YAML documents parsed into one tree whose every
// key and value knows its line and column, so that findings can point at the
// exact place a user has to edit.
package srcpos

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Limits keep a hostile or broken file from exhausting memory or the stack.
const (
	// MaxBytes is the largest document read (a real values.schema.json is
	// under 100 KB; 16 MiB leaves room for generated ones).
	MaxBytes = 16 << 20
	// MaxDepth is the deepest nesting of arrays and objects accepted.
	MaxDepth = 256
)

// Kind is the JSON kind of a node.
type Kind uint8

// The kinds a node can have; YAML scalars are mapped onto the JSON ones.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// WithArticle returns the kind's name after "a" or "an".
func (k Kind) WithArticle() string {
	switch k {
	case Array, Object:
		return "an " + k.String()
	case Null:
		return "null"
	}
	return "a " + k.String()
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Pos is a 1-based line and column; columns count characters, not bytes.
type Pos struct {
	Line, Col int
}

// IsValid reports whether the position was set.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Node is one value of a document.
type Node struct {
	Kind Kind
	// Pos is where the value starts.
	Pos Pos
	// Key and KeyPos are the member name and its position when the node is
	// the value of an object member.
	Key    string
	KeyPos Pos
	// Text is the string value, or the literal of a number or boolean.
	Text string
	// Items are the elements of an array.
	Items []*Node
	// Members are the members of an object in document order. Duplicated
	// names are kept; Get returns the last one, as encoding/json does.
	Members []*Node
	Parent  *Node
}

// Get returns the value of member key, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i]
		}
	}
	return nil
}

// Show writes a scalar node as a message quotes it ("text", 3, true,
// null), and a list or mapping by its kind.
func (n *Node) Show() string {
	switch n.Kind {
	case String:
		return strconv.Quote(n.Text)
	case Number, Bool:
		return n.Text
	case Null:
		return "null"
	}
	return n.Kind.WithArticle()
}

// Bool reports the value of a boolean node.
func (n *Node) Bool() bool { return n != nil && n.Kind == Bool && n.Text == "true" }

// Float returns the value of a number node.
func (n *Node) Float() (float64, bool) {
	if n == nil || n.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.Text, 64)
	return f, err == nil
}

// Index returns the position of n among its parent's members or items.
func (n *Node) index() int {
	p := n.Parent
	if p == nil {
		return -1
	}
	list := p.Items
	if p.Kind == Object {
		list = p.Members
	}
	for i, c := range list {
		if c == n {
			return i
		}
	}
	return -1
}

// Pointer returns the RFC 6901 JSON pointer of n from the document root.
func (n *Node) Pointer() string {
	var toks []string
	for c := n; c != nil && c.Parent != nil; c = c.Parent {
		if c.Parent.Kind == Object {
			toks = append(toks, c.Key)
		} else {
			toks = append(toks, strconv.Itoa(c.index()))
		}
	}
	var b strings.Builder
	for i := len(toks) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(EscapePointer(toks[i]))
	}
	return b.String()
}

// EscapePointer escapes one JSON pointer reference token.
func EscapePointer(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

// Lookup follows a JSON pointer and returns the deepest node it reaches and
// whether the whole pointer resolved. Findings about a value that is absent
// can then point at its closest existing ancestor.
func (n *Node) Lookup(pointer string) (*Node, bool) {
	return n.LookupTokens(SplitPointer(pointer))
}

// LookupTokens is Lookup with already split reference tokens.
func (n *Node) LookupTokens(toks []string) (*Node, bool) {
	cur := n
	for _, t := range toks {
		var next *Node
		switch cur.Kind {
		case Object:
			next = cur.Get(t)
		case Array:
			if i, err := strconv.Atoi(t); err == nil && i >= 0 && i < len(cur.Items) {
				next = cur.Items[i]
			}
		}
		if next == nil {
			return cur, false
		}
		cur = next
	}
	return cur, true
}

// SplitPointer splits a JSON pointer ("" or "/a/b~1c") into unescaped tokens.
func SplitPointer(p string) []string {
	p = strings.TrimPrefix(p, "#")
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		if strings.Contains(s, "~") {
			parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
		}
	}
	return parts
}

// Value converts the node to plain Go values: map[string]any, []any,
// json.Number, string, bool and nil, the shapes jsonschema/v6 validates.
func (n *Node) Value() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Bool:
		return n.Text == "true"
	case Number:
		return json.Number(n.Text)
	case String:
		return n.Text
	case Array:
		out := make([]any, len(n.Items))
		for i, c := range n.Items {
			out[i] = c.Value()
		}
		return out
	case Object:
		out := make(map[string]any, len(n.Members))
		for _, c := range n.Members {
			out[c.Key] = c.Value()
		}
		return out
	}
	return nil
}

// Error is a parse error at a position of a file.
type Error struct {
	Pos Pos
	Msg string
	// Limit is true when the document exceeds MaxBytes or MaxDepth rather
	// than being malformed.
	Limit bool
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg) }

// lineIndex converts byte offsets to line and column. Parsers ask for
// offsets in increasing order, so it keeps a cursor and scans forward; a
// request behind the cursor restarts from the beginning of the document.
type lineIndex struct {
	data []byte
	off  int // cursor: byte offset
	line int // line of the cursor, 1-based
	col  int // column of the cursor, 1-based, in characters
}

func newLineIndex(data []byte) *lineIndex {
	return &lineIndex{data: data, line: 1, col: 1}
}

func (li *lineIndex) pos(off int) Pos {
	if off > len(li.data) {
		off = len(li.data)
	}
	if off < li.off {
		li.off, li.line, li.col = 0, 1, 1
	}
	for i := li.off; i < off; i++ {
		switch c := li.data[i]; {
		case c == '\n':
			li.line++
			li.col = 1
		case c&0xC0 != 0x80:
			// Count only the first byte of each UTF-8 sequence.
			li.col++
		}
	}
	li.off = off
	return Pos{Line: li.line, Col: li.col}
}
