package action

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/githubtest"
	"github.com/catalogist/catalogist/internal/testkit/syncbuf"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// publishRun publishes the ide example to releases on a GitHub served on
// loopback, leaving the site in out.
func publishRun(t *testing.T, gh *githubtest.Server, cat, out, token string) (string, error) {
	t.Helper()
	t.Setenv("GITHUB_ACTIONS", "")
	var log syncbuf.Buffer
	p := &Publish{
		Build: builder.Options{Catalog: cat, Out: out, Merge: filepath.Join(t.TempDir(), "index.yaml"), MergeOptional: true},
		Repo:  "o/r", Token: token, APIURL: gh.URL, Stdout: &log, Stderr: &log,
	}
	err := p.Run(t.Context())
	return log.String(), err
}

// Publish's steps run in order, each only when the one before succeeded:
// the build, then the releases, then the site; a step that fails ends the
// run with its exit code.
func TestPublishSequence(t *testing.T) {
	const token = "ghs_sequenceTESTtoken7"
	api := "/api/v3/repos/o/r/releases"

	t.Run("built, released, the site left in out", func(t *testing.T) {
		gh := githubtest.Serve(t, "o", "r", token)
		out := filepath.Join(t.TempDir(), "site")
		log, err := publishRun(t, gh, "../../examples/ide", out, token)
		if err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		if got := gh.Requests(); len(got) != 6 || got[0] != "GET "+api+"/tags/jupyter-pytorch-gpu-0.6.1" || got[2] != "POST "+api {
			t.Errorf("requests %q", got)
		}
		if !strings.Contains(log, "published 2 chart version(s) in o/r: 2 released, 0 completed, 0 already released; the site is in "+out) {
			t.Errorf("printed:\n%s", log)
		}
		for _, f := range []string{"index.yaml", "index.html"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("the site lacks %s: %v", f, err)
			}
		}
		if strings.Contains(log, token) {
			t.Errorf("the token was printed:\n%s", log)
		}
	})

	t.Run("refused by lint: nothing is released", func(t *testing.T) {
		gh := githubtest.Serve(t, "o", "r", token)
		cat := t.TempDir()
		filetree.Write(t, cat, map[string]string{
			"catalog.yaml":                  "name: c\n",
			"charts/app/Chart.yaml":         "apiVersion: v2\nname: app\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
			"charts/app/templates/cm.yaml":  "{{ .Values.nope.deeper }}\n",
			"charts/app/values.schema.json": `{"type": "object"}`,
		})
		log, err := publishRun(t, gh, cat, filepath.Join(t.TempDir(), "site"), token)
		if ExitCode(err) != ExitRefused || !strings.Contains(log, "nil pointer evaluating interface {}.deeper") {
			t.Errorf("exit %d (%v)\n%s", ExitCode(err), err, log)
		}
		if got := gh.Requests(); len(got) != 0 {
			t.Errorf("a build lint refused sent %q", got)
		}
	})

	t.Run("GitHub fails: exit 3, and no index left to publish", func(t *testing.T) {
		gh := githubtest.Serve(t, "o", "r", token)
		gh.Fail(githubtest.Fault{Method: "POST", Path: "/repos/o/r/releases", Status: 422, Body: `{"message": "Validation Failed"}`})
		out := filepath.Join(t.TempDir(), "site")
		log, err := publishRun(t, gh, "../../examples/ide", out, token)
		if ExitCode(err) != ExitFailed || !strings.Contains(err.Error(), "Validation Failed") {
			t.Fatalf("exit %d (%v)\n%s", ExitCode(err), err, log)
		}
		if _, err := os.Stat(filepath.Join(out, "index.yaml")); !os.IsNotExist(err) {
			t.Errorf("the index was left in the site: %v", err)
		}
		if got := gh.Requests(); !slices.Contains(got, "POST "+api) {
			t.Errorf("requests %q", got)
		}
	})

	// GitHub made the release, and its answer was lost: the release is
	// found by its tag, and the publication goes on, its index kept.
	for _, f := range []githubtest.Fault{
		{Method: "POST", Path: "/repos/o/r/releases", After: true, Status: 502, Body: `{"message": "Bad Gateway"}`},
		{Method: "POST", Path: "/repos/o/r/releases", After: true, Drop: true},
	} {
		t.Run(fmt.Sprintf("release made, answer lost (502 %v, dropped %v): carried on", f.Status == 502, f.Drop), func(t *testing.T) {
			gh := githubtest.Serve(t, "o", "r", token)
			gh.Fail(f)
			out := filepath.Join(t.TempDir(), "site")
			log, err := publishRun(t, gh, "../../examples/ide", out, token)
			if err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			got := gh.Requests()
			if i := slices.Index(got, "POST "+api); i < 0 || i+1 >= len(got) || got[i+1] != "GET "+api+"/tags/jupyter-pytorch-gpu-0.6.1" {
				t.Errorf("the release was not looked up after the lost answer: %q", got)
			}
			rels := gh.Releases()
			if len(rels) != 2 || len(rels[0].Assets) != 1 || len(rels[1].Assets) != 1 {
				t.Errorf("the server holds %+v", rels)
			}
			if !strings.Contains(log, "published 2 chart version(s) in o/r: 2 released") || !strings.Contains(log, "is there already") {
				t.Errorf("printed:\n%s", log)
			}
			if _, err := os.Stat(filepath.Join(out, "index.yaml")); err != nil {
				t.Errorf("the index is not in the site: %v", err)
			}
		})
	}

	t.Run("a bad repository is refused before anything is built", func(t *testing.T) {
		gh := githubtest.Serve(t, "o", "r", token)
		out := filepath.Join(t.TempDir(), "site")
		p := &Publish{Build: builder.Options{Catalog: "../../examples/ide", Out: out}, Repo: "o", Stdout: &syncbuf.Buffer{}, Stderr: &syncbuf.Buffer{}}
		if err := p.Run(t.Context()); ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), `--repo "o" is not OWNER/NAME`) {
			t.Errorf("exit %d (%v)", ExitCode(err), err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) || len(gh.Requests()) != 0 {
			t.Errorf("something was built or sent: %v", err)
		}
	})
}

