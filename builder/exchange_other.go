//go:build !linux

package builder

import "errors"

// exchange is only atomic on Linux; elsewhere publish falls back to two
// renames.
func exchange(a, b string) error { return errors.ErrUnsupported }

// dirID identifies a directory where that is cheap; elsewhere it tells
// nothing.
func dirID(string) string { return "" }
