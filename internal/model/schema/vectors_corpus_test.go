//go:build corpus

package schema_test

import "testing"

// The vectors that edit charts of the corpus (testdata/form-corpus/).
func TestCorpusFormVectors(t *testing.T) { formVectors(t, corpusVectorsDir) }

func TestCorpusEditVectors(t *testing.T) { editVectors(t, corpusVectorsDir) }
