package repoindex

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/base/atomicfile"
)

// Encode writes idx deterministically: entries sorted by chart name,
// versions newest first (SemVer; same order as Helm's SortEntries), maps
// with sorted keys; format "yaml" (or "") or "json". Same input, same
// bytes. idx is not modified.
//
// The keys are those of the JSON tags of Helm's types, omitempty
// respected, in alphabetical order as Helm's own writer puts them, so that
// Helm 3 and 4 clients read exactly idx back. Strings are written plain
// when YAML can only read them as that string, double-quoted (a JSON
// string, also valid YAML) otherwise.
func Encode(w io.Writer, idx *repo.IndexFile, format string) error {
	if idx == nil {
		return errors.New("encode index: no index")
	}
	sorted := sortedCopy(idx)
	switch format {
	case "", "yaml":
		e := emitter{w: w}
		e.index(sorted)
		return e.flush()
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(sorted); err != nil {
			return fmt.Errorf("encode index as JSON: %w", err)
		}
		return nil
	}
	return fmt.Errorf("encode index: unknown format %q: use yaml or json", format)
}

// sortedCopy returns idx with each chart's versions in a sorted copy of
// its slice, leaving the caller's slices in their order.
func sortedCopy(idx *repo.IndexFile) *repo.IndexFile {
	out := *idx
	if idx.Entries != nil {
		out.Entries = make(map[string]repo.ChartVersions, len(idx.Entries))
		for name, cvs := range idx.Entries {
			c := slices.Clone(cvs)
			sortVersions(c)
			out.Entries[name] = c
		}
	}
	return &out
}

