package builder_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogist/catalogist/builder"
)

// catalog.yaml's artifacthub: section becomes artifacthub-repo.yml beside
// index.yaml, a file of the output like the others: kept by an unchanged
// rebuild, rewritten when the section changes, gone with it.
func TestArtifactHubFile(t *testing.T) {
	cat := example(t, "databases")
	config := filepath.Join(cat, "catalog.yaml")
	base, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, config, string(base)+"artifacthub:\n  repositoryID: 5c1e3f0a-8d4b-4c59-9b43-3f3bd1a6e0a2\n  owners:\n    - {name: jane, email: jane@example.org}\n    - {email: ops@example.org}\n")
	out := filepath.Join(t.TempDir(), "site")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	file := filepath.Join(out, builder.ArtifactHubFile)
	want := `# Written by catalogist build from the artifacthub section of catalog.yaml.
repositoryID: 5c1e3f0a-8d4b-4c59-9b43-3f3bd1a6e0a2
owners:
  - name: jane
    email: jane@example.org
  - email: ops@example.org
`
	if got, err := os.ReadFile(file); err != nil || string(got) != want {
		t.Fatalf("%s:\n%s(%v)\nwant:\n%s", builder.ArtifactHubFile, got, err, want)
	}
	before := snapshot(t, out)
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	sameTrees(t, before, snapshot(t, out))

	// A deleted file of the output is made again, as any other.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	sameTrees(t, before, snapshot(t, out))

	writeFile(t, config, string(base)+"artifacthub:\n  owners: [{email: ops@example.org}]\n")
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	if got, _ := os.ReadFile(file); string(got) != "# Written by catalogist build from the artifacthub section of catalog.yaml.\nowners:\n  - email: ops@example.org\n" {
		t.Errorf("after the section changed:\n%s", got)
	}

	writeFile(t, config, string(base))
	build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2)})
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("%s is still there without the section: %v", builder.ArtifactHubFile, err)
	}
}
