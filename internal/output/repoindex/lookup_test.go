package repoindex

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/gencatalog"

	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// absentChart is a chart name no test index has.
const absentChart = "no-such-chart"

// sameAsRead checks ChartVersions and ChartNames against Read, which must
// accept data, for every chart Read finds and for an absent one. It
// returns whether the outline read data, rather than Read.
func sameAsRead(t *testing.T, data []byte) (outlined bool) {
	t.Helper()
	idx, err := Read(data, "index.yaml")
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	want := sortedNames(idx.Entries)
	names, err := ChartNames(data, "index.yaml")
	if err != nil {
		t.Fatalf("ChartNames: %v", err)
	}
	if !slices.Equal(names, want) {
		t.Errorf("ChartNames = %q, Read has %q", names, want)
	}
	for chart, cvs := range idx.Entries {
		got, err := ChartVersions(data, "index.yaml", chart)
		if err != nil {
			t.Fatalf("ChartVersions(%q): %v", chart, err)
		}
		if !reflect.DeepEqual(got, []*repo.ChartVersion(cvs)) {
			t.Errorf("ChartVersions(%q) differs from Read:\n got %s\nwant %s", chart, dumpVersions(t, got), dumpVersions(t, cvs))
		}
		sameTopLevel(t, data, idx, chart)
	}
	_, err = ChartVersions(data, "index.yaml", absentChart)
	var nf *ChartNotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("ChartVersions of an absent chart: %v, want a *ChartNotFoundError", err)
	}
	if nf.Index != "index.yaml" || nf.Chart != absentChart || !slices.Equal(nf.Known, want) {
		t.Errorf("ChartNotFoundError = %+v, want index.yaml, %s and the names %q", nf, absentChart, want)
	}
	return outlineIndex(data) != nil
}

// sameTopLevel checks that ChartIndex gives what Read gave outside the
// entries, and the chart alone in them.
func sameTopLevel(t testing.TB, data []byte, idx *repo.IndexFile, chart string) {
	t.Helper()
	got, err := ChartIndex(data, "index.yaml", chart)
	if err != nil {
		t.Fatalf("ChartIndex(%q): %v", chart, err)
	}
	if len(got.Entries) != 1 || got.Entries[chart] == nil && idx.Entries[chart] != nil {
		t.Errorf("ChartIndex(%q) has the entries %v", chart, sortedNames(got.Entries))
	}
	g, w := *got, *idx
	g.Entries, w.Entries = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("ChartIndex(%q) top level differs from Read:\n got %+v\nwant %+v", chart, g, w)
	}
}

