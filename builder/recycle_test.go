package builder_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/builder"
)

// listing reads a directory's files and names its directories ("dir/").
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			out[filepath.ToSlash(rel)+"/"] = ""
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = string(data)
			return err
		default:
			out[filepath.ToSlash(rel)] = "not a regular file"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameListing(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for name, data := range want {
		if other, ok := got[name]; !ok {
			t.Errorf("%s: %s is missing", what, name)
		} else if other != data {
			t.Errorf("%s: %s differs", what, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: %s should not be there", what, name)
		}
	}
}

// besideOut lists the staging and previous-output directories next to out.
func besideOut(t *testing.T, out string) (staged, old []string) {
	t.Helper()
	staged, _ = filepath.Glob(filepath.Join(filepath.Dir(out), ".catalogist-stage-*"))
	old, _ = filepath.Glob(filepath.Join(filepath.Dir(out), ".catalogist-old-*"))
	return staged, old
}

// TestRecycledStagingDirectory follows the previous output through the
// builds that recycle it: every output must be what a build into an empty
// directory gives, and a failed build must not have written through the
// files the recycled tree shares with the published output.
func TestRecycledStagingDirectory(t *testing.T) {
	cat := example(t, "automation")
	out := filepath.Join(t.TempDir(), "out")
	opt := builder.Options{Catalog: cat, Out: out, Now: at(t1)}
	rebuild := func(what string) {
		t.Helper()
		build(t, opt)
		cold := filepath.Join(t.TempDir(), "cold")
		build(t, builder.Options{Catalog: cat, Out: cold, Now: at(t1)})
		sameListing(t, what, listing(t, cold), listing(t, out))
		staged, old := besideOut(t, out)
		if len(staged) != 0 || len(old) != 1 {
			t.Errorf("%s: beside the output: staging %v, previous %v; want only one previous output", what, staged, old)
		}
	}
	touch := func(chart string) {
		t.Helper()
		values := filepath.Join(cat, "charts", chart, "values.yaml")
		data, err := os.ReadFile(values)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, values, string(data)+"# changed\n")
	}

	build(t, opt)
	touch("airflow")
	rebuild("first rebuild")
	// This one recycles the first output, whose airflow files differ.
	touch("airflow")
	rebuild("recycling")

	// mlflow changes for the first time: in the recycled tree its package
	// and page are the published ones, which the failing build must replace,
	// not overwrite.
	before := listing(t, out)
	touch("mlflow")
	tpl := t.TempDir()
	writeFile(t, filepath.Join(tpl, "chart.html"), "{{ .Broken ")
	failing := opt
	failing.Templates, failing.Log = tpl, &bytes.Buffer{}
	if _, err := builder.Build(t.Context(), failing); err == nil || !strings.Contains(err.Error(), "chart.html") {
		t.Fatalf("want a template error, got %v", err)
	}
	sameListing(t, "after a failed build", before, listing(t, out))
	if staged, _ := besideOut(t, out); len(staged) != 0 {
		t.Errorf("the failed build left %v", staged)
	}
	rebuild("after a failed build")
	rebuild("unchanged sources")

	// A chart removed from the sources leaves no page, package or directory.
	if err := os.RemoveAll(filepath.Join(cat, "charts", "airflow")); err != nil {
		t.Fatal(err)
	}
	rebuild("chart removed")

	// What a killed build left is recycled or deleted, whatever it holds.
	stale := filepath.Join(filepath.Dir(out), ".catalogist-stage-out-123")
	writeFile(t, filepath.Join(stale, "index.yaml"), "half")
	writeFile(t, filepath.Join(stale, "charts", "mlflow", "index.html"), "half")
	writeFile(t, filepath.Join(stale, "charts", "ghost", "index.html"), "ghost")
	writeFile(t, filepath.Join(stale, "assets", "deep", "x.css"), "x")
	writeFile(t, filepath.Join(stale, "index.html", "x"), "a directory where a file goes")
	if err := os.Symlink(filepath.Join(out, "index.yaml"), filepath.Join(stale, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	touch("mlflow")
	rebuild("leftover of a killed build")
	_, old := besideOut(t, out)
	for _, d := range old {
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(stale, "index.html", "x"), "a directory where a file goes")
	writeFile(t, filepath.Join(stale, "mlflow.tgz"), "junk")
	touch("mlflow")
	rebuild("only a leftover to recycle")
}

func TestIconChanges(t *testing.T) {
	cat := example(t, "automation")
	out := filepath.Join(t.TempDir(), "out")
	opt := builder.Options{Catalog: cat, Out: out, Now: at(t1)}
	build(t, opt)
	time.Sleep(1100 * time.Millisecond) // past the second within which files are not trusted
	build(t, opt)
	icon := filepath.Join(cat, "icons", "airflow.svg")
	data, err := os.ReadFile(icon)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, icon, strings.Replace(string(data), "<svg", "<svg data-changed=\"1\"", 1))
	build(t, opt)
	cold := filepath.Join(t.TempDir(), "cold")
	build(t, builder.Options{Catalog: cat, Out: cold, Now: at(t1)})
	sameListing(t, "after an icon changed", listing(t, cold), listing(t, out))
	build(t, opt)
	sameListing(t, "rebuilt", listing(t, cold), listing(t, out))
}

// Packages carried from a published index survive recycling.
func TestRecycledMerge(t *testing.T) {
	cat := example(t, "automation")
	published := filepath.Join(t.TempDir(), "published")
	build(t, builder.Options{Catalog: cat, Out: published, Now: at(t1)})
	oldVersion := loadIndex(t, published).Entries["airflow"][0].Version
	replaceIn(t, filepath.Join(cat, "charts", "airflow", "Chart.yaml"), "version: "+oldVersion, "version: 7.7.7")
	out := filepath.Join(t.TempDir(), "out")
	opt := builder.Options{Catalog: cat, Out: out, Merge: published, Now: at(t2)}
	for range 3 {
		if res := build(t, opt); res.Carried != 1 {
			t.Fatalf("carried %d packages, want 1", res.Carried)
		}
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	build(t, builder.Options{Catalog: cat, Out: fresh, Merge: published, Now: at(t2)})
	sameListing(t, "merged three times", listing(t, fresh), listing(t, out))
	if _, err := os.Stat(filepath.Join(out, "airflow-"+oldVersion+".tgz")); err != nil {
		t.Errorf("carried package: %v", err)
	}
}
