// Package gitchange lists the files of a git work tree that differ from a
// ref, as a pull request changes them: what the branch committed since it
// left the ref, what is staged or edited, and new files git does not
// ignore. It runs the git command, which every CI checkout has, rather
// than reading the repository itself.
package gitchange

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Errors a caller may tell apart; each is wrapped with what to do.
var (
	// ErrNoGit: the git command is not installed or not on PATH.
	ErrNoGit = errors.New("git is not installed")
	// ErrNotRepository: the directory is not inside a git work tree.
	ErrNotRepository = errors.New("not a git repository")
	// ErrUnknownRef: the ref names no commit of the repository.
	ErrUnknownRef = errors.New("unknown git ref")
	// ErrNoMergeBase: the ref and HEAD share no commit that the clone
	// holds, as in a shallow clone.
	ErrNoMergeBase = errors.New("no merge base")
)

// Changed returns the absolute paths of the files of dir's work tree that
// differ from ref since the merge base of ref and HEAD: committed on the
// branch, staged, edited, deleted, and untracked but not ignored. dir is
// any directory inside the work tree; the paths are under the work tree's
// top directory as git resolves it (symbolic links resolved).
func Changed(ctx context.Context, dir, ref string) ([]string, error) {
	if strings.HasPrefix(ref, "-") || ref == "" {
		// A ref starting with a dash would be read as an option.
		return nil, fmt.Errorf("%w %q: name a branch, tag or commit, such as origin/main", ErrUnknownRef, ref)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("%w (%v): install git (for example apt-get install git), or lint without --changed-since", ErrNoGit, err)
	}
	top, err := run(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s: %w: --changed-since compares with a git ref, so the catalog must be in a git work tree (%v)", dir, ErrNotRepository, err)
	}
	top = strings.TrimRight(top, "\n")
	if _, err := run(ctx, top, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}"); err != nil {
		return nil, fmt.Errorf("%w %q in %s: fetch it first, for example git fetch origin main and then --changed-since origin/main (with actions/checkout, set fetch-depth: 0)", ErrUnknownRef, ref, top)
	}
	base, err := run(ctx, top, "merge-base", "--end-of-options", ref, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("%w of %q and HEAD in %s: the clone lacks their common history; fetch it (git fetch --unshallow, or fetch-depth: 0 with actions/checkout)", ErrNoMergeBase, ref, top)
	}
	base = strings.TrimSpace(base)
	// Against the work tree, the diff holds the branch's commits, the index
	// and the edits at once.
	diff, err := run(ctx, top, "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", base, "--")
	if err != nil {
		return nil, fmt.Errorf("listing the files changed since %s in %s: %w", ref, top, err)
	}
	untracked, err := run(ctx, top, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, fmt.Errorf("listing the untracked files of %s: %w", top, err)
	}
	seen := map[string]bool{}
	var out []string
	for _, list := range []string{diff, untracked} {
		for _, rel := range strings.Split(list, "\x00") {
			if rel == "" || seen[rel] {
				continue
			}
			seen[rel] = true
			out = append(out, filepath.Join(top, filepath.FromSlash(rel)))
		}
	}
	return out, nil
}

// run runs git in dir and returns its standard output; a failure carries
// git's own message.
func run(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	// Paths as bytes, never quoted or localised, and no pager or prompt.
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return stdout.String(), nil
}