// With FirstFromReleases, as the Action publishes, a missing published
// index is a first publication only when the repository has released no
// chart of the catalog yet; otherwise the address is likely wrong, and the
// index published with those releases would be dropped.
func TestPublishFirstFromReleases(t *testing.T) {
	const token = "ghs_firstTESTtoken9"
	t.Setenv("GITHUB_ACTIONS", "")
	nothing := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(nothing.Close)
	run := func(gh *githubtest.Server) (string, string, error) {
		var log syncbuf.Buffer
		out := filepath.Join(t.TempDir(), "site")
		p := &Publish{
			Build: builder.Options{Catalog: "../../examples/ide", Out: out, BaseURL: nothing.URL + "/", Merge: nothing.URL + "/"},
			Repo:  "o/r", Token: token, APIURL: gh.URL, FirstFromReleases: true, Stdout: &log, Stderr: &log,
		}
		return out, log.String(), p.Run(t.Context())
	}

	gh := githubtest.Serve(t, "o", "r", token)
	if _, log, err := run(gh); err != nil {
		t.Fatalf("a first publication: %v\n%s", err, log)
	}
	if got := gh.Requests(); len(got) == 0 || got[0] != "GET /api/v3/repos/o/r/releases?per_page=100" || len(gh.Releases()) != 2 {
		t.Errorf("a first publication sent %q and made %d releases", got, len(gh.Releases()))
	}

	gh = githubtest.Serve(t, "o", "r", token)
	gh.AddRelease("vscode-python-1.1.0", map[string][]byte{"vscode-python-1.1.0.tgz": []byte("an older package")})
	out, log, err := run(gh)
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "nothing is published at "+nothing.URL) || !strings.Contains(err.Error(), "o/r has released vscode-python-1.1.0 before") {
		t.Fatalf("an index missing after releases: exit %d (%v)\n%s", ExitCode(err), err, log)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) || len(gh.Releases()) != 1 {
		t.Errorf("something was built or released: %v, %d releases", err, len(gh.Releases()))
	}
}

