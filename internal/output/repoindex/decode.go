package repoindex

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// fault is a problem at a line of the input.
type fault struct {
	file string
	line int32
	path string // where in the index, like entries.nginx[2].version
	msg  string
	err  error
	// syntax marks a YAML syntax error, whose line yaml.v3 may place at the
	// start of the enclosing block.
	syntax bool
}

func (f *fault) Error() string {
	var b strings.Builder
	b.WriteString(f.file)
	if f.line > 0 {
		b.WriteString(":" + strconv.Itoa(int(f.line)))
	}
	if f.path != "" {
		b.WriteString(": " + f.path)
	}
	b.WriteString(": " + f.msg)
	return b.String()
}

func (f *fault) Unwrap() error { return f.err }

// within prefixes the path of a fault coming from a value inside elem.
func within(err error, elem string) error {
	if f, ok := err.(*fault); ok {
		switch {
		case f.path == "":
			f.path = elem
		case f.path[0] == '[':
			f.path = elem + f.path
		default:
			f.path = elem + "." + f.path
		}
	}
	return err
}

// decoder fills Helm's types from a tree with the semantics Helm's loader
// (yaml.v2, then encoding/json, strict) gives the same YAML: the same
// values, the same fields accepted, case-insensitive keys included.
type decoder struct {
	t *tree
	// lines, when not nil, receives the line of each chart version.
	lines map[*repo.ChartVersion]int32
}

func (d *decoder) n(i int32) *node { return &d.t.nodes[i] }

func (d *decoder) fail(i int32, format string, args ...any) error {
	return &fault{line: d.n(i).line, msg: fmt.Sprintf(format, args...)}
}

// isNull reports whether i is a null scalar, which leaves a field alone
// (or empties a list or map) as JSON null does.
func (d *decoder) isNull(i int32) bool {
	n := d.n(i)
	return n.kind == scalarKind && n.style == plainStyle && resolvePlain(d.t.value(i)).typ == nullType
}

// describe names what a value is, for error messages.
func (d *decoder) describe(i int32) string {
	n := d.n(i)
	switch {
	case n.kind == mappingKind:
		return "a mapping"
	case n.kind == sequenceKind:
		return "a list"
	case n.style == stringStyle:
		return fmt.Sprintf("the string %q", d.t.value(i))
	}
	v := d.t.value(i)
	return fmt.Sprintf("%s (%s)", resolvePlain(v).typeName(), v)
}

func (d *decoder) wrongType(i int32, want string) error {
	n := d.n(i)
	msg := fmt.Sprintf("is %s but must be %s", d.describe(i), want)
	if n.kind == scalarKind && want == "a string" {
		msg += fmt.Sprintf("; quote it (%s) so that YAML reads it as text", strconv.Quote(d.t.value(i)))
	}
	return d.fail(i, "%s", msg)
}

// key returns a mapping key as the string yaml.v2 and JSON make of it.
func (d *decoder) key(i int32) (string, error) {
	s, _, err := d.keyID(i)
	return s, err
}

// keyID also returns the identity of the key in yaml.v2, which tells
// duplicates apart: yes and "true" are different keys there (a bool and a
// string) although both become "true".
func (d *decoder) keyID(i int32) (key, id string, err error) {
	n := d.n(i)
	if n.kind != scalarKind {
		return "", "", d.fail(i, "a key is %s; keys must be plain text", d.describe(i))
	}
	v := d.t.value(i)
	if n.style == stringStyle {
		return v, v, nil
	}
	sc := resolvePlain(v)
	s, ok := sc.key()
	if !ok {
		return "", "", d.fail(i, "a key is null (%q); quote it if it is meant as text", v)
	}
	if sc.typ == strType {
		return s, s, nil
	}
	// No YAML string holds the byte 0xff.
	return s, "\xff" + strconv.Itoa(int(sc.typ)) + strconv.FormatFloat(sc.number(), 'g', -1, 64), nil
}

// str decodes a string into dst. coerce says whether Helm's loader turns
// a number or bool into its text there: it does for the fields it sees
// directly (digest, urls...) but not for those of the embedded
// chart.Metadata, which it refuses.
func (d *decoder) str(i int32, coerce bool, dst *string) error {
	n := d.n(i)
	if n.kind != scalarKind {
		return d.wrongType(i, "a string")
	}
	v := d.t.value(i)
	if n.style == stringStyle {
		*dst = v
		return nil
	}
	sc := resolvePlain(v)
	switch {
	case sc.typ == strType:
		*dst = v
	case sc.typ == nullType:
	case coerce:
		*dst, _ = sc.coerced()
	default:
		return d.wrongType(i, "a string")
	}
	return nil
}

