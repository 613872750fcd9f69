// Package pagesbranch commits a directory, a built chart repository and its
// site, to a branch of a git remote that GitHub Pages serves (gh-pages), as
// one commit whose tree is the directory's content. It works with the git
// CLI in the catalog's own repository, whose credentials (actions/checkout
// leaves them in its configuration) the pushes use, and touches neither
// its work tree nor its index: the commit is made from the directory's
// files directly, and the branch's published files are read into a
// temporary directory.
//
// When another publication pushed to the branch in the meantime, the push
// is refused as not a fast-forward: the branch is fetched again, the
// caller merges its index with the one now published, and the commit is
// made and pushed again.
package pagesbranch

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/catalogist/catalogist/internal/base/secret"
)

// Message is the message of the commits made.
const Message = "Publish the chart repository\n\nMade by catalogist publish."

// IndexFile is the published index's name in the branch.
const IndexFile = "index.yaml"

// Default author of the commits, when GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL
// do not say.
const (
	DefaultName  = "catalogist"
	DefaultEmail = "catalogist@users.noreply.github.com"
)

// Options say where to publish.
type Options struct {
	// Dir is a directory of the git repository the remote is configured
	// in (the catalog's).
	Dir string
	// Remote is a remote's name or URL; Branch the branch's name.
	Remote, Branch string
	// Exclude, when set, leaves out of the commit the site's files (slash
	// paths) it is true for.
	Exclude func(rel string) bool
	// Keep lists files of the branch (slash paths) kept when the site has
	// none of that name: CNAME, which names a custom domain.
	Keep []string
	// Attempts bounds the pushes (default 5).
	Attempts int
	// Log receives what happens.
	Log io.Writer
}

// Branch publishes to one branch of a remote.
type Branch struct {
	opt Options
	tmp string
	// beforePush runs before each push; tests push there what another
	// publication would.
	beforePush func(attempt int) error
}

// Snapshot is the branch as fetched.
type Snapshot struct {
	// Commit is the branch's head, "" when the branch does not exist.
	Commit string
	// Dir holds the branch's files.
	Dir string
}

// Index is the path of the published index, which may not exist.
func (s *Snapshot) Index() string { return filepath.Join(s.Dir, IndexFile) }

// Result is what Publish did.
type Result struct {
	// Commit is the branch's new head, Changed false when the site was
	// what the branch held, and nothing was committed.
	Commit  string
	Changed bool
	// Pushes is how many pushes it took.
	Pushes int
}

// New checks the options. Close removes what the Branch left in the
// temporary directory.
func New(opt Options) (*Branch, error) {
	if opt.Branch == "" || strings.HasPrefix(opt.Branch, "-") || strings.ContainsAny(opt.Branch, " ~^:?*[\\") {
		return nil, fmt.Errorf("%q is not a branch name", opt.Branch)
	}
	if opt.Remote == "" || strings.HasPrefix(opt.Remote, "-") {
		return nil, fmt.Errorf("%q is not a remote", opt.Remote)
	}
	if opt.Attempts <= 0 {
		opt.Attempts = 5
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("publishing to a branch needs git, which is not installed (or not on PATH)")
	}
	b := &Branch{opt: opt}
	if _, err := b.git(context.Background(), nil, "rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("%s is not in a git repository, which publishing to the branch %s of %s needs: %w", opt.Dir, opt.Branch, secret.RedactURL(opt.Remote), err)
	}
	tmp, err := os.MkdirTemp("", "catalogist-pages-")
	if err != nil {
		return nil, err
	}
	b.tmp = tmp
	return b, nil
}

// Close removes the temporary files.
func (b *Branch) Close() error { return os.RemoveAll(b.tmp) }

func (b *Branch) where() string {
	return fmt.Sprintf("the branch %s of %s", b.opt.Branch, secret.RedactURL(b.opt.Remote))
}

// Fetch reads the branch as the remote has it now.
func (b *Branch) Fetch(ctx context.Context) (*Snapshot, error) {
	dir, err := os.MkdirTemp(b.tmp, "branch-")
	if err != nil {
		return nil, err
	}
	snap := &Snapshot{Dir: dir}
	ref := "refs/heads/" + b.opt.Branch
	// ls-remote tells a missing branch (exit 2) from a remote that cannot
	// be reached, which fetch does not.
	_, err = b.git(ctx, nil, "ls-remote", "--exit-code", "--heads", b.opt.Remote, ref)
	var ee *exitError
	if errors.As(err, &ee) && ee.code == 2 {
		return snap, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", b.where(), err)
	}
	if _, err := b.git(ctx, nil, "fetch", "--quiet", "--no-tags", "--recurse-submodules=no", b.opt.Remote, ref); err != nil {
		return nil, fmt.Errorf("fetching %s: %w", b.where(), err)
	}
	out, err := b.git(ctx, nil, "rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}")
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", b.where(), err)
	}
	snap.Commit = strings.TrimSpace(out)
	if err := b.extract(ctx, snap.Commit, dir); err != nil {
		return nil, fmt.Errorf("reading %s: %w", b.where(), err)
	}
	return snap, nil
}

