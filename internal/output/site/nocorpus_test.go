//go:build !corpus

package site

// corpusPages is empty without the corpus (see corpus_test.go).
var corpusPages []string