func (d *decoder) strings(i int32, coerce bool, dst *[]string) error {
	n := d.n(i)
	if d.isNull(i) {
		*dst = nil
		return nil
	}
	if n.kind != sequenceKind {
		return d.wrongType(i, "a list of strings")
	}
	list := make([]string, 0, d.count(i))
	for j, item := 0, n.first; item != 0; j, item = j+1, d.n(item).next {
		var s string
		if err := d.str(item, coerce, &s); err != nil {
			return within(err, "["+strconv.Itoa(j)+"]")
		}
		list = append(list, s)
	}
	*dst = list
	return nil
}

func (d *decoder) count(i int32) int {
	c := 0
	for j := d.n(i).first; j != 0; j = d.n(j).next {
		c++
	}
	return c
}

func (d *decoder) boolean(i int32, dst *bool) error {
	n := d.n(i)
	if n.kind == scalarKind && n.style == plainStyle {
		switch sc := resolvePlain(d.t.value(i)); sc.typ {
		case boolType:
			*dst = sc.b
			return nil
		case nullType:
			return nil
		}
	}
	return d.wrongType(i, "true or false")
}

func (d *decoder) time(i int32, dst *time.Time) error {
	n := d.n(i)
	if n.kind == scalarKind {
		sc := scalar{s: d.t.value(i)}
		if n.style == plainStyle {
			sc = resolvePlain(sc.s)
		}
		switch sc.typ {
		case nullType:
			return nil
		case strType:
			if err := dst.UnmarshalText([]byte(sc.s)); err == nil {
				return nil
			}
			return d.fail(i, "%q is not a time; write it as RFC 3339, like \"2006-01-02T15:04:05Z\"", sc.s)
		}
	}
	return d.wrongType(i, `a time (RFC 3339, like "2006-01-02T15:04:05Z")`)
}

// keySet detects duplicate keys, which yaml.v2 in strict mode refuses.
// Small mappings, the common case, need no allocation.
type keySet struct {
	small [8]string
	n     int
	big   map[string]struct{}
}

func (s *keySet) add(k string) (dup bool) {
	if s.big != nil {
		_, dup = s.big[k]
		s.big[k] = struct{}{}
		return dup
	}
	for _, x := range s.small[:s.n] {
		if x == k {
			return true
		}
	}
	if s.n < len(s.small) {
		s.small[s.n] = k
		s.n++
		return false
	}
	s.big = make(map[string]struct{}, 4*len(s.small))
	for _, x := range s.small {
		s.big[x] = struct{}{}
	}
	s.big[k] = struct{}{}
	return false
}

// fieldSet detects duplicate keys of a struct: a bit per field for keys
// spelled as the field's JSON name, a list for other spellings.
type fieldSet struct {
	exact uint64
	other keySet
}

func (s *fieldSet) add(k string, f int, exact bool) (dup bool) {
	if !exact {
		return s.other.add(k)
	}
	dup = s.exact&(1<<f) != 0
	s.exact |= 1 << f
	return dup
}

// fields maps JSON field names to small integers.
type fields struct {
	names []string
	index map[string]int
}

func newFields(names ...string) fields {
	f := fields{names: names, index: make(map[string]int, len(names))}
	for i, n := range names {
		f.index[n] = i
	}
	return f
}

// lookup finds the field for key as encoding/json does: the exact name,
// else a case-insensitive match.
func (f fields) lookup(key string) (i int, exact bool) {
	if i, ok := f.index[key]; ok {
		return i, true
	}
	for i, n := range f.names {
		if strings.EqualFold(n, key) {
			return i, false
		}
	}
	return -1, false
}