// A repository chart-releaser published, with Helm 3 or Helm 4, is taken
// over as it is: publish keeps every published version whose content the
// sources still make, with its URL, digest and creation date, and
// releases nothing again; a bumped chart is released alone; a chart
// changed without a bump is refused, naming the file, before anything is
// released.
func TestPublishTakesOverChartReleaser(t *testing.T) {
	const token = "ghs_takeoverTESTtoken4"
	t.Setenv("GITHUB_ACTIONS", "")
	for _, major := range []int{3, 4} {
		t.Run(fmt.Sprintf("helm%d", major), func(t *testing.T) {
			gh := githubtest.Serve(t, "o", "r", token)
			cat := filepath.Join(t.TempDir(), "ide")
			filetree.Copy(t, "../../examples/ide", cat)
			index := filepath.Join(t.TempDir(), "pages", "index.yaml")
			tooltest.NewHelm(t, major).ChartRelease(t, cat, index,
				func(tag string) string { return gh.URL + "/o/r/releases/download/" + tag },
				func(tag, file string, data []byte) { gh.AddRelease(tag, map[string][]byte{file: data}) })
			published, err := repoindex.Load(index)
			if err != nil {
				t.Fatal(err)
			}
			run := func() (*repo.IndexFile, string, error) {
				var log syncbuf.Buffer
				out := filepath.Join(t.TempDir(), "site")
				p := &Publish{
					Build: builder.Options{Catalog: cat, Out: out, Merge: filepath.Dir(index), CacheDir: t.TempDir()},
					Repo:  "o/r", Token: token, APIURL: gh.URL, Stdout: &log, Stderr: &log,
				}
				err := p.Run(t.Context())
				idx, _ := repoindex.Load(filepath.Join(out, "index.yaml"))
				return idx, log.String(), err
			}

			idx, log, err := run()
			if err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			for name, cvs := range published.Entries {
				got, err := idx.Get(name, cvs[0].Version)
				if err != nil || got.URLs[0] != cvs[0].URLs[0] || got.Digest != cvs[0].Digest || !got.Created.Equal(cvs[0].Created) {
					t.Errorf("%s %s: published %v %s %v, now %+v (%v)", name, cvs[0].Version, cvs[0].URLs, cvs[0].Digest, cvs[0].Created, got, err)
				}
			}
			for _, r := range gh.Requests() {
				if !strings.HasPrefix(r, "GET /o/r/releases/download/") {
					t.Errorf("request %s: only the published packages are fetched, to compare", r)
				}
			}
			if len(gh.Releases()) != 2 || !strings.Contains(log, "kept 2 published version(s) as published") || !strings.Contains(log, "published 0 chart version(s)") {
				t.Errorf("%d releases, printed:\n%s", len(gh.Releases()), log)
			}

			// A new version is released, alone.
			replaceIn(t, filepath.Join(cat, "charts", "vscode-python", "Chart.yaml"), "\nversion: 1.2.0\n", "\nversion: 9.9.9\n")
			idx, log, err = run()
			if err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			rels := gh.Releases()
			if len(rels) != 3 || rels[2].Tag != "vscode-python-9.9.9" || !strings.Contains(log, "published 1 chart version(s) in o/r: 1 released") {
				t.Errorf("releases %+v, printed:\n%s", rels, log)
			}
			if _, err := idx.Get("vscode-python", "9.9.9"); err != nil || len(idx.Entries["vscode-python"]) != 2 {
				t.Errorf("index: %v %v", idx.Entries["vscode-python"], err)
			}

			// A change without a bump is refused, naming the file.
			gh.Requests()
			filetree.Write(t, cat, map[string]string{"charts/jupyter-pytorch-gpu/templates/NOTES.txt": "Changed.\n"})
			_, log, err = run()
			if ExitCode(err) != ExitRefused || !strings.Contains(err.Error(), "templates/NOTES.txt differs") || !strings.Contains(err.Error(), gh.URL+"/o/r/releases/download/jupyter-pytorch-gpu-") {
				t.Errorf("exit %d (%v)\n%s", ExitCode(err), err, log)
			}
			for _, r := range gh.Requests() {
				if !strings.HasPrefix(r, "GET ") {
					t.Errorf("a refused publication sent %s", r)
				}
			}
		})
	}
}

func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), old) {
		t.Fatalf("%s does not hold %q: %v", path, old, err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
