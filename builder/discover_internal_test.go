package builder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// FuzzLoadChartfile reads arbitrary Chart.yaml files as discovery does: no
// panic; a file beyond the limits (an alias bomb) is refused naming the
// file, its line and its column; what Helm's own reader accepts within the
// limits reads the same.
func FuzzLoadChartfile(f *testing.F) {
	f.Add([]byte("apiVersion: v2\nname: a\nversion: 1.0.0\n"))
	f.Add([]byte("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"))
	f.Add([]byte("name: [1\n"))
	file := filepath.Join(f.TempDir(), "Chart.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		md, err := loadChartfile(file)
		if err != nil {
			if !strings.HasPrefix(err.Error(), file+":") {
				t.Fatalf("refusal not naming %s: %v", file, err)
			}
			return
		}
		want, err := chartutil.LoadChartfile(file)
		if err != nil || want.Name != md.Name || want.Version != md.Version || want.Icon != md.Icon {
			t.Fatalf("read %+v, Helm reads %+v (%v)", md, want, err)
		}
	})
}

// A file keeps its recorded hash, unread, while its stat data are those
// recorded and older than the recording by more than racyWindow; a change of
// any of them, or a time too close to the recording, has it read again.
func TestFilesAreHashedWhenTheirStatChanges(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "values.yaml")
	if err := os.WriteFile(file, []byte("replicas: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	content, err := chartrepo.ReadDigest(file)
	if err != nil {
		t.Fatal(err)
	}
	now, err := statFile(file)
	if err != nil {
		t.Fatal(err)
	}
	settled := max(now.MTime, now.CTime) + int64(racyWindow) + 1
	for _, tc := range []struct {
		name    string
		change  func(*fileStat)
		written int64
		read    bool
	}{
		{"unchanged", func(*fileStat) {}, settled, false},
		{"size", func(s *fileStat) { s.Size++ }, settled, true},
		{"modification time", func(s *fileStat) { s.MTime-- }, settled, true},
		{"change time", func(s *fileStat) { s.CTime-- }, settled, true},
		{"inode", func(s *fileStat) { s.Inode++ }, settled, true},
		{"link time", func(s *fileStat) { s.Link = 1 }, settled, true},
		// Changed in the same tick as the recording: a later change in
		// that tick would have kept the stat data.
		{"racy", func(*fileStat) {}, max(now.MTime, now.CTime) + 1, true},
		{"racy by a tick", func(*fileStat) {}, settled - 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := fileRecord{Path: "values.yaml", fileStat: now, Hash: "recorded"}
			tc.change(&rec.fileStat)
			prev := &state{Written: tc.written}
			files := []fileRecord{{Path: "values.yaml", fileStat: now, file: file}}
			if _, err := prev.hashFiles(&chartState{Files: []fileRecord{rec}}, files); err != nil {
				t.Fatal(err)
			}
			want := "recorded"
			if tc.read {
				want = content
			}
			if files[0].Hash != want {
				t.Errorf("hash %q, want %q", files[0].Hash, want)
			}
		})
	}
}

// Files are matched with their records by path when some were added or
// removed, and Chart.yaml's record says whether its metadata are kept.
func TestFileRecordsMatchByPath(t *testing.T) {
	dir := t.TempDir()
	var files []fileRecord
	prev := &chartState{}
	var written int64
	for _, name := range []string{"Chart.yaml", "new.yaml", "values.yaml"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := statFile(p)
		if err != nil {
			t.Fatal(err)
		}
		written = max(written, st.MTime, st.CTime)
		files = append(files, fileRecord{Path: name, fileStat: st, file: p})
		if name != "new.yaml" {
			prev.Files = append(prev.Files, fileRecord{Path: name, fileStat: st, Hash: "recorded " + name})
		}
	}
	s := &state{Written: written + int64(racyWindow) + 1}
	kept, err := s.hashFiles(prev, files)
	if err != nil {
		t.Fatal(err)
	}
	if !kept {
		t.Error("Chart.yaml's record was not used")
	}
	newHash, _ := chartrepo.ReadDigest(files[1].file)
	for i, want := range []string{"recorded Chart.yaml", newHash, "recorded values.yaml"} {
		if files[i].Hash != want {
			t.Errorf("%s: hash %q, want %q", files[i].Path, files[i].Hash, want)
		}
	}
}
