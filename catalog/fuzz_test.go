package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/doc"
)

// FuzzParseConfig reads arbitrary catalog.yaml documents: no panic, and a
// refusal is a positioned error (what the CLI prints as file:line:col).
func FuzzParseConfig(f *testing.F) {
	matches, _ := filepath.Glob("../testdata/*/catalog.yaml")
	more, _ := filepath.Glob("../examples/*/catalog.yaml")
	for _, m := range append(matches, more...) {
		if data, err := os.ReadFile(m); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("platform: onyxia\nschemaRegistry: [a, b]\nlint:\n  rules: {slider-grid: off}\n  ignore:\n    - {rule: x, charts: [\"*\"], option: \"a/[b\"}\n"))
	f.Add([]byte("lint: {ignore: [{}], rules: [1]}\nplatform: [onyxia]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data)
		if err != nil {
			var de *doc.Error
			if !errors.As(err, &de) || !de.Pos.IsValid() {
				t.Fatalf("refusal without a position: %v", err)
			}
			return
		}
		if cfg == nil {
			t.Fatal("no config and no error")
		}
	})
}