// forFields decodes the struct fields of mapping m with set, reporting
// unknown and duplicate keys. what names the struct in messages.
func (d *decoder) forFields(m int32, fs fields, what string, set func(f, v int32) error) error {
	if d.n(m).kind != mappingKind {
		return d.wrongType(m, "a mapping ("+what+")")
	}
	var seen fieldSet
	for k := d.n(m).first; k != 0; {
		v := d.n(k).next
		name, err := d.key(k)
		if err != nil {
			return err
		}
		f, exact := fs.lookup(name)
		if f < 0 {
			return within(d.fail(k, "unknown field %q in %s; Helm refuses unknown fields: remove it or fix its spelling (known: %s)",
				name, what, strings.Join(fs.names, ", ")), name)
		}
		if seen.add(name, f, exact) {
			return within(d.fail(k, "%q is set twice in %s; keep one", name, what), name)
		}
		if err := set(int32(f), v); err != nil {
			return within(err, name)
		}
		k = d.n(v).next
	}
	return nil
}

// forPairs calls set for each key and value of mapping m (a Go map),
// refusing duplicate keys.
func (d *decoder) forPairs(m int32, set func(key string, v int32) error) error {
	var seen keySet
	for k := d.n(m).first; k != 0; {
		v := d.n(k).next
		key, id, err := d.keyID(k)
		if err != nil {
			return err
		}
		if seen.add(id) {
			return d.fail(k, "key %q is set twice; keep one", key)
		}
		if err := set(key, v); err != nil {
			return within(err, key)
		}
		k = d.n(v).next
	}
	return nil
}

var indexFields = newFields("serverInfo", "apiVersion", "generated", "entries", "publicKeys", "annotations")

const (
	ixServerInfo = iota
	ixAPIVersion
	ixGenerated
	ixEntries
	ixPublicKeys
	ixAnnotations
)

// index decodes the document root.
func (d *decoder) index(root int32) (*repo.IndexFile, int32, error) {
	idx := &repo.IndexFile{}
	apiLine := int32(0)
	err := d.forFields(root, indexFields, "the index", func(f, v int32) error {
		switch f {
		case ixServerInfo:
			return d.anyMap(v, &idx.ServerInfo)
		case ixAPIVersion:
			apiLine = d.n(v).line
			return d.str(v, true, &idx.APIVersion)
		case ixGenerated:
			return d.time(v, &idx.Generated)
		case ixEntries:
			return d.entries(v, &idx.Entries)
		case ixPublicKeys:
			return d.strings(v, true, &idx.PublicKeys)
		default:
			return d.stringMap(v, coerceAll, &idx.Annotations)
		}
	})
	return idx, apiLine, err
}

func (d *decoder) entries(i int32, dst *map[string]repo.ChartVersions) error {
	if d.isNull(i) {
		*dst = nil
		return nil
	}
	if d.n(i).kind != mappingKind {
		return d.wrongType(i, "a mapping of chart names to lists of versions")
	}
	if *dst == nil {
		*dst = make(map[string]repo.ChartVersions, d.count(i)/2)
	}
	m := *dst
	return d.forPairs(i, func(name string, v int32) error {
		cvs, err := d.chartVersions(v)
		m[name] = cvs
		return err
	})
}

func (d *decoder) chartVersions(i int32) (repo.ChartVersions, error) {
	if d.isNull(i) {
		return nil, nil
	}
	if d.n(i).kind != sequenceKind {
		return nil, d.wrongType(i, "a list of chart versions")
	}
	cvs := make(repo.ChartVersions, 0, d.count(i))
	for j, item := 0, d.n(i).first; item != 0; j, item = j+1, d.n(item).next {
		var cv *repo.ChartVersion
		if n := d.n(item); n.kind == decodedKind {
			v := d.t.versions[n.start]
			if v.err != nil {
				return nil, within(v.err, "["+strconv.Itoa(j)+"]")
			}
			cv = v.cv
		} else if !d.isNull(item) {
			var err error
			if cv, err = d.chartVersion(item); err != nil {
				return nil, within(err, "["+strconv.Itoa(j)+"]")
			}
		}
		if d.lines != nil && cv != nil {
			d.lines[cv] = d.n(item).line
		}
		cvs = append(cvs, cv)
	}
	return cvs, nil
}

var chartVersionFields = newFields(
	// chart.Metadata, embedded.
	"name", "home", "sources", "version", "description", "keywords", "maintainers", "icon", "apiVersion",
	"condition", "tags", "appVersion", "deprecated", "annotations", "kubeVersion", "dependencies", "type",
	// repo.ChartVersion.
	"urls", "created", "removed", "digest", "checksum", "engine", "tillerVersion", "url",
)

