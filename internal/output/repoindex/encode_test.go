package repoindex

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/testkit/gencatalog"

	"gopkg.in/yaml.v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"
	sigsyaml "sigs.k8s.io/yaml"
)

func TestMain(m *testing.M) {
	// Helm's loader and Read warn about the invalid entries tests feed them.
	slog.SetDefault(slog.New(slog.DiscardHandler))
	os.Exit(m.Run())
}

// hostile are strings a naive YAML writer gets wrong.
var hostile = []string{
	"", " ", "yes", "no", "on", "off", "y", "n", "true", "False", "null", "Null", "~", "<<", "=",
	"1.0", "1.10", "0x1F", "0o17", "0b101", "1e3", "1_000", ".5", ".inf", "-.Inf", ".NaN", "+1", "-1", "012", "09",
	"2024-01-02", "2024-01-02T03:04:05Z", "1:20", "12:30:45",
	"*star", "&amp", "!bang", "%percent", "@at", "`tick", "|pipe", ">folded", "#hash", "?q", "? q", "-dash", "- item", ":colon",
	"[list]", "{map}", ",comma", "'single'", "\"double\"", "a: b", "a #b", "a#b", "a:b", "trailing:", "trailing ", " leading",
	"two  spaces", "line\nbreak", "tab\there", "cr\rlf", "back\\slash", "bell\a", "nul\x00", "del\x7f", "nel\u0085", "ls\u2028ps\u2029",
	"bom\ufeff", "é unicode ✓ 日本 🚀", "\ufffe", "invalid\xffutf8", "https://example.com/a?b=c&d=e#frag", "--- marker", "...",
	"---", "a\n\nb", strings.Repeat("long ", 300),
}

// roundTripIndex is an index that uses every field, holding hostile
// strings where Helm's loader keeps them verbatim (it sanitizes most of
// the metadata fields).
func roundTripIndex() *repo.IndexFile {
	annotations := map[string]string{}
	for i, s := range hostile {
		if !strings.ContainsRune(s, 0xfffd) && !strings.Contains(s, "\xff") {
			annotations[s] = validUTF8(hostile[len(hostile)-1-i])
		}
	}
	created := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	idx := &repo.IndexFile{
		APIVersion:  "v1",
		Generated:   created,
		Annotations: map[string]string{"a": "b", "yes": "1.0"},
		PublicKeys:  []string{"key: one", "2"},
		ServerInfo:  map[string]any{"contextPath": "/x", "n": 1.5, "list": []any{"a", 2.0, true, nil, map[string]any{"k": "v"}, []any{"nested"}}, "empty": map[string]any{}},
		Entries:     map[string]repo.ChartVersions{},
	}
	for i, s := range hostile {
		name := "chart-" + string(rune('a'+i%26)) + "x"
		md := &chart.Metadata{
			APIVersion:  "v2",
			Name:        name,
			Version:     "1.0." + string(rune('0'+i%10)) + "-" + string(rune('a'+i/10)),
			AppVersion:  sanitize(s),
			Description: sanitize(s),
			Keywords:    []string{sanitize(s), "k"},
			Maintainers: []*chart.Maintainer{{Name: sanitize(s), Email: "e@x", URL: "u"}, {Name: "b"}},
			Home:        sanitize(s),
			Sources:     []string{sanitize(s)},
			Icon:        sanitize(s),
			Condition:   sanitize(s),
			Tags:        sanitize(s),
			KubeVersion: sanitize(s),
			Deprecated:  i%2 == 0,
			Type:        "library",
			Annotations: annotations,
			Dependencies: []*chart.Dependency{
				{Name: sanitize(s), Version: sanitize(s), Repository: sanitize(s), Condition: "c", Tags: []string{sanitize(s)}, Enabled: true,
					ImportValues: []any{"data", map[string]any{"child": validUTF8(s), "parent": "p"}}, Alias: "alias-1"},
				{Name: "empty-repository", Repository: ""},
			},
		}
		if strings.Contains(s, "\xff") || strings.ContainsRune(s, 0xfffd) {
			md.Annotations = nil
		}
		idx.Entries[name] = append(idx.Entries[name], &repo.ChartVersion{
			Metadata: md,
			URLs:     []string{validUTF8(s), "b"},
			Created:  created.Add(time.Duration(i) * time.Second),
			Removed:  i%3 == 0,
			Digest:   validUTF8(s),
		})
	}
	idx.Entries["no-urls"] = repo.ChartVersions{{Metadata: &chart.Metadata{APIVersion: "v1", Name: "no-urls", Version: "0.1.0"}, Created: created}}
	idx.Entries["empty-urls"] = repo.ChartVersions{{Metadata: &chart.Metadata{APIVersion: "v1", Name: "empty-urls", Version: "0.1.0"}, URLs: []string{}, Created: created.In(time.FixedZone("X", 3600))}}
	idx.SortEntries()
	return idx
}

