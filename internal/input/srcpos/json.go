package srcpos

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// ParseJSON parses a JSON document strictly (RFC 8259, as encoding/json
// accepts it, duplicate names allowed) and keeps the position of every key
// and value.
func ParseJSON(data []byte) (*Node, error) {
	if len(data) > MaxBytes {
		return nil, &Error{Pos: Pos{1, 1}, Msg: fmt.Sprintf("file is %d bytes, more than the %d bytes accepted", len(data), MaxBytes), Limit: true}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	p := &jsonParser{
		dec:   jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)),
		lines: newLineIndex(data),
		data:  data,
	}
	root, err := p.value(nil, 0)
	if err != nil {
		return nil, err
	}
	off := p.skipSpace(int(p.dec.InputOffset()))
	if _, err := p.dec.ReadToken(); !errors.Is(err, io.EOF) {
		return nil, &Error{Pos: p.lines.pos(off), Msg: "unexpected data after the top-level value"}
	}
	return root, nil
}

type jsonParser struct {
	dec   *jsontext.Decoder
	lines *lineIndex
	data  []byte
}

// skipSpace returns the offset of the next token start after off.
func (p *jsonParser) skipSpace(off int) int {
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

func (p *jsonParser) read() (jsontext.Token, Pos, error) {
	start := p.skipSpace(int(p.dec.InputOffset()))
	tok, err := p.dec.ReadToken()
	if err != nil {
		return tok, Pos{}, p.wrap(err, start)
	}
	return tok, p.lines.pos(start), nil
}

func (p *jsonParser) wrap(err error, start int) error {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		msg := se.Err.Error()
		if errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "unexpected end of file: a value, bracket or brace is missing"
		}
		msg = strings.TrimPrefix(msg, "jsontext: ")
		off := int(se.ByteOffset)
		if comma, ok := p.trailingComma(off); ok {
			return &Error{Pos: p.lines.pos(comma), Msg: "trailing comma: JSON allows no comma before a closing } or ]"}
		}
		return &Error{Pos: p.lines.pos(off), Msg: msg}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		if start >= len(p.data) && len(bytes.TrimSpace(p.data)) == 0 {
			return &Error{Pos: Pos{1, 1}, Msg: "empty file: expected a JSON value"}
		}
		return &Error{Pos: p.lines.pos(len(p.data)), Msg: "unexpected end of file: a value, bracket or brace is missing"}
	}
	return &Error{Pos: p.lines.pos(start), Msg: err.Error()}
}

func (p *jsonParser) value(parent *Node, depth int) (*Node, error) {
	tok, pos, err := p.read()
	if err != nil {
		return nil, err
	}
	return p.fromToken(tok, pos, parent, depth)
}

func (p *jsonParser) fromToken(tok jsontext.Token, pos Pos, parent *Node, depth int) (*Node, error) {
	n := &Node{Pos: pos, Parent: parent}
	switch tok.Kind() {
	case 'n':
		n.Kind = Null
	case 't', 'f':
		n.Kind, n.Text = Bool, tok.String()
	case '"':
		n.Kind, n.Text = String, tok.String()
	case '0':
		n.Kind, n.Text = Number, tok.String()
	case '[':
		if depth >= MaxDepth {
			return nil, &Error{Pos: pos, Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth), Limit: true}
		}
		n.Kind = Array
		for {
			tok, pos, err := p.read()
			if err != nil {
				return nil, err
			}
			if tok.Kind() == ']' {
				break
			}
			c, err := p.fromToken(tok, pos, n, depth+1)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, c)
		}
	case '{':
		if depth >= MaxDepth {
			return nil, &Error{Pos: pos, Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth), Limit: true}
		}
		n.Kind = Object
		for {
			tok, kpos, err := p.read()
			if err != nil {
				return nil, err
			}
			if tok.Kind() == '}' {
				break
			}
			key := tok.String()
			c, err := p.value(n, depth+1)
			if err != nil {
				return nil, err
			}
			c.Key, c.KeyPos = key, kpos
			n.Members = append(n.Members, c)
		}
	default:
		return nil, &Error{Pos: pos, Msg: "unexpected " + tok.Kind().String()}
	}
	return n, nil
}

// trailingComma recognises the most common hand-editing mistake, a comma
// before a closing bracket, around the offset of a syntax error, and
// returns the comma's offset.
func (p *jsonParser) trailingComma(off int) (int, bool) {
	if off >= len(p.data) {
		return 0, false
	}
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	switch p.data[off] {
	case ',':
		next := off + 1
		for next < len(p.data) && isSpace(p.data[next]) {
			next++
		}
		if next < len(p.data) && (p.data[next] == '}' || p.data[next] == ']') {
			return off, true
		}
	case '}', ']':
		prev := off - 1
		for prev >= 0 && isSpace(p.data[prev]) {
			prev--
		}
		if prev >= 0 && p.data[prev] == ',' {
			return prev, true
		}
	}
	return 0, false
}
