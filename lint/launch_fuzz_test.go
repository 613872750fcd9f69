package lint

import (
	"strings"
	"testing"
)

// FuzzKeyPos places arbitrary field paths in arbitrary templates: no
// panic, and the position is a line of the template (or its first).
func FuzzKeyPos(f *testing.F) {
	f.Add("spec:\n  ports:\n    - port: {{ .Values.port }}\n", "spec.ports[0].port")
	f.Add("metadata:\n  labels:\n    \"app.kubernetes.io/name\": x\n", "metadata.labels[app.kubernetes.io/name]")
	f.Add("a: 1\na: 2\n", "a")
	f.Add("", "[")
	f.Fuzz(func(t *testing.T, src, path string) {
		lines := strings.Split(src, "\n")
		pos := keyPos(lines, path)
		if pos.Line < 1 || pos.Line > max(len(lines), 1) || pos.Col < 1 {
			t.Fatalf("keyPos(%q, %q) = %+v", src, path, pos)
		}
		if pos.Line > 1 || pos.Col > 1 {
			if pos.Col > len(lines[pos.Line-1])+1 {
				t.Fatalf("keyPos(%q, %q) = %+v: past the line's end", src, path, pos)
			}
		}
	})
}