// sanitize is what chart.Metadata.Validate makes of s, so that Helm's
// loader gives it back unchanged.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0x0b || r == 0x0c || r == 0xa0:
			return ' '
		case r < ' ' || r == 0x7f || r == 0xfffe || r == 0xfeff || r == 0x2028 || r >= 0x80 && r < 0xa0:
			return -1
		}
		return r
	}, validUTF8(s))
}

func validUTF8(s string) string { return strings.ToValidUTF8(s, "\ufffd") }

func TestRoundTripThroughHelm(t *testing.T) {
	in := roundTripIndex()
	// Make sure the fixture is what Helm's loader keeps as is.
	for _, cvs := range in.Entries {
		for _, cv := range cvs {
			before := *cv.Metadata
			if err := cv.Validate(); err != nil {
				t.Fatalf("fixture %s is invalid: %v", cv.Name, err)
			}
			if !reflect.DeepEqual(before, *cv.Metadata) {
				t.Fatalf("fixture %s is not sanitized: %+v", cv.Name, before)
			}
		}
	}
	for _, format := range []string{"yaml", "json"} {
		t.Run(format, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "index.yaml")
			if err := WriteFile(p, in, format); err != nil {
				t.Fatal(err)
			}
			helm, err := repo.LoadIndexFile(p)
			if err != nil {
				t.Fatalf("Helm cannot load it: %v", err)
			}
			sameIndex(t, "Helm's loader", helm, in)
			ours, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			sameIndex(t, "Load", ours, in)
		})
	}
}

// sameIndex compares indexes, times by instant (time zones differ after a
// round trip as they do in Helm).
func sameIndex(t *testing.T, what string, got, want *repo.IndexFile) {
	t.Helper()
	norm := func(idx *repo.IndexFile) string {
		c := *idx
		c.Generated = c.Generated.UTC()
		c.Entries = map[string]repo.ChartVersions{}
		for n, cvs := range idx.Entries {
			for _, cv := range cvs {
				x := *cv
				x.Created = x.Created.UTC()
				c.Entries[n] = append(c.Entries[n], &x)
			}
		}
		return dump(t, &c)
	}
	if g, w := norm(got), norm(want); g != w {
		t.Errorf("%s gives another index:\n%s", what, firstDiff(g, w))
	}
	for n, cvs := range want.Entries {
		for i, cv := range cvs {
			g := got.Entries[n][i]
			if !g.Created.Equal(cv.Created) || !reflect.DeepEqual(g.Metadata, cv.Metadata) || !reflect.DeepEqual(g.URLs, cv.URLs) {
				t.Errorf("%s: %s %s differs:\n got %+v %+v\nwant %+v %+v", what, n, cv.Version, g, g.Metadata, cv, cv.Metadata)
			}
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n got " + al[i] + "\nwant " + bl[i]
		}
	}
	return "lengths differ"
}

func TestEncodeDeterministic(t *testing.T) {
	in := roundTripIndex()
	var a, b bytes.Buffer
	if err := Encode(&a, in, "yaml"); err != nil {
		t.Fatal(err)
	}
	if err := Encode(&b, in, "yaml"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two encodings differ")
	}
	// Versions of equal SemVer precedence, in every order.
	rng := rand.New(rand.NewPCG(1, 2))
	ties := repo.ChartVersions{}
	for _, v := range []string{"1.0.0", "1.0.0+b", "1.0.0+a", "v1.0.0", "1.0", "2.0.0-rc.1", "2.0.0-rc.1", "not-semver", "zzz"} {
		ties = append(ties, &repo.ChartVersion{Metadata: &chart.Metadata{Name: "t", Version: v, Description: v}})
	}
	ties[6].Description = "same version, other entry"
	in.Entries["ties"] = ties
	for _, format := range []string{"yaml", "json"} {
		var want bytes.Buffer
		if err := Encode(&want, in, format); err != nil {
			t.Fatal(err)
		}
		for range 20 {
			shuffled := *in
			shuffled.Entries = map[string]repo.ChartVersions{}
			for n, cvs := range in.Entries {
				c := append(repo.ChartVersions(nil), cvs...)
				rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
				shuffled.Entries[n] = c
			}
			before := append(repo.ChartVersions(nil), shuffled.Entries["ties"]...)
			var got bytes.Buffer
			if err := Encode(&got, &shuffled, format); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%s: shuffled input encodes differently", format)
			}
			if !reflect.DeepEqual(before, shuffled.Entries["ties"]) {
				t.Fatalf("Encode reordered its input")
			}
		}
	}
}

