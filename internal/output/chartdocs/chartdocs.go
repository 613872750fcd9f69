// Package chartdocs writes the options section of a chart's README from the
// form the platform computes for the chart: each option's title,
// description, type, default, slider bounds, hidden condition and pre-fill,
// grouped as the form groups them, between two marker lines. Everything
// else in the README is kept byte for byte, unless helm-docs writes the
// README: then it is written whole, as helm-docs would, with the options
// section as its values section (helmdocs.go).
package chartdocs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/catalogist/catalogist/internal/base/atomicfile"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/formview"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// Context is the context options are documented in: no launch context, so
// that the section describes every user's form rather than one user's (a
// pre-fill is described by its expression), no region, and the catalog's
// slider bounds.
func Context(cat *catalog.Catalog) *schema.Context {
	if cat == nil {
		return schema.NewContext(nil, nil, nil, "")
	}
	return schema.CatalogContext(nil, nil, cat)
}

// Doc is a chart's options, ready to be written as a README section.
type Doc struct {
	// desc is the form, secrets masked; nil for a chart without a schema.
	desc   *schema.Description
	schema *schema.Schema
}

// Document documents an analysed chart, whose form was computed in
// Context. A schema that is not JSON, or a values.yaml the form cannot
// read, is an error naming the file and position.
func Document(a *analysis.Chart) (*Doc, error) {
	if a.Schema == nil {
		if a.SchemaErr != nil {
			return nil, fmt.Errorf("%s:%w; correct the JSON there", a.In.SchemaFile, a.SchemaErr)
		}
		return &Doc{}, nil
	}
	if _, err := a.FormValues(); err != nil {
		return nil, fmt.Errorf("%w; Helm refuses such a chart: correct values.yaml there", err)
	}
	return &Doc{desc: formview.Mask(a.Form.Describe(), nil), schema: a.Schema}, nil
}

// Load reads a chart of a catalog, its schema read with env, and documents
// it.
func Load(cat *catalog.Catalog, ch *catalog.Chart, env schema.Env) (*Doc, error) {
	if ch.SchemaFile == "" {
		return &Doc{}, nil
	}
	a, err := analysis.Load(cat, ch, env, Context(cat), nil)
	if err != nil {
		return nil, err
	}
	return Document(a)
}

// option is the schema's option a described one stands for.
func (d *Doc) option(o *schema.DescribedOption) *schema.Option {
	return d.schema.OptionKey(o.Key...)
}

// Update returns readme, a README named file, with its options section
// replaced by the doc. A README without the marker lines, or with lines out
// of order or repeated, is an error naming the file and line.
func Update(file string, readme []byte, d *Doc) ([]byte, error) {
	s, err := locate(file, readme)
	if err != nil {
		return nil, err
	}
	return replace(readme, s, d.Markdown(s.level, s.eol)), nil
}

// Status is what became of a chart's README.
type Status int

// The statuses.
const (
	// UpToDate: the README already says what the chart does.
	UpToDate Status = iota
	// Written: the README was written.
	Written
	// Stale: the README differs, and only checking was asked for.
	Stale
	// Skipped: a chart without values.schema.json, or a schema file
	// outside any chart, whose README has no section and that helm-docs
	// does not write, was left alone.
	Skipped
)

// How is how a README is written.
type How int

// The ways.
const (
	// Section: the options section between the README's marker lines,
	// every other byte kept.
	Section How = iota
	// Template: the whole README, from the chart's README.md.gotmpl, as
	// helm-docs renders it.
	Template
	// HelmDocsDefault: the whole README, from helm-docs' default
	// template, as the README's footer says helm-docs wrote it.
	HelmDocsDefault
	// Appended: a README without markers, template or helm-docs footer
	// gets an options section, under ## Options, at its end.
	Appended
)

// Result is what Sync did with one chart.
type Result struct {
	Chart *catalog.Chart
	// README is the README's path as the catalog names it, "" for a chart
	// without one.
	README string
	Status Status
	How    How
	// Template is the README.md.gotmpl written from (How Template).
	Template string
	// Line is the first line of the README that differs from the one
	// written (Written, Stale).
	Line int
}

