package repoindex

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// A published index listing a chart version twice is refused by
// ReadPublished and Merge, naming both digests (and lines, for YAML); Read
// keeps reading it as Helm does.
func TestPublishedDuplicates(t *testing.T) {
	// The same version of two charts, or under another chart's key (Helm
	// files an entry under its key), is no duplicate.
	const distinct = `apiVersion: v1
entries:
  a:
  - name: a
    version: 1.0.0
  - name: a
    version: 2.0.0
  b:
  - name: b
    version: 1.0.0
  c:
  - name: a
    version: 1.0.0
`
	if _, err := ReadPublished([]byte(distinct), "index.yaml"); err != nil {
		t.Fatalf("an index without duplicates: %v", err)
	}
	// a's 1.0.0 listed again at line 13.
	yamlTwice := `apiVersion: v1
entries:
  a:
  - name: a
    version: 1.0.0
    digest: aaaa
    urls: [a-1.0.0.tgz]
  - name: a
    version: 2.0.0
    digest: cccc
  - name: a
    version: 3.0.0
  - name: a
    version: 1.0.0
    digest: sha256:BBBB
`
	if _, err := Read([]byte(yamlTwice), "index.yaml"); err != nil {
		t.Fatalf("Read refuses what Helm reads: %v", err)
	}
	_, err := ReadPublished([]byte(yamlTwice), "https://example.org/index.yaml")
	var de *DuplicateError
	if !errors.As(err, &de) {
		t.Fatalf("want a *DuplicateError, got %v", err)
	}
	for _, want := range []string{"https://example.org/index.yaml:4 and line 13", `chart "a" version 1.0.0 is listed twice`, "sha256:aaaa and sha256:bbbb", "remove the wrong entry"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}

	// The same digest twice is refused too, and said so.
	same := strings.Replace(yamlTwice, "sha256:BBBB", "AAAA", 1)
	if _, err := ReadPublished([]byte(same), "index.yaml"); err == nil || !strings.Contains(err.Error(), "both with digest sha256:aaaa") {
		t.Errorf("the same digest twice: %v", err)
	}

	// JSON has no lines: the digests still say which entries.
	const jsonTwice = `{"apiVersion": "v1", "entries": {"a": [
		{"name": "a", "version": "1.0.0", "digest": "aaaa"},
		{"name": "a", "version": "1.0.0", "digest": "bbbb"}]}}`
	_, err = ReadPublished([]byte(jsonTwice), "index.json")
	if !errors.As(err, &de) || de.Lines != [2]int{} || !strings.Contains(err.Error(), "index.json: chart \"a\" version 1.0.0") {
		t.Errorf("JSON duplicates: %v", err)
	}

	// Merge refuses it whatever read it.
	idx, err := Read([]byte(yamlTwice), "index.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Merge(index(version("b", "1.0.0", "x", day1)), idx, false)
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "the published index: chart \"a\" version 1.0.0 is listed twice") {
		t.Errorf("Merge of a published index with a duplicate: %v", err)
	}
}

// Lines come from either parser: the fast one reads Helm's own layout.
func TestPublishedDuplicateLines(t *testing.T) {
	idx := index(version("a", "1.0.0", "aaaa", day1), version("a", "2.0.0", "cccc", day2), version("a", "1.0.0", "bbbb", day3))
	var b bytes.Buffer
	if err := Encode(&b, idx, "yaml"); err != nil {
		t.Fatal(err)
	}
	_, err := ReadPublished(b.Bytes(), "index.yaml")
	var de *DuplicateError
	if !errors.As(err, &de) {
		t.Fatalf("want a *DuplicateError, got %v", err)
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range de.Lines {
		if l <= 0 || l > len(lines) || !strings.HasPrefix(lines[l-1], "  - ") {
			t.Errorf("line %d of the duplicate is not an entry's first line:\n%s", l, b.String())
		}
		if i == 1 && l <= de.Lines[0] {
			t.Errorf("lines out of order: %v", de.Lines)
		}
	}
	if got := []string{normalDigest(de.Digests[0]), normalDigest(de.Digests[1])}; !slices.Contains(got, "aaaa") || !slices.Contains(got, "bbbb") {
		t.Errorf("digests %v, want aaaa and bbbb", de.Digests)
	}
}

// FuzzReadPublished checks that ReadPublished reads what Read reads, and
// refuses it exactly when a chart lists a version twice, naming entries
// that are there.
func FuzzReadPublished(f *testing.F) {
	fuzzSeeds(f)
	f.Add([]byte("apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    digest: x\n  - name: a\n    version: 1.0.0\n    digest: y\n"))
	f.Add([]byte(`{"apiVersion": "v1", "entries": {"a": [{"name": "a", "version": "1.0.0"}, {"name": "a", "version": "1.0.0"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := Read(data, "fuzz.yaml")
		got, err := ReadPublished(data, "fuzz.yaml")
		if werr != nil {
			if err == nil || err.Error() != werr.Error() {
				t.Fatalf("Read says %v, ReadPublished %v", werr, err)
			}
			return
		}
		dup := ""
		for _, name := range sortedNames(want.Entries) {
			seen := map[string]bool{}
			for _, cv := range want.Entries[name] {
				if seen[cv.Version] && dup == "" {
					dup = name
				}
				seen[cv.Version] = true
			}
		}
		var de *DuplicateError
		switch {
		case dup == "" && err != nil:
			t.Fatalf("no version listed twice, yet: %v", err)
		case dup != "" && !errors.As(err, &de):
			t.Fatalf("chart %q lists a version twice, yet: %v", dup, err)
		case dup == "":
			if dump(t, got) != dump(t, want) {
				t.Fatalf("ReadPublished differs from Read:\n%s", firstDiff(dump(t, got), dump(t, want)))
			}
		default:
			n := 0
			for _, cv := range want.Entries[de.Chart] {
				if cv.Version == de.Version {
					n++
				}
			}
			if de.Chart != dup || n < 2 {
				t.Fatalf("%v: the index has %d such entries (first chart listing a version twice: %q)", err, n, dup)
			}
			if de.Lines[0] > 0 && de.Lines[1] > 0 && de.Lines[0] >= de.Lines[1] {
				t.Fatalf("lines out of order: %v", err)
			}
		}
	})
}
