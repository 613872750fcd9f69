package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/testkit/corpustest"
)

// The form vectors under testdata/form/ are language-neutral: each directory
// holds a chart schema, optionally values.yaml, a launch context, a region
// and a schema registry, and want.json, the form the reference platform computes,
// derived by hand from its documented behaviour. They are run through
// schema.Describe, the computation `catalogist form` prints. Those of
// testdata/form-corpus/ edit charts of the public corpus, and run with it
// (make check-corpus).
const (
	vectorsDir       = "../../../testdata/form"
	corpusVectorsDir = "../../../testdata/form-corpus"
)

// vectorCase is a vector's case.yaml.
type vectorCase struct {
	Description  string
	Notes        string
	Platform     string
	ExtensionKey string
	// Schema, when set, is a chart's values.schema.json in the public
	// corpus, relative to the corpus catalog; its values.yaml is the one
	// beside it.
	Schema string
}

// vectorWant is a vector's want.json. Absent values and failures are not
// judged (a schema the form refuses for its shape sends nothing); absent
// shapes means none.
type vectorWant struct {
	Opens    *bool            `json:"opens"`
	Values   json.RawMessage  `json:"values"`
	Failures *[]wantProblem   `json:"failures"`
	Shapes   []wantProblem    `json:"shapes"`
	Options  []map[string]any `json:"options"`
}

type wantProblem struct {
	Key      []string `json:"key"`
	Message  string   `json:"message"`
	Revealed bool     `json:"revealed"`
}

func TestFormVectors(t *testing.T) { formVectors(t, vectorsDir) }

func formVectors(t *testing.T, vectorsDir string) {
	entries, err := os.ReadDir(vectorsDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		dir := filepath.Join(vectorsDir, e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			checkFiles(t, dir)
			c := readCase(t, dir)
			a := describeVector(t, dir, c)
			form := a.Form
			if form == nil {
				form = a.Schemaless()
			}
			d := form.Describe()
			got, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			if problems := judge(t, dir, got); len(problems) > 0 {
				t.Errorf("%s (notes %s)\n%s\ngot:\n%s", c.Description, c.Notes, strings.Join(problems, "\n"), indent(got))
			}
		})
	}
	if n == 0 {
		t.Fatalf("no vectors in %s", vectorsDir)
	}
}

// vectorFiles are the files a vector may hold; any other is a misspelling
// that would silently leave an input out.
var vectorFiles = map[string]bool{
	"case.yaml": true, "values.schema.json": true, "values.yaml": true, "context.yaml": true,
	"region.yaml": true, "registry": true, "want.json": true, "edits.json": true,
}

func checkFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !vectorFiles[e.Name()] {
			t.Errorf("unknown file %s in the vector (known: case.yaml, values.schema.json, values.yaml, context.yaml, region.yaml, registry/, want.json, edits.json)", e.Name())
		}
	}
}

func readCase(t *testing.T, dir string) vectorCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "case.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := srcpos.ParseYAML(data)
	if err != nil || root.Kind != srcpos.Object {
		t.Fatalf("case.yaml: %v (want a mapping)", err)
	}
	var c vectorCase
	for _, m := range root.Members {
		dst := map[string]*string{"description": &c.Description, "notes": &c.Notes, "platform": &c.Platform,
			"extensionKey": &c.ExtensionKey, "schema": &c.Schema}[m.Key]
		if dst == nil || m.Kind != srcpos.String {
			t.Fatalf("case.yaml:%s: unknown key %q or not a string", m.Pos, m.Key)
		}
		*dst = m.Text
	}
	if c.Description == "" || c.Notes == "" {
		t.Fatalf("case.yaml needs description and notes (the notes section the case comes from)")
	}
	if c.ExtensionKey == "" {
		c.ExtensionKey = "x-onyxia"
	}
	return c
}

