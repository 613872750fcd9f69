package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A chart is packaged, linted and shown from the files Helm's loader reads,
// and the loader follows symbolic links wherever they lead: a link to
// /proc/self/environ would publish the CI's environment, one to /etc/passwd
// show it on the chart's page. Whatever a catalog reads (a chart's files,
// its icon, the icons directory) must therefore resolve inside the catalog
// repository; Contain decides that, for every caller.

// EscapeReason is why a path of a catalog is refused.
type EscapeReason int

const (
	// Outside: the path resolves outside the catalog repository.
	Outside EscapeReason = iota
	// Dangling: a symbolic link on the path leads to nothing.
	Dangling
	// Loop: symbolic links on the path lead back to a directory holding
	// them, so that following them never ends.
	Loop
)

// EscapeError is a path of a catalog that leads outside its repository, or
// nowhere.
type EscapeError struct {
	// Path is the refused path, as the catalog names it.
	Path string
	// Link is the target of Path as written in the link, "" when Path
	// itself is no symbolic link (a link among its parents, or a relative
	// path with ..).
	Link string
	// Resolved is where Path leads, "" when nowhere.
	Resolved string
	// Root is the catalog repository's root.
	Root   string
	Reason EscapeReason
}

func (e *EscapeError) Error() string { return e.Path + ": " + e.Problem() }

// Problem says what is wrong with the path, and what to do, without naming
// it: a lint finding names it by its position.
func (e *EscapeError) Problem() string {
	what := "the path"
	if e.Link != "" {
		what = "symbolic link to " + e.Link
	}
	switch e.Reason {
	case Dangling:
		return what + " leads to no file: fix the link or remove it"
	case Loop:
		return what + " leads back to a directory that holds it, so following it never ends: remove the link"
	}
	to, fix := "", "name a file inside it"
	if info, err := os.Stat(e.Resolved); e.Resolved != "" && err == nil && info.IsDir() {
		fix = "name a directory inside it"
	}
	if e.Resolved != "" && !filepath.IsAbs(e.Link) {
		to = " (" + e.Resolved + ")"
	}
	if e.Link != "" {
		fix = "copy what it points to into the catalog, or remove the link"
	}
	return fmt.Sprintf("%s%s leads outside the catalog repository %s, whose files are published: %s", what, to, e.Root, fix)
}

// Root returns the catalog repository's root, symbolic links resolved: the
// directory holding catalog.yaml, else the catalog directory (Discover makes
// the first the catalog directory whenever there is one).
func (c *Catalog) Root() (string, error) {
	if c.root != "" {
		return c.root, nil
	}
	abs, err := filepath.Abs(c.Dir)
	if err != nil {
		return "", fmt.Errorf("catalog %s: %w", c.Dir, err)
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("catalog %s: %w", c.Dir, err)
	}
	return root, nil
}

// Contain resolves every symbolic link of path and returns the file it
// leads to, or an *EscapeError when that is outside the catalog repository
// (or nothing, or an endless loop of links). Other failures (permissions)
// are returned wrapped.
func (c *Catalog) Contain(path string) (string, error) {
	root, err := c.Root()
	if err != nil {
		return "", err
	}
	return contain(root, path)
}

func contain(root, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("resolving %s: %w", path, err)
	}
	link, _ := os.Readlink(path)
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		esc := &EscapeError{Path: path, Link: link, Root: root}
		_, statErr := os.Stat(abs)
		switch {
		case errors.Is(statErr, syscall.ELOOP):
			esc.Reason = Loop
		case errors.Is(statErr, fs.ErrNotExist) && !within(root, resolveExisting(abs)):
			esc.Reason = Outside
		case errors.Is(statErr, fs.ErrNotExist) && hasLink(abs):
			esc.Reason = Dangling
		default:
			return "", fmt.Errorf("resolving %s: %w", path, err)
		}
		return "", esc
	}
	if !within(root, resolved) {
		return "", &EscapeError{Path: path, Link: link, Resolved: resolved, Root: root, Reason: Outside}
	}
	return resolved, nil
}

