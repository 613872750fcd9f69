package gitchange

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repo is a git repository made for a test.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &repo{t, dir}
	r.git("init", "--quiet", "--initial-branch=main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (r *repo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) commit(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "--quiet", "-m", msg)
}

func (r *repo) changed(dir, ref string) []string {
	r.t.Helper()
	got, err := Changed(context.Background(), dir, ref)
	if err != nil {
		r.t.Fatalf("Changed(%s, %s): %v", dir, ref, err)
	}
	for i, p := range got {
		rel, err := filepath.Rel(r.dir, p)
		if err != nil || !filepath.IsAbs(p) {
			r.t.Fatalf("%s is not an absolute path under %s", p, r.dir)
		}
		got[i] = filepath.ToSlash(rel)
	}
	slices.Sort(got)
	return got
}

// Every way a branch's work tree can differ from main is listed, and
// nothing else: not main's own commits after the branch left it, not
// ignored files.
func TestChanged(t *testing.T) {
	r := newRepo(t)
	r.write(".gitignore", "*.tgz\n")
	r.write("charts/a/Chart.yaml", "name: a\n")
	r.write("charts/b/Chart.yaml", "name: b\n")
	r.write("charts/c/values.yaml", "x: 1\n")
	r.write("charts/d/old.txt", "old\n")
	r.write("charts/e/staged.txt", "1\n")
	r.commit("start")
	r.git("checkout", "--quiet", "-b", "feature")
	r.write("charts/a/Chart.yaml", "name: a\nversion: 2\n")
	r.commit("on the branch")
	// main moves on: its change is not the branch's.
	r.git("checkout", "--quiet", "main")
	r.write("charts/b/Chart.yaml", "name: b\nversion: 9\n")
	r.commit("on main")
	r.git("checkout", "--quiet", "feature")
	r.write("charts/c/values.yaml", "x: 2\n") // edited, not staged
	r.write("charts/e/staged.txt", "2\n")
	r.git("add", "charts/e/staged.txt")
	r.write("charts/f/new file.txt", "untracked\n") // untracked, with a space
	r.write("charts/f/pkg.tgz", "ignored")
	if err := os.Remove(filepath.Join(r.dir, "charts/d/old.txt")); err != nil {
		t.Fatal(err)
	}
	want := []string{"charts/a/Chart.yaml", "charts/c/values.yaml", "charts/d/old.txt", "charts/e/staged.txt", "charts/f/new file.txt"}
	if got := r.changed(r.dir, "main"); !slices.Equal(got, want) {
		t.Errorf("changed since main = %q, want %q", got, want)
	}
	// From a subdirectory, the paths are still the whole work tree's.
	if got := r.changed(filepath.Join(r.dir, "charts", "a"), "main"); !slices.Equal(got, want) {
		t.Errorf("from a subdirectory = %q, want %q", got, want)
	}
	// A commit hash is a ref too; against HEAD only the work tree counts.
	head := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	if got := r.changed(r.dir, head); !slices.Equal(got, []string{"charts/c/values.yaml", "charts/d/old.txt", "charts/e/staged.txt", "charts/f/new file.txt"}) {
		t.Errorf("changed since HEAD = %q", got)
	}
	r.commit("everything")
	if got := r.changed(r.dir, "HEAD"); len(got) != 0 {
		t.Errorf("a clean work tree against HEAD changed %q", got)
	}
}

func TestChangedErrors(t *testing.T) {
	r := newRepo(t)
	r.write("a.txt", "a\n")
	r.commit("start")

	_, err := Changed(context.Background(), r.dir, "origin/main")
	if !errors.Is(err, ErrUnknownRef) || !strings.Contains(err.Error(), "git fetch origin main") || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Errorf("unknown ref: %v", err)
	}
	_, err = Changed(context.Background(), r.dir, "--output=/tmp/x")
	if !errors.Is(err, ErrUnknownRef) {
		t.Errorf("a ref read as an option: %v", err)
	}

	// A branch with no history in common with main.
	r.git("checkout", "--quiet", "--orphan", "other")
	r.write("b.txt", "b\n")
	r.commit("unrelated")
	_, err = Changed(context.Background(), r.dir, "main")
	if !errors.Is(err, ErrNoMergeBase) || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Errorf("no merge base: %v", err)
	}

	plain := t.TempDir()
	_, err = Changed(context.Background(), plain, "main")
	if !errors.Is(err, ErrNotRepository) || !strings.Contains(err.Error(), plain) {
		t.Errorf("not a repository: %v", err)
	}

	t.Setenv("PATH", t.TempDir())
	_, err = Changed(context.Background(), r.dir, "main")
	if !errors.Is(err, ErrNoGit) || !strings.Contains(err.Error(), "install git") {
		t.Errorf("without git: %v", err)
	}
}
