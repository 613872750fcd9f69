package repoindex

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/testkit/gencatalog"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

var (
	day1 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	day2 = day1.AddDate(0, 0, 1)
	day3 = day1.AddDate(0, 0, 2)
)

func version(name, v, digest string, created time.Time) *repo.ChartVersion {
	return &repo.ChartVersion{
		Metadata: &chart.Metadata{APIVersion: "v2", Name: name, Version: v, Keywords: []string{"k"},
			Maintainers: []*chart.Maintainer{{Name: "m"}}, Annotations: map[string]string{"a": "b"}},
		URLs:    []string{name + "-" + v + ".tgz"},
		Digest:  digest,
		Created: created,
	}
}

func index(cvs ...*repo.ChartVersion) *repo.IndexFile {
	idx := &repo.IndexFile{APIVersion: "v1", Entries: map[string]repo.ChartVersions{}}
	for _, cv := range cvs {
		idx.Entries[cv.Name] = append(idx.Entries[cv.Name], cv)
	}
	return idx
}

// names lists "chart version" of versions.
func names(cvs []*repo.ChartVersion) []string {
	var out []string
	for _, cv := range cvs {
		out = append(out, cv.Name+" "+cv.Version)
	}
	return out
}

func entryNames(idx *repo.IndexFile) []string {
	var out []string
	for _, n := range sortedNames(idx.Entries) {
		out = append(out, names(idx.Entries[n])...)
	}
	return out
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name            string
		built, pub      *repo.IndexFile
		prune           bool
		want            []string
		kept, added     int
		carried, pruned []string
		generated       time.Time
	}{
		{
			name:  "kept and added",
			built: index(version("a", "1.0.0", "AAA", day3), version("a", "2.0.0", "bbb", day3)),
			pub:   index(version("a", "1.0.0", "sha256:aaa", day1)),
			want:  []string{"a 2.0.0", "a 1.0.0"}, kept: 1, added: 1, generated: day3,
		},
		{
			name:  "carried",
			built: index(version("a", "2.0.0", "bbb", day2)),
			pub:   index(version("a", "1.0.0", "aaa", day1), version("z", "0.1.0", "zzz", day3)),
			want:  []string{"a 2.0.0", "a 1.0.0", "z 0.1.0"}, added: 1,
			carried: []string{"a 1.0.0", "z 0.1.0"}, generated: day3,
		},
		{
			name:  "pruned",
			built: index(version("a", "2.0.0", "bbb", day2)),
			pub:   index(version("a", "1.0.0", "aaa", day1), version("z", "0.1.0", "zzz", day3)),
			prune: true,
			want:  []string{"a 2.0.0"}, added: 1,
			pruned: []string{"a 1.0.0", "z 0.1.0"}, generated: day2,
		},
		{
			name:  "published without digest",
			built: index(version("a", "1.0.0", "aaa", day2)),
			pub:   index(version("a", "1.0.0", "", day1)),
			want:  []string{"a 1.0.0"}, kept: 1, generated: day1,
		},
		{
			name:  "nothing published",
			built: index(version("a", "1.0.0", "aaa", day2)),
			want:  []string{"a 1.0.0"}, added: 1, generated: day2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, tt.built, tt.pub)
			got, r, err := Merge(tt.built, tt.pub, tt.prune)
			if err != nil {
				t.Fatal(err)
			}
			if after := snapshot(t, tt.built, tt.pub); after != before {
				t.Error("Merge modified its inputs")
			}
			if g := entryNames(got); !reflect.DeepEqual(g, tt.want) {
				t.Errorf("versions %v, want %v", g, tt.want)
			}
			if r.Kept != tt.kept || r.Added != tt.added || !reflect.DeepEqual(names(r.Carried), tt.carried) || !reflect.DeepEqual(names(r.Pruned), tt.pruned) {
				t.Errorf("report kept %d added %d carried %v pruned %v", r.Kept, r.Added, names(r.Carried), names(r.Pruned))
			}
			if !got.Generated.Equal(tt.generated) {
				t.Errorf("generated %v, want %v", got.Generated, tt.generated)
			}
			if got.APIVersion != "v1" {
				t.Errorf("apiVersion %q", got.APIVersion)
			}
		})
	}
}