// resolveExisting resolves the links of the longest part of the absolute
// path abs that exists, and appends the rest: where a missing file would
// be.
func resolveExisting(abs string) string {
	rest := ""
	for p := abs; ; {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		next := filepath.Dir(p)
		if next == p {
			return abs
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = next
	}
}

// hasLink reports whether a symbolic link lies on an absolute path that
// does not exist: a link leading nowhere, rather than a plain missing file.
func hasLink(abs string) bool {
	for p := abs; ; {
		if info, err := os.Lstat(p); err == nil {
			return info.Mode()&fs.ModeSymlink != 0
		}
		next := filepath.Dir(p)
		if next == p {
			return false
		}
		p = next
	}
}

// within reports whether the clean absolute path p is dir or below it.
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// ChartFile is a regular file of a chart, as Helm's loader reads it.
type ChartFile struct {
	// Rel is its slash path in the chart, under the names of the links
	// that lead to it.
	Rel string
	// Path is the file to read: the link's target when reached through one.
	Path string
	// Size and ModTime (Unix nanoseconds) are the file's, not the links'.
	Size, ModTime int64
	// LinkTime is the latest modification time of the links on the way,
	// zero when none: pointing a link elsewhere changes it, where the
	// target's own stamp could stay the same.
	LinkTime int64
}

// ChartFiles lists the regular files of a chart directory in lexical
// order, following symbolic links as Helm's loader does. The links that
// lead outside the catalog repository, nowhere, or back to a directory
// holding them are returned apart, none of them followed; other files
// (devices, pipes), which Helm refuses to load, are left out. An error is a
// directory that cannot be read.
func (c *Catalog) ChartFiles(dir string) ([]ChartFile, []*EscapeError, error) {
	root, err := c.Root()
	if err != nil {
		return nil, nil, err
	}
	at, err := contain(root, dir)
	if err != nil {
		var esc *EscapeError
		if errors.As(err, &esc) {
			return nil, []*EscapeError{esc}, nil
		}
		return nil, nil, err
	}
	w := &chartWalk{root: root}
	if err := w.walk(place{shown: dir, at: at}, []string{at}); err != nil {
		return nil, nil, err
	}
	return w.files, w.escapes, nil
}

type chartWalk struct {
	root    string
	files   []ChartFile
	escapes []*EscapeError
	seen    map[string]bool
}

// place is where the walk is: the directory's path as the user names it
// (through the links), its path with links resolved, its slash path in the
// chart, and the links followed to reach it.
type place struct {
	shown, at, rel string
	// viaLink is true below a symbolic link, linkTime the latest
	// modification time of the links on the way.
	viaLink  bool
	linkTime int64
}

// child is the place of an entry of the directory.
func (pl place) child(name string) place {
	c := pl
	c.shown, c.at, c.rel = filepath.Join(pl.shown, name), filepath.Join(pl.at, name), name
	if pl.rel != "" {
		c.rel = pl.rel + "/" + name
	}
	return c
}

// walk lists the directory pl.at; stack holds the directories being
// walked, which no link may lead back to.
func (w *chartWalk) walk(pl place, stack []string) error {
	entries, err := os.ReadDir(pl.at)
	if err != nil {
		return fmt.Errorf("reading %s: %w", pl.shown, err)
	}
	for _, e := range entries {
		c := pl.child(e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			err = w.follow(c, stack)
		case e.IsDir():
			err = w.walk(c, append(stack, c.at))
		case e.Type().IsRegular():
			info, ierr := e.Info()
			if ierr != nil {
				return fmt.Errorf("reading %s: %w", c.shown, ierr)
			}
			w.add(c, c.at, info)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// follow lists what the symbolic link at pl leads to, or records why it is
// refused.
func (w *chartWalk) follow(pl place, stack []string) error {
	// Below a link, the user's path to this one goes through another: the
	// link's own place is where to fix it.
	if pl.viaLink {
		pl.shown = pl.at
	}
	info, err := os.Lstat(pl.at)
	if err != nil {
		return fmt.Errorf("reading %s: %w", pl.shown, err)
	}
	pl.viaLink, pl.linkTime = true, max(pl.linkTime, info.ModTime().UnixNano())
	target, err := contain(w.root, pl.at)
	if err != nil {
		var esc *EscapeError
		if !errors.As(err, &esc) {
			return err
		}
		esc.Path = pl.shown
		w.escape(pl.at, esc)
		return nil
	}
	if info, err = os.Stat(target); err != nil {
		return fmt.Errorf("reading %s: %w", pl.shown, err)
	}
	switch {
	case info.IsDir():
		if loops(stack, target) {
			link, _ := os.Readlink(pl.at)
			w.escape(pl.at, &EscapeError{Path: pl.shown, Link: link, Resolved: target, Root: w.root, Reason: Loop})
			return nil
		}
		pl.at = target
		return w.walk(pl, append(stack, target))
	case info.Mode().IsRegular():
		w.add(pl, target, info)
	}
	return nil
}

func (w *chartWalk) add(pl place, file string, info fs.FileInfo) {
	w.files = append(w.files, ChartFile{Rel: pl.rel, Path: file, Size: info.Size(), ModTime: info.ModTime().UnixNano(), LinkTime: pl.linkTime})
}

// escape records a refused link once, however many ways lead to it.
func (w *chartWalk) escape(link string, esc *EscapeError) {
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if !w.seen[link] {
		w.seen[link] = true
		w.escapes = append(w.escapes, esc)
	}
}

// loops reports whether a link to the directory target leads back to one
// of the directories being walked.
func loops(stack []string, target string) bool {
	for _, d := range stack {
		if within(target, d) {
			return true
		}
	}
	return false
}
