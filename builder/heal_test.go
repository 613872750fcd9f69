package builder_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/testkit/gencatalog"
)

// sharedIconCatalog generates a catalog of n charts whose icons are n files
// of the same content, all an hour old, as sources are when a build starts.
func sharedIconCatalog(t *testing.T, n int) string {
	t.Helper()
	cat := filepath.Join(t.TempDir(), "catalog")
	if err := gencatalog.Write(cat, n); err != nil {
		t.Fatal(err)
	}
	// The generated icons differ from chart to chart: replaced.
	if err := os.RemoveAll(filepath.Join(cat, "icons")); err != nil {
		t.Fatal(err)
	}
	png := "\x89PNG\r\n\x1a\n" + "the same icon for every chart"
	for i := range n {
		name := gencatalog.ChartName(i)
		dropIcon(t, filepath.Join(cat, "charts", name, "Chart.yaml"))
		writeFile(t, filepath.Join(cat, "icons", name+".png"), png)
	}
	settle(t, cat)
	return cat
}

// dropIcon removes the icon line of a Chart.yaml, so that the chart's icon
// is the file of the icons directory named after it.
func dropIcon(t *testing.T, chartFile string) {
	t.Helper()
	data, err := os.ReadFile(chartFile)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(l, "icon:") {
			kept = append(kept, l)
		}
	}
	writeFile(t, chartFile, strings.Join(kept, ""))
}

// TestOutputHeals damages the output between builds, as a person or a
// script may: each next build notices, makes again what is missing or
// altered, and leaves what a cold build gives.
func TestOutputHeals(t *testing.T) {
	const n = 8
	cat := sharedIconCatalog(t, n)
	cold := filepath.Join(t.TempDir(), "cold")
	build(t, builder.Options{Catalog: cat, Out: cold, Now: at(t1)})
	want := listing(t, cold)
	icons, _ := filepath.Glob(filepath.Join(cold, "icons", "*"))
	if len(icons) != 1 {
		t.Fatalf("%d charts with one icon content: copies %v, want one", n, icons)
	}

	out := filepath.Join(t.TempDir(), "out")
	opt := builder.Options{Catalog: cat, Out: out, Now: at(t1)}
	build(t, opt)
	build(t, opt)
	pkg := func(i int) string {
		m, _ := filepath.Glob(filepath.Join(out, gencatalog.ChartName(i)+"-*.tgz"))
		if len(m) != 1 {
			t.Fatalf("packages of %s: %v", gencatalog.ChartName(i), m)
		}
		return m[0]
	}
	remove := func(rel string) func() {
		return func() {
			if err := os.RemoveAll(filepath.Join(out, rel)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// rewrite changes a file's bytes in place, keeping its size, and sets
	// its time back, as a copy that keeps times does.
	rewrite := func(p string) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0xff
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		old := info.ModTime().Add(-time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		damage   func()
		packaged int
	}{
		{"icons deleted", remove("icons"), 0},
		{"package deleted", func() { os.Remove(pkg(3)) }, 1},
		{"page deleted", remove("charts/" + gencatalog.ChartName(5) + "/index.html"), 0},
		{"chart directory deleted", remove("charts/" + gencatalog.ChartName(6)), 0},
		{"index deleted", remove("index.yaml"), 0},
		{"index page deleted", remove("index.html"), 0},
		{"assets deleted", remove("assets"), 0},
		{"package appended to", func() {
			f, err := os.OpenFile(pkg(2), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("junk")
			f.Close()
		}, 1},
		{"package rewritten, same size, older time", func() { rewrite(pkg(4)) }, 1},
		{"page rewritten", func() { rewrite(filepath.Join(out, "charts", gencatalog.ChartName(1), "index.html")) }, 0},
		{"icon rewritten", func() { rewrite(filepath.Join(out, "icons", filepath.Base(icons[0]))) }, 0},
		{"index rewritten", func() { rewrite(filepath.Join(out, "index.yaml")) }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.damage()
			res := build(t, opt)
			if res.Packaged != tc.packaged {
				t.Errorf("%d charts packaged again, want %d", res.Packaged, tc.packaged)
			}
			sameListing(t, "healed", want, listing(t, out))
			// And the state recorded is right: the next build changes nothing.
			if res := build(t, opt); res.Packaged != 0 {
				t.Errorf("the build after the healing one packaged %d charts", res.Packaged)
			}
			sameListing(t, "rebuilt", want, listing(t, out))
		})
	}
}

// TestIconEditsAreLintedAgain: an icon that becomes a script, or a link
// out of the catalog, while its chart is unchanged, is linted again by the
// incremental build rather than passing on the last build's findings.
func TestIconEditsAreLintedAgain(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "catalog")
	if err := gencatalog.Write(cat, 2); err != nil {
		t.Fatal(err)
	}
	name := gencatalog.ChartName(0)
	dropIcon(t, filepath.Join(cat, "charts", name, "Chart.yaml"))
	icon := filepath.Join(cat, "icons", name+".svg")
	writeFile(t, icon, `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`)
	out := filepath.Join(t.TempDir(), "out")
	if res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)}); len(res.Lint.Findings) != 0 {
		t.Fatalf("first build: findings %v", res.Lint.Findings)
	}

	writeFile(t, icon, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></svg>`)
	res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1)})
	if len(res.Lint.Findings) != 1 || !strings.Contains(res.Lint.Findings[0].Message, "<script> element") {
		t.Fatalf("after the icon became a script: findings %v", res.Lint.Findings)
	}

	outside := filepath.Join(t.TempDir(), "x.svg")
	writeFile(t, outside, `<svg xmlns="http://www.w3.org/2000/svg"/>`)
	if err := os.Remove(icon); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, icon); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	if _, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, Now: at(t1), Log: &log}); err == nil || !strings.Contains(log.String(), "symlink-outside") {
		t.Fatalf("after the icon became a link out: err %v\n%s", err, log.String())
	}
}
