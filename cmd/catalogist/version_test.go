package main

import (
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	const rev = "5333a4d0d97a9433603443f7cb8d11c9df1e5709"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-11-24T08:32:23Z"},
			{Key: "vcs.modified", Value: modified},
		}
	}
	info := func(version string, settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/catalogist/catalogist", Version: version}, Settings: settings}
	}
	cases := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"go install of a tag", info("v1.2.3", nil),
			"catalogist v1.2.3, go1.26.8 linux/amd64"},
		{"go install of a commit of a repository without tags", info("v0.0.0-20261124083223-5333a4d0d97a", nil),
			"catalogist v0.0.0-20261124083223-5333a4d0d97a, go1.26.8 linux/amd64"},
		{"checkout without a tag", info("v0.0.0-20261124083223-5333a4d0d97a", vcs("false")),
			"catalogist (devel), revision " + rev + ", committed 2026-11-24T08:32:23Z, go1.26.8 linux/amd64"},
		{"modified checkout without a tag", info("v0.0.0-20261124083223-5333a4d0d97a+dirty", vcs("true")),
			"catalogist (devel), revision " + rev + ", modified, committed 2026-11-24T08:32:23Z, go1.26.8 linux/amd64"},
		{"modified checkout of a tag", info("v1.2.3+dirty", vcs("true")),
			"catalogist v1.2.3+dirty, revision " + rev + ", modified, committed 2026-11-24T08:32:23Z, go1.26.8 linux/amd64"},
		{"checkout built without version control information", info("(devel)", nil),
			"catalogist (devel), go1.26.8 linux/amd64"},
		{"no build information", nil,
			"catalogist (unknown version: the binary holds no build information), linux/amd64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := versionLine(c.bi, "linux/amd64"); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestVersionCommand checks that catalogist built from this checkout with
// version control stamping, as go build does by default in a git tree (the
// binary TestMain builds), names the checkout's revision in both forms.
func TestVersionCommand(t *testing.T) {
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", args...).Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	head := git("rev-parse", "HEAD")
	dirtyBefore, dirtyAfter := treeDirty[0], treeDirty[1]
	bin := binary
	recorded, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}

	var lines []string
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("catalogist %s: %v", args[0], err)
		}
		if strings.Count(string(out), "\n") != 1 || !strings.HasSuffix(string(out), "\n") {
			t.Errorf("catalogist %s printed %q, want one line", args[0], out)
		}
		lines = append(lines, strings.TrimSuffix(string(out), "\n"))
	}
	if lines[0] != lines[1] {
		t.Errorf("catalogist version and catalogist --version differ:\n%s\n%s", lines[0], lines[1])
	}
	line := lines[0]
	if !strings.HasPrefix(line, "catalogist ") || !strings.Contains(line, ", revision "+head+",") {
		t.Errorf("version line %q does not name revision %s", line, head)
	}
	if git("tag", "--list") == "" && !strings.HasPrefix(line, "catalogist (devel), ") {
		t.Errorf("version line %q: a checkout without tags is a (devel) build", line)
	}
	modified := strings.Contains(line, ", modified,")
	if want := strings.Contains(string(recorded), "vcs.modified=true"); modified != want {
		t.Errorf("version line %q, but the toolchain recorded vcs.modified=%v", line, want)
	}
	// A file saved while the binary builds changes the tree between the
	// two looks; when both agree, they tell what to expect.
	if dirtyBefore == dirtyAfter && modified != dirtyBefore {
		t.Errorf("version line %q, but git status says the tree is modified: %v", line, dirtyBefore)
	}
}
