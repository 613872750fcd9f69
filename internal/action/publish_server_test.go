package action

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/publish/release"
	"github.com/catalogist/catalogist/internal/publish/workflow"
	"github.com/catalogist/catalogist/internal/publish/workflow/workflowtest"
	"github.com/catalogist/catalogist/internal/testkit/githubtest"
)

// hostileURL is a release page a hostile server answers with.
const hostileURL = "https://x/\n::error::forged ##[add-mask]tok [link](javascript:alert(1)) <img src=x>"

// In a job step, what GitHub answers (its release pages, its error
// messages) is printed inert and scrubbed of the token: the runner reads no
// command in the log but catalogist's, the log holds no control character,
// and the step summary renders no link but to web addresses, no image and
// no HTML.
func TestPublishPrintsServerAnswersInert(t *testing.T) {
	const token = "ghs_serverAnswersTESTtoken9"
	message, _ := json.Marshal(map[string]string{"message": hostileURL + "\x1b[2J " + token})
	for _, tc := range []struct {
		name string
		// web is where the server says its pages are, after its URL.
		web   string
		fault bool
		// shown is what the log shows of the first release's page,
		// after the server's URL.
		shown string
	}{
		{name: "hostile page", web: hostileURL + "/", shown: "/o/r/releases/tag/jupyter-pytorch-gpu-0.6.1"},
		{name: "the token in the page", web: "/" + token + "/", shown: "/********/o/r/releases/tag/jupyter-pytorch-gpu-0.6.1"},
		{name: "markup in the page", web: "/x?a=](javascript:alert(1))<img/src=x>|`c`&b=",
			shown: "/x?a=](javascript:alert(1))<img/src=x>|`c`&b=o/r/releases/tag/jupyter-pytorch-gpu-0.6.1"},
		{name: "hostile error", web: "/", fault: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gh := githubtest.Serve(t, "o", "r", token)
			gh.Web = tc.web
			if strings.HasPrefix(tc.web, "/") {
				gh.Web = gh.URL + tc.web
			}
			if tc.fault {
				gh.Fail(githubtest.Fault{Method: "POST", Path: "/repos/o/r/releases", Status: 422, Body: string(message)})
			}
			dir := t.TempDir()
			summary := filepath.Join(dir, "summary")
			t.Setenv("GITHUB_ACTIONS", "true")
			t.Setenv("GITHUB_STEP_SUMMARY", summary)
			t.Setenv("GITHUB_OUTPUT", filepath.Join(dir, "output"))
			// Standard output and error as main makes them in a step,
			// into one log, as action.yml runs catalogist (2>&1).
			var log bytes.Buffer
			steps := workflow.NewLog()
			stdout, stderr := steps.Stream(&log), steps.Stream(&log)
			p := &Publish{
				Build: builder.Options{Catalog: "../../examples/ide", Out: filepath.Join(dir, "site"), Merge: filepath.Join(dir, "index.yaml"), MergeOptional: true},
				Repo:  "o/r", Token: token, APIURL: gh.URL, Stdout: stdout, Stderr: stderr,
			}
			err := p.Run(t.Context())
			stdout.Flush()
			stderr.Flush()
			if (err != nil) != tc.fault {
				t.Fatalf("publish: %v\n%s", err, log.String())
			}
			if err != nil && (strings.Contains(err.Error(), token) || strings.ContainsFunc(err.Error(), unicode.IsControl) ||
				!strings.Contains(err.Error(), `https://x/\n::error::forged`)) {
				t.Errorf("the error holds the token or a control character, or lost GitHub's message: %q", err)
			}

			cmds, plain, perr := workflowtest.Commands(log.String())
			if perr != nil {
				t.Fatal(perr)
			}
			for _, c := range cmds {
				if c.Name != "stop-commands" && !c.Resume && !(c.Name == "add-mask" && c.Message == token) {
					t.Errorf("the runner carries out %s %q, which catalogist did not write:\n%s", c.Name, c.Message, log.String())
				}
			}
			if tc.shown != "" && !slices.Contains(plain, "created  jupyter-pytorch-gpu 0.6.1  "+gh.URL+tc.shown) {
				t.Errorf("the log does not show the release at %s:\n%s", gh.URL+tc.shown, log.String())
			}
			for _, line := range plain {
				if strings.Contains(line, token) || strings.ContainsFunc(line, unicode.IsControl) {
					t.Errorf("the log shows the token or a control character: %q", line)
				}
			}

			data, rerr := os.ReadFile(summary)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if strings.Contains(string(data), token) {
				t.Errorf("the summary holds the token:\n%s", data)
			}
			// Publish's part, after the build's.
			_, sum, ok := strings.Cut(string(data), "### catalogist publish")
			if !ok {
				t.Fatalf("no publish summary:\n%s", data)
			}
			var out bytes.Buffer
			md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
			if err := md.Convert([]byte(sum), &out); err != nil {
				t.Fatal(err)
			}
			doc, perr := xhtml.Parse(&out)
			if perr != nil {
				t.Fatal(perr)
			}
			var walk func(n *xhtml.Node)
			rows := 0
			walk = func(n *xhtml.Node) {
				if n.Type == xhtml.ElementNode {
					switch n.Data {
					case "img", "script":
						t.Errorf("the summary renders <%s>:\n%s", n.Data, sum)
					case "a":
						for _, a := range n.Attr {
							if a.Key == "href" && !strings.HasPrefix(a.Val, gh.URL+"/") && !strings.HasPrefix(a.Val, "https://example-org.github.io/") {
								t.Errorf("the summary links to %q:\n%s", a.Val, sum)
							}
						}
					case "tr":
						cells := 0
						for c := n.FirstChild; c != nil; c = c.NextSibling {
							if c.Type == xhtml.ElementNode && c.Data == "td" {
								cells++
							}
						}
						if cells > 0 {
							rows++
							if cells != 4 {
								t.Errorf("a row of %d cells:\n%s", cells, sum)
							}
						}
					}
				}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c)
				}
			}
			walk(doc)
			if !tc.fault && rows != 2 {
				t.Errorf("%d release rows, want 2:\n%s", rows, sum)
			}
		})
	}
}

// The summary's table shows any outcome's texts as text, and links a
// release only to a web address.
func TestPublishSummaryEscapes(t *testing.T) {
	sum := publishSummary([]release.Outcome{
		{Name: "a|b", Version: "1.0.0\n# h", Tag: "a-1.0.0", Status: release.Created, ReleaseURL: hostileURL},
		{Name: "c", Version: "2.0.0", Tag: "c-2.0.0", Status: release.Skipped, ReleaseURL: "javascript:alert(1)"},
	}, "https://example.org/index.yaml", "the site is in _site, for <actions/upload-pages-artifact>")
	for _, bad := range []string{"<img", "](javascript", "](https://x/", "\n# h", "<actions"} {
		if strings.Contains(sum, bad) {
			t.Errorf("the summary holds %q:\n%s", bad, sum)
		}
	}
	if !strings.Contains(sum, "| a\\|b | 1.0.0<br>\\# h | a-1.0.0 | created |") || !strings.Contains(sum, "Index: [https://example.org/index.yaml](https://example.org/index.yaml)") {
		t.Errorf("summary:\n%s", sum)
	}
}
