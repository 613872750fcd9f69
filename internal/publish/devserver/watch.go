package devserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// watcher reports the files of the roots that change. A directory root is
// watched with every directory below it, including those created later;
// a file root by way of its directory.
type watcher struct {
	fs *fsnotify.Watcher
	// dirs are the directory roots, files the file roots, ignored the
	// directories whose changes are none of the build's business.
	dirs, files, ignored []string
	// changes receives the path of each changed file or directory, errors
	// what the watch could not do.
	changes chan string
	errors  chan error
	done    chan struct{}
	stop    sync.Once
}

func newWatcher(roots, ignored []string) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching the catalog: %w", err)
	}
	w := &watcher{fs: fw, ignored: ignored, changes: make(chan string), errors: make(chan error), done: make(chan struct{})}
	for _, r := range roots {
		info, err := os.Stat(r)
		if err != nil {
			fw.Close()
			return nil, fmt.Errorf("watching %s: %w", r, err)
		}
		if info.IsDir() {
			w.dirs = append(w.dirs, r)
			if err := w.addTree(r); err != nil {
				fw.Close()
				return nil, err
			}
			// A watch ends with the directory it watches: the parent's
			// tells when the root is removed, replaced or made again.
			if err := fw.Add(filepath.Dir(r)); err != nil {
				fw.Close()
				return nil, fmt.Errorf("watching %s: %w", filepath.Dir(r), err)
			}
			continue
		}
		w.files = append(w.files, r)
		if err := fw.Add(filepath.Dir(r)); err != nil {
			fw.Close()
			return nil, fmt.Errorf("watching %s: %w", r, err)
		}
	}
	go w.run()
	return w, nil
}

// addTree watches dir and the directories below it, but for the ignored
// ones. A directory that vanishes meanwhile is no error: its removal is a
// change the watch reports.
func (w *watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return fmt.Errorf("watching %s: %w", p, err)
		}
		if !d.IsDir() {
			return nil
		}
		if w.isIgnored(p) {
			return filepath.SkipDir
		}
		if err := w.fs.Add(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("watching %s: %w (on Linux, raise fs.inotify.max_user_watches if the catalog is large)", p, err)
		}
		return nil
	})
}

// run turns fsnotify's events into changes of the roots' files.
func (w *watcher) run() {
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if !w.relevant(ev) {
				continue
			}
			if slices.Contains(w.dirs, ev.Name) && ev.Has(fsnotify.Remove|fsnotify.Rename) {
				// The watches below a root moved away follow it to its new
				// name: they would report its changes as the catalog's.
				w.forget(ev.Name)
			}
			if ev.Has(fsnotify.Create) {
				if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
					// Files created in it before it is watched are seen by
					// the rebuild this change starts.
					if err := w.addTree(ev.Name); err != nil {
						w.report(err)
					}
				}
			}
			w.send(ev.Name)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost, directory creations among them:
				// watch everything again and rebuild.
				for _, d := range w.dirs {
					if err := w.addTree(d); err != nil {
						w.report(err)
					}
				}
				w.send(w.dirs[0])
				continue
			}
			w.report(err)
		}
	}
}

// forget stops watching dir and the directories below it.
func (w *watcher) forget(dir string) {
	for _, p := range w.fs.WatchList() {
		if within(dir, p) {
			// A watch the kernel dropped with its directory is gone
			// already.
			_ = w.fs.Remove(p)
		}
	}
}

func (w *watcher) send(p string) {
	select {
	case w.changes <- p:
	case <-w.done:
	}
}

func (w *watcher) report(err error) {
	select {
	case w.errors <- err:
	case <-w.done:
	}
}

func (w *watcher) close() {
	w.stop.Do(func() {
		close(w.done)
		w.fs.Close()
	})
}

// relevant reports whether an event may change what a build makes. A
// change of attributes alone does not (a build goes by content), nor does
// an editor's swap or backup file.
func (w *watcher) relevant(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod || ev.Op == 0 {
		return false
	}
	if editorFile(filepath.Base(ev.Name)) || w.isIgnored(ev.Name) {
		return false
	}
	for _, f := range w.files {
		if ev.Name == f {
			return true
		}
	}
	for _, d := range w.dirs {
		if within(d, ev.Name) {
			return true
		}
	}
	return false
}

// isIgnored reports whether p is in an ignored directory or in a .git
// directory, which git operations churn without changing the sources.
func (w *watcher) isIgnored(p string) bool {
	for _, d := range w.ignored {
		if within(d, p) {
			return true
		}
	}
	for _, d := range w.dirs {
		if !within(d, p) {
			continue
		}
		r, _ := filepath.Rel(d, p)
		if slices.Contains(strings.Split(r, string(filepath.Separator)), ".git") {
			return true
		}
	}
	return false
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// editorFile reports whether a file name is one an editor writes beside
// the file being edited: vim's swap files (.name.swp, .swo, ...) and its
// writability tests (.name.swx, 4913), backups (name~), emacs's lock and
// autosave files (.#name, #name#), Kate's swap files, JetBrains'
// safe-write copies and GNOME's output streams.
func editorFile(name string) bool {
	switch {
	case name == "4913",
		strings.HasSuffix(name, "~"),
		strings.HasPrefix(name, ".#"),
		strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"),
		strings.HasSuffix(name, ".kate-swp"),
		strings.HasSuffix(name, "___jb_tmp___"), strings.HasSuffix(name, "___jb_old___"),
		strings.HasPrefix(name, ".goutputstream-"):
		return true
	}
	ext := filepath.Ext(name)
	return strings.HasPrefix(name, ".") && len(ext) == 4 && strings.HasPrefix(ext, ".sw") && ext[3] >= 'a' && ext[3] <= 'z'
}
