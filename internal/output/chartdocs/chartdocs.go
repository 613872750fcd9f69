// Package chartdocs writes the options section of a chart's README from the
// form the platform computes for the chart: each option's title,
// description, type, default, slider bounds, hidden condition and pre-fill,
// grouped as the form groups them, between two marker lines. Everything
// else in the README is kept byte for byte.
package chartdocs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
	// UpToDate: the README's section already says what the schema does.
	UpToDate Status = iota
	// Written: the section was written.
	Written
	// Stale: the section differs, and only checking was asked for.
	Stale
	// Skipped: a chart without values.schema.json, or a schema file
	// outside any chart, whose README has no section, was left alone.
	Skipped
)

// Result is what Sync did with one chart.
type Result struct {
	Chart *catalog.Chart
	// README is the README's path as the catalog names it, "" for a chart
	// without one.
	README string
	Status Status
	// Line is the first line of the README that differs from the section
	// written (Written, Stale).
	Line int
}

// Sync brings the options section of a chart's README up to date with its
// schema, read with env; with check it writes nothing and says whether the
// README is out of date. The README is written whole or not at all.
func Sync(cat *catalog.Catalog, ch *catalog.Chart, env schema.Env, check bool) (Result, error) {
	res := Result{Chart: ch}
	path, real, err := findREADME(cat, ch.Dir)
	if err != nil {
		return res, err
	}
	// Only a chart must have a README with the section.
	optional := ch.SchemaFile == "" || ch.OnlySchema
	if path == "" {
		if optional {
			res.Status = Skipped
			return res, nil
		}
		return res, fmt.Errorf("%s has no README.md: create one holding these two lines where the options section should go, then run catalogist docs again:\n  %s\n  %s", ch.Dir, Begin, End)
	}
	res.README = path
	readme, err := os.ReadFile(real)
	if err != nil {
		return res, fmt.Errorf("reading %s: %w", path, err)
	}
	s, err := locate(path, readme)
	if errors.Is(err, ErrNoMarkers) && optional {
		res.Status = Skipped
		return res, nil
	}
	if err != nil {
		return res, err
	}
	d, err := Load(cat, ch, env)
	if err != nil {
		return res, err
	}
	updated := replace(readme, s, d.Markdown(s.level, s.eol))
	if bytes.Equal(updated, readme) {
		return res, nil
	}
	res.Line = FirstDifference(readme, updated)
	if check {
		res.Status = Stale
		return res, nil
	}
	info, err := os.Stat(real)
	if err != nil {
		return res, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := atomicfile.WriteBytes(real, info.Mode().Perm(), updated); err != nil {
		return res, err
	}
	res.Status = Written
	return res, nil
}

// findREADME returns a chart directory's README as the catalog names it and
// the file it resolves to, "" when the chart has none. A README that leads
// out of the catalog repository is an error: the site would not show it.
func findREADME(cat *catalog.Catalog, dir string) (path, real string, err error) {
	for _, name := range catalog.READMENames {
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
