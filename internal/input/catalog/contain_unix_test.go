//go:build unix

package catalog

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// Pointing a link at another file of the same size and time, as switching
// branches does, changes the linked file's link time: that is how a build
// notices it.
func TestRetargetedLinkStamp(t *testing.T) {
	top := t.TempDir()
	old := time.Unix(1_000_000, 0)
	filetree.Write(t, top, map[string]string{
		"cat/shared/a.tpl":                    "{{/* first */}}",
		"cat/shared/b.tpl":                    "{{/* other */}}",
		"cat/charts/b/Chart.yaml":             "apiVersion: v2\nname: b\nversion: 1.0.0\n",
		"cat/charts/b/templates/_helpers.tpl": "->../../../shared/a.tpl",
	})
	for _, f := range []string{"a.tpl", "b.tpl"} {
		if err := os.Chtimes(filepath.Join(top, "cat", "shared", f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	cat := &Catalog{Dir: filepath.Join(top, "cat")}
	link := filepath.Join(top, "cat", "charts", "b", "templates", "_helpers.tpl")
	stamp := func() ChartFile {
		t.Helper()
		files, escapes, err := cat.ChartFiles(filepath.Join(top, "cat", "charts", "b"))
		if err != nil || len(escapes) > 0 || len(files) != 2 {
			t.Fatalf("files %+v, escapes %v, %v", files, escapes, err)
		}
		return files[1]
	}
	setLinkTime(t, link, time.Unix(2_000_000, 0))
	before := stamp()
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../shared/b.tpl", link); err != nil {
		t.Fatal(err)
	}
	setLinkTime(t, link, time.Unix(3_000_000, 0))
	after := stamp()
	if after.Path != filepath.Join(top, "cat", "shared", "b.tpl") || after.Size != before.Size || after.ModTime != before.ModTime || after.LinkTime == before.LinkTime {
		t.Errorf("stamps %+v, then %+v: want the same file stamp and another link time", before, after)
	}
}

// setLinkTime sets a symbolic link's own modification time.
func setLinkTime(t *testing.T, link string, when time.Time) {
	t.Helper()
	ts := []unix.Timespec{unix.NsecToTimespec(when.UnixNano()), unix.NsecToTimespec(when.UnixNano())}
	if err := unix.UtimesNanoAt(unix.AT_FDCWD, link, ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		t.Fatal(err)
	}
}
