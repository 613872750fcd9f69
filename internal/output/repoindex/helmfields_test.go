package repoindex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// The decoder and the encoder name the fields of Helm's index types by
// hand. These tests tie them to the json tags of Helm's types, so that a
// field a new Helm release adds fails here, instead of making Read refuse
// the indexes that have it (Helm's loader is strict, and so is Read) and
// Encode drop it from every index that --merge writes.

// helmField is a field of one of Helm's types, as encoding/json sees it.
type helmField struct {
	key  string // its JSON key
	name string // its Go name, with the type that declares it
}

// jsonFields returns the fields that encoding/json reads and writes in
// struct type t, those of embedded structs included.
func jsonFields(t reflect.Type) []helmField {
	var out []helmField
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		key, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && key == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, jsonFields(ft)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if key == "" {
			key = f.Name
		}
		out = append(out, helmField{key: key, name: helmName(t) + "." + f.Name})
	}
	return out
}

// helmName names a type as Helm's code imports it.
func helmName(t reflect.Type) string {
	switch t.PkgPath() {
	case reflect.TypeFor[chart.Metadata]().PkgPath():
		return "chart." + t.Name()
	case reflect.TypeFor[repo.IndexFile]().PkgPath():
		return "repo." + t.Name()
	}
	return t.String()
}

// compareKeys returns the fields of helm whose keys ours lacks, and the
// keys of ours that helm lacks.
func compareKeys(helm []helmField, ours []string) (missing []helmField, extra []string) {
	for _, f := range helm {
		if !slices.Contains(ours, f.key) {
			missing = append(missing, f)
		}
	}
	for _, key := range ours {
		if !slices.ContainsFunc(helm, func(f helmField) bool { return f.key == key }) {
			extra = append(extra, key)
		}
	}
	return missing, extra
}

// helmTypes are Helm's types that the index holds, with the decoder's
// list of their keys and where the encoder writes them.
var helmTypes = []struct {
	typ     reflect.Type
	list    string // the decoder's list, in decode.go
	fields  fields
	emitter string // the method of emitter that writes the type, in encode.go
}{
	{reflect.TypeFor[repo.IndexFile](), "indexFields", indexFields, "index"},
	{reflect.TypeFor[repo.ChartVersion](), "chartVersionFields", chartVersionFields, "chartVersion"},
	{reflect.TypeFor[chart.Maintainer](), "maintainerFields", maintainerFields, "maintainers"},
	{reflect.TypeFor[chart.Dependency](), "dependencyFields", dependencyFields, "dependencies"},
}

func TestDecoderKnowsHelmFields(t *testing.T) {
	for _, ht := range helmTypes {
		missing, extra := compareKeys(jsonFields(ht.typ), ht.fields.names)
		for _, f := range missing {
			t.Errorf("Helm's %s (key %q) is missing from %s in decode.go, so Read refuses an index that has it and --merge cannot keep it: "+
				"add %q to %s and decode it in the decoder, write it in emitter.%s in encode.go, and copy it in cloneVersion in merge.go if it holds a list, a map or a pointer",
				f.name, f.key, ht.list, f.key, ht.list, ht.emitter)
		}
		for _, key := range extra {
			t.Errorf("%s in decode.go has %q, which Helm's %s does not have, so Helm's loader refuses an index with that key: remove it from %s and from emitter.%s in encode.go",
				ht.list, key, helmName(ht.typ), ht.list, ht.emitter)
		}
	}
}

// TestJSONFieldsAreEncodingJSONs checks jsonFields, which the tests above
// rely on, against encoding/json: the keys it finds are those that
// encoding/json writes for a value with every field set.
func TestJSONFieldsAreEncodingJSONs(t *testing.T) {
	for _, ht := range helmTypes {
		v := reflect.New(ht.typ)
		fill(t, v.Elem(), "value")
		b, err := json.Marshal(v.Interface())
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, f := range jsonFields(ht.typ) {
			keys = append(keys, f.key)
		}
		slices.Sort(keys)
		if written := slices.Sorted(maps.Keys(m)); !slices.Equal(keys, written) {
			t.Errorf("jsonFields finds %q in %s, encoding/json writes %q", keys, helmName(ht.typ), written)
		}
	}
}

// TestDecoderCheckSeesANewHelmField makes sure that a field added to
// Helm's types, embedded ones included, is reported.
func TestDecoderCheckSeesANewHelmField(t *testing.T) {
	type newer struct {
		repo.ChartVersion
		Provenance string `json:"provenance,omitempty"`
		Skipped    string `json:"-"`
	}
	missing, extra := compareKeys(jsonFields(reflect.TypeFor[newer]()), chartVersionFields.names)
	if len(missing) != 1 || missing[0].key != "provenance" || len(extra) != 0 {
		t.Errorf("a new field Provenance: missing %v, extra %q; want provenance missing", missing, extra)
	}
}

