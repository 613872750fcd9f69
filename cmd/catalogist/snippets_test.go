package main

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/testkit/repotest"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

var snippetRe = regexp.MustCompile(`(?s)<pre class="snippet"[^>]*><code>(.*?)</code></pre>`)

// snippetCommands reads the install snippets of a page: one command a line,
// a line ending with a backslash going on to the next, words as a shell
// splits them (the site quotes a word with single quotes when it must).
func snippetCommands(t *testing.T, page string) [][]string {
	t.Helper()
	var out [][]string
	for _, m := range snippetRe.FindAllStringSubmatch(page, -1) {
		text := strings.ReplaceAll(html.UnescapeString(m[1]), "\\\n", " ")
		for line := range strings.SplitSeq(text, "\n") {
			if words := shellWords(t, line); len(words) > 0 {
				out = append(out, words)
			}
		}
	}
	return out
}

func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var b strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			b.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("snippet line %q leaves a quote open", line)
	}
	if inWord {
		words = append(words, b.String())
	}
	return words
}

// Every install snippet of every chart page works as shown, against the
// built site served on loopback: helm repo add and helm install (with
// Helm 4 and the oldest supported Helm 3; install's arguments are given to
// helm template, which needs no cluster) and catalogist launch (a dry run).
func TestSiteSnippetsWork(t *testing.T) {
	for _, example := range []string{"ide", "databases", "automation"} {
		t.Run(example, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "site")
			srv := repotest.Serve(t, out)
			if r := catalogist(t, nil, "build", "../../examples/"+example, "--out", out, "--base-url", srv.URL); r.code != 0 {
				t.Fatalf("build: %s%s", r.stdout, r.stderr)
			}
			pages, err := filepath.Glob(filepath.Join(out, "charts", "*", "index.html"))
			if err != nil || len(pages) == 0 {
				t.Fatalf("no chart pages: %v", err)
			}
			helms := []*tooltest.Helm{tooltest.NewHelm(t, 4), tooltest.NewHelm(t, 3)}
			env := []string{"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "KUBECONFIG=" + filepath.Join(dir, "none")}
			ran := map[string]int{}
			for _, page := range pages {
				data, err := os.ReadFile(page)
				if err != nil {
					t.Fatal(err)
				}
				// The form's commands take the values.yaml it offers:
				// here the full document of the embedded form model.
				valuesFile := filepath.Join(filepath.Dir(page), "values.yaml")
				if m := formModelRe.FindSubmatch(data); m != nil {
					var model struct{ Values map[string]any }
					if err := json.Unmarshal(m[1], &model); err != nil {
						t.Fatalf("%s: form model: %v", page, err)
					}
					doc, err := yaml.Marshal(model.Values)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(valuesFile, doc, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				cmds := snippetCommands(t, string(data))
				// The repository is added first, whatever the order of the
				// snippets on the page.
				slices.SortStableFunc(cmds, func(a, b []string) int { return repoFirst(a) - repoFirst(b) })
				for _, cmd := range cmds {
					for i := range cmd {
						if cmd[i] == "values.yaml" && i > 0 && cmd[i-1] == "-f" {
							cmd[i] = valuesFile
							ran["-f values.yaml"]++
						}
					}
					name := cmd[0] + " " + cmd[1]
					ran[name]++
					switch name {
					case "helm repo":
						for _, h := range helms {
							h.Run(t, append(cmd[1:], "--force-update")...)
						}
					case "helm install":
						// helm template takes install's arguments and
						// fetches the chart alike, without a cluster.
						for _, h := range helms {
							h.Run(t, append([]string{"template"}, cmd[2:]...)...)
						}
					case "catalogist launch":
						if r := catalogist(t, env, append(cmd[1:], "--dry-run")...); r.code != 0 {
							t.Errorf("%s, as %s shows it: exit %d\n%s%s", strings.Join(cmd, " "), page, r.code, r.stdout, r.stderr)
						}
					default:
						t.Errorf("%s shows a snippet this test does not know how to run: %q", page, strings.Join(cmd, " "))
					}
				}
			}
			// Each launchable chart's page: one helm repo add, helm install
			// and catalogist launch, and the form's two with -f values.yaml.
			if ran["helm repo"] == 0 || ran["helm install"] != 2*ran["helm repo"] || ran["catalogist launch"] != ran["helm install"] || ran["-f values.yaml"] != ran["helm install"] {
				t.Errorf("snippets run: %v; want a helm repo add, a helm install and a catalogist launch on each page of a launchable chart", ran)
			}
		})
	}
}

// formModelRe finds the form model a chart page embeds.
var formModelRe = regexp.MustCompile(`(?s)<script type="application/json" id="form-model">(.*?)</script>`)

func repoFirst(cmd []string) int {
	if len(cmd) > 1 && cmd[0] == "helm" && cmd[1] == "repo" {
		return 0
	}
	return 1
}
