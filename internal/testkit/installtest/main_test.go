package installtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// TestInstall installs catalogist the ways contributors do, from a scratch
// copy of this module: the pre-commit hook, then the Helm plugin into both
// Helm CLIs. pre-commit builds catalogist with go install, as it always
// does; the plugin is given that binary in its bin/, where its own build
// would put it, so that one build serves the whole test.
func TestInstall(t *testing.T) {
	setBuildEnv(t)
	src, rev := scratchModule(t)
	preCommitHome := t.TempDir()
	var built string
	t.Run("pre-commit hook", func(t *testing.T) { built = testPreCommitHook(t, src, rev, preCommitHome) })
	t.Run("Helm plugin", func(t *testing.T) {
		if built == "" {
			t.Fatal("the Helm plugin is given the catalogist the pre-commit hook built, which failed")
		}
		filetree.Copy(t, built, filepath.Join(src, "bin", "catalogist"))
		testHelmPlugin(t, src, rev)
	})
}

// setBuildEnv sets what every tool the test starts inherits (pre-commit,
// the git hook it installs, Helm and its plugin hooks): Go builds offline,
// from the module cache, with the toolchain at hand, into the usual build
// cache, which keeps them warm even under a Helm CLI's private HOME; commits
// need no user configuration; and catalogist prints its plain format even
// in a GitHub Actions job.
func setBuildEnv(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v (is go on PATH?)", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) != 2 {
		t.Fatalf("go env GOMODCACHE GOCACHE printed %q", out)
	}
	for k, v := range map[string]string{
		// Named, not derived from HOME, which tooltest.Helm moves.
		"GOMODCACHE":          dirs[0],
		"GOCACHE":             dirs[1],
		"GOFLAGS":             "-mod=mod",
		"GOPROXY":             "off",
		"GOTOOLCHAIN":         "local",
		"GIT_AUTHOR_NAME":     "t",
		"GIT_AUTHOR_EMAIL":    "t@example.org",
		"GIT_COMMITTER_NAME":  "t",
		"GIT_COMMITTER_EMAIL": "t@example.org",
		"GIT_CONFIG_GLOBAL":   os.DevNull,
		"GIT_CONFIG_NOSYSTEM": "1",
		"GITHUB_ACTIONS":      "",
	} {
		t.Setenv(k, v)
	}
}

// scratchModule returns a copy of this module, made as a clone would see
// the work in progress (the files git tracks or would add, as they are in
// the work tree), committed in its own repository, and that commit. Helm
// names a plugin installed from a directory after it: the copy is a
// directory named catalogist.
func scratchModule(t *testing.T) (dir, rev string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "catalogist")
	rev, err := copyModule(dir)
	if err != nil {
		t.Fatalf("copying the module: %v", err)
	}
	return dir, rev
}

func copyModule(dst string) (string, error) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	ls := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = root
	list, err := ls.Output()
	if err != nil {
		return "", fmt.Errorf("listing the module's files: %w", err)
	}
	for _, rel := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		// A file git tracks but the work tree has deleted is left out, as
		// a commit would.
		src := filepath.Join(root, rel)
		if _, err := os.Lstat(src); os.IsNotExist(err) {
			continue
		}
		if err := filetree.CopyEntry(src, filepath.Join(dst, rel)); err != nil {
			return "", err
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "--no-verify", "-m", "work in progress"}} {
		if _, err := git(dst, args...); err != nil {
			return "", err
		}
	}
	rev, err := git(dst, "rev-parse", "HEAD")
	return strings.TrimSpace(rev), err
}

// git runs git in dir and returns its standard output; an error carries
// what git printed.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("git %s in %s: %w\n%s%s", strings.Join(args, " "), dir, err, out.String(), errOut.String())
	}
	return out.String(), nil
}

// run runs a command in dir with extra environment and returns everything
// it printed, and its exit code (-1 when it could not start).
func run(dir string, env []string, name string, args ...string) (string, int) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		return string(out) + err.Error(), -1
	}
	return string(out), 0
}