// extract writes the regular files of a commit's tree below dir, as they
// are stored: no attribute, filter or line-end conversion of the work
// tree's applies.
func (b *Branch) extract(ctx context.Context, commit, dir string) error {
	list, err := b.git(ctx, nil, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return err
	}
	type entry struct{ mode, sha, path string }
	var entries []entry
	var ids bytes.Buffer
	for _, rec := range strings.Split(strings.TrimSuffix(list, "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return fmt.Errorf("unexpected ls-tree line %q", rec)
		}
		// Links and submodules are not what a static site serves.
		if f[1] != "blob" || f[0] == "120000" {
			continue
		}
		if !fs.ValidPath(p) {
			return fmt.Errorf("the branch holds a file named %q", p)
		}
		entries = append(entries, entry{f[0], f[2], p})
		ids.WriteString(f[2] + "\n")
	}
	if len(entries) == 0 {
		return nil
	}
	cmd := b.command(ctx, &ids, "cat-file", "--batch")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReader(stdout)
	var werr error
	for _, e := range entries {
		header, err := r.ReadString('\n')
		if err != nil {
			werr = fmt.Errorf("reading %s: %w", e.path, err)
			break
		}
		f := strings.Fields(header)
		var size int64 = -1
		if len(f) == 3 {
			size, _ = strconv.ParseInt(f[2], 10, 64)
		}
		if len(f) != 3 || f[0] != e.sha || f[1] != "blob" || size < 0 {
			werr = fmt.Errorf("reading %s: unexpected cat-file answer %q", e.path, header)
			break
		}
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(e.path)), r, size, e.mode == "100755"); err != nil {
			werr = fmt.Errorf("reading %s: %w", e.path, err)
			break
		}
		if _, err := r.Discard(1); err != nil {
			werr = err
			break
		}
	}
	if werr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return werr
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

func writeFile(p string, r io.Reader, size int64, exe bool) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if exe {
		mode = 0o755
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(f, r, size); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Publish commits site onto the snapshot's head and pushes it. When the
// push is refused because the branch moved, it fetches the branch again,
// calls remerge with the index now published, which makes site again, and
// tries again, Attempts times at most. Nothing is committed when site is
// what the branch holds.
func (b *Branch) Publish(ctx context.Context, snap *Snapshot, site string, remerge func(ctx context.Context, publishedIndex string) error) (*Result, error) {
	for attempt := 1; ; attempt++ {
		commit, changed, err := b.commit(ctx, snap, site)
		if err != nil {
			return nil, err
		}
		if !changed {
			return &Result{Commit: snap.Commit, Pushes: attempt - 1}, nil
		}
		if b.beforePush != nil {
			if err := b.beforePush(attempt); err != nil {
				return nil, err
			}
		}
		moved, err := b.push(ctx, commit)
		if err != nil {
			return nil, err
		}
		if !moved {
			return &Result{Commit: commit, Changed: true, Pushes: attempt}, nil
		}
		if attempt >= b.opt.Attempts {
			return nil, fmt.Errorf("%s moved before each of %d pushes: other publications keep pushing to it; publish again once they are done", b.where(), attempt)
		}
		if remerge == nil {
			return nil, fmt.Errorf("%s moved since it was fetched: publish again", b.where())
		}
		fmt.Fprintf(b.opt.Log, "%s moved since it was fetched: fetching it again, merging with what it holds now, and pushing again\n", b.where())
		if snap, err = b.Fetch(ctx); err != nil {
			return nil, err
		}
		if err := remerge(ctx, snap.Index()); err != nil {
			return nil, err
		}
	}
}

// commit makes a commit of site's files on the snapshot's head, and says
// whether its tree differs from the head's.
func (b *Branch) commit(ctx context.Context, snap *Snapshot, site string) (string, bool, error) {
	files, err := b.files(site)
	if err != nil {
		return "", false, err
	}
	for _, k := range b.opt.Keep {
		if _, err := os.Lstat(filepath.Join(site, filepath.FromSlash(k))); err == nil {
			continue
		}
		p := filepath.Join(snap.Dir, filepath.FromSlash(k))
		if !fs.ValidPath(k) || strings.ContainsAny(k, "\n\x00") {
			continue
		}
		if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() {
			files = append(files, siteFile{rel: k, abs: p, exe: info.Mode()&0o111 != 0})
		}
	}
	// The blobs are written as the files are: no filter, no line-end
	// conversion.
	var paths bytes.Buffer
	for _, f := range files {
		paths.WriteString(f.abs + "\n")
	}
	out, err := b.git(ctx, &paths, "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return "", false, fmt.Errorf("storing the site's files: %w", err)
	}
	shas := strings.Fields(out)
	if len(shas) != len(files) {
		return "", false, fmt.Errorf("storing the site's files: %d objects for %d files", len(shas), len(files))
	}
	var info bytes.Buffer
	for i, f := range files {
		mode := "100644"
		if f.exe {
			mode = "100755"
		}
		fmt.Fprintf(&info, "%s %s\t%s\x00", mode, shas[i], f.rel)
	}
	index := filepath.Join(b.tmp, "index")
	os.Remove(index)
	env := []string{"GIT_INDEX_FILE=" + index}
	if _, err := b.gitEnv(ctx, env, &info, "update-index", "--add", "-z", "--index-info"); err != nil {
		return "", false, fmt.Errorf("making the site's tree: %w", err)
	}
	tree, err := b.gitEnv(ctx, env, nil, "write-tree")
	if err != nil {
		return "", false, fmt.Errorf("making the site's tree: %w", err)
	}
	tree = strings.TrimSpace(tree)
	args := []string{"commit-tree", tree, "-m", Message}
	if snap.Commit != "" {
		head, err := b.git(ctx, nil, "rev-parse", snap.Commit+"^{tree}")
		if err != nil {
			return "", false, err
		}
		if strings.TrimSpace(head) == tree {
			return snap.Commit, false, nil
		}
		args = append(args, "-p", snap.Commit)
	}
	commit, err := b.gitEnv(ctx, identity(), nil, args...)
	if err != nil {
		return "", false, fmt.Errorf("committing the site: %w", err)
	}
	return strings.TrimSpace(commit), true, nil
}

type siteFile struct {
	rel, abs string
	exe      bool
}

// files lists the site's regular files; anything else is refused, since
// the build writes none.
func (b *Branch) files(site string) ([]siteFile, error) {
	root, err := filepath.Abs(site)
	if err != nil {
		return nil, err
	}
	var files []siteFile
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if b.opt.Exclude != nil && b.opt.Exclude(rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file: a site to publish holds files and directories only", p)
		}
		if strings.ContainsAny(rel, "\n\x00") || path.Clean(rel) != rel {
			return fmt.Errorf("%s: a file name git cannot store as it is", p)
		}
		files = append(files, siteFile{rel: rel, abs: p, exe: info.Mode()&0o111 != 0})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the site %s: %w", site, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("the site %s is empty: there is nothing to publish", site)
	}
	return files, nil
}

