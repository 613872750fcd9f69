package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
)

// FuzzArtifactHubAnnotations gives every annotation Artifact Hub reads an
// arbitrary value, written as a literal block in Chart.yaml: no panic, and
// every finding has a message and a place inside the file, within the
// block when it points into the value.
func FuzzArtifactHubAnnotations(f *testing.F) {
	f.Add("- kind: added\n  description: GPU support\n  links:\n    - {name: pr, url: https://example.org/1}\n- kind: fixd\n", uint8(0))
	f.Add("- Upgrade to Jupyter 4\n- Fixed: the kernel restarting\n- \n- [a]\n", uint8(0))
	f.Add("- name: nb\n  image: registry.example.org/Team/Notebook:1.2@sha256:00\n  whitelisted: maybe\n  platforms: linux\n", uint8(2))
	f.Add("- name: Docs\n  url: docs/index.html\n- {name: [x]}\n- plain\n", uint8(1))
	f.Add("(MIT OR Apache-2.0) WITH LLVM-exception AND", uint8(3))
	f.Add("yes", uint8(4))
	f.Add("- [unclosed\n  : : {", uint8(0))
	names := []string{"changes", "links", "images", "license", "prerelease", "containsSecurityUpdates"}
	dir := f.TempDir()
	chart := filepath.Join(dir, "charts", "c")
	if err := os.MkdirAll(chart, 0o755); err != nil {
		f.Fatal(err)
	}
	file := filepath.Join(chart, "Chart.yaml")
	f.Fuzz(func(t *testing.T, value string, which uint8) {
		name := names[int(which)%len(names)]
		// Each checker alone, on the value as Helm hands it over.
		for _, pr := range ahCheckers[name](value, "skip") {
			if pr.msg == "" || (pr.at.IsValid() && pr.at.Col < 1) {
				t.Fatalf("%s: problem without a message or with a bad place: %+v", name, pr)
			}
		}
		// The rule, on the value written as a literal block.
		var b strings.Builder
		b.WriteString("apiVersion: v2\nname: c\nversion: 1.0.0\nannotations:\n  artifacthub.io/" + name + ": |\n")
		for _, l := range strings.Split(value, "\n") {
			b.WriteString("    " + l + "\n")
		}
		doc := b.String()
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		cat, err := catalog.Discover(dir)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run([]*catalog.Catalog{cat}, Options{Rules: []*Rule{RuleArtifactHub}})
		if err != nil {
			return // a file beyond the limits is refused, not linted
		}
		lines := strings.Count(doc, "\n") + 1
		for _, fd := range res.Findings {
			if fd.Message == "" || fd.Line < 1 || fd.Line > lines || fd.Column < 1 {
				t.Fatalf("finding without a message or outside the file (%d lines): %+v\n%s", lines, fd, doc)
			}
		}
	})
}
