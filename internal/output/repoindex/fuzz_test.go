package repoindex

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/gencatalog"

	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// fuzzSeeds are indexes in the styles Read must handle.
func fuzzSeeds(f *testing.F) {
	f.Add([]byte(usual))
	f.Add([]byte(strings.ReplaceAll(usual, "\n", "\r\n")))
	var b bytes.Buffer
	if err := Encode(&b, gencatalog.Index(4), "yaml"); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte("apiVersion: v1\nentries:\n  a:\n  - &x\n    name: a\n    version: 1.0.0\n    maintainers: [{name: m}]\n  b:\n  - <<: *x\n    name: b\n"))
	f.Add([]byte(`{"apiVersion": "v1", "entries": {"a": [{"name": "a", "version": "1.0.0", "created": "2024-01-01T00:00:00Z"}]}}`))
	f.Add([]byte("apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    description: \"x\n\n      y \\\n      z\"\n    home: 'a\n      b'\n    icon: plain\n      continued\n"))
	f.Add([]byte("---\napiVersion: v1 # c\nentries: {}\nserverInfo:\n  a: [1, {b: c}]\n"))
}

// FuzzRead checks that Read never panics, that what it reads Encode writes
// back to the same index, in YAML and in JSON, and that the fast parser,
// when it reads the input, agrees with the general one.
func FuzzRead(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		src := string(data)
		if ft, froot, err := fastParse(src); err == nil {
			fast, _, ferr := decodeTree(ft, froot, nil)
			general, _, gerr := decodeTree(generalParse(data))
			if (ferr == nil) != (gerr == nil) {
				t.Fatalf("fast parser error %v, general parser error %v", ferr, gerr)
			}
			if ferr == nil && dump(t, fast) != dump(t, general) {
				t.Fatalf("the parsers disagree:\n%s", firstDiff(dump(t, fast), dump(t, general)))
			}
		}
		idx, err := Read(data, "fuzz.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		want := normalTimes(t, idx)
		for _, format := range []string{"yaml", "json"} {
			var b bytes.Buffer
			if err := Encode(&b, idx, format); err != nil {
				// Only dates JSON cannot hold make Encode fail.
				if strings.Contains(err.Error(), "year") {
					return
				}
				t.Fatalf("Encode %s: %v", format, err)
			}
			again, err := Read(b.Bytes(), "again")
			if err != nil {
				t.Fatalf("Read of Encode's %s: %v\n%s", format, err, b.String())
			}
			if got := normalTimes(t, again); got != want {
				t.Fatalf("%s round trip differs:\n%s", format, firstDiff(got, want))
			}
		}
	})
}

// normalTimes dumps idx with its times in UTC: a round trip keeps instants,
// not *time.Location values.
func normalTimes(t *testing.T, idx *repo.IndexFile) string {
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

// FuzzReadLikeHelm checks that what Helm's loader reads, Read reads the
// same, and that Read refuses nothing Helm's loader accepts but for an
// apiVersion other than v1.
func FuzzReadLikeHelm(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		want, herr := helmLoad(t, string(data))
		got, err := Read(data, "fuzz.yaml")
		if herr != nil {
			return
		}
		if err != nil {
			if errors.Is(err, repo.ErrNoAPIVersion) || strings.Contains(err.Error(), "is not supported") {
				return
			}
			t.Fatalf("Helm reads it, Read says: %v", err)
		}
		if g, w := normalTimes(t, got), normalTimes(t, comparable(want)); g != w {
			// Helm keeps one of two keys that JSON makes equal (yes and
			// "true") at random: no result to compare with then.
			for range 6 {
				if again, _ := helmLoad(t, string(data)); normalTimes(t, comparable(again)) != w {
					return
				}
			}
			t.Fatalf("Read differs from Helm:\n%s", firstDiff(g, w))
		}
	})
}
