package builder

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A build holds a lock beside its output from before it reads the recorded
// state until it has published and recorded the next: a second build into
// the same output waits for it (or, with Options.NoWait, fails), and so
// never takes the first one's staging directory for a killed build's
// leftover, nor publishes beside it. The lock file stays beside the output
// once released: deleting a lock file another process may be waiting on
// would let a third one take a lock of its own.

// lockPath is the lock file of the builds into out.
func lockPath(out string) string {
	abs := absOr(out)
	return filepath.Join(filepath.Dir(abs), ".catalogist-lock-"+filepath.Base(abs))
}

// BusyError is a build refused because another build into the same output
// holds its lock (Options.NoWait).
type BusyError struct {
	Out, Lock string
	// PID is the holder's process id, 0 when unknown.
	PID   int
	stale string
}

func (e *BusyError) Error() string {
	holder := "holding " + e.Lock
	if e.PID > 0 {
		holder = "pid " + strconv.Itoa(e.PID) + ", " + holder
	}
	return fmt.Sprintf("another build into %s is running (%s): build again once it has ended%s", e.Out, holder, e.stale)
}

func pidNote(pid int) string {
	if pid <= 0 {
		return ""
	}
	return " (pid " + strconv.Itoa(pid) + ")"
}

// locker is one way of holding a lock file: flock where the system has it,
// an exclusively created file elsewhere.
type locker interface {
	// try takes the lock if it is free.
	try() (bool, error)
	// wait takes the lock, waiting for its holder to release it.
	wait() error
	// holder is the process id the holder wrote in the lock file, 0 if
	// unknown.
	holder() int
	// unlock releases the lock if held, and what try opened.
	unlock()
	// stale says what to do about a lock its holder could have left
	// behind, "" when the system releases it.
	stale() string
}

// lockOutput takes the lock of the builds into out, waiting for the build
// that holds it (saying so on log) unless noWait. The caller must call the
// function it returns once the output and its state are written.
func lockOutput(out string, noWait bool, log io.Writer) (func(), error) {
	p := lockPath(out)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("output %s: %w", out, err)
	}
	l := newLocker(p)
	ok, err := l.try()
	if err != nil {
		l.unlock()
		return nil, fmt.Errorf("locking the output %s with %s: %w", out, p, err)
	}
	if !ok {
		pid := l.holder()
		if noWait {
			l.unlock()
			return nil, &BusyError{Out: out, Lock: p, PID: pid, stale: l.stale()}
		}
		fmt.Fprintf(log, "waiting for the build into %s%s to finish: it holds %s%s\n", out, pidNote(pid), p, l.stale())
		if err := l.wait(); err != nil {
			l.unlock()
			return nil, fmt.Errorf("locking the output %s with %s: %w", out, p, err)
		}
	}
	return l.unlock, nil
}

// readPID reads the process id a lock file holds.
func readPID(p string) int {
	data, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// pidLine is what a holder writes in its lock file.
func pidLine() []byte { return []byte(strconv.Itoa(os.Getpid()) + "\n") }

// createLock is the lock for systems without flock: the lock is the lock
// file's existence. A build killed while holding it leaves it behind, so
// waiting says how to remove it.
type createLock struct {
	path string
	f    *os.File
	// poll is how often wait tries again.
	poll time.Duration
}

func (l *createLock) try() (bool, error) {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := f.Write(pidLine()); err != nil {
		f.Close()
		os.Remove(l.path)
		return false, err
	}
	l.f = f
	return true, nil
}

func (l *createLock) wait() error {
	for {
		ok, err := l.try()
		if ok || err != nil {
			return err
		}
		time.Sleep(l.poll)
	}
}

func (l *createLock) holder() int { return readPID(l.path) }

func (l *createLock) stale() string {
	return "; if that build was killed, delete the file"
}

func (l *createLock) unlock() {
	if l.f != nil {
		l.f.Close()
		os.Remove(l.path)
		l.f = nil
	}
}
