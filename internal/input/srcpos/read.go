package srcpos

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// ReadFile reads a text file that is to be parsed: no larger than MaxBytes
// (checked while reading, so a file that grows or a device is not read
// whole) and holding no NUL byte.
func ReadFile(path string) ([]byte, error) {
	// Stat first: opening a FIFO would wait for a writer.
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s): give a file", path, info.Mode().Type())
	}
	if info.Size() > MaxBytes {
		return nil, fmt.Errorf("%s: the file is %d bytes, more than the %d bytes accepted; is it the right file?", path, info.Size(), MaxBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	// Read into a buffer of the file's size, with the room ReadFrom wants
	// to see the end: io.ReadAll alone doubles its way there, which lint
	// paid on every schema.
	buf := bytes.NewBuffer(make([]byte, 0, info.Size()+bytes.MinRead))
	_, err = buf.ReadFrom(io.LimitReader(f, MaxBytes+1))
	data := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%s: the file is more than the %d bytes accepted; is it the right file?", path, MaxBytes)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, fmt.Errorf("%s is a binary file, not text: is it the right file?", path)
	}
	return data, nil
}