const (
	mdName = iota
	mdHome
	mdSources
	mdVersion
	mdDescription
	mdKeywords
	mdMaintainers
	mdIcon
	mdAPIVersion
	mdCondition
	mdTags
	mdAppVersion
	mdDeprecated
	mdAnnotations
	mdKubeVersion
	mdDependencies
	mdType
	cvURLs
	cvCreated
	cvRemoved
	cvDigest
	cvChecksum
	cvEngine
	cvTillerVersion
	cvURL
)

func (d *decoder) chartVersion(i int32) (*repo.ChartVersion, error) {
	cv := &repo.ChartVersion{}
	err := d.forFields(i, chartVersionFields, "a chart version", func(f, v int32) error {
		if f < cvURLs && cv.Metadata == nil {
			cv.Metadata = &chart.Metadata{}
		}
		return d.chartVersionField(cv, f, v)
	})
	return cv, err
}

func (d *decoder) chartVersionField(cv *repo.ChartVersion, f, v int32) error {
	md := cv.Metadata
	switch f {
	case mdName:
		return d.str(v, false, &md.Name)
	case mdHome:
		return d.str(v, false, &md.Home)
	case mdSources:
		return d.strings(v, false, &md.Sources)
	case mdVersion:
		return d.str(v, false, &md.Version)
	case mdDescription:
		return d.str(v, false, &md.Description)
	case mdKeywords:
		return d.strings(v, false, &md.Keywords)
	case mdMaintainers:
		return d.maintainers(v, &md.Maintainers)
	case mdIcon:
		return d.str(v, false, &md.Icon)
	case mdAPIVersion:
		return d.str(v, false, &md.APIVersion)
	case mdCondition:
		return d.str(v, false, &md.Condition)
	case mdTags:
		return d.str(v, false, &md.Tags)
	case mdAppVersion:
		return d.str(v, false, &md.AppVersion)
	case mdDeprecated:
		return d.boolean(v, &md.Deprecated)
	case mdAnnotations:
		return d.stringMap(v, coerceMetadataNames, &md.Annotations)
	case mdKubeVersion:
		return d.str(v, false, &md.KubeVersion)
	case mdDependencies:
		return d.dependencies(v, &md.Dependencies)
	case mdType:
		return d.str(v, false, &md.Type)
	case cvURLs:
		return d.strings(v, true, &cv.URLs)
	case cvCreated:
		return d.time(v, &cv.Created)
	case cvRemoved:
		return d.boolean(v, &cv.Removed)
	case cvDigest:
		return d.str(v, true, &cv.Digest)
	case cvChecksum:
		return d.str(v, true, &cv.ChecksumDeprecated)
	case cvEngine:
		return d.str(v, true, &cv.EngineDeprecated)
	case cvTillerVersion:
		return d.str(v, true, &cv.TillerVersionDeprecated)
	default:
		return d.str(v, true, &cv.URLDeprecated)
	}
}

// coercion says which values of a string map Helm's loader turns from
// numbers or bools into text.
type coercion uint8

const (
	coerceAll coercion = iota
	// In a chart's annotations, only under keys that happen to name a
	// string field of chart.Metadata: sigs.k8s.io/yaml looks the keys up
	// in the struct the map is embedded in.
	coerceMetadataNames
)

func (c coercion) applies(key string) bool {
	if c == coerceAll {
		return true
	}
	f, _ := chartVersionFields.lookup(key)
	switch f {
	case mdName, mdHome, mdVersion, mdDescription, mdIcon, mdAPIVersion, mdCondition, mdTags, mdAppVersion, mdKubeVersion, mdType:
		return true
	}
	return false
}

func (d *decoder) stringMap(i int32, c coercion, dst *map[string]string) error {
	if d.isNull(i) {
		*dst = nil
		return nil
	}
	if d.n(i).kind != mappingKind {
		return d.wrongType(i, "a mapping of strings")
	}
	if *dst == nil {
		*dst = make(map[string]string, d.count(i)/2)
	}
	m := *dst
	return d.forPairs(i, func(key string, v int32) error {
		var s string
		err := d.str(v, c.applies(key), &s)
		m[key] = s // JSON null sets the key to ""
		return err
	})
}

var maintainerFields = newFields("name", "email", "url")

