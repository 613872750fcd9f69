package pagesbranch

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// run runs git in dir and returns its output.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

// repos makes a bare remote and a catalog repository cloned from it, with
// a commit on main, as actions/checkout leaves one.
func repos(t *testing.T) (remote, work string) {
	t.Helper()
	// Neither the machine's nor the user's git configuration applies.
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		// Unset, and set back when the test ends.
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	top := t.TempDir()
	remote, work = filepath.Join(top, "remote.git"), filepath.Join(top, "work")
	run(t, top, "init", "-q", "--bare", "-b", "main", remote)
	run(t, top, "init", "-q", "-b", "main", work)
	filetree.Write(t, work, map[string]string{"catalog.yaml": "name: test\n", "charts/a/Chart.yaml": "name: a\n"})
	run(t, work, "add", ".")
	run(t, work, "-c", "user.name=dev", "-c", "user.email=dev@example.org", "commit", "-q", "-m", "catalog")
	run(t, work, "remote", "add", "origin", remote)
	run(t, work, "push", "-q", "origin", "main")
	return remote, work
}

// site writes a built site: an index, pages, and a package that is a
// release asset, not a file of the site.
func site(t *testing.T, index string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "site")
	filetree.Write(t, dir, map[string]string{
		"index.yaml":            index,
		"index.html":            "<h1>catalog</h1>\n",
		"charts/a/index.html":   "<h1>a</h1>\r\n",
		".nojekyll":             "",
		"a-1.0.0.tgz":           "package",
		"assets/style.css":      "body{}\n",
		"charts/a/values.json":  "{}\n",
		"charts/b/index.html":   "<h1>b</h1>\n",
		"charts/b/b-logo.svg":   "<svg/>\n",
		"charts/b/notes/x.html": "x\n",
	})
	return dir
}

