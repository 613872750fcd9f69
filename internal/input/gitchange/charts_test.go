package gitchange_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/gitchange"
)

// What lint --changed-since lints, from a real repository: the charts
// git lists as changed since main, as catalog decides which a file
// concerns, with the charts depending on them.
func TestChangedCharts(t *testing.T) {
	top := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = top
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(top, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	chart := func(name, deps string) {
		write("catalog/charts/"+name+"/Chart.yaml", "apiVersion: v2\nname: "+name+"\nversion: 1.0.0\n"+deps)
		write("catalog/charts/"+name+"/templates/cm.yaml", "kind: ConfigMap\n")
	}
	write("catalog/catalog.yaml", "name: c\nbaseURL: https://example.org/c\n")
	write("README.md", "the repository\n")
	chart("library", "type: library\n")
	chart("jupyter", "dependencies:\n  - {name: library, version: 1.0.0, repository: file://../library}\n")
	chart("rstudio", "dependencies:\n  - {name: library, version: 1.0.0, repository: https://example.org/c}\n")
	chart("vscode", "")
	git("init", "--quiet", "--initial-branch=main")
	git("add", "-A")
	git("commit", "--quiet", "-m", "start")
	git("checkout", "--quiet", "-b", "change")

	// changed returns the charts changed since main, and those linted.
	changed := func() (direct, linted []string) {
		t.Helper()
		cat, err := catalog.Discover(filepath.Join(top, "catalog"))
		if err != nil {
			t.Fatal(err)
		}
		files, err := gitchange.Changed(context.Background(), cat.Dir, "main")
		if err != nil {
			t.Fatal(err)
		}
		touched, err := cat.Touched(files, nil)
		if err != nil {
			t.Fatal(err)
		}
		all := cat.WithDependents(touched)
		for _, ch := range cat.Charts {
			if touched[ch] {
				direct = append(direct, ch.Name)
			}
			if all[ch] {
				linted = append(linted, ch.Name)
			}
		}
		return direct, linted
	}
	check := func(what string, wantDirect, wantLinted []string) {
		t.Helper()
		direct, linted := changed()
		if !slices.Equal(direct, wantDirect) || !slices.Equal(linted, wantLinted) {
			t.Errorf("%s: changed %q, linted %q; want %q, %q", what, direct, linted, wantDirect, wantLinted)
		}
	}

	check("nothing", nil, nil)
	write("README.md", "outside the catalog\n")
	check("a file outside the catalog", nil, nil)

	write("catalog/charts/vscode/templates/cm.yaml", "kind: ConfigMap\ndata: {a: b}\n")
	git("commit", "--quiet", "-am", "vscode")
	check("a committed change in one chart", []string{"vscode"}, []string{"vscode"})

	write("catalog/charts/library/templates/_new.tpl", "{{/* new */}}")
	check("an untracked file in the library", []string{"library", "vscode"}, []string{"jupyter", "library", "rstudio", "vscode"})

	git("add", "-A")
	git("commit", "--quiet", "-m", "library")
	write("catalog/catalog.yaml", "name: c\nbaseURL: https://example.org/c\ntitle: C\n")
	check("catalog.yaml", []string{"jupyter", "library", "rstudio", "vscode"}, []string{"jupyter", "library", "rstudio", "vscode"})
}