// describeVector reads a vector's files as `catalogist form` reads a chart's
// and describes its form.
func describeVector(t *testing.T, dir string, c vectorCase) *analysis.Chart {
	t.Helper()
	p, err := schema.PlatformFor(c.Platform, c.ExtensionKey)
	if err != nil {
		t.Fatal(err)
	}
	env := schema.Env{ExtKey: c.ExtensionKey, Platform: p}
	if reg := filepath.Join(dir, "registry"); exists(reg) {
		if env.Registry, err = schema.LoadRegistry(reg); err != nil {
			t.Fatal(err)
		}
	}
	in := analysis.Input{SchemaFile: filepath.Join(dir, "values.schema.json"), ValuesFile: "values.yaml", Env: env}
	if c.Schema != "" {
		in.SchemaFile = filepath.Join(corpustest.Catalog(t), filepath.FromSlash(c.Schema))
	}
	if in.Schema, err = os.ReadFile(in.SchemaFile); errors.Is(err, fs.ErrNotExist) && c.Schema == "" {
		// A chart without a schema: the platform's launcher with no fields.
		in.Schema = nil
	} else if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(filepath.Dir(in.SchemaFile), "values.yaml")); err == nil {
		in.Values = data
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var ctxDoc map[string]any
	if f := filepath.Join(dir, "context.yaml"); exists(f) {
		root, err := launchcontext.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ctxDoc = root.Value().(map[string]any)
	}
	var reg *region.Region
	if f := filepath.Join(dir, "region.yaml"); exists(f) {
		if reg, err = region.Load(f, ""); err != nil {
			t.Fatal(err)
		}
	}
	in.Context = schema.NewContext(ctxDoc, reg, nil, "")
	if in.Schema == nil {
		in.SchemaFile, in.ValuesFile = "", filepath.Join(dir, "values.yaml")
	}
	a, err := analysis.Analyze(in)
	if err != nil || a.SchemaErr != nil {
		t.Fatal(err, a.SchemaErr)
	}
	if _, err := a.FormValues(); err != nil {
		t.Fatal(err)
	}
	return a
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// judge compares a description, as JSON, with the vector's want.json and
// returns each difference.
func judge(t *testing.T, dir string, gotJSON []byte) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w vectorWant
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		t.Fatalf("want.json: %v", err)
	}
	if w.Opens == nil {
		t.Fatalf("want.json has no opens")
	}
	var got struct {
		Values   any
		Opens    bool
		Failures []schema.DescribedProblem
		Shapes   []schema.DescribedProblem
		Options  []map[string]any
	}
	if err := json.Unmarshal(gotJSON, &got); err != nil {
		t.Fatal(err)
	}
	var out []string
	if got.Opens != *w.Opens {
		out = append(out, fmt.Sprintf("opens = %v, want %v", got.Opens, *w.Opens))
	}
	if w.Values != nil {
		var want any
		if err := json.Unmarshal(w.Values, &want); err != nil {
			t.Fatalf("want.json values: %v", err)
		}
		if !reflect.DeepEqual(got.Values, want) {
			out = append(out, fmt.Sprintf("values = %s, want %s", compact(got.Values), compact(want)))
		}
	}
	if w.Failures != nil {
		out = append(out, matchProblems("failure", got.Failures, *w.Failures)...)
	}
	out = append(out, matchProblems("shape problem", got.Shapes, w.Shapes)...)
	for _, wo := range w.Options {
		out = append(out, matchOption(got.Options, wo)...)
	}
	return out
}

// matchProblems pairs each wanted problem with the got problems of its key
// whose message holds its text and whose revealed flag is its own: every
// wanted one must be found, and every got one wanted.
func matchProblems(what string, got []schema.DescribedProblem, want []wantProblem) []string {
	var out []string
	matches := func(g schema.DescribedProblem, w wantProblem) bool {
		return reflect.DeepEqual(g.Key, append([]string{}, w.Key...)) && strings.Contains(g.Message, w.Message) && g.Revealed == w.Revealed
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || matches(g, w)
		}
		if !found {
			out = append(out, fmt.Sprintf("missing %s at %q containing %q (revealed %v)", what, w.Key, w.Message, w.Revealed))
		}
	}
	for _, g := range got {
		found := false
		for _, w := range want {
			found = found || matches(g, w)
		}
		if !found {
			out = append(out, fmt.Sprintf("unexpected %s at %q (revealed %v): %s", what, g.Key, g.Revealed, g.Message))
		}
	}
	return out
}

// matchOption compares the fields a wanted option gives with the option of
// the same key; slider and context are compared field by field.
func matchOption(got []map[string]any, want map[string]any) []string {
	key := compact(want["key"])
	var g map[string]any
	for _, o := range got {
		if compact(o["key"]) == key {
			g = o
			break
		}
	}
	if g == nil {
		return []string{fmt.Sprintf("no option %s", key)}
	}
	var out []string
	for k, wv := range want {
		gv := g[k]
		if sub, ok := wv.(map[string]any); ok && (k == "slider" || k == "context") {
			gs, _ := gv.(map[string]any)
			for sk, swv := range sub {
				if !reflect.DeepEqual(gs[sk], swv) {
					out = append(out, fmt.Sprintf("option %s: %s.%s = %s, want %s", key, k, sk, compact(gs[sk]), compact(swv)))
				}
			}
			continue
		}
		if !reflect.DeepEqual(gv, wv) {
			out = append(out, fmt.Sprintf("option %s: %s = %s, want %s", key, k, compact(gv), compact(wv)))
		}
	}
	return out
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func indent(data []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, data, "", "  ") != nil {
		return string(data)
	}
	return b.String()
}
