package builder

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// exchange swaps two directories atomically.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// dirID identifies a directory by its device and inode, which renaming it
// keeps.
func dirID(p string) string {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
}
