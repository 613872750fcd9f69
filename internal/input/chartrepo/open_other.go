//go:build !unix

package chartrepo

// openNonblock is a Unix flag; elsewhere the file's kind is checked after
// opening it.
const openNonblock = 0
