package site

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/catalogist/catalogist/internal/base/slider"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// noteText is the text of an option row's notes, one line each.
func noteText(v optionView) string {
	var lines []string
	for _, n := range v.Notes {
		var b strings.Builder
		for _, p := range n.Parts {
			b.WriteString(p.Text)
		}
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}

// rowsByPath maps the rows of a chart's options table by key segments
// joined with NUL (a path joined with slashes could not tell
// nvidia.com/gpu from nvidia.com → gpu).
func rowsByKey(t *testing.T, c *Chart) map[string]optionView {
	t.Helper()
	rows, _ := options(c, contextModels{}.of(c))
	if len(rows) != len(c.Form.Fields) {
		t.Fatalf("%d rows for %d fields", len(rows), len(c.Form.Fields))
	}
	out := map[string]optionView{}
	for i, f := range c.Form.Fields {
		out[strings.Join(f.Option.Key, "\x00")] = rows[i]
	}
	return out
}

func parseSchema(t *testing.T, src string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(src), schema.DefaultExtensionKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// keysSchema holds keys that look alike once joined with slashes, keys that
// look like the encoding's escapes or the items' segment, and a hostile key.
const keysSchema = `{"type": "object", "properties": {
  "limits": {"type": "object", "properties": {
    "nvidia.com/gpu": {"type": "string", "default": "1"},
    "nvidia.com": {"type": "object", "properties": {"gpu": {"type": "string", "default": "2"}}},
    "nvidia.com~2Fgpu": {"type": "string", "default": "3"},
    "[]": {"type": "string", "default": "4"},
    "*": {"type": "string", "default": "5"},
    "\"><script>window.__pwned=1</script> é": {"type": "string", "default": "6"}
  }},
  "volumes": {"type": "array", "default": [], "items": {"type": "object", "properties": {
    "name": {"type": "string", "default": "data"}
  }}}
}}`

// Every row has an id made of its key segments, which a key holding a slash
// or a dot keeps as one segment: no two rows share an id, and every row
// links to itself.
func TestOptionAnchors(t *testing.T) {
	s := parseSchema(t, keysSchema)
	c := &Chart{Name: "keys", Schema: s, Form: schema.Compute(s, nil, nil), Versions: []Version{{Version: "1.0.0", URL: "keys-1.0.0.tgz"}}}
	rows := rowsByKey(t, c)
	k := func(segs ...string) string { return strings.Join(segs, "\x00") }
	for key, want := range map[string]struct {
		anchor string
		depth  int
	}{
		k("limits"):                                          {"option/limits", 0},
		k("limits", "nvidia.com/gpu"):                        {"option/limits/nvidia.com~2Fgpu", 1},
		k("limits", "nvidia.com"):                            {"option/limits/nvidia.com", 1},
		k("limits", "nvidia.com", "gpu"):                     {"option/limits/nvidia.com/gpu", 2},
		k("limits", "nvidia.com~2Fgpu"):                      {"option/limits/nvidia.com~7E2Fgpu", 1},
		k("limits", "*"):                                     {"option/limits/~2A", 1},
		k("limits", `"><script>window.__pwned=1</script> é`): {"option/limits/~22~3E~3Cscript~3Ewindow.__pwned~3D1~3C~2Fscript~3E~20~C3~A9", 1},
		k("volumes"):                                         {"option/volumes", 0},
		k("volumes", schema.ItemsKey):                        {"option/volumes/*", 1},
		k("volumes", schema.ItemsKey, "name"):                {"option/volumes/*/name", 2},
	} {
		got, ok := rows[key]
		if !ok {
			t.Errorf("no row for key %q", strings.Split(key, "\x00"))
			continue
		}
		if got.Anchor != want.anchor || got.Href != "#"+want.anchor || got.Depth != want.depth {
			t.Errorf("key %q: anchor %q, href %q, depth %d; want %q, %q, %d", strings.Split(key, "\x00"), got.Anchor, got.Href, got.Depth, want.anchor, "#"+want.anchor, want.depth)
		}
	}
	// A property named like the items' key segment is not the items.
	if got := rows[k("limits", schema.ItemsKey)].Anchor; got != "option/limits/~5B~5D" {
		t.Errorf("property [] has the anchor %q", got)
	}

	dir := render(t, &Catalog{Name: "keys", RepoURL: normalRepo, Charts: []*Chart{c}}, Options{})
	page := checkPage(t, dir, "charts/keys/index.html")
	var ids []string
	tables := find(page, func(n *html.Node) bool { return n.Data == "table" && hasClass(n, "options") })
	if len(tables) != 1 {
		t.Fatalf("%d options tables", len(tables))
	}
	for _, tr := range find(tables[0], func(n *html.Node) bool { return n.Data == "tr" && n.Parent != nil && n.Parent.Data == "tbody" }) {
		id, ok := attr(tr, "id")
		if !ok || id == "" {
			t.Errorf("option row without an id: %q", textOf(tr))
			continue
		}
		ids = append(ids, id)
		links := find(tr, func(n *html.Node) bool { h, _ := attr(n, "href"); return n.Data == "a" && h == "#"+id })
		if len(links) != 1 {
			t.Errorf("row %s: %d links to itself, want 1", id, len(links))
		}
	}
	if len(ids) != len(c.Form.Fields) {
		t.Errorf("%d rows with an id, want %d", len(ids), len(c.Form.Fields))
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	if len(slices.Compact(sorted)) != len(ids) {
		t.Errorf("ids repeat: %q", ids)
	}
	// The hostile key is text, in its id and in its path.
	if !slices.Contains(ids, "option/limits/~22~3E~3Cscript~3Ewindow.__pwned~3D1~3C~2Fscript~3E~20~C3~A9") {
		t.Errorf("ids %q lack the hostile key's", ids)
	}
	if raw := string(readFile(t, filepath.Join(dir, "charts", "keys", "index.html"))); strings.Contains(raw, "<script>window") {
		t.Error("the hostile key is written unescaped")
	}
}

// The normal fixture's GPU limit, whose key holds a dot and a slash, has
// its anchor on the rendered page.
func TestOptionAnchorsNvidiaGPU(t *testing.T) {
	dir := render(t, normalCatalog(t), Options{})
	page := string(readFile(t, filepath.Join(dir, "charts", "jupyter", "index.html")))
	for _, want := range []string{
		`<tr class="d2" id="option/resources/limits/nvidia.com~2Fgpu">`,
		// The key wraps after a separator only: never inside a word.
		`<a class="opt-link" href="#option/resources/limits/nvidia.com~2Fgpu"><code class="path">resources/<wbr>limits/<wbr>nvidia.<wbr>com/<wbr>gpu</code></a>`,
		`<tr class="opt-group d0" id="option/resources">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("charts/jupyter/index.html lacks %s", want)
		}
	}
}

// The choices shown are the form's: a list the form drops whole (a value
// that does not fit the option) is no choice, listEnum wins over enum, and
// the items of an array get their choices too.
func TestOptionChoices(t *testing.T) {
	s := parseSchema(t, `{"type": "object", "properties": {
  "mode": {"type": "string", "enum": ["a", 3], "default": "a"},
  "size": {"type": "string", "listEnum": ["s", "m"], "enum": ["x"], "default": "s"},
  "count": {"type": "number", "enum": [1, 2.5], "default": 1},
  "tags": {"type": "array", "default": [], "items": {"type": "string", "enum": ["x", "y"], "default": "x"}}
}}`)
	rows := rowsByKey(t, &Chart{Schema: s, Form: schema.Compute(s, nil, nil)})
	for key, want := range map[string]string{
		"mode":            "",
		"size":            "One of s, m",
		"count":           "One of 1, 2.5",
		"tags\x00" + "[]": "One of x, y",
	} {
		if got := noteText(rows[key]); got != want {
			t.Errorf("%q: notes %q, want %q", key, got, want)
		}
	}
}

// On a platform that ignores region slider configurations the page says so
// and shows the chart's bounds; on one that has them, the region's bounds.
func TestRegionSliderConfigByPlatform(t *testing.T) {
	file := filepath.Join("testdata", "normal", "charts", "jupyter", "values.schema.json")
	root, err := srcpos.ParseJSON(readFile(t, file))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := region.Load(filepath.Join("testdata", "normal", "region.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	catalogSliders := map[string]*region.Slider{"disk": {Name: "disk", Config: slider.Config{Min: 1, Max: 50, Step: 1, Unit: "Gi"}}}
	cpu := strings.Join([]string{"resources", "limits", "cpu"}, "\x00")
	for _, tc := range []struct {
		platform  *schema.Platform
		want, bad []string
	}{
		{schema.Onyxia,
			[]string{"Slider 100m – 16000m, step 100m (unit m)", "Asks for the slider configuration cpu, but on the onyxia platform useRegionSliderConfig is ignored: the chart's own bounds apply"},
			[]string{"Bounds from", "replaces these bounds"}},
		{schema.Catalogist,
			[]string{"Slider 100m – 8000m, step 100m (unit m)", "Bounds from the region (slider configuration cpu); the chart's own are 100m – 16000m, step 100m"},
			[]string{"ignored"}},
	} {
		t.Run(tc.platform.Name, func(t *testing.T) {
			s := schema.Build(root, file, schema.Env{Platform: tc.platform})
			c := &Chart{Schema: s, Form: schema.Compute(s, schema.NewContext(nil, reg, catalogSliders, "catalog.yaml"), nil)}
			got := noteText(rowsByKey(t, c)[cpu])
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("notes of resources/limits/cpu lack %q:\n%s", w, got)
				}
			}
			for _, b := range tc.bad {
				if strings.Contains(got, b) {
					t.Errorf("notes of resources/limits/cpu hold %q:\n%s", b, got)
				}
			}
			_, formNote := options(c, contextModels{}.of(c))
			if regionNote := strings.Contains(formNote, "region"); regionNote != tc.platform.RegionSliders {
				t.Errorf("form note %q", formNote)
			}
		})
	}
}

// Inside the items of an array mapped from a context list, a reference may
// name a field of the list's elements: not a missing path.
func TestPrefillInMappedItems(t *testing.T) {
	s := parseSchema(t, `{"type": "object", "properties": {
  "tolerations": {"type": "array", "default": [], "x-platform": {"overwriteDefaultWith": "region.tolerations"},
    "items": {"type": "object", "properties": {
      "key": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "key"}},
      "bogus": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "{{nothing.here}}"}}
    }}},
  "buckets": {"type": "array", "default": [], "x-platform": {"overwriteDefaultWith": "s3_array"},
    "items": {"type": "object", "properties": {
      "key": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "AWS_ACCESS_KEY_ID"}},
      "endpoint": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "{{s3.AWS_S3_ENDPOINT}}"}},
      "typo": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "AWS_ACCESS_KEY"}}
    }}},
  "name": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "{{user.name}}"}}
}}`)
	c := &Chart{Schema: s, Form: schema.Compute(s, nil, nil)}
	model := contextModels{}.of(c)
	kinds := map[string]string{}
	rows, _ := options(c, model)
	for _, r := range rows {
		for _, n := range r.Notes {
			if n.Kind == "prefill" || n.Kind == "fallback" {
				kinds[r.Path] = n.Kind
			}
		}
	}
	want := map[string]string{
		"tolerations": "prefill", "tolerations/[]/key": "prefill", "name": "prefill",
		// s3_array's elements have known fields: a reference is one of
		// them, or a path of the context, else it finds nothing.
		"buckets": "prefill", "buckets/[]/key": "prefill", "buckets/[]/endpoint": "prefill", "buckets/[]/typo": "fallback",
	}
	// region.tolerations lists elements of free keys: nothing is known of
	// them, so nothing is said.
	want["tolerations/[]/bogus"] = "prefill"
	for p, k := range want {
		if kinds[p] != k {
			t.Errorf("%s: note %q, want %q (all: %v)", p, kinds[p], k, kinds)
		}
	}
	// Without a platform, nothing is checked.
	rows, _ = options(c, nil)
	for _, r := range rows {
		for _, n := range r.Notes {
			if n.Kind == "fallback" {
				t.Errorf("%s: a fallback note without a platform", r.Path)
			}
		}
	}
}

func TestWrapParts(t *testing.T) {
	for in, want := range map[string][]string{
		"cpu":                             {"cpu"},
		"resources/limits/nvidia.com/gpu": {"resources/", "limits/", "nvidia.", "com/", "gpu"},
		"custom/enabled":                  {"custom/", "enabled"},
		"a/":                              {"a/"},
		"":                                {""},
	} {
		if got := wrapParts(in, keySeparators); !slices.Equal(got, want) || strings.Join(got, "") != in {
			t.Errorf("wrapParts(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := wrapParts("quay.io/a:1,2", valueSeparators), []string{"quay.", "io/", "a:", "1,", "2"}; !slices.Equal(got, want) {
		t.Errorf("a value is cut as %q, want %q", got, want)
	}
}

// The options reference is cut at each top-level group; top-level options
// between groups keep their place.
func TestOptionSections(t *testing.T) {
	s := parseSchema(t, `{"type": "object", "properties": {
  "mode": {"type": "string", "default": "a"},
  "list": {"type": "array", "default": [], "items": {"type": "string"}},
  "git": {"type": "object", "properties": {"enabled": {"type": "boolean", "default": true}, "sub": {"type": "object", "properties": {"x": {"type": "string"}}}}},
  "size": {"type": "string", "default": "1"},
  "s3": {"type": "object", "properties": {"bucket": {"type": "string"}}}
}}`)
	rows, _ := options(&Chart{Schema: s, Form: schema.Compute(s, nil, nil)}, nil)
	var got []string
	for _, sec := range sections(rows) {
		var paths []string
		for _, r := range sec.Rows {
			paths = append(paths, r.Path)
		}
		head := "-"
		if sec.Group != nil {
			head = sec.Group.Path
		}
		got = append(got, head+": "+strings.Join(paths, " "))
	}
	want := []string{"-: mode list list/[]", "git: git/enabled git/sub git/sub/x", "-: size", "s3: s3/bucket"}
	if !slices.Equal(got, want) {
		t.Errorf("sections %q, want %q", got, want)
	}
	if sections(nil) != nil {
		t.Error("no rows give sections")
	}
}