// snapshot encodes indexes, to detect changes.
func snapshot(t *testing.T, idxs ...*repo.IndexFile) string {
	var b bytes.Buffer
	for _, idx := range idxs {
		if idx == nil {
			continue
		}
		for _, n := range sortedNames(idx.Entries) {
			for _, cv := range idx.Entries[n] {
				b.WriteString(n + "\n")
				e := emitter{w: &b}
				e.chartVersion(0, cv)
				if err := e.flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return b.String()
}

func TestMergeKeepsPublishedCreatedAndDigest(t *testing.T) {
	built := index(version("a", "1.0.0", "abc", day3))
	built.Entries["a"][0].URLs = []string{"https://new.example.com/a-1.0.0.tgz"}
	pub := index(version("a", "1.0.0", "sha256:ABC", day1))
	got, _, err := Merge(built, pub, false)
	if err != nil {
		t.Fatal(err)
	}
	cv := got.Entries["a"][0]
	if !cv.Created.Equal(day1) || cv.Digest != "sha256:ABC" {
		t.Errorf("created %v digest %q, want the published ones", cv.Created, cv.Digest)
	}
	if cv.URLs[0] != "https://new.example.com/a-1.0.0.tgz" {
		t.Errorf("URL %q, want the build's", cv.URLs[0])
	}
}

func TestMergeConflicts(t *testing.T) {
	built := index(version("b", "1.0.0", "b-new", day2), version("a", "2.0.0", "a2-new", day2), version("a", "1.0.0", "a1-new", day2), version("a", "3.0.0", "same", day2))
	pub := index(version("a", "1.0.0", "a1-old", day1), version("a", "2.0.0", "sha256:a2-old", day1), version("b", "1.0.0", "b-old", day1), version("a", "3.0.0", "SHA256:SAME", day1))
	_, _, err := Merge(built, pub, false)
	if err == nil {
		t.Fatal("no conflict")
	}
	var first *ConflictError
	if !errors.As(err, &first) || first.Chart != "a" || first.Version != "2.0.0" {
		t.Fatalf("first conflict %+v, want a 2.0.0", first)
	}
	want := []string{
		`chart "a" version 2.0.0 is already published with digest sha256:a2-old but the build produced sha256:a2-new; bump the chart version instead of changing a published one`,
		`chart "a" version 1.0.0 is already published with digest sha256:a1-old but the build produced sha256:a1-new`,
		`chart "b" version 1.0.0 is already published with digest sha256:b-old`,
	}
	msg := err.Error()
	last := -1
	for _, w := range want {
		i := strings.Index(msg, w)
		if i < 0 || i < last {
			t.Errorf("error does not say, in order, %q:\n%s", w, msg)
		}
		last = i
	}
	if strings.Contains(msg, "3.0.0") {
		t.Errorf("digests differing by case and prefix conflict:\n%s", msg)
	}

	// A single conflict is the *ConflictError itself.
	_, _, err = Merge(index(version("a", "1.0.0", "x", day2)), index(version("a", "1.0.0", "y", day1)), false)
	if ce, ok := err.(*ConflictError); !ok || ce.Published != "y" || ce.Built != "x" {
		t.Errorf("single conflict: %#v", err)
	}
}

func TestMergeResultIsIndependent(t *testing.T) {
	built := index(version("a", "2.0.0", "b", day2))
	pub := index(version("a", "1.0.0", "a", day1))
	before := snapshot(t, built, pub)
	got, r, err := Merge(built, pub, false)
	if err != nil {
		t.Fatal(err)
	}
	r.Carried[0].URLs[0] = "https://elsewhere/a-1.0.0.tgz"
	for _, cvs := range got.Entries {
		for _, cv := range cvs {
			cv.Keywords[0] = "changed"
			cv.Maintainers[0].Name = "changed"
			cv.Annotations["a"] = "changed"
			cv.Created = day3
		}
	}
	if got.Entries["a"][1].URLs[0] != "https://elsewhere/a-1.0.0.tgz" {
		t.Error("Report.Carried is not the result's own version")
	}
	if snapshot(t, built, pub) != before {
		t.Error("editing the result changed the inputs")
	}
}

func TestMergeDeterministic(t *testing.T) {
	pub := gencatalog.Index(300)
	built := index(version("service-0003", "9.0.0", "new", day1))
	var a, b bytes.Buffer
	for _, out := range []*bytes.Buffer{&a, &b} {
		got, _, err := Merge(built, pub, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := Encode(out, got, "yaml"); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two merges encode differently")
	}
	got, _, _ := Merge(built, pub, false)
	if want := latestCreated(got); !got.Generated.Equal(want) || !want.Equal(day1) {
		t.Errorf("generated %v, want the latest created %v", got.Generated, want)
	}
}

func latestCreated(idx *repo.IndexFile) time.Time {
	var t time.Time
	for _, cvs := range idx.Entries {
		for _, cv := range cvs {
			if cv.Created.After(t) {
				t = cv.Created
			}
		}
	}
	return t
}

func TestMergeRefusesBrokenBuilds(t *testing.T) {
	twice := index(version("a", "1.0.0", "x", day1), version("a", "1.0.0", "y", day1))
	if _, _, err := Merge(twice, nil, false); err == nil || !strings.Contains(err.Error(), "built twice") {
		t.Errorf("a version built twice: %v", err)
	}
	noMeta := &repo.IndexFile{Entries: map[string]repo.ChartVersions{"a": {{}}}}
	if _, _, err := Merge(noMeta, nil, false); err == nil {
		t.Error("an entry without metadata merges")
	}
	if got, _, err := Merge(nil, nil, false); err != nil || len(got.Entries) != 0 {
		t.Errorf("Merge(nil, nil) = %v, %v", got, err)
	}
}

// A version whose packages differ by digest but hold the same content
// keeps its published entry whole: URL, digest, created and metadata; one
// whose content differs is a conflict naming the file and the published
// URL, its credentials redacted; one not compared is a conflict of
// digests.
func TestMergeCompared(t *testing.T) {
	built := index(version("a", "1.0.0", "ours", day3), version("b", "1.0.0", "ours-b", day3), version("c", "1.0.0", "ours-c", day3), version("d", "2.0.0", "new", day3))
	built.Entries["a"][0].URLs = []string{"https://github.com/o/r/releases/download/a-1.0.0/a-1.0.0.tgz"}
	pub := index(version("a", "1.0.0", "theirs", day1), version("b", "1.0.0", "theirs-b", day1), version("c", "1.0.0", "theirs-c", day1), version("d", "1.0.0", "old", day1))
	pub.Entries["a"][0].URLs = []string{"https://github.com/o/r/releases/download/a-1.0.0/a-1.0.0.tgz?x=1"}
	pub.Entries["a"][0].Description = "as published"
	pub.Entries["b"][0].URLs = []string{"https://user:pw@example.org/b-1.0.0.tgz"}
	compared := Compared{"a": {"1.0.0": ""}, "b": {"1.0.0": "templates/cm.yaml"}}

	_, _, err := MergeCompared(built, pub, false, compared)
	var errs []*ConflictError
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ce *ConflictError
		if !errors.As(e, &ce) {
			t.Fatalf("%v is not a conflict", e)
		}
		errs = append(errs, ce)
	}
	if len(errs) != 2 || errs[0].Chart != "b" || errs[0].File != "templates/cm.yaml" || errs[1].Chart != "c" || errs[1].File != "" {
		t.Fatalf("conflicts %+v, want b by a file and c by digest", errs)
	}
	msg := errs[0].Error()
	for _, want := range []string{`chart "b" version 1.0.0`, "(https://example.org/b-1.0.0.tgz)", "templates/cm.yaml differs", "bump the chart version"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "pw") {
		t.Errorf("%q shows the URL's password", msg)
	}

	delete(built.Entries, "b")
	delete(built.Entries, "c")
	got, r, err := MergeCompared(built, pub, false, compared)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := got.Get("a", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	want := pub.Entries["a"][0]
	if !reflect.DeepEqual(cv, want) || cv == want {
		t.Errorf("a 1.0.0 = %+v, want a copy of the published entry %+v", cv, want)
	}
	if r.Kept != 1 || r.Added != 1 || len(r.Same) != 1 || r.Same[0] != cv {
		t.Errorf("report %+v, want a kept as the same content, d added", r)
	}
}
