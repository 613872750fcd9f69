package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// guideBlocks returns the fenced blocks of a guide's section, by language.
func guideBlocks(t *testing.T, page, heading string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n"+heading+"\n")
	if start < 0 {
		t.Fatalf("%s has no section %q", page, heading)
	}
	text = text[start+len(heading)+2:]
	if end := strings.Index(text, "\n## "); end >= 0 {
		text = text[:end]
	}
	out := map[string][]string{}
	for _, m := range regexp.MustCompile("(?s)```(\\w+)\n(.*?)```").FindAllStringSubmatch(text, -1) {
		out[m[1]] = append(out[m[1]], m[2])
	}
	return out
}

// TestSwitchingGuide follows docs/switching.md on a catalog that Helm 4's
// helm package and helm repo index published as chart-releaser does, with
// x-onyxia schemas and no catalog.yaml: the commands of its steps 1 to 3,
// as written there with the catalog's address, do what the page says.
func TestSwitchingGuide(t *testing.T) {
	const page = "../../docs/switching.md"
	root := t.TempDir()
	cat := filepath.Join(root, "catalog")
	if r := catalogist(t, nil, "new", "catalog", cat, "--platform", "onyxia"); r.code != 0 {
		t.Fatalf("new catalog: %d\n%s", r.code, r.stderr)
	}
	for _, c := range []string{"jupyter", "rstudio"} {
		if r := catalogist(t, nil, "new", "chart", c, "--catalog", cat); r.code != 0 {
			t.Fatalf("new chart: %d\n%s", r.code, r.stderr)
		}
	}
	// A catalog as chart-releaser keeps it: charts, no catalog.yaml.
	for _, f := range []string{"catalog.yaml", ".catalogist", ".vscode", ".github"} {
		if err := os.RemoveAll(filepath.Join(cat, f)); err != nil {
			t.Fatal(err)
		}
	}
	assets, pages := filepath.Join(root, "assets"), filepath.Join(root, "pages")
	gh := repotest.Serve(t, assets)
	tooltest.NewHelm(t, 4).ChartRelease(t, cat, filepath.Join(pages, "index.yaml"),
		func(tag string) string { return gh.URL + "/releases/download/" + tag },
		func(tag, file string, data []byte) {
			filetree.Write(t, filepath.Join(assets, "releases", "download", tag), map[string]string{file: string(data)})
		})
	site := repotest.Serve(t, pages)
	published, err := repo.LoadIndexFile(filepath.Join(pages, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	address := strings.NewReplacer("https://ORG.github.io/REPO", site.URL)
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(root, "cache")}
	run := func(block string) []result {
		t.Helper()
		var out []result
		for _, line := range strings.Split(address.Replace(block), "\n") {
			line, _, _ = strings.Cut(line, "#")
			args := strings.Fields(line)
			if len(args) == 0 {
				continue
			}
			if args[0] != "catalogist" {
				t.Fatalf("%s: %q is no catalogist command", page, line)
			}
			r := catalogistIn(t, cat, env, args[1:]...)
			t.Logf("%s: exit %d\n%s%s", line, r.code, r.stdout, r.stderr)
			out = append(out, r)
		}
		return out
	}

	// 1. Lint it as it is: judged for the reference platform, and said so.
	step := guideBlocks(t, page, "## 1. Lint it as it is")
	if len(step["sh"]) == 0 || len(step["yaml"]) == 0 {
		t.Fatalf("step 1 has no command or no catalog.yaml: %v", step)
	}
	rs := run(step["sh"][0])
	if len(rs) != 1 || rs[0].code != 0 || !strings.Contains(rs[0].stderr, "judged for the onyxia platform") {
		t.Fatalf("step 1's lint: %+v", rs)
	}
	filetree.Write(t, cat, map[string]string{"catalog.yaml": address.Replace(step["yaml"][0])})

	// 2. Nothing published changes: each command succeeds, and the index
	// built keeps every version as chart-releaser published it.
	step = guideBlocks(t, page, "## 2. Check that nothing published changes")
	for i, r := range run(step["sh"][0]) {
		if r.code != 0 {
			t.Errorf("step 2, command %d: exit %d\n%s", i+1, r.code, r.stderr)
		}
	}
	built, err := repo.LoadIndexFile(filepath.Join(cat, "out", "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, versions := range published.Entries {
		for _, p := range versions {
			b, err := built.Get(name, p.Version)
			if err != nil || strings.Join(b.URLs, " ") != strings.Join(p.URLs, " ") || b.Digest != p.Digest || !b.Created.Equal(p.Created) {
				t.Errorf("%s %s is not kept as published (%v): %+v", name, p.Version, err, b)
			}
		}
	}
	// A chart changed without a version bump is refused, naming the file.
	filetree.Write(t, cat, map[string]string{"charts/rstudio/templates/NOTES.txt": "changed\n"})
	if rs := run(step["sh"][0]); rs[0].code != 1 || !strings.Contains(rs[0].stdout+rs[0].stderr, "templates/NOTES.txt") {
		t.Errorf("a change without a bump: %+v", rs[0])
	}

	// 3. READMEs: the commands run, and leave them current.
	step = guideBlocks(t, page, "## 3. READMEs")
	rs = run(step["sh"][0])
	if len(rs) != 2 || rs[1].code != 0 {
		t.Fatalf("step 3: %+v", rs)
	}
	if r := catalogistIn(t, cat, env, "docs", "--check"); r.code != 0 {
		t.Errorf("docs --check after docs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if len(step["yaml"]) == 0 || !strings.Contains(step["yaml"][0], "id: catalogist-docs") {
		t.Errorf("step 3 shows no catalogist-docs hook")
	}
}
