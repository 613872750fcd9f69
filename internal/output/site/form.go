package site

import (
	"path/filepath"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/launchlink"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// formModel is the form model a chart page embeds for its configuration
// form: what `catalogist form` prints for the chart in the page's context
// (no user profile; the build's region and catalog bounds), nil for a
// chart with no schema. File names are written without their directory:
// the published page says nothing of where it was built, and stays the
// same from one machine to another. Left out, to keep pages light: what
// the page does not use (the registry's substitutions and the names it
// left unresolved, which lint reports) and a group's value, which repeats
// its fields' (the values of a list's items stay: they are a new item).
func formModel(c *Chart) *schema.Description {
	if c.Schema == nil {
		return nil
	}
	form := c.Form
	if form == nil {
		form = schema.Compute(c.Schema, nil, nil)
	}
	d := form.Describe()
	d.File = filepath.Base(d.File)
	d.Substitutions, d.Unresolved = nil, nil
	for i := range d.Options {
		if o := &d.Options[i]; o.Widget == schema.WidgetGroup && o.Key[len(o.Key)-1] != schema.ItemsKey {
			o.Value = nil
		}
		if s := d.Options[i].Slider; s != nil && s.File != "" {
			s.File = filepath.Base(s.File)
		}
	}
	for _, list := range [][]schema.DescribedProblem{d.Failures, d.Shapes} {
		for i := range list {
			list[i].File = filepath.Base(list[i].File)
		}
	}
	return d
}

// launch is the form's link to the chart's launcher on the platform that
// serves the catalog: only for the reference platform, whose launcher
// links are what launchlink writes, and for a form the page shows.
func (b *renderer) launch(c *Chart, cv *chartView) *launchView {
	if cv.FormModel == nil || b.cat.PlatformURL == "" || b.cat.PlatformCatalogID == "" || cv.Platform != catalog.PlatformOnyxia {
		return nil
	}
	t := launchlink.Target{URL: b.cat.PlatformURL, CatalogID: b.cat.PlatformCatalogID, Chart: c.Name, Version: cv.Latest}
	return &launchView{Platform: c.Schema.Platform.Title, Href: t.Link(nil)}
}
