package lint_test

import (
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// Where nothing names the extension key, a catalog is read as its schemas
// are written: x-onyxia alone makes it the reference platform's catalog,
// and a note says how to pin that.
func TestExtensionKeyFromSchemas(t *testing.T) {
	chart := func(name, key string) map[string]string {
		return map[string]string{
			"charts/" + name + "/Chart.yaml":         "apiVersion: v2\nname: " + name + "\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
			"charts/" + name + "/values.schema.json": `{"type": "object", "properties": {"user": {"title": "User", "type": "string", "default": "x", "` + key + `": {"overwriteDefaultWith": "user.idep"}}}}`,
			"charts/" + name + "/values.yaml":        "user: x\n",
		}
	}
	write := func(parts ...map[string]string) string {
		dir := t.TempDir()
		for _, p := range parts {
			filetree.Write(t, dir, p)
		}
		return dir
	}
	rules := func(fs []string) map[string]bool {
		out := map[string]bool{}
		for _, f := range fs {
			out[strings.Fields(f)[1]] = true
		}
		return out
	}

	onyxia := lintDirs(t, write(chart("a", "x-onyxia"), chart("b", "x-onyxia")))
	if len(onyxia.Notes) != 1 || !strings.Contains(onyxia.Notes[0], "under x-onyxia, so it is judged for the onyxia platform; to pin that, set extensionKey: x-onyxia") {
		t.Errorf("notes %q", onyxia.Notes)
	}
	if r := rules(summary(onyxia.Findings)); r["ext-foreign-key"] {
		t.Errorf("an x-onyxia catalog was read with x-platform: %v", summary(onyxia.Findings))
	}

	// A mix keeps the default key, and the fields under the other are
	// reported as before.
	mixed := lintDirs(t, write(chart("a", "x-onyxia"), chart("b", "x-platform")))
	if len(mixed.Notes) != 0 || !rules(summary(mixed.Findings))["ext-foreign-key"] {
		t.Errorf("a mix: notes %q, findings %v", mixed.Notes, summary(mixed.Findings))
	}

	// What catalog.yaml says is kept.
	pinned := lintDirs(t, write(chart("a", "x-onyxia"), map[string]string{"catalog.yaml": "name: c\nextensionKey: x-platform\n"}))
	if len(pinned.Notes) != 0 || !rules(summary(pinned.Findings))["ext-foreign-key"] {
		t.Errorf("a pinned key: notes %q, findings %v", pinned.Notes, summary(pinned.Findings))
	}
}
