package catalog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

func escapeOf(t *testing.T, err error) *EscapeError {
	t.Helper()
	var esc *EscapeError
	if !errors.As(err, &esc) {
		t.Fatalf("error %v is no *EscapeError", err)
	}
	return esc
}

func TestContain(t *testing.T) {
	top := t.TempDir()
	filetree.Write(t, top, map[string]string{
		"outside/secret.txt":         "s3cret",
		"cat/catalog.yaml":           "name: c\n",
		"cat/shared/_helpers.tpl":    "{{/* shared */}}",
		"cat/charts/a/Chart.yaml":    "apiVersion: v2\nname: a\nversion: 1.0.0\n",
		"cat/charts/a/helpers.tpl":   "->../../shared/_helpers.tpl",
		"cat/charts/a/env.txt":       "->/proc/self/environ",
		"cat/charts/a/secret.txt":    "->../../../outside/secret.txt",
		"cat/charts/a/gone.txt":      "->nothing-here.txt",
		"cat/charts/a/self":          "->self",
		"cat/charts/a/out":           "->../../../outside",
		"cat/icons-link":             "->../outside",
		"linked-cat":                 "->cat",
		"cat/charts/a/templates/x.y": "x",
	})
	cat := &Catalog{Dir: filepath.Join(top, "cat")}
	chart := filepath.Join(top, "cat", "charts", "a")

	got, err := cat.Contain(filepath.Join(chart, "helpers.tpl"))
	if err != nil || got != filepath.Join(top, "cat", "shared", "_helpers.tpl") {
		t.Errorf("a link inside the catalog: %q, %v", got, err)
	}
	for name, want := range map[string]EscapeReason{
		"env.txt": Outside, "secret.txt": Outside, "out/secret.txt": Outside,
		"gone.txt": Dangling, "self": Loop, "../../icons-link/secret.txt": Outside,
		"../../../outside/secret.txt": Outside, "../../../outside/missing.png": Outside,
	} {
		_, err := cat.Contain(filepath.Join(chart, name))
		esc := escapeOf(t, err)
		if esc.Reason != want {
			t.Errorf("%s: reason %d, want %d (%v)", name, esc.Reason, want, esc)
		}
		if !strings.Contains(esc.Error(), filepath.Join(chart, filepath.FromSlash(name))) {
			t.Errorf("%s: the error does not name the path: %v", name, esc)
		}
	}
	esc := escapeOf(t, func() error { _, err := cat.Contain(filepath.Join(chart, "secret.txt")); return err }())
	if esc.Link != "../../../outside/secret.txt" || esc.Resolved != filepath.Join(top, "outside", "secret.txt") || !strings.Contains(esc.Problem(), "copy what it points to into the catalog") {
		t.Errorf("the link and its target are not named: %+v: %s", esc, esc.Problem())
	}
	// A missing file inside is missing, not an escape.
	if _, err := cat.Contain(filepath.Join(chart, "none.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file inside the catalog: %v, want a not-exist error", err)
	}
	// A catalog named through a link has the same root.
	via := &Catalog{Dir: filepath.Join(top, "linked-cat")}
	if _, err := via.Contain(filepath.Join(top, "linked-cat", "charts", "a", "helpers.tpl")); err != nil {
		t.Errorf("a catalog named through a link: %v", err)
	}
	if _, err := via.Contain(filepath.Join(top, "linked-cat", "charts", "a", "nothing.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file of a catalog named through a link: %v, want a not-exist error", err)
	}
}

