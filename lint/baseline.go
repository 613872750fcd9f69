package lint

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"

	"github.com/catalogist/catalogist/internal/base/atomicfile"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// BaselineVersion is the version of the baseline file format WriteBaseline
// writes and ReadBaseline accepts.
const BaselineVersion = 1

// Baseline holds findings recorded on purpose, so that a run reports only
// the others. A finding is known by its rule, chart, option and message,
// never by its file, line or column (nor a line its message quotes):
// editing a file above a finding, or linting from another directory, does
// not make it new.
type Baseline struct {
	File   string
	counts map[baselineKey]int
}

type baselineKey struct {
	Rule, Chart, Option, Message string
}

func keyOf(f Finding) baselineKey {
	return baselineKey{f.Rule, f.Chart, f.Option, lineRef.ReplaceAllString(f.Message, "line N")}
}

// lineRef is a position a message quotes (duplicate-key names the line of
// the key's other occurrence): it moves with edits as the finding's own
// line does, so it is left out of the comparison too.
var lineRef = regexp.MustCompile(`\bline [0-9]+\b`)

// baselineEntry is one line of the file; Count is left out when 1.
type baselineEntry struct {
	Rule    string `json:"rule"`
	Chart   string `json:"chart"`
	Option  string `json:"option"`
	Message string `json:"message"`
	Count   int    `json:"count,omitempty"`
}

// NewBaseline returns a baseline of findings.
func NewBaseline(fs []Finding) *Baseline {
	b := &Baseline{counts: map[baselineKey]int{}}
	for _, f := range fs {
		b.counts[keyOf(f)]++
	}
	return b
}

// Len returns the number of findings the baseline holds.
func (b *Baseline) Len() int {
	n := 0
	for _, c := range b.counts {
		n += c
	}
	return n
}

// Filter removes from res the findings the baseline holds, each as many
// times as it was recorded: a finding recorded twice and found three times
// is reported once. It sets res.Baselined and returns how many recorded
// findings no longer occur, which a rewrite of the baseline would drop.
func (b *Baseline) Filter(res *Result) (stale int) {
	left := maps.Clone(b.counts)
	kept := res.Findings[:0]
	for _, f := range res.Findings {
		k := keyOf(f)
		if r := Lookup(f.Rule); r != nil && r.Locked {
			// Build refuses it whatever the baseline says; recorded, it
			// still occurs.
			if left[k] > 0 {
				left[k]--
			}
			kept = append(kept, f)
			continue
		}
		if left[k] > 0 {
			left[k]--
			res.Baselined++
			continue
		}
		kept = append(kept, f)
	}
	res.Findings = kept
	for _, c := range left {
		stale += c
	}
	return stale
}

// Encode renders the baseline: a JSON object with the format's version and
// its findings, sorted by chart, rule, option and message, one a line so
// that a change to the baseline reads as a short diff.
func (b *Baseline) Encode() []byte {
	entries := make([]baselineEntry, 0, len(b.counts))
	for k, c := range b.counts {
		e := baselineEntry{Rule: k.Rule, Chart: k.Chart, Option: k.Option, Message: k.Message}
		if c > 1 {
			e.Count = c
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b baselineEntry) int {
		return cmp.Or(cmp.Compare(a.Chart, b.Chart), cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Option, b.Option), cmp.Compare(a.Message, b.Message))
	})
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "{\n  \"version\": %d,\n  \"findings\": [", BaselineVersion)
	for i, e := range entries {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n    ")
		buf.Write(marshalLine(e))
	}
	if len(entries) > 0 {
		buf.WriteString("\n  ")
	}
	buf.WriteString("]\n}\n")
	return buf.Bytes()
}

