package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"helm.sh/helm/v4/pkg/chart/common/util"

	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// A vector's edits.json is a user's session in the form: steps, each an
// edit and what the form then shows. The chart pages' script
// (templates/formstate.js, run with node --test on the same files) must
// agree with what is checked here, so each step states its results in full:
//
//   - hidden: every hidden values path, item indexes included, in form order;
//   - errors: each refused value's path (as --set writes it) and the reason,
//     as launch would refuse it (schema.Check);
//   - changes: the values that differ from the form's defaults, which Helm's
//     own merge of them over the defaults must turn into the full document;
//   - values (optional): the full document.
type editSession struct {
	Description string     `json:"description"`
	Steps       []editStep `json:"steps"`
}

type editStep struct {
	// Do is "" (the form as it opens), "set", "add" (an item with the
	// items' default at the end of the list at Key) or "remove" (the item
	// Index of the list at Key).
	Do      string            `json:"do"`
	Key     []string          `json:"key"`
	Value   any               `json:"value"`
	Index   int               `json:"index"`
	Hidden  [][]string        `json:"hidden"`
	Errors  map[string]string `json:"errors"`
	Changes map[string]any    `json:"changes"`
	Values  map[string]any    `json:"values"`
}

func TestEditVectors(t *testing.T) { editVectors(t, vectorsDir) }

func editVectors(t *testing.T, vectorsDir string) {
	entries, err := os.ReadDir(vectorsDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		dir := filepath.Join(vectorsDir, e.Name())
		data, err := os.ReadFile(filepath.Join(dir, "edits.json"))
		if err != nil {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			var session editSession
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&session); err != nil {
				t.Fatalf("edits.json: %v", err)
			}
			if session.Description == "" || len(session.Steps) == 0 {
				t.Fatal("edits.json needs a description and steps")
			}
			a := describeVector(t, dir, readCase(t, dir))
			d := a.Form.Describe()
			defaults := plainJSON(t, d.Values).(map[string]any)
			values := plainJSON(t, d.Values).(map[string]any)
			update := os.Getenv("CATALOGIST_UPDATE_EDITS") != ""
			for i := range session.Steps {
				st := &session.Steps[i]
				where := fmt.Sprintf("step %d (%s %q)", i, st.Do, st.Key)
				if err := applyEdit(d, values, *st); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				hidden := schema.HiddenKeys(a.Schema, values)
				if hidden == nil {
					hidden = [][]string{}
				}
				errs := map[string]string{}
				for _, p := range schema.Check(a.Schema, a.In.Context, values) {
					errs[p.Path] = p.Reason
				}
				if update {
					// Writes what Go computes, for review: the script is
					// then judged against it.
					st.Hidden, st.Errors = hidden, errs
					st.Changes = plainJSON(t, changesOf(defaults, values)).(map[string]any)
				}
				if st.Hidden == nil {
					st.Hidden = [][]string{}
				}
				if !reflect.DeepEqual(hidden, st.Hidden) {
					t.Errorf("%s: hidden = %s, want %s", where, compact(hidden), compact(st.Hidden))
				}
				if st.Errors == nil {
					st.Errors = map[string]string{}
				}
				if !reflect.DeepEqual(errs, st.Errors) {
					t.Errorf("%s: errors = %s, want %s", where, compact(errs), compact(st.Errors))
				}
				if st.Changes == nil {
					t.Errorf("%s: no changes stated", where)
				}
				// What the page offers as changes, given to Helm over the
				// defaults, is the whole document.
				merged := util.CoalesceTables(plainJSON(t, st.Changes).(map[string]any), plainJSON(t, defaults).(map[string]any))
				if !reflect.DeepEqual(plainJSON(t, merged), plainJSON(t, values)) {
					t.Errorf("%s: the changes %s merged over the defaults give %s, not the values %s", where, compact(st.Changes), compact(merged), compact(values))
				}
				if st.Values != nil && !reflect.DeepEqual(plainJSON(t, st.Values), plainJSON(t, values)) {
					t.Errorf("%s: values = %s, want %s", where, compact(values), compact(st.Values))
				}
			}
			if update {
				out, err := json.MarshalIndent(session, "", " ")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "edits.json"), append(out, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if n == 0 {
		t.Fatalf("no edits.json in %s", vectorsDir)
	}
}

// applyEdit applies one step's edit to values. A new item is the default
// the form gives the items.
func applyEdit(d *schema.Description, values map[string]any, st editStep) error {
	switch st.Do {
	case "":
		return nil
	case "set":
		// A copy: a later step that edits inside the value must not
		// change the step's own (which an update writes back).
		v, err := jsonCopy(st.Value)
		if err != nil {
			return err
		}
		return setAt(values, st.Key, v)
	case "add", "remove":
		list, ok := valueAt(values, st.Key).([]any)
		if !ok {
			return fmt.Errorf("no list at %q", st.Key)
		}
		if st.Do == "remove" {
			if st.Index < 0 || st.Index >= len(list) {
				return fmt.Errorf("no item %d", st.Index)
			}
			return setAt(values, st.Key, append(list[:st.Index:st.Index], list[st.Index+1:]...))
		}
		var item any
		found := false
		for _, o := range d.Options {
			if reflect.DeepEqual(o.Key, itemsKey(st.Key)) {
				item, found = o.Value, true
			}
		}
		if !found {
			return fmt.Errorf("no items option for %q", st.Key)
		}
		// A copy: the next item added must not share it.
		item, err := jsonCopy(item)
		if err != nil {
			return err
		}
		return setAt(values, st.Key, append(list, item))
	}
	return fmt.Errorf("unknown edit %q", st.Do)
}

// jsonCopy copies a plain value through JSON.
func jsonCopy(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// itemsKey is the option key of the items of the list at a values path:
// indexes become the items' segment.
func itemsKey(path []string) []string {
	var out []string
	for i, seg := range path {
		if _, err := strconv.Atoi(seg); err == nil && i > 0 {
			seg = schema.ItemsKey
		}
		out = append(out, seg)
	}
	return append(out, schema.ItemsKey)
}

// valueAt is the value at a values path, nil when there is none.
func valueAt(v any, path []string) any {
	v, _ = launchcontext.Lookup(v, path)
	return v
}

func setAt(values map[string]any, path []string, v any) error {
	if len(path) == 0 {
		return fmt.Errorf("empty key")
	}
	parent := valueAt(values, path[:len(path)-1])
	last := path[len(path)-1]
	switch x := parent.(type) {
	case map[string]any:
		x[last] = v
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(x) {
			return fmt.Errorf("no item %s", last)
		}
		x[i] = v
	default:
		return fmt.Errorf("nothing at %q", path[:len(path)-1])
	}
	return nil
}

// plainJSON copies a value through JSON: numbers become float64, as the
// page's script sees them.
func plainJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// changesOf is what differs in values from defaults: objects compared key
// by key, anything else (lists too, which Helm replaces whole) as a whole.
func changesOf(defaults, values map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range values {
		d, ok := defaults[k]
		dm, dIsMap := d.(map[string]any)
		vm, vIsMap := v.(map[string]any)
		switch {
		case ok && dIsMap && vIsMap:
			if sub := changesOf(dm, vm); len(sub) > 0 {
				out[k] = sub
			}
		case !ok || !reflect.DeepEqual(d, v):
			out[k] = v
		}
	}
	return out
}