// identity is the commit's author and committer: the environment's
// GIT_AUTHOR_* and GIT_COMMITTER_* where set, else catalogist's.
func identity() []string {
	name := cmp.Or(os.Getenv("GIT_AUTHOR_NAME"), DefaultName)
	email := cmp.Or(os.Getenv("GIT_AUTHOR_EMAIL"), DefaultEmail)
	return []string{
		"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email,
		"GIT_COMMITTER_NAME=" + cmp.Or(os.Getenv("GIT_COMMITTER_NAME"), name),
		"GIT_COMMITTER_EMAIL=" + cmp.Or(os.Getenv("GIT_COMMITTER_EMAIL"), email),
	}
}

// push pushes commit to the branch; moved says the remote refused it
// because the branch moved since it was fetched.
func (b *Branch) push(ctx context.Context, commit string) (moved bool, err error) {
	out, err := b.git(ctx, nil, "push", "--porcelain", "--no-verify", b.opt.Remote, commit+":refs/heads/"+b.opt.Branch)
	if err == nil {
		return false, nil
	}
	// --porcelain prints a line per ref: "!" and "[rejected]" for a
	// refusal by git's fast-forward rule ("non-fast-forward", "fetch
	// first"), "[remote rejected]" for a hook's or a protection's.
	var ee *exitError
	if errors.As(err, &ee) {
		for _, line := range strings.Split(ee.stdout+"\n"+out, "\n") {
			if strings.HasPrefix(line, "!") && strings.Contains(line, "[rejected]") {
				return true, nil
			}
		}
	}
	return false, fmt.Errorf("pushing to %s: %w", b.where(), err)
}

// exitError is git ending with an error.
type exitError struct {
	args           []string
	code           int
	stdout, stderr string
}

func (e *exitError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = strings.TrimSpace(e.stdout)
	}
	return secret.RedactURLs(fmt.Sprintf("git %s: exit status %d: %s", e.args[0], e.code, msg))
}

func (b *Branch) git(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	return b.gitEnv(ctx, nil, stdin, args...)
}

// gitEnv runs git in the repository, in English, never asking for
// anything.
func (b *Branch) gitEnv(ctx context.Context, env []string, stdin io.Reader, args ...string) (string, error) {
	cmd := b.command(ctx, stdin, args...)
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return stdout.String(), &exitError{args: args, code: ee.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
	}
	if err != nil {
		return "", fmt.Errorf("running git %s: %w", args[0], err)
	}
	return stdout.String(), nil
}

func (b *Branch) command(ctx context.Context, stdin io.Reader, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = b.opt.Dir
	cmd.Stdin = stdin
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	return cmd
}