func (d *decoder) maintainers(i int32, dst *[]*chart.Maintainer) error {
	return decodeList(d, i, dst, "maintainers", func(item int32) (*chart.Maintainer, error) {
		m := &chart.Maintainer{}
		return m, d.forFields(item, maintainerFields, "a maintainer", func(f, v int32) error {
			switch f {
			case 0:
				return d.str(v, false, &m.Name)
			case 1:
				return d.str(v, false, &m.Email)
			default:
				return d.str(v, false, &m.URL)
			}
		})
	})
}

var dependencyFields = newFields("name", "version", "repository", "condition", "tags", "enabled", "import-values", "alias")

func (d *decoder) dependencies(i int32, dst *[]*chart.Dependency) error {
	return decodeList(d, i, dst, "dependencies", func(item int32) (*chart.Dependency, error) {
		dep := &chart.Dependency{}
		return dep, d.forFields(item, dependencyFields, "a dependency", func(f, v int32) error {
			switch f {
			case 0:
				return d.str(v, false, &dep.Name)
			case 1:
				return d.str(v, false, &dep.Version)
			case 2:
				return d.str(v, false, &dep.Repository)
			case 3:
				return d.str(v, false, &dep.Condition)
			case 4:
				return d.strings(v, false, &dep.Tags)
			case 5:
				return d.boolean(v, &dep.Enabled)
			case 6:
				return d.anyList(v, &dep.ImportValues)
			default:
				return d.str(v, false, &dep.Alias)
			}
		})
	})
}

// decodeList decodes a list of struct pointers; null items stay nil.
func decodeList[T any](d *decoder, i int32, dst *[]*T, what string, item func(int32) (*T, error)) error {
	if d.isNull(i) {
		*dst = nil
		return nil
	}
	if d.n(i).kind != sequenceKind {
		return d.wrongType(i, "a list ("+what+")")
	}
	list := make([]*T, 0, d.count(i))
	for j, it := 0, d.n(i).first; it != 0; j, it = j+1, d.n(it).next {
		var v *T
		if !d.isNull(it) {
			var err error
			if v, err = item(it); err != nil {
				return within(err, "["+strconv.Itoa(j)+"]")
			}
		}
		list = append(list, v)
	}
	*dst = list
	return nil
}

func (d *decoder) anyList(i int32, dst *[]any) error {
	if d.isNull(i) {
		*dst = nil
		return nil
	}
	if d.n(i).kind != sequenceKind {
		return d.wrongType(i, "a list")
	}
	v, err := d.anyValue(i)
	if err == nil {
		*dst = v.([]any)
	}
	return err
}

func (d *decoder) anyMap(i int32, dst *map[string]any) error {
	if d.isNull(i) {
		*dst = nil
		return nil
	}
	if d.n(i).kind != mappingKind {
		return d.wrongType(i, "a mapping")
	}
	if *dst == nil {
		*dst = make(map[string]any, d.count(i)/2)
	}
	m := *dst
	return d.forPairs(i, func(key string, v int32) error {
		x, err := d.anyValue(v)
		m[key] = x
		return err
	})
}

// anyValue decodes a value of unknown type as JSON would after the trip
// through JSON Helm's loader makes: numbers become float64.
func (d *decoder) anyValue(i int32) (any, error) {
	n := d.n(i)
	switch n.kind {
	case mappingKind:
		var m map[string]any
		return m, d.anyMap(i, &m)
	case sequenceKind:
		list := make([]any, 0, d.count(i))
		for j, it := 0, n.first; it != 0; j, it = j+1, d.n(it).next {
			v, err := d.anyValue(it)
			if err != nil {
				return nil, within(err, "["+strconv.Itoa(j)+"]")
			}
			list = append(list, v)
		}
		return list, nil
	}
	v := d.t.value(i)
	if n.style == stringStyle {
		return v, nil
	}
	switch sc := resolvePlain(v); sc.typ {
	case nullType:
		return nil, nil
	case boolType:
		return sc.b, nil
	case intType:
		return float64(sc.i), nil
	case uintType:
		return float64(sc.u), nil
	case floatType:
		if math.IsInf(sc.f, 0) || math.IsNaN(sc.f) {
			return nil, d.fail(i, "%s is not a number JSON can hold; quote it", v)
		}
		return sc.f, nil
	}
	return v, nil
}