// marshalLine encodes without HTML escaping, so that messages quoting
// "<", ">" or "&" stay readable in the file.
func marshalLine(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Strings and ints always encode.
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// WriteBaseline records findings in file. It writes a temporary file in
// the same directory and renames it into place, so that the file is never
// seen half-written.
func WriteBaseline(file string, fs []Finding) error {
	// A baseline is committed and shared: readable by all.
	if err := atomicfile.WriteBytes(file, 0o644, NewBaseline(fs).Encode()); err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	return nil
}

// ErrBaselineMissing is returned by ReadBaseline for a file that does not
// exist.
var ErrBaselineMissing = errors.New("baseline file does not exist")

// ReadBaseline reads a file WriteBaseline wrote. A file that is not one is
// an error naming the file, line and column.
func ReadBaseline(file string) (*Baseline, error) {
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", file, ErrBaselineMissing)
	}
	data, err := srcpos.ReadFile(file)
	if err != nil {
		return nil, err
	}
	b, err := parseBaseline(data)
	if err != nil {
		var de *srcpos.Error
		if errors.As(err, &de) {
			return nil, fmt.Errorf("%s:%d:%d: %s", file, de.Pos.Line, de.Pos.Col, de.Msg)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	b.File = file
	return b, nil
}

func parseBaseline(data []byte) (*Baseline, error) {
	root, err := srcpos.ParseJSON(data)
	if err != nil {
		var de *srcpos.Error
		if errors.As(err, &de) {
			return nil, &srcpos.Error{Pos: de.Pos, Msg: "not a baseline (invalid JSON): " + de.Msg}
		}
		return nil, err
	}
	const shape = `a baseline is {"version": 1, "findings": [...]}, as catalogist lint --write-baseline writes it`
	if root.Kind != srcpos.Object {
		return nil, &srcpos.Error{Pos: root.Pos, Msg: shape}
	}
	v := root.Get("version")
	if v == nil || v.Kind != srcpos.Number {
		return nil, &srcpos.Error{Pos: root.Pos, Msg: "no version: " + shape}
	}
	if v.Text != strconv.Itoa(BaselineVersion) {
		return nil, &srcpos.Error{Pos: v.Pos, Msg: fmt.Sprintf("baseline version %s is not one this catalogist reads (%d): write the baseline again with --write-baseline", v.Text, BaselineVersion)}
	}
	list := root.Get("findings")
	if list == nil || list.Kind != srcpos.Array {
		pos := root.Pos
		if list != nil {
			pos = list.Pos
		}
		return nil, &srcpos.Error{Pos: pos, Msg: "findings must be a list: " + shape}
	}
	for _, m := range root.Members {
		if m.Key != "version" && m.Key != "findings" {
			return nil, &srcpos.Error{Pos: m.KeyPos, Msg: fmt.Sprintf("unknown key %q: %s", m.Key, shape)}
		}
	}
	b := &Baseline{counts: map[baselineKey]int{}}
	for _, it := range list.Items {
		k, n, err := parseBaselineEntry(it)
		if err != nil {
			return nil, err
		}
		k.Message = lineRef.ReplaceAllString(k.Message, "line N")
		b.counts[k] += n
	}
	return b, nil
}

func parseBaselineEntry(n *srcpos.Node) (baselineKey, int, error) {
	var k baselineKey
	if n.Kind != srcpos.Object {
		return k, 0, &srcpos.Error{Pos: n.Pos, Msg: `each finding must be an object {"rule", "chart", "option", "message"}`}
	}
	count := 1
	err := srcpos.ReadFields(n, "unknown key %q in a finding",
		srcpos.Field{Key: "rule", Read: srcpos.Text(&k.Rule)},
		srcpos.Field{Key: "chart", Read: srcpos.Text(&k.Chart)},
		srcpos.Field{Key: "option", Read: srcpos.Text(&k.Option)},
		srcpos.Field{Key: "message", Read: srcpos.Text(&k.Message)},
		srcpos.Field{Key: "count", Read: func(m *srcpos.Node) error {
			c, err := strconv.Atoi(m.Text)
			if m.Kind != srcpos.Number || err != nil || c < 1 {
				return &srcpos.Error{Pos: m.Pos, Msg: "count must be a whole number of at least 1"}
			}
			count = c
			return nil
		}},
	)
	if err != nil {
		return k, 0, err
	}
	if k.Rule == "" || k.Message == "" {
		return k, 0, &srcpos.Error{Pos: n.Pos, Msg: "a finding needs at least a rule and a message"}
	}
	return k, count, nil
}