func TestEncoderWritesHelmFields(t *testing.T) {
	idx := filledIndex(t)
	var b bytes.Buffer
	if err := Encode(&b, idx, "yaml"); err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("Encode writes invalid YAML: %v\n%s", err, b.String())
	}
	root := doc.Content[0]
	cv := first(t, first(t, get(t, root, "entries")))
	for _, w := range []struct {
		typ reflect.Type
		m   *yaml.Node
	}{
		{reflect.TypeFor[repo.IndexFile](), root},
		{reflect.TypeFor[repo.ChartVersion](), cv},
		{reflect.TypeFor[chart.Maintainer](), first(t, get(t, cv, "maintainers"))},
		{reflect.TypeFor[chart.Dependency](), first(t, get(t, cv, "dependencies"))},
	} {
		emitter := ""
		for _, ht := range helmTypes {
			if ht.typ == w.typ {
				emitter = ht.emitter
			}
		}
		var written []string
		for i := 0; i < len(w.m.Content); i += 2 {
			written = append(written, w.m.Content[i].Value)
		}
		missing, extra := compareKeys(jsonFields(w.typ), written)
		for _, f := range missing {
			t.Errorf("Encode does not write Helm's %s (key %q), so every index it writes, --merge's included, loses it: write it in emitter.%s in encode.go, where its key falls in alphabetical order",
				f.name, f.key, emitter)
		}
		for _, key := range extra {
			t.Errorf("Encode writes %q in a %s, which Helm's type does not have, so Helm's loader refuses the index: remove it from emitter.%s in encode.go",
				key, helmName(w.typ), emitter)
		}
	}
}

// get returns the value of key in mapping m.
func get(t *testing.T, m *yaml.Node, key string) *yaml.Node {
	t.Helper()
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	t.Fatalf("line %d: no key %q", m.Line, key)
	return nil
}

// first returns the first value of a mapping or item of a list.
func first(t *testing.T, n *yaml.Node) *yaml.Node {
	t.Helper()
	switch {
	case n.Kind == yaml.MappingNode && len(n.Content) >= 2:
		return n.Content[1]
	case n.Kind == yaml.SequenceNode && len(n.Content) >= 1:
		return n.Content[0]
	}
	t.Fatalf("line %d: an empty collection", n.Line)
	return nil
}

