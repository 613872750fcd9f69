package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/githubtest"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestPublish publishes the ide example to releases on a GitHub served on
// loopback and to the gh-pages branch of a bare repository, in a GitHub
// Actions step; then again, which changes nothing; then with a package
// changed under a published version, which is refused.
func TestPublish(t *testing.T) {
	const token = "ghs_publishTESTtoken42"
	cat := copyExample(t, "ide")
	remote := filepath.Join(t.TempDir(), "remote.git")
	git(t, cat, "init", "-q", "-b", "main")
	git(t, cat, "add", ".")
	git(t, cat, "-c", "user.name=dev", "-c", "user.email=dev@example.org", "commit", "-q", "-m", "catalog")
	git(t, cat, "init", "-q", "--bare", remote)
	git(t, cat, "remote", "add", "origin", remote)

	gh := githubtest.Serve(t, "example-org", "catalog-ide", token)
	gh.Web = gh.URL + "/"
	out := filepath.Join(t.TempDir(), "site")
	step := t.TempDir()
	outputs, summary := filepath.Join(step, "output"), filepath.Join(step, "summary")
	env := []string{"GITHUB_TOKEN=" + token, "GITHUB_REPOSITORY=example-org/catalog-ide", "GITHUB_SHA=", "GITHUB_API_URL=",
		"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1"}
	args := []string{"publish", cat, "--out", out, "--pages-branch", "gh-pages", "--api-url", gh.URL}
	actions := append(slices.Clone(env), "GITHUB_ACTIONS=true", "GITHUB_OUTPUT="+outputs, "GITHUB_STEP_SUMMARY="+summary)
	for _, f := range []string{outputs, summary} {
		os.WriteFile(f, nil, 0o644)
	}

	r := catalogist(t, actions, append(args, "--merge-optional")...)
	if r.code != 0 {
		t.Fatalf("first publication: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The runner hides the token wherever a log shows it once told so,
	// and that line is the only one holding it.
	if !strings.HasPrefix(r.stdout, "::add-mask::"+token+"\n") {
		t.Errorf("the token was not masked:\n%s", r.stdout)
	}
	for _, text := range []string{strings.TrimPrefix(r.stdout, "::add-mask::"+token+"\n"), r.stderr} {
		if strings.Contains(text, token) {
			t.Errorf("the token was printed:\n%s", text)
		}
	}
	api, up := "/api/v3/repos/example-org/catalog-ide/releases", "/api/uploads/repos/example-org/catalog-ide/releases"
	want := []string{
		"GET " + api + "/tags/jupyter-pytorch-gpu-0.6.1",
		"GET " + api + "/tags/vscode-python-1.2.0",
		"POST " + api,
		"POST " + up + "/1/assets?name=jupyter-pytorch-gpu-0.6.1.tgz",
		"POST " + api,
		"POST " + up + "/3/assets?name=vscode-python-1.2.0.tgz",
	}
	if got := gh.Requests(); !slices.Equal(got, want) {
		t.Errorf("first publication sent\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if !strings.Contains(r.stdout, "created  jupyter-pytorch-gpu 0.6.1  "+gh.URL+"/example-org/catalog-ide/releases/tag/jupyter-pytorch-gpu-0.6.1") ||
		!strings.Contains(r.stdout, "published 2 chart version(s) in example-org/catalog-ide: 2 released, 0 completed, 0 already released; committed ") {
		t.Errorf("first publication printed:\n%s", r.stdout)
	}
	rels := gh.Releases()
	if len(rels) != 2 || rels[0].MakeLatest != "false" || !strings.Contains(rels[0].Body, "- **Added**: Shared memory size option") {
		t.Errorf("releases: %+v", rels)
	}
	got, _ := os.ReadFile(outputs)
	set := map[string]string{}
	for rest := string(got); rest != ""; {
		var name, delim, value string
		name, rest, _ = strings.Cut(rest, "<<")
		delim, rest, _ = strings.Cut(rest, "\n")
		value, rest, _ = strings.Cut(rest, "\n"+delim+"\n")
		if _, twice := set[name]; twice {
			t.Errorf("step output %s set twice", name)
		}
		set[name] = value
	}
	for name, value := range map[string]string{"published": "2", "changed_charts": "jupyter-pytorch-gpu,vscode-python", "index_url": "https://example-org.github.io/catalog-ide/index.yaml", "charts": "2"} {
		if set[name] != value {
			t.Errorf("step output %s is %q, want %q", name, set[name], value)
		}
	}
	got, _ = os.ReadFile(summary)
	if !strings.Contains(string(got), "| vscode-python | 1.2.0 | [vscode-python-1.2.0]("+gh.URL+"/example-org/catalog-ide/releases/tag/vscode-python-1.2.0) | created |") {
		t.Errorf("step summary:\n%s", got)
	}

	// The branch holds the site and an index listing the release assets,
	// which Helm reads; the packages are not in the branch.
	head := git(t, remote, "rev-parse", "gh-pages")
	files := git(t, remote, "ls-tree", "-r", "--name-only", "gh-pages")
	if !strings.Contains(files, "charts/vscode-python/index.html") || strings.Contains(files, ".tgz") {
		t.Errorf("the branch holds:\n%s", files)
	}
	index := filepath.Join(t.TempDir(), "index.yaml")
	os.WriteFile(index, []byte(git(t, remote, "show", "gh-pages:index.yaml")), 0o644)
	idx, err := repo.LoadIndexFile(index)
	if err != nil {
		t.Fatalf("Helm cannot read the published index: %v", err)
	}
	for i, name := range []string{"jupyter-pytorch-gpu", "vscode-python"} {
		cv := idx.Entries[name][0]
		tag := name + "-" + cv.Version
		asset := rels[i].Assets[0]
		if len(cv.URLs) != 1 || cv.URLs[0] != gh.URL+"/example-org/catalog-ide/releases/download/"+tag+"/"+tag+".tgz" || "sha256:"+cv.Digest != asset.Digest() {
			t.Errorf("%s is listed at %v with digest %s; the asset's is %s", tag, cv.URLs, cv.Digest, asset.Digest())
		}
	}

	// Again: nothing is released nor committed.
	r = catalogist(t, env, args...)
	if r.code != 0 || !strings.Contains(r.stdout, "0 released, 0 completed, 2 already released; gh-pages of origin is up to date") {
		t.Fatalf("second publication: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want = want[:2]
	if got := gh.Requests(); !slices.Equal(got, want) {
		t.Errorf("second publication sent %q, want %q", got, want)
	}
	if git(t, remote, "rev-parse", "gh-pages") != head {
		t.Errorf("the second publication committed")
	}

	// A template changed without a version bump: refused before anything
	// is released or pushed.
	filetree.Write(t, cat, map[string]string{"charts/vscode-python/templates/extra.yaml": "# changed\n"})
	r = catalogist(t, env, args...)
	if r.code != 1 || !strings.Contains(r.stderr, `chart "vscode-python" version 1.2.0 is already published`) || !strings.Contains(r.stderr, "bump the chart version") {
		t.Errorf("a changed package: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Only the published package is fetched, to compare.
	for _, got := range gh.Requests() {
		if !strings.HasPrefix(got, "GET /"+gh.Owner+"/"+gh.Repo+"/releases/download/vscode-python-1.2.0/") {
			t.Errorf("a refused publication sent %q", got)
		}
	}
	if git(t, remote, "rev-parse", "gh-pages") != head || len(gh.Releases()) != 2 {
		t.Errorf("a refused publication pushed or released")
	}
}

// Without --pages-branch the site is left in --out; a version released
// with another package is refused before anything is made, and the index,
// which would name it, is not left there to be published.
func TestPublishRefusesAChangedRelease(t *testing.T) {
	const token = "ghs_publishTESTtoken43"
	gh := githubtest.Serve(t, "o", "r", token)
	gh.AddRelease("vscode-python-1.2.0", map[string][]byte{"vscode-python-1.2.0.tgz": []byte("another package")})
	out := filepath.Join(t.TempDir(), "site")
	r := catalogist(t, []string{"GITHUB_TOKEN=" + token, "GITHUB_SHA="}, "publish", "../../examples/ide", "--out", out,
		"--repo", "o/r", "--api-url", gh.URL, "--merge", filepath.Join(t.TempDir(), "index.yaml"), "--merge-optional")
	if r.code != 1 || !strings.Contains(r.stderr, `chart "vscode-python" version 1.2.0 is released already (tag vscode-python-1.2.0)`) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := []string{
		"GET /api/v3/repos/o/r/releases/tags/jupyter-pytorch-gpu-0.6.1",
		"GET /api/v3/repos/o/r/releases/tags/vscode-python-1.2.0",
	}
	if got := gh.Requests(); !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(out, "index.yaml")); !os.IsNotExist(err) {
		t.Errorf("the index was left in the site: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("the site was not built: %v", err)
	}
}
