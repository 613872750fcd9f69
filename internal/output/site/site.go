// Package site renders a catalog's static pages for GitHub Pages: an index of
// charts and one page per chart, from html/template files that a catalog may
// override.
package site

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/catalogist/catalogist/internal/model/schema"
)

// Catalog is everything the pages show about a catalog.
type Catalog struct {
	// Name, Title, Description and Source come from catalog.yaml; Source
	// is the catalog's repository URL, for "contribute" links.
	Name, Title, Description, Source string
	// SourceBranch is the branch "contribute" links point at (default main).
	SourceBranch string
	// RepoURL is the URL users give `helm repo add`: the published base URL
	// when known, else a placeholder the pages explain.
	RepoURL string
	// PlatformURL and PlatformCatalogID are the platform that serves the
	// catalog and the catalog's id there (catalog.yaml): with both, each
	// chart page's form of the onyxia platform opens the chart's launcher
	// there with the form's changes. Empty: no such link.
	PlatformURL, PlatformCatalogID string
	Charts                         []*Chart
	// Generated is the build time shown in the footer; zero hides it (for
	// byte-identical rebuilds the builder passes a fixed time).
	Generated time.Time
}

// Chart is one chart of the catalog, with every published version.
type Chart struct {
	Name        string
	Description string
	Keywords    []string
	Home        string
	Sources     []string
	Maintainers []Maintainer
	AppVersion  string
	// Deprecated mirrors Chart.yaml.
	Deprecated bool
	// Library is true for a library chart (Chart.yaml type: library), which
	// other charts depend on and nobody launches: the index lists it apart
	// from the launchable charts, and its page has no install snippets and
	// no form.
	Library bool
	// IconFile is the path of an icon file in the catalog (icons directory);
	// IconURL an absolute https icon from Chart.yaml. Both empty: the default
	// icon.
	IconFile, IconURL string
	// README is the chart's README.md (Markdown source), may be empty.
	README []byte
	// Values is the latest version's default values.yaml, may be empty;
	// the page shows at most MaxValuesSize bytes of it.
	Values []byte
	// Changes is the artifacthub.io/changes annotation of the latest
	// version, shown when Versions[0] has no Changes of its own (a caller
	// that reads the annotation of the chart's source only).
	Changes []Change
	// SourcePath is the chart's folder relative to the catalog repository
	// root ("charts/jupyter"), for the "contribute" link.
	SourcePath string
	// Versions are newest first; Versions[0] is the latest.
	Versions []Version
	// Schema and Form are the latest version's option model and the form
	// a user without a profile sees (with the region and catalog bounds,
	// when given); nil when the chart has no values.schema.json.
	Schema *schema.Schema
	Form   *schema.Form
	// Verdict is the same form as lint judges it, in the sample context
	// every deployment provides (schema.SampleContext): the page says the
	// form would not open only when this one does not. What Form lacks
	// for want of a profile the page calls the profile's to fill. Nil:
	// Form is judged.
	Verdict *schema.Form
	// ExtKey is the schema's extension key, shown in the options table.
	ExtKey string
}

// Maintainer of a chart.
type Maintainer struct {
	Name, Email, URL string
}

// Change is one entry of artifacthub.io/changes.
type Change struct {
	Kind, Description string
	Links             []Link
}

// Link is a named URL.
type Link struct {
	Name, URL string
}

// Version is one published version of a chart.
type Version struct {
	Version, AppVersion string
	Created             time.Time
	Digest              string
	// URL is the package's address as written in index.yaml (relative to
	// the site root, or absolute).
	URL string
	// Changes is the version's artifacthub.io/changes annotation, for the
	// changelog.
	Changes []Change
	// Dependencies are the version's Chart.yaml dependencies; the page
	// lists the latest version's.
	Dependencies []Dependency
}

// Dependency is one entry of a chart's Chart.yaml dependencies.
type Dependency struct {
	// Version is the version constraint ("1.5.x", "~15.2.0").
	Name, Version, Repository, Condition, Alias string
}

// MaxValuesSize caps the default values.yaml a chart page shows: a larger
// file is cut at a line end, and the page says where the whole file is.
const MaxValuesSize = 64 << 10

// Options of a rendering.
type Options struct {
	// Templates, when set, is a directory whose files override the
	// embedded templates of the same name.
	Templates string
	// KeepPage, when set and true for a chart, leaves out the chart's page:
	// the caller has put an identical one in place already. The index
	// still lists the chart.
	KeepPage func(*Chart) bool
	// KeepIndex, when set, is given the key of the index page, which
	// hashes the templates and everything the page shows; when it returns
	// true the index page is left out: the caller has put in place the one
	// an earlier rendering with the same key gave.
	KeepIndex func(key string) bool
	// Icon, when set, examines the icon files in place of Render, which
	// otherwise calls IconCopy and writes the copy: Icon returns what
	// IconCopy would, and puts the copy in place itself.
	Icon func(file string) (name string, err error)
	// WriteFile, when set, writes the files in place of Render, which then
	// only checks that dir exists: name is a file's slash path under dir,
	// whose directories WriteFile creates as needed.
	WriteFile func(name string, data []byte) error
}

// Render writes the site of cat into dir (which must exist): index.html,
// charts/<name>/index.html, assets and icons. It only adds files.
//
// Every link is relative, so that the site works under any sub-path (GitHub
// Pages serves a project's pages under /<repo>/). The same input gives
// byte-identical files. Render builds every file in memory first and writes
// nothing when a template, an icon or a chart is at fault.
func Render(dir string, cat *Catalog, opt Options) error {
	if cat == nil {
		return fmt.Errorf("render %s: no catalog", dir)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("render %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("render %s: not a directory", dir)
	}
	ts, err := loadTemplates(opt.Templates)
	if err != nil {
		return fmt.Errorf("render %s: %w", dir, err)
	}
	files, err := build(cat, ts, opt)
	if err != nil {
		return fmt.Errorf("render %s: %w", dir, err)
	}
	if opt.WriteFile != nil {
		for _, name := range slices.Sorted(maps.Keys(files)) {
			if err := opt.WriteFile(name, files[name]); err != nil {
				return fmt.Errorf("render %s: %w", name, err)
			}
		}
		return nil
	}
	return writeFiles(dir, files)
}