// WriteFile encodes idx into a temporary file in the directory of path,
// then renames it to path, so that readers never see a half-written index
// and a failure leaves the previous one in place. The file has mode 0644.
func WriteFile(path string, idx *repo.IndexFile, format string) error {
	if err := atomicfile.Write(path, 0o644, func(w io.Writer) error { return Encode(w, idx, format) }); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// emitter writes YAML in the layout of Helm's writer: two-space indents,
// list items at the indent of their key.
type emitter struct {
	w      io.Writer
	buf    []byte
	err    error
	inline bool // the next key follows "- " on the current line
}

const flushSize = 64 << 10

func (e *emitter) flush() error {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
	return e.err
}

func (e *emitter) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// key starts the line "key:" at indent (or after a pending "- "). It
// reports whether the key had to be explicit ("? key"), which YAML
// requires past 1024 characters.
func (e *emitter) key(indent int, k string) (explicit bool) {
	if len(e.buf) >= flushSize {
		e.flush()
	}
	if e.inline {
		e.inline = false
	} else {
		e.buf = appendIndent(e.buf, indent)
	}
	start := len(e.buf)
	e.buf = appendString(e.buf, k)
	if len(e.buf)-start > maxImplicitKey {
		e.buf = append(e.buf[:start], "? "...)
		e.buf = appendString(e.buf, k)
		e.buf = append(e.buf, '\n')
		e.buf = appendIndent(e.buf, indent)
		explicit = true
	}
	e.buf = append(e.buf, ':')
	return explicit
}

const maxImplicitKey = 1000

// listIndent is where the items of a list under a key go: at the key's
// indent, as Helm writes them, except after an explicit key.
func listIndent(indent int, explicit bool) int {
	if explicit {
		return indent + 2
	}
	return indent
}

func appendIndent(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// item starts a list item at indent.
func (e *emitter) item(indent int) {
	if len(e.buf) >= flushSize {
		e.flush()
	}
	e.buf = appendIndent(e.buf, indent)
	e.buf = append(e.buf, '-')
}

// str writes " value\n" after a key or a dash.
func (e *emitter) str(s string) {
	e.buf = append(e.buf, ' ')
	e.buf = appendString(e.buf, s)
	e.buf = append(e.buf, '\n')
}

func (e *emitter) field(indent int, k, v string) {
	if v != "" {
		e.key(indent, k)
		e.str(v)
	}
}

func (e *emitter) boolField(indent int, k string, v bool) {
	if v {
		e.key(indent, k)
		e.buf = append(e.buf, " true\n"...)
	}
}

func (e *emitter) timeField(indent int, k string, t time.Time) {
	e.key(indent, k)
	// As time.Time.MarshalJSON, which refuses years it cannot write.
	if y := t.Year(); y < 0 || y > 9999 {
		e.fail(fmt.Errorf("%s: year %d is outside of 0 to 9999", k, y))
	}
	e.buf = append(e.buf, ` "`...)
	e.buf = t.AppendFormat(e.buf, time.RFC3339Nano)
	e.buf = append(e.buf, "\"\n"...)
}

// list writes a list of strings under a key; compact says whether its
// items may stay at the key's indent. omitEmpty follows the JSON tag.
func (e *emitter) list(indent int, k string, items []string, omitEmpty bool) {
	switch {
	case len(items) == 0 && omitEmpty:
		return
	case items == nil:
		e.key(indent, k)
		e.buf = append(e.buf, " null\n"...)
		return
	case len(items) == 0:
		e.key(indent, k)
		e.buf = append(e.buf, " []\n"...)
		return
	}
	at := listIndent(indent, e.key(indent, k))
	e.buf = append(e.buf, '\n')
	for _, s := range items {
		e.item(at)
		e.str(s)
	}
}

func (e *emitter) stringMap(indent int, k string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	e.key(indent, k)
	e.buf = append(e.buf, '\n')
	for _, name := range sortedNames(m) {
		e.key(indent+2, name)
		e.str(m[name])
	}
}

func (e *emitter) index(idx *repo.IndexFile) {
	e.stringMap(0, "annotations", idx.Annotations)
	e.key(0, "apiVersion")
	e.str(idx.APIVersion)
	e.key(0, "entries")
	switch {
	case idx.Entries == nil:
		e.buf = append(e.buf, " null\n"...)
	case len(idx.Entries) == 0:
		e.buf = append(e.buf, " {}\n"...)
	default:
		e.buf = append(e.buf, '\n')
		for _, name := range sortedNames(idx.Entries) {
			e.chartVersions(2, name, idx.Entries[name])
			if e.err != nil {
				e.err = fmt.Errorf("chart %q: %w", name, e.err)
				return
			}
		}
	}
	e.timeField(0, "generated", idx.Generated)
	e.list(0, "publicKeys", idx.PublicKeys, true)
	if len(idx.ServerInfo) > 0 {
		e.value(idx.ServerInfo, 2, listIndent(0, e.key(0, "serverInfo")), false)
	}
}

func (e *emitter) chartVersions(indent int, name string, cvs repo.ChartVersions) {
	at := listIndent(indent, e.key(indent, name))
	switch {
	case cvs == nil:
		e.buf = append(e.buf, " null\n"...)
		return
	case len(cvs) == 0:
		e.buf = append(e.buf, " []\n"...)
		return
	}
	e.buf = append(e.buf, '\n')
	for _, cv := range cvs {
		e.item(at)
		if cv == nil {
			e.buf = append(e.buf, " null\n"...)
			continue
		}
		e.buf = append(e.buf, ' ')
		e.inline = true
		e.chartVersion(at+2, cv)
		if e.err != nil {
			e.err = fmt.Errorf("version %q: %w", versionOf(cv), e.err)
			return
		}
	}
}

// chartVersion writes the fields of cv and of its chart.Metadata, merged
// in alphabetical order.
func (e *emitter) chartVersion(indent int, cv *repo.ChartVersion) {
	md := cv.Metadata
	if md == nil {
		md = &chart.Metadata{}
	}
	e.stringMap(indent, "annotations", md.Annotations)
	e.field(indent, "apiVersion", md.APIVersion)
	e.field(indent, "appVersion", md.AppVersion)
	e.field(indent, "checksum", cv.ChecksumDeprecated)
	e.field(indent, "condition", md.Condition)
	e.timeField(indent, "created", cv.Created)
	e.dependencies(indent, md.Dependencies)
	e.boolField(indent, "deprecated", md.Deprecated)
	e.field(indent, "description", md.Description)
	e.field(indent, "digest", cv.Digest)
	e.field(indent, "engine", cv.EngineDeprecated)
	e.field(indent, "home", md.Home)
	e.field(indent, "icon", md.Icon)
	e.list(indent, "keywords", md.Keywords, true)
	e.field(indent, "kubeVersion", md.KubeVersion)
	e.maintainers(indent, md.Maintainers)
	e.field(indent, "name", md.Name)
	e.boolField(indent, "removed", cv.Removed)
	e.list(indent, "sources", md.Sources, true)
	e.field(indent, "tags", md.Tags)
	e.field(indent, "tillerVersion", cv.TillerVersionDeprecated)
	e.field(indent, "type", md.Type)
	e.field(indent, "url", cv.URLDeprecated)
	e.list(indent, "urls", cv.URLs, false)
	e.field(indent, "version", md.Version)
}

func (e *emitter) maintainers(indent int, ms []*chart.Maintainer) {
	if len(ms) == 0 {
		return
	}
	e.key(indent, "maintainers")
	e.buf = append(e.buf, '\n')
	for _, m := range ms {
		e.item(indent)
		switch {
		case m == nil:
			e.buf = append(e.buf, " null\n"...)
		case *m == chart.Maintainer{}:
			e.buf = append(e.buf, " {}\n"...)
		default:
			e.buf = append(e.buf, ' ')
			e.inline = true
			e.field(indent+2, "email", m.Email)
			e.field(indent+2, "name", m.Name)
			e.field(indent+2, "url", m.URL)
		}
	}
}

func (e *emitter) dependencies(indent int, deps []*chart.Dependency) {
	if len(deps) == 0 {
		return
	}
	e.key(indent, "dependencies")
	e.buf = append(e.buf, '\n')
	for _, d := range deps {
		e.item(indent)
		if d == nil {
			e.buf = append(e.buf, " null\n"...)
			continue
		}
		e.buf = append(e.buf, ' ')
		e.inline = true
		in := indent + 2
		e.field(in, "alias", d.Alias)
		e.field(in, "condition", d.Condition)
		e.boolField(in, "enabled", d.Enabled)
		if len(d.ImportValues) > 0 {
			e.value(d.ImportValues, in+2, listIndent(in, e.key(in, "import-values")), false)
		}
		// name and repository have no omitempty.
		e.key(in, "name")
		e.str(d.Name)
		e.key(in, "repository")
		e.str(d.Repository)
		e.list(in, "tags", d.Tags, true)
		e.field(in, "version", d.Version)
	}
}

// value writes v, of the interface types Helm keeps (serverInfo,
// import-values), after "key:" or, when afterDash, after "-" on the
// current line. A mapping's keys go at child, a list's items at list.
// Types other than JSON's go through encoding/json first, as in Helm.
func (e *emitter) value(v any, child, list int, afterDash bool) {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, " null\n"...)
	case string:
		e.str(v)
	case bool:
		e.buf = append(e.buf, ' ')
		e.buf = strconv.AppendBool(e.buf, v)
		e.buf = append(e.buf, '\n')
	case float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, json.Number:
		e.number(v)
	case map[string]any:
		e.mapValue(v, child, afterDash)
	case []any:
		e.listValue(v, list)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			e.fail(err)
			return
		}
		var generic any
		if err := json.Unmarshal(b, &generic); err != nil {
			e.fail(err)
			return
		}
		e.value(generic, child, list, afterDash)
	}
}

