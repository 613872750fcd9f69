package devserver

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/lint"
)

// Status is the outcome of the last build, as /__catalogist/status serves
// it to the pages' script.
type Status struct {
	// Build names the build: it changes with every build, and from one
	// server to the next. Generation counts the builds.
	Build      string `json:"build"`
	Generation int    `json:"generation"`
	// OK is false when the build failed, Error then saying why. Serving is
	// true once a build succeeded: the site served is the last good one.
	OK      bool   `json:"ok"`
	Error   string `json:"error,omitempty"`
	Serving bool   `json:"serving"`
	// Changed are the files whose change started the build, relative to
	// the catalog when inside it; none for the first build.
	Changed []string `json:"changed,omitempty"`
	TookMS  int64    `json:"tookMs"`
	// Charts are the lint findings by chart name; Catalog those of no
	// chart (a region file).
	Charts  map[string][]Finding `json:"charts"`
	Catalog []Finding            `json:"catalog,omitempty"`
}

// Finding is a lint finding as a page shows it.
type Finding struct {
	// File is relative to the catalog when inside it.
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	Option   string `json:"option,omitempty"`
}

// addFindings files the lint findings by chart, most severe first, then in
// the order of the files.
func (st *Status) addFindings(fs []lint.Finding, catalog string) {
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b lint.Finding) int {
		return cmp.Or(cmp.Compare(b.Severity, a.Severity), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	for _, f := range sorted {
		x := Finding{
			File: relTo(catalog, f.File), Line: f.Line, Column: f.Column,
			Severity: f.Severity.String(), Rule: f.Rule,
			Message: secret.RedactURLs(f.Message), Option: f.Option,
		}
		if f.Chart == "" {
			st.Catalog = append(st.Catalog, x)
			continue
		}
		st.Charts[f.Chart] = append(st.Charts[f.Chart], x)
	}
}

// relTo names file relative to dir when it is inside it.
func relTo(dir, file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	if !within(dir, abs) {
		return file
	}
	r, _ := filepath.Rel(dir, abs)
	return filepath.ToSlash(r)
}