func open(t *testing.T, work string, opt Options) *Branch {
	t.Helper()
	opt.Dir, opt.Remote, opt.Branch = work, "origin", "gh-pages"
	if opt.Exclude == nil {
		opt.Exclude = func(rel string) bool { return strings.HasSuffix(rel, ".tgz") }
	}
	b, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func files(t *testing.T, remote, rev string) []string {
	t.Helper()
	return strings.Split(run(t, remote, "ls-tree", "-r", "--name-only", rev), "\n")
}

func show(t *testing.T, remote, rev, file string) string {
	t.Helper()
	return run(t, remote, "show", rev+":"+file)
}

func TestFirstPublication(t *testing.T) {
	remote, work := repos(t)
	headBefore := run(t, work, "rev-parse", "HEAD")
	b := open(t, work, Options{})
	snap, err := b.Fetch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if snap.Commit != "" {
		t.Fatalf("a missing branch was fetched as %s", snap.Commit)
	}
	if _, err := os.Stat(snap.Index()); !os.IsNotExist(err) {
		t.Errorf("a missing branch has an index: %v", err)
	}
	res, err := b.Publish(t.Context(), snap, site(t, "entries: {}\n"), func(context.Context, string) error {
		t.Error("nothing to merge again on a first publication")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || res.Pushes != 1 || res.Commit != run(t, remote, "rev-parse", "gh-pages") {
		t.Errorf("result %+v", res)
	}
	want := []string{".nojekyll", "assets/style.css", "charts/a/index.html", "charts/a/values.json", "charts/b/b-logo.svg", "charts/b/index.html", "charts/b/notes/x.html", "index.html", "index.yaml"}
	if got := files(t, remote, "gh-pages"); !slices.Equal(got, want) {
		t.Errorf("the branch holds %q, want %q", got, want)
	}
	// Files are stored as they are: no line-end conversion.
	if got := run(t, remote, "cat-file", "-s", "gh-pages:charts/a/index.html"); got != "12" {
		t.Errorf("charts/a/index.html stored with %s bytes, want 12", got)
	}
	if got := run(t, remote, "log", "--format=%an <%ae>|%cn <%ce>|%s|%P", "gh-pages"); got != "catalogist <catalogist@users.noreply.github.com>|catalogist <catalogist@users.noreply.github.com>|Publish the chart repository|" {
		t.Errorf("commit: %q (want catalogist's, without parent)", got)
	}
	// The catalog's work tree, index and branch are left alone.
	if st := run(t, work, "status", "--porcelain"); st != "" || run(t, work, "rev-parse", "HEAD") != headBefore {
		t.Errorf("the work tree changed: %q", st)
	}
}

func TestNoChangeNoCommit(t *testing.T) {
	remote, work := repos(t)
	// The branch exists, with a custom domain the site does not hold.
	t.Setenv("GIT_AUTHOR_NAME", "Release Bot")
	t.Setenv("GIT_AUTHOR_EMAIL", "bot@example.org")
	b := open(t, work, Options{Keep: []string{"CNAME"}})
	snap, err := b.Fetch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	dir := site(t, "entries: {}\n")
	if _, err := b.Publish(t.Context(), snap, dir, nil); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other")
	run(t, filepath.Dir(other), "clone", "-q", "-b", "gh-pages", remote, other)
	filetree.Write(t, other, map[string]string{"CNAME": "charts.example.org\n"})
	run(t, other, "add", "CNAME")
	run(t, other, "-c", "user.name=o", "-c", "user.email=o@example.org", "commit", "-q", "-m", "domain")
	run(t, other, "push", "-q", "origin", "gh-pages")

	// The same site again, CNAME kept: nothing to commit.
	head := run(t, remote, "rev-parse", "gh-pages")
	snap, err = b.Fetch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if snap.Commit != head {
		t.Fatalf("fetched %s, the branch is at %s", snap.Commit, head)
	}
	if data, err := os.ReadFile(filepath.Join(snap.Dir, "CNAME")); err != nil || string(data) != "charts.example.org\n" {
		t.Errorf("the fetched branch lacks its CNAME: %q %v", data, err)
	}
	res, err := b.Publish(t.Context(), snap, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Changed || res.Pushes != 0 || res.Commit != head || run(t, remote, "rev-parse", "gh-pages") != head {
		t.Errorf("an unchanged site was committed: %+v", res)
	}

	// A changed site is committed on top, by the environment's author,
	// the custom domain kept.
	filetree.Write(t, dir, map[string]string{"index.yaml": "entries: {a: []}\n"})
	res, err = b.Publish(t.Context(), snap, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || run(t, remote, "rev-parse", "gh-pages^") != head {
		t.Errorf("the change was not committed on the branch's head: %+v", res)
	}
	if got := show(t, remote, "gh-pages", "CNAME"); got != "charts.example.org" {
		t.Errorf("CNAME became %q", got)
	}
	if got := run(t, remote, "log", "-1", "--format=%an <%ae>", "gh-pages"); got != "Release Bot <bot@example.org>" {
		t.Errorf("author %q", got)
	}
}

// Another publication pushes between this one's fetch and push: the push
// is refused, the branch fetched again, the index merged again with what
// the other pushed, and the push made again.
func TestConcurrentPush(t *testing.T) {
	remote, work := repos(t)
	b := open(t, work, Options{Attempts: 3})
	snap, err := b.Fetch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	dir := site(t, "mine\n")
	if _, err := b.Publish(t.Context(), snap, dir, nil); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other")
	run(t, filepath.Dir(other), "clone", "-q", "-b", "gh-pages", remote, other)
	pushes := 0
	b.beforePush = func(attempt int) error {
		if attempt > 1 {
			return nil
		}
		pushes++
		filetree.Write(t, other, map[string]string{"index.yaml": "mine\ntheirs\n"})
		run(t, other, "-c", "user.name=o", "-c", "user.email=o@example.org", "commit", "-q", "-am", "theirs")
		run(t, other, "push", "-q", "origin", "gh-pages")
		return nil
	}
	snap, err = b.Fetch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	filetree.Write(t, dir, map[string]string{"index.yaml": "mine\nnew\n"})
	var merged []string
	res, err := b.Publish(t.Context(), snap, dir, func(_ context.Context, published string) error {
		data, err := os.ReadFile(published)
		if err != nil {
			return err
		}
		merged = append(merged, string(data))
		// What publish does: merge the index with the published one.
		filetree.Write(t, dir, map[string]string{"index.yaml": string(data) + "new\n"})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if pushes != 1 || !slices.Equal(merged, []string{"mine\ntheirs\n"}) {
		t.Errorf("merged again %q after %d concurrent pushes", merged, pushes)
	}
	if !res.Changed || res.Pushes != 2 {
		t.Errorf("result %+v, want 2 pushes", res)
	}
	if got := show(t, remote, "gh-pages", "index.yaml"); got != "mine\ntheirs\nnew" {
		t.Errorf("published index %q", got)
	}
	if got := run(t, remote, "log", "--format=%s", "gh-pages"); got != "Publish the chart repository\ntheirs\nPublish the chart repository" {
		t.Errorf("history:\n%s", got)
	}

	// A branch that keeps moving fails after Attempts pushes.
	n := 0
	b.beforePush = func(int) error {
		n++
		filetree.Write(t, other, map[string]string{"busy": strings.Repeat("x", n)})
		run(t, other, "pull", "-q", "--rebase=false", "origin", "gh-pages")
		run(t, other, "add", "busy")
		run(t, other, "-c", "user.name=o", "-c", "user.email=o@example.org", "commit", "-q", "-m", "busy")
		run(t, other, "push", "-q", "origin", "gh-pages")
		return nil
	}
	filetree.Write(t, dir, map[string]string{"index.yaml": "again\n"})
	snap, err = b.Fetch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Publish(t.Context(), snap, dir, func(context.Context, string) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "the branch gh-pages of origin moved before each of 3 pushes") || n != 3 {
		t.Errorf("after %d concurrent pushes: %v", n, err)
	}
}

func TestFetchKeepsFilesAsStored(t *testing.T) {
	remote, work := repos(t)
	other := filepath.Join(t.TempDir(), "other")
	run(t, filepath.Dir(other), "clone", "-q", remote, other)
	run(t, other, "checkout", "-q", "--orphan", "gh-pages")
	run(t, other, "rm", "-rqf", ".")
	binary := "a\r\nb\x00c"
	filetree.Write(t, other, map[string]string{"index.yaml": "x: 1\n", "deep/dir/pkg.tgz": binary, "run.sh": "#!/bin/sh\n", "link": "->index.yaml"})
	os.Chmod(filepath.Join(other, "run.sh"), 0o755)
	run(t, other, "add", ".")
	run(t, other, "-c", "user.name=o", "-c", "user.email=o@example.org", "commit", "-q", "-m", "pages")
	run(t, other, "push", "-q", "origin", "gh-pages")

	b := open(t, work, Options{})
	snap, err := b.Fetch(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(snap.Dir, "deep", "dir", "pkg.tgz")); err != nil || string(data) != binary {
		t.Errorf("pkg.tgz read as %q (%v)", data, err)
	}
	if info, err := os.Stat(filepath.Join(snap.Dir, "run.sh")); err != nil || info.Mode()&0o100 == 0 {
		t.Errorf("run.sh lost its mode: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(snap.Dir, "link")); !os.IsNotExist(err) {
		t.Errorf("a symbolic link of the branch was written: %v", err)
	}
}

func TestErrorsSayWhere(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	if _, err := New(Options{Dir: t.TempDir(), Remote: "origin", Branch: "gh-pages"}); err == nil || !strings.Contains(err.Error(), "is not in a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
	if _, err := New(Options{Dir: t.TempDir(), Remote: "origin", Branch: "bad name"}); err == nil || !strings.Contains(err.Error(), "not a branch name") {
		t.Errorf("bad branch: %v", err)
	}
	_, work := repos(t)
	b, err := New(Options{Dir: work, Remote: "https://x-access-token:s3cretTOKEN@127.0.0.1:1/o/r.git", Branch: "gh-pages"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	_, err = b.Fetch(t.Context())
	if err == nil || !strings.Contains(err.Error(), "reading the branch gh-pages of https://127.0.0.1:1/o/r.git") || strings.Contains(err.Error(), "s3cretTOKEN") {
		t.Errorf("unreachable remote: %v", err)
	}
}
