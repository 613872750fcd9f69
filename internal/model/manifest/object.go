package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"

	"github.com/catalogist/catalogist/internal/base/suggest"
)

// head is what identifies an object, read leniently: any part may be
// missing or of the wrong type, and is then reported rather than refused.
type head struct {
	APIVersion json.RawMessage `json:"apiVersion"`
	Kind       json.RawMessage `json:"kind"`
	Metadata   json.RawMessage `json:"metadata"`
	Items      json.RawMessage `json:"items"`
}

type headMeta struct {
	Name         json.RawMessage `json:"name"`
	GenerateName json.RawMessage `json:"generateName"`
	Namespace    json.RawMessage `json:"namespace"`
}

// maxListDepth bounds lists of lists. Helm takes them all apart, but each
// level is read again with all it holds, so hostile nesting would make the
// work grow with the square of the document; real charts nest once if ever.
const maxListDepth = 8

// resourcePolicy is Helm's annotation for keeping a resource on uninstall.
const resourcePolicy = "helm.sh/resource-policy"

// object judges one object (the document, or an item of a List) given as
// JSON, at path at.
func (r *run) object(js []byte, at fieldPath, depth int) Object {
	var h head
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &h); err != nil {
		r.add(CheckYAML, Error, at, fmt.Sprintf("%s is not a mapping of fields but %s", objectName(at), describeJSON(js)))
		return Object{}
	}
	var meta headMeta
	metaOK := len(h.Metadata) == 0 || kjson.UnmarshalCaseSensitivePreserveInts(h.Metadata, &meta) == nil
	obj := Object{APIVersion: jsonString(h.APIVersion), Kind: jsonString(h.Kind), Name: jsonString(meta.Name), Namespace: jsonString(meta.Namespace)}
	if h.Items != nil {
		r.list(obj, h, at, depth)
		return obj
	}
	if !r.identified(h, meta, metaOK, obj, at) {
		return obj
	}
	gvk := schema.FromAPIVersionAndKind(obj.APIVersion, obj.Kind)
	v := r.c.judgeKind(gvk)
	for _, p := range v.results {
		r.add(p.Check, p.Severity, at.join(p.Path), p.Msg)
	}
	if v.custom != "" {
		r.add(CheckCustom, Note, at, "not decoded: "+v.custom)
		r.customMeta(h.Metadata, gvk, at)
		return obj
	}
	if !v.decode {
		return obj
	}
	if typed := r.decode(gvk, js, at); typed != nil {
		r.checkNames(typed, gvk, at)
		r.checkSelector(typed, at)
	}
	return obj
}

// identified reports the parts missing for Helm to know the object:
// apiVersion, kind and metadata.name (Helm 4 refuses a resource without a
// name, even one with a generateName).
func (r *run) identified(h head, meta headMeta, metaOK bool, obj Object, at fieldPath) bool {
	ok := true
	for _, f := range []struct {
		name  string
		raw   json.RawMessage
		value string
	}{{"apiVersion", h.APIVersion, obj.APIVersion}, {"kind", h.Kind, obj.Kind}} {
		switch {
		case f.value != "":
		case isJSONString(f.raw) || len(f.raw) == 0 || string(f.raw) == "null":
			r.add(CheckYAML, Error, at, fmt.Sprintf("%s has no %s", objectName(at), f.name))
			ok = false
		default:
			r.add(CheckYAML, Error, at.child(f.name), fmt.Sprintf("%s is %s, not a string", f.name, describeJSON(f.raw)))
			ok = false
		}
	}
	if ok {
		if _, err := schema.ParseGroupVersion(obj.APIVersion); err != nil {
			r.add(CheckYAML, Error, at.child("apiVersion"), fmt.Sprintf("apiVersion %q is not GROUP/VERSION (or VERSION for the core group)", obj.APIVersion))
			ok = false
		}
	}
	switch {
	case !metaOK:
		r.add(CheckYAML, Error, at.child("metadata"), "metadata is "+describeJSON(h.Metadata)+", not a mapping")
		return false
	case obj.Name != "":
	case len(meta.Name) > 0 && string(meta.Name) != "null" && !isJSONString(meta.Name):
		r.add(CheckYAML, Error, at.child("metadata").child("name"), fmt.Sprintf("metadata.name is %s, not a string", describeJSON(meta.Name)))
		return false
	case jsonString(meta.GenerateName) != "":
		// Verified with helm 4.3.1: "server-side apply failed ...: resource
		// name may not be empty".
		r.add(CheckYAML, Error, at.child("metadata"), fmt.Sprintf("%s has a metadata.generateName but no metadata.name: Helm 4 applies resources server-side, which needs a name (generateName works only with --server-side=false)", objectName(at)))
		return false
	default:
		r.add(CheckYAML, Error, at, fmt.Sprintf("%s has no metadata.name: Helm and the API server refuse a resource without a name", objectName(at)))
		return false
	}
	return ok
}