func TestChartFiles(t *testing.T) {
	top := t.TempDir()
	filetree.Write(t, top, map[string]string{
		"outside/x.txt":                         "x",
		"cat/shared/_helpers.tpl":               "{{/* shared */}}",
		"cat/shared/tpl/deploy.yaml":            "kind: Deployment",
		"cat/charts/a/Chart.yaml":               "apiVersion: v2\nname: a\nversion: 1.0.0\n",
		"cat/charts/a/templates/_helpers.tpl":   "->../../../shared/_helpers.tpl",
		"cat/charts/a/templates/shared":         "->../../../shared/tpl",
		"cat/charts/a/templates/up":             "->..",
		"cat/charts/a/templates/twice/loop":     "->../../templates",
		"cat/charts/a/z/out":                    "->../../../../outside",
		"cat/charts/a/z/x.txt":                  "->../../../../outside/x.txt",
		"cat/charts/b/Chart.yaml":               "apiVersion: v2\nname: b\nversion: 1.0.0\n",
		"cat/charts/b/templates/_helpers.tpl":   "->../../../shared/_helpers.tpl",
		"cat/charts/b/templates/notes/NOTES.md": "n",
	})
	cat := &Catalog{Dir: filepath.Join(top, "cat")}
	files, escapes, err := cat.ChartFiles(filepath.Join(top, "cat", "charts", "a"))
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, f := range files {
		rels = append(rels, f.Rel)
	}
	if want := "Chart.yaml templates/_helpers.tpl templates/shared/deploy.yaml"; strings.Join(rels, " ") != want {
		t.Errorf("files %q, want %q", strings.Join(rels, " "), want)
	}
	if files[1].Path != filepath.Join(top, "cat", "shared", "_helpers.tpl") {
		t.Errorf("a linked file is read from %s, want its target", files[1].Path)
	}
	reasons := map[string]EscapeReason{}
	for _, e := range escapes {
		rel, _ := filepath.Rel(filepath.Join(top, "cat", "charts", "a"), e.Path)
		reasons[filepath.ToSlash(rel)] = e.Reason
	}
	want := map[string]EscapeReason{"templates/up": Loop, "templates/twice/loop": Loop, "z/out": Outside, "z/x.txt": Outside}
	if len(reasons) != len(want) {
		t.Errorf("escapes %v, want %v", reasons, want)
	}
	for k, r := range want {
		if got, ok := reasons[k]; !ok || got != r {
			t.Errorf("escape of %s: %v (found %v), want %d", k, got, ok, r)
		}
	}

	// Editing a link's target, or pointing the link elsewhere, changes the
	// linked file's stamp.
	b := filepath.Join(top, "cat", "charts", "b")
	stamp := func() ChartFile {
		t.Helper()
		files, escapes, err := cat.ChartFiles(b)
		if err != nil || len(escapes) > 0 || len(files) != 3 {
			t.Fatalf("files %+v, escapes %v, %v", files, escapes, err)
		}
		return files[1]
	}
	before := stamp()
	if before.LinkTime == 0 {
		t.Errorf("a linked file has no link time: %+v", before)
	}
	old := time.Unix(1_000_000, 0)
	shared := filepath.Join(top, "cat", "shared", "_helpers.tpl")
	if err := os.WriteFile(shared, []byte("{{/* edited, longer */}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(shared, old, old); err != nil {
		t.Fatal(err)
	}
	edited := stamp()
	if edited.Size == before.Size && edited.ModTime == before.ModTime {
		t.Errorf("editing the target left the stamp as it was: %+v", edited)
	}
	// A chart directory that is itself a link out is one escape.
	if err := os.Symlink(filepath.Join(top, "outside"), filepath.Join(top, "cat", "charts", "c")); err != nil {
		t.Fatal(err)
	}
	files, escapes, err = cat.ChartFiles(filepath.Join(top, "cat", "charts", "c"))
	if err != nil || len(files) != 0 || len(escapes) != 1 || escapes[0].Reason != Outside {
		t.Errorf("a chart directory linked out: files %v, escapes %v, %v", files, escapes, err)
	}
}

func TestIconsOutside(t *testing.T) {
	top := t.TempDir()
	filetree.Write(t, top, map[string]string{
		"outside/x.png":             "\x89PNG",
		"outside/a.svg":             "<svg/>",
		"cat/icons/b.svg":           "->../../outside/a.svg",
		"cat/icons/in.svg":          "<svg/>",
		"cat/icons/ok.svg":          "->in.svg",
		"cat/charts/a/x":            "",
		"cat/charts/b/x":            "",
		"other/catalog.yaml":        "iconsDir: ../outside\n",
		"other/charts/a/Chart.yaml": "apiVersion: v2\nname: a\nversion: 1.0.0\n",
	})
	cat := &Catalog{Dir: filepath.Join(top, "cat")}
	for icon, want := range map[string]IconProblem{
		"../../../outside/x.png": IconOutside, "../outside/x.png": IconOutside,
		"icons/b.svg": IconOutside, "icons/ok.svg": IconOK, "ok.svg": IconOK, "../outside/nothing.png": IconOutside,
		"icons/nothing.png": IconNoFile,
	} {
		got := cat.ResolveIcon("a", icon)
		if got.Problem != want {
			t.Errorf("icon %q: problem %d, want %d (%+v)", icon, got.Problem, want, got)
		}
		if want == IconOutside && (got.File != "" || got.Escape == nil) {
			t.Errorf("icon %q leads out but is used: %+v", icon, got)
		}
	}
	if got := cat.ResolveIcon("b", ""); got.Problem != IconOutside || got.File != "" {
		t.Errorf("an icon found by the chart's name that is a link out: %+v", got)
	}
	for _, dir := range []string{"../outside", "../..", "/../../outside"} {
		if err := os.WriteFile(filepath.Join(top, "other", ConfigFile), []byte("name: other\niconsDir: "+dir+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Discover(filepath.Join(top, "other"))
		if err == nil || !strings.Contains(err.Error(), filepath.Join(top, "other", ConfigFile)+":2:11: iconsDir") || !strings.Contains(err.Error(), "leads outside the catalog repository") {
			t.Errorf("iconsDir %s: %v, want a refusal at catalog.yaml:2:11", dir, err)
		}
	}
	if err := os.WriteFile(filepath.Join(top, "other", ConfigFile), []byte("iconsDir: icons\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Discover(filepath.Join(top, "other")); err != nil {
		t.Errorf("iconsDir inside the catalog: %v", err)
	}
}
