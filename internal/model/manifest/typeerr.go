package manifest

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	kjson "sigs.k8s.io/json"
)

// typeError is a value the API server's decoder refuses for its field.
type typeError struct {
	path   fieldPath
	value  any          // the JSON value: string, json.Number, bool, map, slice
	want   reflect.Type // the field's Go type
	detail string       // the decoder's reason, for values of types that read themselves
	slot   func()       // replaces the value with null, so that decoding goes past it
}

// The decoder stops at the first value it cannot read. typeErrors walks the
// whole object against its Go type instead, so that a chart maintainer
// learns of every such value at once, each with its index path (the
// decoder's own message names "spec.ports.port", without the index).
type typeWalker struct {
	out    []typeError
	budget int
}

// maxTypeErrors bounds what one document reports: past a few dozen, the
// next ones are the same mistake again.
const maxTypeErrors = 50

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	quantityType    = reflect.TypeFor[resource.Quantity]()
	intOrStringType = reflect.TypeFor[intstr.IntOrString]()
	timeType        = reflect.TypeFor[metav1.Time]()
	microTimeType   = reflect.TypeFor[metav1.MicroTime]()
)

// typeErrors lists the values of v (a JSON object decoded with UseNumber)
// that its Go type t refuses.
func typeErrors(v any, t reflect.Type, at fieldPath) []typeError {
	w := &typeWalker{budget: maxTreeNodes}
	w.value(v, t, at, func() {})
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].path < w.out[j].path })
	return w.out
}

func (w *typeWalker) bad(e typeError) {
	if len(w.out) < maxTypeErrors {
		w.out = append(w.out, e)
	}
}

// value checks v against t; clear replaces v with null in its container.
func (w *typeWalker) value(v any, t reflect.Type, p fieldPath, clear func()) {
	if w.budget--; w.budget < 0 || len(w.out) >= maxTypeErrors {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil || t.Kind() == reflect.Interface {
		return
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		w.unmarshaler(v, t, p, clear)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		w.object(v, t, p, clear)
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			w.bad(typeError{path: p, value: v, want: t, slot: clear})
			return
		}
		for _, k := range sortedKeys(m) {
			w.value(m[k], t.Elem(), p.key(k), func() { m[k] = nil })
		}
	case reflect.Slice, reflect.Array:
		w.list(v, t, p, clear)
	default:
		if !scalarFits(v, t) {
			w.bad(typeError{path: p, value: v, want: t, slot: clear})
		}
	}
}

func (w *typeWalker) object(v any, t reflect.Type, p fieldPath, clear func()) {
	m, ok := v.(map[string]any)
	if !ok {
		w.bad(typeError{path: p, value: v, want: t, slot: clear})
		return
	}
	fields := jsonFields(t)
	for _, k := range sortedKeys(m) {
		if ft, ok := fields[k]; ok { // unknown fields are the strict decoder's to report
			w.value(m[k], ft, p.child(k), func() { m[k] = nil })
		}
	}
}

func (w *typeWalker) list(v any, t reflect.Type, p fieldPath, clear func()) {
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 { // []byte: base64 in JSON
		s, ok := v.(string)
		if !ok {
			w.bad(typeError{path: p, value: v, want: t, slot: clear})
		} else if _, err := base64.StdEncoding.DecodeString(s); err != nil {
			w.bad(typeError{path: p, value: v, want: t, detail: err.Error(), slot: clear})
		}
		return
	}
	l, ok := v.([]any)
	if !ok {
		w.bad(typeError{path: p, value: v, want: t, slot: clear})
		return
	}
	for i := range l {
		w.value(l[i], t.Elem(), p.index(i), func() { l[i] = nil })
	}
}

// unmarshaler checks a value of a type that reads itself (a quantity, an
// int-or-string, a time) with that type's own reader.
func (w *typeWalker) unmarshaler(v any, t reflect.Type, p fieldPath, clear func()) {
	raw, err := json.Marshal(v)
	if err != nil {
		return
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(raw, reflect.New(t).Interface()); err != nil {
		w.bad(typeError{path: p, value: v, want: t, detail: err.Error(), slot: clear})
	}
}

// scalarFits reports whether the JSON scalar v can be read into a field of
// kind t, as encoding/json (and so the API server) reads it.
func scalarFits(v any, t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String:
		_, ok := v.(string)
		return ok
	case reflect.Bool:
		_, ok := v.(bool)
		return ok
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := strconv.ParseInt(string(n), 10, t.Bits())
		return err == nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := strconv.ParseUint(string(n), 10, t.Bits())
		return err == nil
	case reflect.Float32, reflect.Float64:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := strconv.ParseFloat(string(n), t.Bits())
		return err == nil
	}
	return true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields maps the JSON names of a struct's fields to their types, with
// the fields of embedded structs (TypeMeta, ObjectMeta's inline parts)
// promoted as encoding/json promotes them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	fields := map[string]reflect.Type{}
	addFields(t, fields, 0)
	fieldCache.Store(t, fields)
	return fields
}

func addFields(t reflect.Type, fields map[string]reflect.Type, depth int) {
	for i := 0; i < t.NumField() && depth < 10; i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if name == "" && f.Anonymous && ft.Kind() == reflect.Struct {
			addFields(ft, fields, depth+1)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, shadowed := fields[name]; !shadowed || depth == 0 {
			fields[name] = f.Type
		}
	}
}
