package site

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/launchlink"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// pageForm is the form model a chart page embeds for its configuration
// form: the form as a visitor without a profile sees it, judged as lint
// judges it. Opens, Failures and Shapes are the verdict's (Chart.Verdict);
// Profile lists what the page's form lacks only for want of a profile.
type pageForm struct {
	*schema.Description
	Profile []profileNeed `json:"profile,omitempty"`
	// Prefilled are the keys of the options the launch context fills
	// where the page's context does not (see prefilled): the full
	// document leaves them to it.
	Prefilled [][]string `json:"prefilled,omitempty"`
}

// profileNeed is an option the page leaves without a value, and the form
// would not open with, that the platform fills from the user's launch
// context: the page's form fails on it, the form in the context every
// deployment provides does not.
type profileNeed struct {
	Key []string `json:"key"`
	// Path names the option as --set does, Title as the form labels it.
	Path  string `json:"path"`
	Title string `json:"title"`
	// Paths are the launch context paths its pre-fill reads (those the
	// platform's context has); Text says what it needs, for the page.
	Paths []string `json:"paths"`
	Text  string   `json:"text"`
	// Href links to the option's row in the options reference.
	Href string `json:"-"`
}

// formModel is the form model of a chart page: what `catalogist form`
// prints for the chart in the page's context (no user profile; the build's
// region and catalog bounds), with the verdict of the sample context, nil
// for a chart with no schema. File names are written without their
// directory: the published page says nothing of where it was built, and
// stays the same from one machine to another. Left out, to keep pages
// light: what the page does not use (the registry's substitutions and the
// names it left unresolved, which lint reports) and a group's value, which
// repeats its fields' (the values of a list's items stay: they are a new
// item).
func formModel(c *Chart) *pageForm {
	if c.Schema == nil {
		return nil
	}
	form := c.Form
	if form == nil {
		form = schema.Compute(c.Schema, nil, nil)
	}
	d := form.Describe()
	pf := &pageForm{Description: d, Prefilled: prefilled(d)}
	if c.Verdict != nil && c.Verdict != form {
		pf.Profile = profileNeeds(c, d, c.Verdict)
		d.Opens, d.Failures, d.Shapes = c.Verdict.Verdict()
	}
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
	return pf
}

// profileNeeds are the options the page's form (d) fails on that the
// verdict's does not: what only a launch context fills.
func profileNeeds(c *Chart, d *schema.Description, verdict *schema.Form) []profileNeed {
	judged := map[string]bool{}
	for _, f := range verdict.Failures {
		if f.Option != nil {
			judged[strings.Join(f.Option.Key, "\x00")] = true
		}
	}
	var out []profileNeed
	seen := map[string]bool{}
	for _, f := range d.Failures {
		k := strings.Join(f.Key, "\x00")
		if f.Revealed || f.Kind == string(schema.FailResolve) || judged[k] || seen[k] || len(f.Key) == 0 {
			continue
		}
		seen[k] = true
		n := profileNeed{Key: f.Key, Path: schema.SetPath(f.Key), Title: f.Key[len(f.Key)-1]}
		if o := c.Schema.OptionKey(f.Key...); o != nil {
			n.Title, n.Href = o.Label(), "#"+anchor(o)
		}
		if i := slices.IndexFunc(d.Options, func(o schema.DescribedOption) bool { return slices.Equal(o.Key, f.Key) }); i >= 0 {
			if ctx := d.Options[i].Context; ctx != nil {
				for _, p := range ctx.Paths {
					if !slices.Contains(ctx.Missing, p) && !slices.Contains(n.Paths, p) {
						n.Paths = append(n.Paths, p)
					}
				}
			}
		}
		n.Text = "needs values of your profile; the platform fills them when you launch"
		if len(n.Paths) > 0 {
			n.Text = "needs your profile's " + andList(n.Paths) + "; the platform fills it when you launch"
		}
		out = append(out, n)
	}
	return out
}

// prefilled are the options whose value a user's launch context fills
// where the page's context does not: pre-filled (overwriteDefaultWith) from
// a path the platform's context has, unresolved on the page. The page shows
// a placeholder there (git.name ""). Not the region's paths: the page shows
// the build's region's values, or the chart's defaults without one, as
// launching with them gives.
func prefilled(d *schema.Description) [][]string {
	var out [][]string
	for _, o := range d.Options {
		c := o.Context
		if c == nil || c.Resolved || slices.Contains(o.Key, schema.ItemsKey) || o.Check == nil || o.Check.Const {
			continue
		}
		if slices.ContainsFunc(c.Paths, func(p string) bool {
			return !slices.Contains(c.Missing, p) && !strings.HasPrefix(p, "region.")
		}) {
			out = append(out, o.Key)
		}
	}
	return out
}

// andList joins words as a sentence lists them: "a", "a and b", "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
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