// list judges the items of a list, which Helm (kubectl's resource builder)
// takes apart and sends one by one: any document with a top-level items
// field is one.
func (r *run) list(obj Object, h head, at fieldPath, depth int) {
	itemsAt := at.child("items")
	if depth >= maxListDepth {
		r.add(CheckCustom, Note, itemsAt, fmt.Sprintf("not decoded: lists nested more than %d deep are not checked", maxListDepth))
		return
	}
	if !strings.HasSuffix(obj.Kind, "List") {
		r.add(CheckYAML, Error, itemsAt, fmt.Sprintf("a top-level items field makes Helm read this %s as a list of objects and drop everything else in it: remove items, or make it a List", orKind(obj.Kind)))
		return
	}
	var items []json.RawMessage
	if err := kjson.UnmarshalCaseSensitivePreserveInts(h.Items, &items); err != nil {
		r.add(CheckYAML, Error, itemsAt, "items is "+describeJSON(h.Items)+", not a list of objects")
		return
	}
	for i, raw := range items {
		p := itemsAt.index(i)
		raw = inheritKind(raw, obj)
		r.object(raw, p, depth+1)
		r.listPolicy(raw, p)
	}
}

// inheritKind gives an item without apiVersion and kind those of its list
// (ConfigMapList's items are ConfigMaps), as the resource builder does.
func inheritKind(raw json.RawMessage, list Object) json.RawMessage {
	var h head
	if kjson.UnmarshalCaseSensitivePreserveInts(raw, &h) != nil || h.APIVersion != nil || h.Kind != nil || list.Kind == "List" {
		return raw
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	m["apiVersion"], m["kind"] = list.APIVersion, strings.TrimSuffix(list.Kind, "List")
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// listPolicy: Helm reads helm.sh/resource-policy from each document it
// renders, so on an item of a List the annotation is silently ignored and
// the resource is deleted on uninstall after all.
func (r *run) listPolicy(raw json.RawMessage, at fieldPath) {
	var item struct {
		Metadata struct {
			Annotations map[string]json.RawMessage `json:"annotations"`
		} `json:"metadata"`
	}
	if kjson.UnmarshalCaseSensitivePreserveInts(raw, &item) != nil {
		return
	}
	if _, ok := item.Metadata.Annotations[resourcePolicy]; ok {
		r.add(CheckListPolicy, Error, at.child("metadata").child("annotations").key(resourcePolicy),
			"Helm ignores the annotation "+resourcePolicy+" on an item of a List (helm lint reports it): give the resource its own document to keep it on uninstall")
	}
}

// decode reads a built-in object with the API server's strict decoder, and
// reports what it refuses. It returns nil when the object cannot be read
// even past the values of the wrong type.
func (r *run) decode(gvk schema.GroupVersionKind, js []byte, at fieldPath) runtime.Object {
	k := api()
	obj, _, err := k.decoder.Decode(js, nil, nil)
	if err == nil {
		return obj
	}
	if se, ok := runtime.AsStrictDecodingError(err); ok {
		r.strictErrors(se.Errors(), k.goType(gvk), at)
		return obj
	}
	// The decoder stops at the first value of the wrong type: find them
	// all, then decode without them for the unknown fields and the rest.
	generic, ok := genericJSON(js)
	if !ok {
		r.add(CheckFields, Error, at, "the API server cannot decode this object: "+err.Error())
		return nil
	}
	bad := typeErrors(generic, k.goType(gvk), at)
	if len(bad) == 0 {
		r.add(CheckFields, Error, at, "the API server cannot decode this object: "+err.Error())
		return nil
	}
	for _, e := range bad {
		r.add(CheckFields, Error, e.path, typeMessage(e, r.tree().scalar(e.path)))
		e.slot()
	}
	fixed, merr := json.Marshal(generic)
	if merr != nil {
		return nil
	}
	obj, _, err = k.decoder.Decode(fixed, nil, nil)
	if se, ok := runtime.AsStrictDecodingError(err); ok {
		r.strictErrors(se.Errors(), k.goType(gvk), at)
		return obj
	}
	if err != nil {
		r.add(CheckFields, Error, at, "the API server cannot decode this object: "+err.Error())
		return nil
	}
	return obj
}

// genericJSON reads JSON into maps and slices, numbers kept as written so
// that an integer field's value is judged as the decoder judges it.
func genericJSON(js []byte) (any, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	return v, dec.Decode(&v) == nil
}

var strictMessage = regexp.MustCompile(`^(unknown|duplicate) field "(.*)"$`)

// strictErrors reports the unknown and duplicate fields the strict decoder
// found, with a did-you-mean from the Go type's fields.
func (r *run) strictErrors(errs []error, t reflect.Type, at fieldPath) {
	for _, e := range errs {
		m := strictMessage.FindStringSubmatch(e.Error())
		if m == nil {
			r.add(CheckFields, Error, at, e.Error())
			continue
		}
		p := at.join(m[2])
		msg := fmt.Sprintf("%s field %q", m[1], string(p))
		if m[1] == "unknown" {
			msg += fieldHint(t, fieldPath(m[2]))
		}
		r.add(CheckFields, Error, p, msg)
	}
}

// fieldHint suggests the field of the same object closest to an unknown
// one: ` (did you mean "replicas"?)`.
func fieldHint(t reflect.Type, p fieldPath) string {
	steps := p.steps()
	if t == nil || len(steps) == 0 {
		return ""
	}
	for _, s := range steps[:len(steps)-1] {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if strings.HasPrefix(s, "[") {
			continue
		}
		if t.Kind() != reflect.Struct {
			return ""
		}
		ft, ok := jsonFields(t)[s]
		if !ok {
			return ""
		}
		t = ft
	}
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return ""
	}
	fields := jsonFields(t)
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	return suggest.Hint(steps[len(steps)-1], names)
}

// customMeta checks the metadata of a kind that is not decoded: every API
// server (a CRD's included) reads it as ObjectMeta, strictly, and validates
// it. A CRD's objects are named as DNS subdomains; for a kind of unknown
// origin only what every API server requires is checked, and not the
// namespace, as its scope is unknown.
func (r *run) customMeta(raw json.RawMessage, gvk schema.GroupVersionKind, at fieldPath) {
	var m metav1.ObjectMeta
	strictErrs, err := kjson.UnmarshalStrict(raw, &m)
	if err != nil {
		generic, ok := genericJSON(raw)
		if !ok {
			return
		}
		for _, e := range typeErrors(generic, reflect.TypeFor[metav1.ObjectMeta](), at.child("metadata")) {
			r.add(CheckFields, Error, e.path, typeMessage(e, r.tree().scalar(e.path)))
		}
		return
	}
	r.strictErrors(strictErrs, reflect.TypeFor[metav1.ObjectMeta](), at.child("metadata"))
	rule := pathSegment
	if r.c.CRDs[gvk.GroupKind()] {
		rule = subdomain
	}
	r.checkMeta(&m, schema.GroupKind{Group: customGroup, Kind: gvk.Kind}, rule, false, at)
}

// customGroup stands for the group of a kind that is not built in, where a
// built-in group's rules must not apply.
const customGroup = "\x00custom"

func objectName(at fieldPath) string {
	if at == "" {
		return "the document"
	}
	return string(at)
}

func orKind(kind string) string {
	if kind == "" {
		return "document"
	}
	return kind
}

func jsonString(raw json.RawMessage) string {
	var s string
	if isJSONString(raw) && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

func isJSONString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }

// describeJSON names the type of a JSON value.
func describeJSON(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '[':
		return "a list"
	case '{':
		return "a mapping"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
