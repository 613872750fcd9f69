package builder

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// stageTree tracks what the staging directory holds. A recycled staging
// directory starts as a previous output: recycle keeps of it only the files
// that are also the current output's (hard links to the same data) and the
// directories. The steps then claim every file and directory of the new
// output: a kept file is claimed as it is when the new output has the
// current output's file at that path, and is removed, never written
// through, before a new file takes its place, for it is the current
// output's file too; a directory where a file goes is removed. sweep
// deletes what no step claimed, so that the staging directory holds exactly
// what a build into an empty one would.
type stageTree struct {
	stage, out string
	// reused is true for a recycled tree.
	reused bool

	mu sync.Mutex
	// kept are the recycled files, dirs the directories that exist, all
	// by slash path relative to the staging directory.
	kept, dirs map[string]bool
	// recycled are the recycled directories.
	recycled []string
	// claimed are the files and directories of the new output, files its
	// files.
	claimed, files map[string]bool
}

func newStageTree(stage, out string) *stageTree {
	return &stageTree{stage: stage, out: out, kept: map[string]bool{}, dirs: map[string]bool{".": true}, claimed: map[string]bool{}, files: map[string]bool{}}
}

// recycle prepares dir, a previous output or what a killed build left, to
// be the staging directory of a build into out.
func recycle(dir, out string) (*stageTree, error) {
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	t := newStageTree(dir, out)
	t.reused = true
	// On one goroutine: staging runs alongside discovery, which needs the
	// processors more.
	for todo := []string{"."}; len(todo) > 0; {
		d := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		sub, err := t.prune(d)
		if err != nil {
			return nil, err
		}
		todo = append(todo, sub...)
	}
	return t, nil
}

// prune keeps, in one directory of a recycled tree, the files that are the
// output's own files at the same path and the directories, deletes the
// other files and returns the directories.
func (t *stageTree) prune(rel string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(t.stage, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	var dirs, kept []string
	for _, e := range entries {
		r := path.Join(rel, e.Name())
		p := filepath.Join(t.stage, filepath.FromSlash(r))
		if e.IsDir() {
			dirs = append(dirs, r)
			continue
		}
		if e.Type().IsRegular() {
			o, err := os.Lstat(filepath.Join(t.out, filepath.FromSlash(r)))
			if err == nil && o.Mode().IsRegular() {
				if info, err := e.Info(); err == nil && os.SameFile(info, o) {
					kept = append(kept, r)
					continue
				}
			}
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, d := range dirs {
		t.dirs[d] = true
	}
	for _, k := range kept {
		t.kept[k] = true
	}
	t.recycled = append(t.recycled, dirs...)
	return dirs, nil
}

// claimDir records that the new output has the directory rel and its
// parents.
func (t *stageTree) claimDir(rel string) {
	for d := rel; d != "." && d != "/" && !t.claimed[d]; d = path.Dir(d) {
		t.claimed[d] = true
	}
}

// mkdirAll creates the directory rel and its parents unless they exist.
func (t *stageTree) mkdirAll(rel string) error {
	t.mu.Lock()
	t.claimDir(rel)
	ok := t.dirs[rel]
	t.mu.Unlock()
	if ok {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(t.stage, filepath.FromSlash(rel)), 0o755); err != nil {
		return err
	}
	t.mu.Lock()
	for d := rel; d != "." && d != "/" && !t.dirs[d]; d = path.Dir(d) {
		t.dirs[d] = true
	}
	t.mu.Unlock()
	return nil
}

// keep claims the recycled file at rel, if there is one, which is the
// output's file at rel.
func (t *stageTree) keep(rel string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.kept[rel] {
		return false
	}
	t.claimed[rel], t.files[rel] = true, true
	t.claimDir(path.Dir(rel))
	return true
}

// claimedFile reports whether rel is claimed already.
func (t *stageTree) claimedFile(rel string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.claimed[rel]
}

// clear claims rel for a new file: the recycled file there, if any, is
// removed rather than written through, and the parent directories are
// created.
func (t *stageTree) clear(rel string) error {
	t.mu.Lock()
	kept, dir := t.kept[rel], t.dirs[rel]
	delete(t.kept, rel)
	t.claimed[rel], t.files[rel] = true, true
	if dir {
		// A recycled directory where the new output has a file.
		for d := range t.dirs {
			if d == rel || strings.HasPrefix(d, rel+"/") {
				delete(t.dirs, d)
			}
		}
	}
	t.mu.Unlock()
	p := filepath.Join(t.stage, filepath.FromSlash(rel))
	if kept {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if dir {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return t.mkdirAll(path.Dir(rel))
}

// fileList lists the files of the new output, sorted.
func (t *stageTree) fileList() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	files := make([]string, 0, len(t.files))
	for rel := range t.files {
		files = append(files, rel)
	}
	slices.Sort(files)
	return files
}

// sweep deletes the recycled files and directories that no step claimed.
func (t *stageTree) sweep() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	for rel := range t.kept {
		if t.claimed[rel] {
			continue
		}
		if err := os.Remove(filepath.Join(t.stage, filepath.FromSlash(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	var dirs []string
	for _, d := range t.recycled {
		if !t.claimed[d] {
			dirs = append(dirs, d)
		}
	}
	// Deepest first, so that a directory is empty when its turn comes. One
	// that is not holds files written this build: they stay.
	slices.SortFunc(dirs, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, d := range dirs {
		os.Remove(filepath.Join(t.stage, filepath.FromSlash(d)))
	}
	return nil
}

// errAltered is a file of the current output that is not the one the last
// build recorded: deleted, or changed since.
var errAltered = errors.New("not as the last build left it")

// linkPrevious puts the current output's file rel (a slash path) into the
// staging directory, provided it is as the last build left it, judging by
// its size and time: a file deleted or altered since is made again.
func (b *build) linkPrevious(rel string) error {
	if !b.in.previous.intact(b.in.Out, rel) {
		return errAltered
	}
	return b.linkCurrent(rel)
}

// linkCurrent puts the current output's file rel into the staging
// directory: kept from the recycled tree, else hard-linked.
func (b *build) linkCurrent(rel string) error {
	if b.stage.tree.keep(rel) {
		return nil
	}
	if err := b.stage.tree.clear(rel); err != nil {
		return err
	}
	return linkOrCopy(filepath.Join(b.in.Out, filepath.FromSlash(rel)), filepath.Join(b.stage.dir, filepath.FromSlash(rel)))
}

// writeFile writes a file the build generated into the staging directory.
// When the current output holds the same bytes at the same place, its file
// is linked instead: creating a file costs more than reading one.
func (b *build) writeFile(rel string, data []byte) error {
	if b.samePrevious(rel, data) && b.linkCurrent(rel) == nil {
		return nil
	}
	if err := b.stage.tree.clear(rel); err != nil {
		return err
	}
	return createFile(filepath.Join(b.stage.dir, filepath.FromSlash(rel)), data)
}

// samePrevious reports whether the current output's file rel holds data.
func (b *build) samePrevious(rel string, data []byte) bool {
	p := filepath.Join(b.in.Out, filepath.FromSlash(rel))
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() != int64(len(data)) {
		return false
	}
	old, err := os.ReadFile(p)
	return err == nil && bytes.Equal(old, data)
}

// createFile writes a new file, refusing to write through an existing one.
func createFile(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return nil
}