func dumpVersions(t testing.TB, cvs []*repo.ChartVersion) string {
	t.Helper()
	b, err := json.Marshal(cvs)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// lookupShapes are indexes, all valid, in the layouts and with the traps
// ChartVersions must handle.
var lookupShapes = []struct {
	name     string
	data     string
	outlined bool // whether the outline reads it, or leaves it to Read
}{
	{"helm layout", usual, true},
	{"crlf", strings.ReplaceAll(usual, "\n", "\r\n"), true},
	{"last chart without final line break", strings.TrimSuffix(strings.Replace(usual, "generated:", "serverInfo: {}\ngenerated:", 1), "\n"), true},
	{"last chart at the end", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n  b:\n  - name: b\n    version: 2.0.0\n    urls:\n    - b.tgz", true},
	{"last chart key at the end", "apiVersion: v1\nentries:\n  a: []\n  0000000:", true},
	{"quoted keys", "apiVersion: v1\n\"entries\":\n  \"double\":\n  - name: double\n    version: 1.0.0\n  'single':\n  - name: single\n    version: 1.0.0\n  \"esc\\u0061ped\": []\n  'it''s': []\n  \"a: b\" : []\n  plain: []\n", true},
	{"plain keys YAML retypes", "apiVersion: v1\nentries:\n  yes: []\n  \"true\":\n  - name: t\n    version: 1.0.0\n  1.10: []\n  0x1F: []\n  ~x: []\n", true},
	{"comments", "# an index\napiVersion: v1 # the only one\nentries: # the charts\n  # before the first\n  a: # chart a\n  # between\n  - name: a # name\n    version: 1.0.0\n# at column 0 inside entries\n    description: \"# not a comment\" # but this is\n  #  at the charts' indentation\n  b:\n\n  - name: b\n    version: 2.0.0 # c\ngenerated: \"2024-01-01T00:00:00Z\" # end\n", true},
	{"chart name elsewhere", "apiVersion: v1\nentries:\n  app:\n  - name: app\n    version: 1.0.0\n    dependencies:\n    - name: lib\n      repository: https://example.com\n    annotations:\n      entries: lib\n      lib: app\n    keywords:\n    - lib\n  lib:\n  - name: lib\n    version: 0.1.0\n    description: app\nserverInfo:\n  entries:\n    app: lib\n  lib: []\n", true},
	{"key-like lines in a quoted scalar", "apiVersion: v1\nannotations:\n  note: \"the index\nentries: is below\"\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    description: \"goes on\n  ghost:\n  - name: ghost\n    version: 1.0.0\n  and ends\"\n    home: 'single\n  ghost2: []\n  quoted'\n  b:\n  - name: b\n    version: 1.0.0\n", true},
	{"key-like lines in a block scalar", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    annotations:\n      notes: |\n        ghost:\n        - name: ghost\n\n          \"unclosed\n      other: >-\n        'x\n  b:\n  - description: |2\n       b: []\n      # not a comment\n    name: b\n    version: 2.0.0\n", true},
	{"plain scalars over lines", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    description: starts plain\n      \"goes on\n      - with a dash\n      [and a bracket\n    home: x\n  -\n    name: a\n    version: 2.0.0\n    icon:\n      plain\n     'continued\n  b:\n  - name: b\n    version: 1.0.0\n    home: ends\"\n", true},
	{"flow collections on a line", "apiVersion: v1\nentries:\n  a:\n  - {name: a, version: 1.0.0, keywords: [x, z]}\n  - name: a\n    version: 2.0.0\n    maintainers: [{name: m}]\n    urls: []\n  b: []\n  c: ~\n", true},
	{"indented lists and root", "  apiVersion: v1\n  entries:\n      a:\n          -   name: a\n              version: 1.0.0\n              keywords:\n                - x\n", true},
	{"document start", "---\napiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n", true},
	{"document start with a comment", "# c\n--- # c\napiVersion: v1\nentries:\n  a: []\n", true},
	{"top level after entries", "entries:\n  a:\n  - name: a\n    version: 1.0.0\napiVersion: v1\npublicKeys:\n- k1\n- k2\n", true},
	{"empty entries", "apiVersion: v1\nentries: {}\ngenerated: \"2024-01-01T00:00:00Z\"\n", true},
	{"null entries", "apiVersion: v1\nentries:\ngenerated: \"2024-01-01T00:00:00Z\"\n", true},
	{"null entries spelled", "apiVersion: v1\nentries: ~ # none\n", true},
	{"null and empty charts", "apiVersion: v1\nentries:\n  a:\n  b: []\n  c: ~\n  d:\n  - null\n  - name: d/e\n    version: 1.0.0\n", true},
	{"invalid versions dropped and sorted", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n  - name: a\n    version: not-semver\n  - name: a\n    version: 10.0.0\n  - name: a\n    version: 2.0.0-rc.1\n  - name: a\n    version: 1.0.0\n    type: other\n", true},
	{"case of entries", "apiVersion: v1\nEntries:\n  a:\n  - name: a\n    version: 1.0.0\n", true},
	{"keys retyped the same", "apiVersion: v1\nentries:\n  yes:\n  - name: a\n    version: 1.0.0\n  \"true\":\n  - name: b\n    version: 1.0.0\n", true},
	{"unicode", "apiVersion: v1\nentries:\n  ünï:\n  - name: ünï\n    version: 1.0.0\n    description: 日本語 ✓\n", true},
	// Left to Read.
	{"anchors", "apiVersion: v1\nentries:\n  a:\n  - &x\n    name: a\n    version: 1.0.0\n  b:\n  - *x\n", false},
	{"merge key in entries", "apiVersion: v1\nentries:\n  <<: {b: []}\n  a: []\n", false},
	{"flow entries", "apiVersion: v1\nentries: {a: [{name: a, version: 1.0.0}]}\n", false},
	{"flow over lines", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    keywords: [x,\n  z]\n", false},
	{"two spellings of entries", "apiVersion: v1\nentries:\n  a: []\nEntries:\n  b: []\n", false},
	{"tab", "apiVersion: v1\nentries:\n  a:\n  - name:\ta\n    version: 1.0.0\n", false},
	{"byte order mark", "\ufeffapiVersion: v1\nentries:\n  a: []\n", false},
	{"tags", "apiVersion: v1\nentries:\n  a:\n  - name: !!str a\n    version: 1.0.0\n", false},
	{"explicit key", "apiVersion: v1\nentries:\n  ? a\n  : []\n", false},
	{"document end", "apiVersion: v1\nentries:\n  a: []\n...\n", false},
	{"flow style", `{apiVersion: v1, entries: {a: [{name: a, version: 1.0.0}]}}`, false},
	// JSON.
	{"json", `{"apiVersion": "v1", "entries": {"a": [{"name": "a", "version": "1.0.0", "Created": "2024-01-01T00:00:00Z", "unknown": 1}], "b": [], "c": null}, "generated": "2024-01-01T00:00:00Z"}`, true},
	{"json escapes and case", "{\"APIVERSION\":\"v1\",\"Entri\\u0065s\":{\"\\u00fcn\\u00ef\":[{\"name\":\"\\u00fcn\\u00ef\",\"version\":\"1.0.0\",\"description\":\"a \\\"b\\\" \\\\ \\/ \\n\"}],\n\"x\":[{\"name\":\"x\",\"version\":\"2.0.0\",\"deprecated\":true,\"urls\":[\"u\"],\"annotations\":{\"k\":\"v\"},\"dependencies\":[{\"name\":\"d\",\"import-values\":[1.5e3,-0,{\"a\":[null,false]}]}]}]}}", true},
	{"json duplicate chart", `{"apiVersion": "v1", "entries": {"a": [{"name": "a", "version": "1.0.0"}], "a": [{"name": "a", "version": "2.0.0"}]}}`, true},
	{"json empty entries", `{"apiVersion": "v1", "entries": {}}`, true},
	{"json null entries", `{"apiVersion": "v1", "entries": null}`, false},
	{"json two spellings", `{"apiVersion": "v1", "entries": {"a": []}, "ENTRIES": {"b": []}}`, false},
	{"json invalid", "{\"apiVersion\": \"v1\", \"entries\": {\"a\": [{\"name\": \"a\", \"version\": \"1.0.0\"},]}}", false},
}

func TestChartVersionsShapes(t *testing.T) {
	for _, tt := range lookupShapes {
		t.Run(tt.name, func(t *testing.T) {
			if outlined := sameAsRead(t, []byte(tt.data)); outlined != tt.outlined {
				t.Errorf("outlined = %v, want %v", outlined, tt.outlined)
			}
		})
	}
}

func TestChartVersionsGencatalog(t *testing.T) {
	for _, n := range []int{1, 45, 600} {
		idx := gencatalog.Index(n)
		dir := t.TempDir()
		helmYAML, helmJSON := filepath.Join(dir, "index.yaml"), filepath.Join(dir, "index.json")
		if err := idx.WriteFile(helmYAML, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := idx.WriteJSONFile(helmJSON, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs := map[string][]byte{}
		for _, p := range []string{helmYAML, helmJSON} {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			inputs["helm "+filepath.Ext(p)] = data
		}
		for _, format := range []string{"yaml", "json"} {
			var b bytes.Buffer
			if err := Encode(&b, idx, format); err != nil {
				t.Fatal(err)
			}
			inputs["Encode "+format] = b.Bytes()
		}
		for what, data := range inputs {
			t.Run(what, func(t *testing.T) {
				if !sameAsRead(t, data) {
					t.Error("the outline leaves it to Read")
				}
				names, err := ChartNames(data, "index.yaml")
				if err != nil || len(names) != max(n/30, 1) {
					t.Errorf("ChartNames: %d names, %v", len(names), err)
				}
			})
		}
	}
}

// TestChartVersionsLikeReadGenerated compares ChartVersions with Read on
// the random hand-written-looking indexes of TestReadLikeHelmGenerated.
func TestChartVersionsLikeReadGenerated(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(7, 11))
	accepted, usual := 0, 0
	for i := range n {
		w := &docWriter{rng: rng}
		data := []byte(w.doc())
		if _, err := Read(data, "index.yaml"); err != nil {
			// Whatever else it says, ChartVersions must not panic.
			for _, chart := range []string{"alpha", "beta", absentChart} {
				ChartVersions(data, "index.yaml", chart)
			}
			continue
		}
		accepted++
		outlined := false
		ok := t.Run("", func(t *testing.T) { outlined = sameAsRead(t, data) })
		if !ok {
			t.Fatalf("doc %d:\n%s", i, data)
		}
		if !leftToRead(data) {
			usual++
			if !outlined {
				t.Errorf("doc %d: the outline leaves it to Read:\n%s", i, data)
			}
		}
	}
	if accepted < n/8 || usual < accepted/2 {
		t.Errorf("of %d documents, Read accepted %d, of which %d usual ones: the test needs better ones", n, accepted, usual)
	}
}

// leftToRead reports whether a generated document holds what the outline
// leaves to Read: a line break other than LF and CRLF, a tab, or a plain
// scalar of scalarPool that YAML reads as an anchor, an alias or a tag.
func leftToRead(data []byte) bool {
	if !usualLineBreaks(string(data)) || bytes.IndexByte(data, '\t') >= 0 {
		return true
	}
	for _, node := range []string{": &", "- &", ": *", "- *", ": !", "- !"} {
		if bytes.Contains(data, []byte(node)) {
			return true
		}
	}
	return false
}

// TestChartVersionsErrors checks that errors read as Read's, with the
// lines of the input, and that only the chart's own block and the top
// level matter.
func TestChartVersionsErrors(t *testing.T) {
	const others = "  a:\n  - name: a\n    version: 1.0.0\n    description: 'over\n      lines'\n"
	tests := []struct {
		name, data, chart string
		want              string // in the message, which must be Read's
		topLevel          bool   // the fault is outside entries: ChartNames sees it too
	}{
		{"api version", "apiVersion: v2\nentries:\n" + others, "a", `index.yaml:1: apiVersion: "v2" is not supported`, true},
		{"no api version", "entries:\n" + others, "a", "index.yaml: no API version specified", true},
		{"api version after entries", "entries:\n" + others + "apiVersion: v3\n", "a", `index.yaml:7: apiVersion: "v3" is not supported`, true},
		{"bad time", "apiVersion: v1\nentries:\n" + others + "generated: yesterday\n", "a", "index.yaml:8: generated: \"yesterday\" is not a time", true},
		{"json top level", "{\"apiVersion\": \"v1\",\n\"entries\": {\"b\": []},\n\"generated\": 1}\n", "b", "index.yaml: invalid index JSON", true},
		{"unknown field in the chart", "apiVersion: v1\nentries:\n" + others + "  b:\n  - name: b\n    version: 1.0.0\n    colour: red\ngenerated: \"2024-01-01T00:00:00Z\"\n", "b",
			`index.yaml:11: entries.b[0].colour: unknown field "colour"`, false},
		{"wrong type in the chart", "apiVersion: v1\nentries:\n" + others + "  b:\n  - name: b\n    version: 1.0.0\n  - name: [b]\n    version: 1.0.0\n", "b",
			"index.yaml:11: entries.b[1].name: is a list but must be a string", false},
		{"syntax in the chart", "apiVersion: v1\nentries:\n" + others + "  b:\n  - name: b\n   version: 1.0.0\n", "b", "index.yaml:10: invalid YAML", false},
		{"chart twice", "apiVersion: v1\nentries:\n  b: []\n" + others + "  b: []\n", "b", `index.yaml:9: entries: key "b" is set twice`, false},
		{"json type in the chart", "{\"apiVersion\": \"v1\",\n\"entries\": {\"a\": [],\n\"b\": [{\"name\": \"b\", \"version\": \"1.0.0\"},\n{\"name\": 1}]}}\n", "b", "index.yaml:4: invalid index JSON", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			_, rerr := Read(data, "index.yaml")
			if rerr == nil {
				t.Fatal("Read accepts the test input")
			}
			if outlineIndex(data) == nil {
				t.Error("the outline leaves it to Read")
			}
			_, err := ChartVersions(data, "index.yaml", tt.chart)
			if err == nil {
				t.Fatalf("ChartVersions accepts it; Read says %v", rerr)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
			if err.Error() != rerr.Error() {
				t.Errorf("error %q is not Read's %q", err, rerr)
			}
			if _, err := ChartNames(data, "index.yaml"); (err != nil) != tt.topLevel {
				t.Errorf("ChartNames: error %v, want one: %v", err, tt.topLevel)
			}
		})
	}
}

// TestChartVersionsOtherChartsUnread checks that a fault in another
// chart's block, which makes Read refuse the index, does not keep
// ChartVersions from giving the chart as Read gives it without that
// block.
func TestChartVersionsOtherChartsUnread(t *testing.T) {
	const b = "  b:\n  - name: b\n    version: 1.0.0\n    description: 'over\n      lines'\n"
	tests := []struct{ name, broken, others string }{
		{"unknown field", "  c:\n  - name: c\n    version: 1.0.0\n    colour: red\n", b},
		{"syntax", "  c:\n  - name: c\n   version: 1.0.0\n", b},
		{"wrong type", "  c: 1\n", b},
		{"same chart twice", "  c: []\n", "  c: []\n" + b},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte("apiVersion: v1\nentries:\n" + tt.broken + tt.others + "generated: \"2024-01-01T00:00:00Z\"\n")
			if _, err := Read(data, "index.yaml"); err == nil {
				t.Fatal("Read accepts the test input")
			}
			want, err := Read([]byte("apiVersion: v1\nentries:\n"+b+"generated: \"2024-01-01T00:00:00Z\"\n"), "index.yaml")
			if err != nil {
				t.Fatal(err)
			}
			got, err := ChartVersions(data, "index.yaml", "b")
			if err != nil {
				t.Fatalf("ChartVersions: %v", err)
			}
			if !reflect.DeepEqual(got, []*repo.ChartVersion(want.Entries["b"])) || len(got) != 1 {
				t.Errorf("ChartVersions = %s, want %s", dumpVersions(t, got), dumpVersions(t, want.Entries["b"]))
			}
			if names, err := ChartNames(data, "index.yaml"); err != nil || !slices.Equal(names, []string{"b", "c"}) {
				t.Errorf("ChartNames = %q, %v", names, err)
			}
		})
	}
	data := []byte(`{"apiVersion": "v1", "entries": {"b": [{"name": "b", "version": "1.0.0"}], "c": [{"name": 1}]}}`)
	if got, err := ChartVersions(data, "index.json", "b"); err != nil || len(got) != 1 || got[0].Name != "b" {
		t.Errorf("JSON: ChartVersions = %s, %v", dumpVersions(t, got), err)
	}
}

func TestChartNotFound(t *testing.T) {
	data := []byte("apiVersion: v1\nentries:\n  nginx: []\n  'redis':\n  - name: redis\n    version: 1.0.0\n  \"etcd\": ~\n")
	_, err := ChartVersions(data, "repo/index.yaml", "ngnix")
	var nf *ChartNotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("error %v is not a *ChartNotFoundError", err)
	}
	if want := []string{"etcd", "nginx", "redis"}; !slices.Equal(nf.Known, want) {
		t.Errorf("Known = %q, want %q", nf.Known, want)
	}
	if msg := err.Error(); !strings.Contains(msg, "repo/index.yaml") || !strings.Contains(msg, `"ngnix"`) || !strings.Contains(msg, "3 charts") {
		t.Errorf("message %q does not name the index, the chart and the count", msg)
	}
	_, err = ChartVersions([]byte("apiVersion: v1\nentries: {}\n"), "index.yaml", "a")
	if !errors.As(err, &nf) || len(nf.Known) != 0 || !strings.Contains(err.Error(), "no charts") {
		t.Errorf("empty index: %v", err)
	}
	// A chart without a valid version is found, empty.
	cvs, err := ChartVersions([]byte("apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: nope\n"), "index.yaml", "a")
	if err != nil || cvs == nil || len(cvs) != 0 {
		t.Errorf("chart without valid versions: %v, %v", cvs, err)
	}
}

// TestChartVersionsOwnsItsMemory checks that the result does not refer
// to the caller's buffer, which may be reused.
func TestChartVersionsOwnsItsMemory(t *testing.T) {
	for _, data := range []string{usual, `{"apiVersion": "v1", "entries": {"nginx": [{"name": "nginx", "version": "1.0.0", "urls": ["u"]}]}}`} {
		buf := []byte(data)
		cvs, err := ChartVersions(buf, "index.yaml", "nginx")
		if err != nil {
			t.Fatal(err)
		}
		before := dumpVersions(t, cvs)
		for i := range buf {
			buf[i] = 'x'
		}
		if after := dumpVersions(t, cvs); after != before {
			t.Errorf("the result changed with the input buffer:\n%s\n%s", before, after)
		}
	}
}

// TestOutlineJSONStricterThanValid checks that what the JSON outline
// reads, json.Valid accepts: otherwise Read would read it as YAML.
func TestOutlineJSONStricterThanValid(t *testing.T) {
	valid := `{"apiVersion": "v1", "entries": {"a": [{"name": "a", "version": "1.0.0", "n": -1.5e+3, "z": 0, "t": true, "f": false, "x": null, "s": "\u00e9\t"}]}}`
	if outlineJSON([]byte(valid)) == nil {
		t.Fatal("the outline refuses valid JSON")
	}
	for _, bad := range []string{
		`{"entries": {}`, `{"entries": {}}}`, `{"entries": {},}`, `{"entries": {"a": [1,]}}`, `{"entries": {"a": [01]}}`,
		`{"entries": {"a": [1.]}}`, `{"entries": {"a": [.5]}}`, `{"entries": {"a": [-]}}`, `{"entries": {"a": [1e]}}`, `{"entries": {"a": [+1]}}`,
		`{"entries": {"a": [tru]}}`, `{"entries": {"a": [nulls]}}`, `{"entries": {"a": ["\x"]}}`, `{"entries": {"a": ["\u12"]}}`,
		"{\"entries\": {\"a\": [\"\x01\"]}}", `{"entries": {"a": ['a']}}`, `{"entries": {a: []}}`, `{"entries" {}}`, `{"entries": {"a": [] "b": []}}`,
		`{"entries": {"a": [{"k" 1}]}}`, `{"entries": {"a": [{"k": 1,}]}}`, `{"entries": {"a": [{1: 1}]}}`, `{"entries": {}} x`,
	} {
		if json.Valid([]byte(bad)) {
			t.Errorf("json.Valid accepts %q", bad)
		}
		if outlineJSON([]byte(bad)) != nil {
			t.Errorf("the outline accepts %q", bad)
		}
	}
	// Deeper than the outline reads, which leaves it to Read.
	deep := []byte(`{"apiVersion": "v1", "entries": {"a": [` + strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth) + `]}}`)
	if !json.Valid(deep) || outlineJSON(deep) != nil {
		t.Errorf("deep nesting: json.Valid %v, outlined %v", json.Valid(deep), outlineJSON(deep) != nil)
	}
}

// FuzzChartVersions checks ChartVersions and ChartNames against Read: the
// same versions for every chart Read finds, a ChartNotFoundError listing
// them for another, and never a panic.
func FuzzChartVersions(f *testing.F) {
	fuzzSeeds(f)
	rng := rand.New(rand.NewPCG(3, 5))
	for range 8 {
		w := &docWriter{rng: rng}
		f.Add([]byte(w.doc()))
	}
	for _, shape := range lookupShapes {
		f.Add([]byte(shape.data))
	}
	f.Add([]byte(`{"apiVersion": "v1", "entries": {"a": [], "b\u0021": [{"name": "b", "version": "1.0.0"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if o := outlineJSON(data); o != nil && !json.Valid(data) {
			t.Fatalf("the JSON outline reads what json.Valid refuses")
		}
		idx, err := Read(data, "fuzz.yaml")
		if err != nil {
			for _, chart := range []string{"a", "b", absentChart} {
				if _, err := ChartVersions(data, "fuzz.yaml", chart); err != nil && !strings.HasPrefix(err.Error(), "fuzz.yaml") {
					t.Fatalf("error does not name the file: %v", err)
				}
			}
			ChartNames(data, "fuzz.yaml")
			return
		}
		want := sortedNames(idx.Entries)
		names, err := ChartNames(data, "fuzz.yaml")
		if err != nil || !slices.Equal(names, want) {
			t.Fatalf("ChartNames = %q, %v; Read has %q", names, err, want)
		}
		for chart, cvs := range idx.Entries {
			got, err := ChartVersions(data, "fuzz.yaml", chart)
			if err != nil {
				t.Fatalf("ChartVersions(%q): %v", chart, err)
			}
			if !reflect.DeepEqual(got, []*repo.ChartVersion(cvs)) {
				t.Fatalf("ChartVersions(%q) differs from Read:\n got %s\nwant %s", chart, dumpVersions(t, got), dumpVersions(t, cvs))
			}
			sameTopLevel(t, data, idx, chart)
		}
		if _, ok := idx.Entries[absentChart]; !ok {
			_, err := ChartVersions(data, "fuzz.yaml", absentChart)
			var nf *ChartNotFoundError
			if !errors.As(err, &nf) || !slices.Equal(nf.Known, want) {
				t.Fatalf("absent chart: %v", err)
			}
		}
	})
}
