package builder

import "golang.org/x/sys/unix"

// statFile returns a file's stat data, following symbolic links.
func statFile(p string) (fileStat, error) {
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		return fileStat{}, err
	}
	return fileStat{Size: st.Size, MTime: st.Mtim.Nano(), CTime: st.Ctim.Nano(), Inode: st.Ino}, nil
}
