//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package builder

import "time"

func newLocker(p string) locker { return &createLock{path: p, poll: 250 * time.Millisecond} }
