//go:build corpus

package editorschema_test

import (
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/editorschema"
	"github.com/catalogist/catalogist/internal/testkit/corpustest"
)

// The reference platform's own catalog and its API's schema registry are
// written for it: every file validates.
func TestCorpusValidates(t *testing.T) {
	onyxia := schemas(t, schema.Onyxia.ExtKey, schema.Onyxia)
	for _, f := range glob(t, filepath.Join(corpustest.Charts(t), "*", "values.schema.json")) {
		onyxia[editorschema.ValuesName].mustValidate(t, f)
	}
	// A registry file is one property's schema.
	option := onyxia[editorschema.ValuesName].sub(t, "/definitions/option")
	for _, pattern := range []string{filepath.Join(corpustest.Registry(t), "*.json"), filepath.Join(corpustest.Registry(t), "*", "*.json")} {
		for _, f := range glob(t, pattern) {
			option.mustValidate(t, f)
		}
	}
}