func TestMergeKeepsHelmFields(t *testing.T) {
	built, published := filledIndex(t), filledIndex(t)
	added, carried := filledVersion(t, "2.0.0"), filledVersion(t, "1.0.0")
	name := added.Name
	built.Entries = map[string]repo.ChartVersions{name: {added}}
	published.Entries = map[string]repo.ChartVersions{name: {carried}}
	published.Annotations, published.PublicKeys, published.ServerInfo = nil, nil, nil
	merged, r, err := Merge(built, published, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Added != 1 || len(r.Carried) != 1 {
		t.Fatalf("report %+v: want one version added and one carried", r)
	}
	want := filledIndex(t)
	want.Entries = map[string]repo.ChartVersions{name: {filledVersion(t, "2.0.0"), filledVersion(t, "1.0.0")}}
	for _, format := range []string{"yaml", "json"} {
		var b bytes.Buffer
		if err := Encode(&b, merged, format); err != nil {
			t.Fatal(err)
		}
		got, err := Read(b.Bytes(), "merged."+format)
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		if d := firstDifference(reflect.ValueOf(got), reflect.ValueOf(want), "index"); d != "" {
			t.Errorf("the merged index, written in %s and read back, %s: check the field's case in the decoder (decode.go), emitter (encode.go) and cloneVersion (merge.go)", format, d)
		}
	}
	// The result is the caller's to edit (the builder rewrites carried
	// URLs): a field cloneVersion does not copy would change the inputs.
	inputs := map[uintptr]string{}
	references(reflect.ValueOf(built), "built", inputs)
	references(reflect.ValueOf(published), "published", inputs)
	result := map[uintptr]string{}
	references(reflect.ValueOf(merged), "merged", result)
	var shared []string
	for p, where := range result {
		if in, ok := inputs[p]; ok {
			shared = append(shared, where+" is "+in)
		}
	}
	slices.Sort(shared)
	for _, s := range shared {
		t.Errorf("%s, not a copy: copy the field in cloneVersion (merge.go)", s)
	}
}

// firstDifference describes where got first differs from want (at path),
// or returns "" when they are equal. Times are compared as instants.
func firstDifference(got, want reflect.Value, path string) string {
	if got.Kind() != want.Kind() || got.Type() != want.Type() {
		return fmt.Sprintf("has %s of type %s where %s was", path, got.Type(), want.Type())
	}
	if got.Type() == reflect.TypeFor[time.Time]() {
		if !got.Interface().(time.Time).Equal(want.Interface().(time.Time)) {
			return fmt.Sprintf("has %s = %v instead of %v", path, got.Interface(), want.Interface())
		}
		return ""
	}
	switch got.Kind() {
	case reflect.Pointer, reflect.Interface:
		if got.IsNil() || want.IsNil() {
			if got.IsNil() != want.IsNil() {
				return fmt.Sprintf("has %s = %v instead of %v", path, got.Interface(), want.Interface())
			}
			return ""
		}
		return firstDifference(got.Elem(), want.Elem(), path)
	case reflect.Struct:
		for i := range got.NumField() {
			f := got.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			p := path + "." + f.Name
			if f.Anonymous {
				p = path
			}
			if d := firstDifference(got.Field(i), want.Field(i), p); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if got.Len() != want.Len() {
			return fmt.Sprintf("has %d items in %s instead of %d", got.Len(), path, want.Len())
		}
		for i := range got.Len() {
			if d := firstDifference(got.Index(i), want.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if got.Len() != want.Len() {
			return fmt.Sprintf("has %d keys in %s instead of %d", got.Len(), path, want.Len())
		}
		for _, k := range want.MapKeys() {
			g := got.MapIndex(k)
			if !g.IsValid() {
				return fmt.Sprintf("lacks %s[%v]", path, k)
			}
			if d := firstDifference(g, want.MapIndex(k), fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(got.Interface(), want.Interface()) {
		return fmt.Sprintf("has %s = %#v instead of %#v", path, got.Interface(), want.Interface())
	}
	return ""
}

// references records, by address, the memory that v refers to and that
// an edit through v could change: lists, maps and pointers.
func references(v reflect.Value, path string, seen map[uintptr]string) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			seen[v.Pointer()] = path
			references(v.Elem(), path, seen)
		}
	case reflect.Interface:
		if !v.IsNil() {
			references(v.Elem(), path, seen)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				references(v.Field(i), path+"."+f.Name, seen)
			}
		}
	case reflect.Slice:
		if v.Len() > 0 {
			seen[v.Pointer()] = path
		}
		for i := range v.Len() {
			references(v.Index(i), fmt.Sprintf("%s[%d]", path, i), seen)
		}
	case reflect.Map:
		if !v.IsNil() {
			seen[v.Pointer()] = path
		}
		for _, k := range v.MapKeys() {
			references(v.MapIndex(k), fmt.Sprintf("%s[%v]", path, k), seen)
		}
	}
}

// filledIndex is an index with every field of Helm's types set, to one
// version of one chart.
func filledIndex(t *testing.T) *repo.IndexFile {
	idx := &repo.IndexFile{}
	fill(t, reflect.ValueOf(idx).Elem(), "index")
	cv := filledVersion(t, "1.0.0")
	idx.Entries = map[string]repo.ChartVersions{cv.Name: {cv}}
	idx.Generated = cv.Created
	return idx
}

// filledVersion is a chart version with every field set, which Helm's
// loader accepts as it is.
func filledVersion(t *testing.T, version string) *repo.ChartVersion {
	cv := &repo.ChartVersion{}
	fill(t, reflect.ValueOf(cv).Elem(), "version")
	cv.Version = version
	return cv
}

// filledStrings are the strings that Helm's validation constrains, by key;
// fill sets any other string to its key.
var filledStrings = map[string]string{"apiVersion": repo.APIVersionV1, "version": "1.2.3", "type": "application"}

// fill sets every field that v holds, recursively: strings to their key
// (or a value of filledStrings), lists to one item and maps to one pair,
// so that a field read or written nowhere shows.
func fill(t *testing.T, v reflect.Value, key string) {
	t.Helper()
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		s, ok := filledStrings[key]
		if !ok {
			s = key
		}
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Interface:
		v.Set(reflect.ValueOf(key))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), key)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(t, v.Index(0), key)
	case reflect.Map:
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(t, k, key)
		fill(t, e, key)
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(k, e)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			k, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if k == "" {
				k = f.Name
			}
			fill(t, v.Field(i), k)
		}
	default:
		t.Fatalf("%s is a %s, which fill does not know: teach fill to set it, and the decoder and encoder to read and write it", key, v.Type())
	}
}