// Sync brings a chart's README up to date with its schema, read with env,
// and, for a README helm-docs writes, with its Chart.yaml; with check it
// writes nothing and says whether the README is out of date. The README
// is written whole or not at all.
//
// A chart with a README.md.gotmpl gets its README rendered from it, and
// one whose README ends with helm-docs' footer gets helm-docs' default
// template: either way the README is written whole, as helm-docs v1.14.2
// writes it but for the values section, which is the options section.
// Other READMEs get the section between their marker lines, or, without
// them, at their end.
func Sync(cat *catalog.Catalog, ch *catalog.Chart, env schema.Env, check bool) (Result, error) {
	res := Result{Chart: ch}
	path, real, err := findFile(cat, ch.Dir, catalog.READMENames...)
	if err != nil {
		return res, err
	}
	tmpl, tmplReal := "", ""
	if ch.ChartFile != "" {
		if tmpl, tmplReal, err = findFile(cat, ch.Dir, TemplateFile); err != nil {
			return res, err
		}
	}
	// Only a chart must have a README with the section.
	optional := ch.SchemaFile == "" || ch.OnlySchema
	if path == "" && tmpl == "" {
		if optional {
			res.Status = Skipped
			return res, nil
		}
		return res, fmt.Errorf("%s has no README.md: create one holding these two lines where the options section should go (or a %s for helm-docs' templates), then run catalogist docs again:\n  %s\n  %s", ch.Dir, TemplateFile, Begin, End)
	}
	var readme []byte
	exists := path != ""
	if exists {
		if readme, err = os.ReadFile(real); err != nil {
			return res, fmt.Errorf("reading %s: %w", path, err)
		}
	} else {
		// helm-docs writes README.md next to the template.
		dir, err := cat.Contain(ch.Dir)
		if err != nil {
			return res, err
		}
		path, real = filepath.Join(ch.Dir, "README.md"), filepath.Join(dir, "README.md")
	}
	res.README = path
	var updated []byte
	switch version := WrittenByHelmDocs(readme); {
	case tmpl != "" || (version != "" && ch.ChartFile != ""):
		res.How, res.Template = HelmDocsDefault, tmpl
		if tmpl != "" {
			res.How = Template
		}
		if updated, err = wholeREADME(cat, ch, env, tmpl, tmplReal, version); err != nil {
			return res, err
		}
	default:
		base := readme
		s, err := locate(path, readme)
		if errors.Is(err, ErrNoMarkers) {
			if optional {
				res.Status = Skipped
				return res, nil
			}
			res.How = Appended
			base, s, err = appendSection(path, readme)
		}
		if err != nil {
			return res, err
		}
		d, err := Load(cat, ch, env)
		if err != nil {
			return res, err
		}
		updated = replace(base, s, d.Markdown(s.level, s.eol))
	}
	if exists && bytes.Equal(updated, readme) {
		return res, nil
	}
	res.Line = FirstDifference(readme, updated)
	if check {
		res.Status = Stale
		return res, nil
	}
	perm := fs.FileMode(0o644)
	if info, err := os.Stat(real); err == nil {
		perm = info.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := atomicfile.WriteBytes(real, perm, updated); err != nil {
		return res, err
	}
	res.Status = Written
	return res, nil
}

// appendSection returns a README named file with the marker lines added
// at its end under ## Options, and where they are. A README whose end
// would hide them (an unclosed code block) is an error: they must be
// added by hand.
func appendSection(file string, readme []byte) ([]byte, section, error) {
	eol := "\n"
	if i := bytes.IndexByte(readme, '\n'); i > 0 && readme[i-1] == '\r' {
		eol = "\r\n"
	}
	out := slices.Clip(readme)
	if len(out) > 0 {
		if !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, eol...)
		}
		if !bytes.HasSuffix(out, []byte("\n"+eol)) {
			out = append(out, eol...)
		}
	}
	out = append(out, "## Options"+eol+eol+Begin+eol+End+eol...)
	s, err := locate(file, out)
	if err != nil || s.level != 3 {
		return nil, section{}, fmt.Errorf("%s: an options section added at the end would not read as one (the README ends inside a code block, or holds a marker already): add these two lines where the options section should go, under a heading such as ## Options, then run catalogist docs again:\n  %s\n  %s", file, Begin, End)
	}
	return out, s, nil
}

// wholeREADME writes a chart's README as helm-docs would from the
// template tmpl (helm-docs' default when ""), the values section from the
// schema. The footer names version, the helm-docs release the README
// names, else the one whose output is matched.
func wholeREADME(cat *catalog.Catalog, ch *catalog.Chart, env schema.Env, tmpl, tmplReal, version string) ([]byte, error) {
	info, err := loadChartInfo(cat, ch)
	if err != nil {
		return nil, err
	}
	if version != "" {
		info.HelmDocsVersion = version
	}
	info.values = ch.SchemaFile != ""
	name, text := "helm-docs' default template", ""
	if tmpl != "" {
		b, err := os.ReadFile(tmplReal)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", tmpl, err)
		}
		if len(b) == 0 {
			return nil, fmt.Errorf("%s is empty: write the README's template there, or remove it for helm-docs' default", tmpl)
		}
		name, text = tmpl, string(b)
	}
	out, err := render(name, text, info)
	if err != nil {
		return nil, err
	}
	if n := bytes.Count(out, []byte(valuesPlaceholder)); n > 1 {
		return nil, fmt.Errorf("%s writes the values section %d times (chart.valuesSection, chart.valuesTable): keep one", name, n)
	}
	s, err := locate(name, out)
	if errors.Is(err, ErrNoMarkers) {
		// A template without the values section.
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w (in what the template writes)", err)
	}
	d, err := Load(cat, ch, env)
	if err != nil {
		return nil, err
	}
	return replace(out, s, d.Markdown(s.level, s.eol)), nil
}

// loadChartInfo reads what a README template reads of a chart.
func loadChartInfo(cat *catalog.Catalog, ch *catalog.Chart) (*ChartInfo, error) {
	real, err := cat.Contain(ch.ChartFile)
	if err != nil {
		return nil, err
	}
	chartYAML, err := os.ReadFile(real)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", ch.ChartFile, err)
	}
	reqFile := filepath.Join(ch.Dir, "requirements.yaml")
	var req []byte
	if p, r, err := findFile(cat, ch.Dir, "requirements.yaml"); err != nil {
		return nil, err
	} else if p != "" {
		if req, err = os.ReadFile(r); err != nil {
			return nil, fmt.Errorf("reading %s: %w", p, err)
		}
	}
	info, err := ParseChartInfo(ch.ChartFile, chartYAML, reqFile, req)
	if err != nil {
		return nil, err
	}
	info.ChartDirectory = ch.Dir
	return info, nil
}

// findFile returns the first of names in a chart directory as the catalog
// names it and the file it resolves to, "" when the chart has none. A file
// that leads out of the catalog repository is an error: the site would not
// show such a README, and nothing outside the catalog is to be read.
func findFile(cat *catalog.Catalog, dir string, names ...string) (path, real string, err error) {
	for _, name := range names {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		real, err := cat.Contain(p)
		if err != nil {
			return "", "", err
		}
		return p, real, nil
	}
	return "", "", nil
}
