//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package builder

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// flockLock holds the lock file with flock, which the system releases
// when the holder dies, killed or not: a lock is never stale.
type flockLock struct {
	path string
	f    *os.File
	held bool
}

func newLocker(p string) locker { return &flockLock{path: p} }

func (l *flockLock) open() error {
	if l.f != nil {
		return nil
	}
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	l.f = f
	return nil
}

func (l *flockLock) try() (bool, error) {
	if err := l.open(); err != nil {
		return false, err
	}
	err := flock(l.f, unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	l.held = true
	return true, l.claim()
}

func (l *flockLock) wait() error {
	if err := l.open(); err != nil {
		return err
	}
	if err := flock(l.f, unix.LOCK_EX); err != nil {
		return err
	}
	l.held = true
	return l.claim()
}

// claim writes the holder's process id, for the builds that wait to say.
func (l *flockLock) claim() error {
	if err := l.f.Truncate(0); err != nil {
		l.unlock()
		return err
	}
	if _, err := l.f.WriteAt(pidLine(), 0); err != nil {
		l.unlock()
		return err
	}
	return nil
}

func (l *flockLock) holder() int { return readPID(l.path) }

func (l *flockLock) stale() string { return "" }

func (l *flockLock) unlock() {
	if l.f == nil {
		return
	}
	if l.held {
		// Emptied first: a build that finds the lock taken reads the
		// next holder's id, or none, never this one's.
		l.f.Truncate(0)
		flock(l.f, unix.LOCK_UN)
		l.held = false
	}
	l.f.Close()
	l.f = nil
}

// flock retries a call a signal interrupted.
func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
