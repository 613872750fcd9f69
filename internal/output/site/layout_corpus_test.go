//go:build corpus

package site

import (
	"fmt"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/browsertest"
)

// TestCorpusPageLayout sweeps every page of the example catalogs, the
// corpus's largest charts added to examples/ide, at a phone's width and a
// desktop's, for the defects TestPageLayout checks on a generated chart:
// commands under copy buttons, install commands below the form, tabs in
// rows, links cut inside a word, plain checkboxes, a narrow README, a long
// options reference open, serious or critical axe-core violations. Every
// page is kept as a screenshot.
func TestCorpusPageLayout(t *testing.T) {
	type site struct {
		name string
		cat  *Catalog
		base string
	}
	sites := []*site{
		{name: "ide", cat: exampleCatalog(t, corpusPages...)},
		{name: "databases", cat: exampleCatalogOf(t, "databases")},
		{name: "automation", cat: exampleCatalogOf(t, "automation")},
	}
	for _, s := range sites {
		s.base = browsertest.Serve(t, render(t, s.cat, Options{}))
	}
	lt := newLayoutTab(t)
	for _, vp := range viewports {
		if err := browsertest.Viewport(lt.ctx, vp.width, vp.height); err != nil {
			t.Fatal(err)
		}
		for _, s := range sites {
			lt.check(s.base+"/index.html", fmt.Sprintf("%s: the index at %d px", s.name, vp.width), "layout-"+s.name+"-index", vp.width, nil)
			for _, c := range s.cat.Charts {
				lt.check(s.base+"/charts/"+c.Name+"/index.html", fmt.Sprintf("%s: %s at %d px", s.name, c.Name, vp.width), "layout-"+s.name+"-"+c.Name, vp.width, nil)
			}
		}
	}
}
