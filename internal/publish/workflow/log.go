package workflow

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Log is a job step's log as the runner reads it: catalogist's standard
// output and standard error, in whose lines the runner looks for workflow
// commands. It takes for one a line starting with "::" after white space,
// and the legacy form "##[name]" anywhere in a line, so a line quoting a
// catalog or a server could forge an annotation, mask words or stop the
// runner from reading catalogist's own commands. Each line that could be
// read as a command is therefore written between ::stop-commands::TOKEN and
// ::TOKEN::, with a fresh random TOKEN: the runner's documented way of
// printing text it must not read. Only catalogist's own commands, written
// with WriteCommand, are left for the runner to carry out.
//
// A guarded block never spans two writes, so that the runner, which reads
// standard output and standard error on threads of their own, finds each
// block whole on one stream; writes to the streams of one Log are one at a
// time, so that they keep their order when both go to one pipe (2>&1, as
// action.yml runs catalogist).
type Log struct {
	mu sync.Mutex
	// token returns a fresh stop token.
	token func() string
}

// NewLog returns the log of a step.
func NewLog() *Log { return &Log{token: randomToken} }

// randomToken is 128 random bits, in hexadecimal: text written before it
// was drawn cannot name it, and it is neither empty nor the name of a
// command, which the runner refuses as a token.
func randomToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Stream returns one of the step's output streams, writing to w.
func (l *Log) Stream(w io.Writer) *Stream { return &Stream{log: l, w: w} }

// Stream is standard output or standard error in a job step: text written
// to it is never read as a workflow command; commands are written with
// WriteCommand. It is safe for concurrent use.
type Stream struct {
	log *Log
	w   io.Writer
	// tail is the line begun and not ended yet: whether it needs a guard
	// shows only once it is whole.
	tail []byte
}

// maxTail bounds the line held back: a longer one is written as a line of
// its own.
const maxTail = 64 << 10

// Write writes text. Whole lines are written at once; the line begun is
// held until it ends, a command is written, or Flush.
func (s *Stream) Write(p []byte) (int, error) {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	s.tail = append(s.tail, p...)
	// Only p is searched: a long line written piece by piece costs no
	// more than written at once.
	end := bytes.LastIndexByte(p, '\n') + 1
	if end > 0 {
		end += len(s.tail) - len(p)
	}
	if end == 0 && len(s.tail) < maxTail {
		return len(p), nil
	}
	if end == 0 {
		s.tail = append(s.tail, '\n')
		end = len(s.tail)
	}
	_, err := s.w.Write(s.log.guard(s.tail[:end]))
	// After the write: what guard returns may be the tail itself.
	s.tail = append(s.tail[:0], s.tail[end:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteCommand writes one of catalogist's own workflow commands, a line
// that go-githubactions made (its data and properties escaped as the
// runner unescapes them), for the runner to carry out. A line of text
// begun is ended first: a command starts a line.
func (s *Stream) WriteCommand(line string) error {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	var out []byte
	if len(s.tail) > 0 {
		out = s.log.guard(append(s.tail, '\n'))
		s.tail = s.tail[:0]
	}
	out = append(out, line...)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		out = append(out, '\n')
	}
	_, err := s.w.Write(out)
	return err
}

// Flush writes the line begun, ending it.
func (s *Stream) Flush() error {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	if len(s.tail) == 0 {
		return nil
	}
	out := s.log.guard(append(s.tail, '\n'))
	s.tail = s.tail[:0]
	_, err := s.w.Write(out)
	return err
}

// guard returns whole lines of text as they are written: from the first
// line the runner could read as a command to the last, between a
// stop-commands and the resuming line.
func (l *Log) guard(lines []byte) []byte {
	first, last := -1, -1
	for i := 0; i < len(lines); {
		n := bytes.IndexByte(lines[i:], '\n') + 1
		if commandLike(lines[i : i+n]) {
			if first < 0 {
				first = i
			}
			last = i + n
		}
		i += n
	}
	if first < 0 {
		return lines
	}
	token := l.token()
	out := make([]byte, 0, len(lines)+2*len(token)+24)
	out = append(out, lines[:first]...)
	out = append(out, "::stop-commands::"+token+"\n"...)
	out = append(out, lines[first:last]...)
	out = append(out, "::"+token+"::\n"...)
	return append(out, lines[last:]...)
}

// commandLike reports whether the runner could read a line as a command,
// whatever state it is in: the line holds a number sign (the legacy
// ##[name] is read anywhere), or its first character that is neither white
// space nor one that .NET's culture-aware comparisons pass over is a colon
// (::name:: is read after leading white space). The runner also ends a
// line at a carriage return, so each part is judged as a line. Full-width
// and small forms of the two signs count as the signs.
func commandLike(line []byte) bool {
	start := true
	for len(line) > 0 {
		r, n := utf8.DecodeRune(line)
		line = line[n:]
		switch {
		case r == '#' || r == '＃' || r == '﹟':
			return true
		case r == '\r' || r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029':
			start = true
		case !start || passedOver(r):
		case r == ':' || r == '：' || r == '﹕' || r == '︓':
			return true
		default:
			start = false
		}
	}
	return false
}

// passedOver reports whether a character may be skipped before a command's
// "::": white space, which the runner trims, and the characters that
// comparisons ignore (controls, format characters, combining marks, the
// default ignorable ones).
func passedOver(r rune) bool {
	return r != utf8.RuneError && (unicode.IsSpace(r) || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Mn, unicode.Me,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector))
}

// commander is a writer that tells commands from text: a Stream.
type commander interface{ WriteCommand(line string) error }

// WriteCommand writes a workflow command line to w: as a command when w is
// a Stream, else as a line.
func WriteCommand(w io.Writer, line string) error {
	if c, ok := w.(commander); ok {
		return c.WriteCommand(line)
	}
	if len(line) == 0 || line[len(line)-1] != '\n' {
		line += "\n"
	}
	_, err := io.WriteString(w, line)
	return err
}

// commandWriter is w for a writer of commands, one or more whole lines per
// write (go-githubactions writes each command so).
type commandWriter struct{ w io.Writer }

func (c commandWriter) Write(p []byte) (int, error) {
	for line := range bytes.Lines(p) {
		if err := WriteCommand(c.w, string(line)); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
