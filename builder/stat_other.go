//go:build !linux

package builder

import "os"

// statFile returns a file's size and modification time, following symbolic
// links; the change time and inode, which os does not give portably, are
// left 0.
func statFile(p string) (fileStat, error) {
	info, err := os.Stat(p)
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{Size: info.Size(), MTime: info.ModTime().UnixNano()}, nil
}