func (e *emitter) number(v any) {
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		e.fail(fmt.Errorf("%v cannot be written: JSON has no such number", f))
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		e.fail(err)
		return
	}
	e.buf = append(e.buf, ' ')
	e.buf = append(e.buf, b...)
	e.buf = append(e.buf, '\n')
}

func (e *emitter) mapValue(m map[string]any, child int, afterDash bool) {
	switch {
	case m == nil:
		e.buf = append(e.buf, " null\n"...)
		return
	case len(m) == 0:
		e.buf = append(e.buf, " {}\n"...)
		return
	case afterDash:
		e.buf = append(e.buf, ' ')
		e.inline = true
	default:
		e.buf = append(e.buf, '\n')
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		explicit := e.key(child, k)
		e.value(m[k], child+2, listIndent(child, explicit), false)
	}
}

func (e *emitter) listValue(list []any, at int) {
	switch {
	case list == nil:
		e.buf = append(e.buf, " null\n"...)
		return
	case len(list) == 0:
		e.buf = append(e.buf, " []\n"...)
		return
	}
	e.buf = append(e.buf, '\n')
	for _, v := range list {
		e.item(at)
		e.value(v, at+2, at+2, true)
	}
}

// appendString appends s as a YAML scalar: plain when that is unambiguous,
// else as a JSON string, which YAML reads the same.
func appendString(b []byte, s string) []byte {
	if isPlainSafe(s) {
		return append(b, s...)
	}
	return appendQuoted(b, s)
}

// isPlainSafe reports whether s can be written unquoted and be read back
// as the same string by any YAML 1.1 or 1.2 parser. It is deliberately
// narrow: when in doubt, quote.
func isPlainSafe(s string) bool {
	if s == "" || len(s) > 512 || !isPlainStart(s[0]) || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == ':':
			if s[i+1] == ' ' {
				return false
			}
		case c == ' ':
			if s[i+1] == '#' || s[i+1] == ' ' {
				return false
			}
		case c < 0x80 && plainPunct[c]:
		default:
			return false
		}
	}
	if resolvePlain(s).typ != strType {
		return false
	}
	// Other parsers read more as non-strings: timestamps, base-60 numbers.
	if s[0] >= '0' && s[0] <= '9' {
		for i := 0; i < len(s); i++ {
			if s[i] == ':' || s[i] == '-' && i == 4 {
				return false
			}
		}
	}
	return true
}

func isPlainStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '_'
}

// plainPunct are the punctuation characters allowed after the first
// character of a plain scalar.
var plainPunct = func() (t [128]bool) {
	for _, c := range "-_./@+=~,;()%?&*!$^<>" {
		t[c] = true
	}
	return t
}()

// appendQuoted appends s as a double-quoted string that is both valid JSON
// and valid YAML, escaping what YAML would not read back verbatim.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < ' ' || c == 0x7f:
				b = appendUnicodeEscape(b, rune(c))
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = appendUnicodeEscape(b, utf8.RuneError) // as encoding/json does
		case !yamlPrintable(r):
			b = appendUnicodeEscape(b, r)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

func appendUnicodeEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