func TestEncodeOrder(t *testing.T) {
	var b strings.Builder
	idx := &repo.IndexFile{APIVersion: "v1", Entries: map[string]repo.ChartVersions{}}
	for _, v := range []string{"1.0.0", "10.0.0", "2.0.0-beta.2", "2.0.0", "2.0.0-beta.10", "bad"} {
		idx.Entries["b"] = append(idx.Entries["b"], &repo.ChartVersion{Metadata: &chart.Metadata{Name: "b", Version: v}})
	}
	idx.Entries["a"] = repo.ChartVersions{{Metadata: &chart.Metadata{Name: "a", Version: "1.0.0"}}}
	if err := Encode(&b, idx, ""); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, l := range strings.Split(b.String(), "\n") {
		if v, ok := strings.CutPrefix(l, "    version: "); ok {
			order = append(order, v)
		}
		if n, ok := strings.CutSuffix(l, ":"); ok && strings.HasPrefix(n, "  ") && !strings.HasPrefix(n, "   ") {
			order = append(order, n[2:])
		}
	}
	want := []string{"a", "1.0.0", "b", "10.0.0", "2.0.0", "2.0.0-beta.10", "2.0.0-beta.2", "1.0.0", "bad"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("order %v, want %v\n%s", order, want, b.String())
	}
}

// TestPlainScalars checks that what Encode writes unquoted, YAML 1.1
// (Helm) and YAML 1.2 (yaml.v3) parsers read as the same string.
func TestPlainScalars(t *testing.T) {
	candidates := append([]string{"nginx", "1.2.3", "2.x.x", "v1", "a-b_c.d/e", "https://example.com/a?b=c", "Platform team", "~15.2.0", "1.0.0-rc.1+build.5"}, hostile...)
	for _, s := range candidates {
		var b []byte
		b = append(b, "k: "...)
		b = appendString(b, s)
		var v3 map[string]any
		if err := yaml.Unmarshal(b, &v3); err != nil || v3["k"] != validUTF8(s) {
			t.Errorf("yaml.v3 reads %q as %#v (%v)", b, v3["k"], err)
		}
		var v2 struct{ K string }
		if err := sigsyaml.UnmarshalStrict(b, &v2); err != nil || v2.K != validUTF8(s) {
			t.Errorf("sigs.k8s.io/yaml reads %q as %q (%v)", b, v2.K, err)
		}
	}
	for _, s := range []string{"nginx", "1.2.3", "https://example.com/a.tgz", "Platform team"} {
		if !isPlainSafe(s) {
			t.Errorf("%q is quoted, for no reason", s)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	if err := Encode(io.Discard, nil, "yaml"); err == nil {
		t.Error("Encode(nil) succeeds")
	}
	if err := Encode(io.Discard, &repo.IndexFile{}, "toml"); err == nil || !strings.Contains(err.Error(), `"toml"`) {
		t.Errorf("unknown format: %v", err)
	}
	bad := &repo.IndexFile{APIVersion: "v1", Entries: map[string]repo.ChartVersions{
		"a": {{Metadata: &chart.Metadata{Name: "a", Version: "1.0.0"}, Created: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}},
	}}
	err := Encode(io.Discard, bad, "yaml")
	if err == nil || !strings.Contains(err.Error(), `chart "a"`) || !strings.Contains(err.Error(), "10000") {
		t.Errorf("year 10000: %v", err)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "index.yaml")
	if err := os.WriteFile(p, []byte("previous"), 0o600); err != nil {
		t.Fatal(err)
	}
	idx := gencatalog.Index(10)
	if err := WriteFile(p, idx, "yaml"); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil || info.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, %v", info.Mode(), err)
	}
	written, _ := os.ReadFile(p)
	bad := &repo.IndexFile{APIVersion: "v1", Generated: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}
	if err := WriteFile(p, bad, "yaml"); err == nil {
		t.Fatal("WriteFile of an unencodable index succeeds")
	}
	if after, _ := os.ReadFile(p); !bytes.Equal(after, written) {
		t.Error("a failed write changed the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "index.yaml"), idx, "yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("write into a missing directory: %v", err)
	}
}

// TestEncodeFastPath checks that Read's fast parser reads all that Encode
// writes (but keys longer than YAML's implicit limit), as the general
// parser does.
func TestEncodeFastPath(t *testing.T) {
	in := roundTripIndex()
	for _, cvs := range in.Entries {
		for _, cv := range cvs {
			for k := range cv.Annotations {
				if len(k) > maxImplicitKey {
					delete(cv.Annotations, k)
				}
			}
		}
	}
	var b strings.Builder
	if err := Encode(&b, in, "yaml"); err != nil {
		t.Fatal(err)
	}
	data := b.String()
	fast, _, err := decodeTree(fastParse(data))
	if err != nil {
		var u *unusualError
		errors.As(err, &u)
		lines := strings.Split(data, "\n")
		t.Fatalf("the fast parser cannot read Encode's output, at line %d: %q", u.line, lines[max(u.line-1, 0)])
	}
	general, _, err := decodeTree(generalParse([]byte(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fast, general) {
		t.Errorf("the parsers disagree:\n%s", firstDiff(dump(t, fast), dump(t, general)))
	}
}
