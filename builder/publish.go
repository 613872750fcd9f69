package builder

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"
)

// A build assembles the new output in a staging directory next to Out and
// exchanges the two when it succeeds. The previous output is not deleted
// then: it is left beside Out as .catalogist-old-<out>-*, and the next
// build takes it as its staging directory (see recycle.go). Deleting and
// recreating a hundred chart directories per build costs more than the rest
// of an incremental build, and the old tree weighs little: the files the
// two outputs share are hard links to the same data, so the old tree only
// holds its directories and the few files that changed since.
//
// A build killed midway leaves its staging directory behind as
// .catalogist-stage-<out>-*. The next build recycles one leftover, a
// previous output by preference, and deletes the others while it works,
// waiting for that before it returns. It holds the output's lock meanwhile
// (see lock.go): what it finds there is never a running build's. A build that fails sets a recycled
// staging directory aside again and deletes a new one. Recycling never
// trusts what a leftover holds: only the files that are the current
// output's own (the same inode) are kept, so deleting leftovers by hand is
// always safe, and only costs the next build its head start.

// stagePrefix names the staging directories created next to the output;
// oldPrefix the previous output once a build has replaced it.
const (
	stagePrefix = ".catalogist-stage-"
	oldPrefix   = ".catalogist-old-"
)

// stage creates the staging directory next to Out, on the same file system,
// so that publishing is a rename. It is the previous output before last
// when there is one to recycle.
func stage(_ context.Context, b *build) error {
	s, err := makeStage(b.in.Out, b.work)
	if err != nil {
		return err
	}
	b.stage = s
	return nil
}

// makeStage makes the staging directory of a build into outDir, deleting
// the leftovers it does not recycle on work.
func makeStage(outDir string, work *errgroup.Group) (*staging, error) {
	out, err := filepath.Abs(outDir)
	if err != nil {
		return nil, fmt.Errorf("output %s: %w", outDir, err)
	}
	if info, err := os.Stat(out); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("output %s %w", outDir, errNotDir)
	}
	parent, base := filepath.Dir(out), filepath.Base(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("output %s: %w", outDir, err)
	}
	// One leftover is recycled; the others are deleted while the build
	// goes on.
	var s *staging
	var remove []string
	for _, d := range staleDirs(parent, base) {
		if s != nil {
			remove = append(remove, d)
			continue
		}
		dir := filepath.Join(parent, stagePrefix+base+"-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		if err := os.Rename(d, dir); err != nil {
			remove = append(remove, d)
			continue
		}
		tree, err := recycle(dir, out)
		if err != nil {
			remove = append(remove, dir)
			continue
		}
		s = &staging{dir: dir, tree: tree}
	}
	removeInBackground(work, remove)
	if s != nil {
		return s, nil
	}
	// Named as staleDirs expects: a random number after the output's name.
	for {
		dir := filepath.Join(parent, stagePrefix+base+"-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		err := os.Mkdir(dir, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("staging directory: %w", err)
		}
		// Whatever the umask, the published output is readable.
		if err := os.Chmod(dir, 0o755); err != nil {
			os.Remove(dir)
			return nil, err
		}
		return &staging{dir: dir, tree: newStageTree(dir, out)}, nil
	}
}

// staleDirs lists the previous outputs and the staging directories of
// killed builds of the same output, previous outputs first. Their names end
// in digits: those of an output named like this one and a dash, "site-2"
// beside "site", are not this one's.
func staleDirs(parent, base string) []string {
	entries, _ := os.ReadDir(parent)
	var old, staged []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if n, ok := strings.CutPrefix(e.Name(), oldPrefix+base+"-"); ok && digits(n) {
			old = append(old, filepath.Join(parent, e.Name()))
		} else if n, ok := strings.CutPrefix(e.Name(), stagePrefix+base+"-"); ok && digits(n) {
			staged = append(staged, filepath.Join(parent, e.Name()))
		}
	}
	return append(old, staged...)
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// removeInBackground deletes directories while the build goes on, which
// ends once they are.
func removeInBackground(work *errgroup.Group, dirs []string) {
	if len(dirs) == 0 {
		return
	}
	work.Go(func() error {
		for _, d := range dirs {
			os.RemoveAll(d)
		}
		return nil
	})
}

// publish puts the staging directory in place of the output. On Linux the
// two are exchanged atomically; elsewhere the old output is moved aside
// first, leaving a moment without output but never a mixed one. The
// previous output is then kept aside for the next build to recycle.
func publish(_ context.Context, b *build) error {
	out, err := filepath.Abs(b.in.Out)
	if err != nil {
		return err
	}
	if err := b.writeFile(".nojekyll", nil); err != nil {
		return err
	}
	// The digests of reused packages are read from the staging directory:
	// once it is swapped, its path holds the previous output, so they must
	// be done before.
	b.stagedDigests()
	st := b.stage
	if err := st.tree.sweep(); err != nil {
		return fmt.Errorf("staging directory: %w", err)
	}
	if err := b.encodeState(); err != nil {
		return err
	}
	_, statErr := os.Stat(out)
	switch {
	case errors.Is(statErr, fs.ErrNotExist):
		if err := os.Rename(st.dir, out); err != nil {
			return fmt.Errorf("publishing %s: %w", b.in.Out, err)
		}
		st.dir = ""
	case statErr != nil:
		return fmt.Errorf("output %s: %w", b.in.Out, statErr)
	default:
		old := b.oldDir()
		if err := exchange(st.dir, out); err == nil {
			// The staging directory now holds the previous output: set
			// it aside, or let cleanup delete it.
			if os.Rename(st.dir, old) == nil {
				st.dir = ""
			}
		} else {
			if err := swap(st.dir, out, old); err != nil {
				return err
			}
			st.dir = ""
		}
	}
	return nil
}

// oldDir is where the staging directory is set aside as a previous output.
func (b *build) oldDir() string {
	out := absOr(b.in.Out)
	return filepath.Join(filepath.Dir(out), oldPrefix+filepath.Base(out)+"-"+strings.TrimPrefix(filepath.Base(b.stage.dir), stagePrefix+filepath.Base(out)+"-"))
}

// swap replaces out with stage by two renames, moving out to old.
func swap(stage, out, old string) error {
	if err := os.Rename(out, old); err != nil {
		return fmt.Errorf("moving the previous output aside: %w", err)
	}
	if err := os.Rename(stage, out); err != nil {
		os.Rename(old, out)
		return fmt.Errorf("publishing %s: %w", out, err)
	}
	return nil
}
