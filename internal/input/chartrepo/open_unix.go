//go:build unix

package chartrepo

import "syscall"

// openNonblock keeps opening a FIFO from waiting for a writer.
const openNonblock = syscall.O_NONBLOCK
