package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra/doc"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"gopkg.in/yaml.v3"
)

var updateDocs = flag.Bool("update-docs", false, "write docs/cli/ from the commands (make docs)")

// cliDocs is where the commands' reference pages are checked in.
const cliDocs = "../../docs/cli"

// TestCLIDocsCurrent keeps docs/cli/, the reference page of each command
// written by cobra's generator, in step with the commands: a flag or a
// help text changed without `make docs` fails here.
func TestCLIDocsCurrent(t *testing.T) {
	dir := t.TempDir()
	root := newRoot()
	root.DisableAutoGenTag = true
	if err := doc.GenMarkdownTree(root, dir); err != nil {
		t.Fatal(err)
	}
	if *updateDocs {
		if err := os.RemoveAll(cliDocs); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(cliDocs, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	want, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(want) == 0 {
		t.Fatalf("the generator wrote nothing: %v", err)
	}
	have, err := filepath.Glob(filepath.Join(cliDocs, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := func(files []string) []string {
		var out []string
		for _, f := range files {
			out = append(out, filepath.Base(f))
		}
		return out
	}
	if !slices.Equal(names(want), names(have)) {
		t.Errorf("docs/cli/ holds %v, the commands give %v: run make docs", names(have), names(want))
	}
	for _, f := range want {
		gen, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join(cliDocs, filepath.Base(f)))
		if err == nil && !bytes.Equal(gen, got) {
			t.Errorf("docs/cli/%s is stale: run make docs", filepath.Base(f))
		}
	}
}

// TestDocLinksResolve checks that every relative link of the README and of
// docs/ leads to a file of the repository, and every anchor to a heading
// of the page it names, as GitHub makes anchors.
func TestDocLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	cli, _ := filepath.Glob(filepath.Join(root, "docs", "cli", "*.md"))
	pages = append(append([]string{filepath.Join(root, "README.md")}, pages...), cli...)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	anchors := map[string]map[string]bool{}
	type link struct{ from, to string }
	var links []link
	for _, p := range pages {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc := md.Parser().Parse(text.NewReader(src))
		seen := map[string]int{}
		anchors[filepath.Clean(p)] = map[string]bool{}
		err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *ast.Heading:
				anchors[filepath.Clean(p)][githubAnchor(headingText(n, src), seen)] = true
			case *ast.Link:
				links = append(links, link{p, string(n.Destination)})
			}
			return ast.WalkContinue, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	scheme := regexp.MustCompile(`^[a-z]+:`)
	for _, l := range links {
		if scheme.MatchString(l.to) {
			continue
		}
		file, anchor, _ := strings.Cut(l.to, "#")
		target := filepath.Clean(l.from)
		if file != "" {
			target = filepath.Clean(filepath.Join(filepath.Dir(l.from), filepath.FromSlash(file)))
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: the link %s leads to no file", rel(root, l.from), l.to)
				continue
			}
		}
		if anchor == "" {
			continue
		}
		a, ok := anchors[target]
		if !ok {
			t.Errorf("%s: the link %s names an anchor in a page that is not checked", rel(root, l.from), l.to)
		} else if !a[anchor] {
			t.Errorf("%s: the link %s names no heading of %s", rel(root, l.from), l.to, rel(root, target))
		}
	}
	if len(links) < 20 {
		t.Errorf("only %d links found: is the parser reading the pages?", len(links))
	}
}

func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

// headingText is a heading's text as GitHub slugs it: the text of its
// inline nodes, code spans included.
func headingText(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(src))
			case *ast.String:
				b.Write(c.Value)
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// githubAnchor is the anchor GitHub gives a heading: its text in lower
// case, without punctuation but hyphens and underscores, spaces as
// hyphens; a repeated one gets -1, -2.
func githubAnchor(text string, seen map[string]int) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	s := b.String()
	n := seen[s]
	seen[s]++
	if n > 0 {
		return fmt.Sprintf("%s-%d", s, n)
	}
	return s
}

// The matrix example of docs/github-actions.md reads the lint job's
// changed_charts as the JSON array the action sets (TestActionRunsLint).
func TestMatrixExample(t *testing.T) {
	data, err := os.ReadFile("../../docs/github-actions.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "### A matrix of the changed charts")
	if !ok {
		t.Fatal("docs/github-actions.md has no matrix example")
	}
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	block, _, _ := strings.Cut(rest, "```")
	var wf struct {
		Jobs map[string]struct {
			Needs    string
			If       string
			Outputs  map[string]string
			Strategy struct{ Matrix map[string]string }
			Steps    []struct {
				ID, Uses, Run string
				With          map[string]any
				Env           map[string]string
			}
		}
	}
	if err := yaml.Unmarshal([]byte(block), &wf); err != nil {
		t.Fatalf("the example is not YAML: %v\n%s", err, block)
	}
	lintJob, unit := wf.Jobs["lint"], wf.Jobs["unittest"]
	if lintJob.Outputs["charts"] != "${{ steps.lint.outputs.changed_charts }}" || len(lintJob.Steps) != 2 ||
		lintJob.Steps[1].ID != "lint" || lintJob.Steps[1].Uses != "catalogist/catalogist@v1" || lintJob.Steps[1].With["changed_since"] == nil {
		t.Errorf("the lint job does not pass the action's changed_charts on: %+v", lintJob)
	}
	if unit.Needs != "lint" || unit.If != "needs.lint.outputs.charts != '[]'" || unit.Strategy.Matrix["chart"] != "${{ fromJSON(needs.lint.outputs.charts) }}" {
		t.Errorf("the matrix job does not read the JSON array: %+v", unit)
	}
	// An expression in a script is pasted into it before the shell reads it.
	for _, s := range unit.Steps {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q puts an expression into its script", s.Run)
		}
	}
}
