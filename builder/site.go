package builder

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/catalogist/catalogist/internal/output/changelog"

	chart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/site"
	"github.com/catalogist/catalogist/templates"
)

// renderSite writes the catalog's pages into the staging directory. A
// chart page whose inputs are all unchanged since the last build is taken
// from it: rendering the options of large schemas is the costliest part of
// an incremental build. So is the index page when what it shows is
// unchanged, and icon files are examined again only when they changed.
func renderSite(_ context.Context, b *build) error {
	in := b.in
	siteKey, err := in.siteKey()
	if err != nil {
		return err
	}
	b.out.record.update(func(next *state) { next.SiteKey = siteKey })
	if err := b.stage.tree.mkdirAll("charts"); err != nil {
		return err
	}
	// Icons, keys and links are file system work: done in parallel.
	icons := make([]catalog.Icon, len(in.charts))
	keys := make([]string, len(in.charts))
	reused := make([]bool, len(in.charts))
	parallel(len(in.charts), func(i int) {
		ch := in.charts[i]
		icons[i] = in.catalog.ResolveIcon(ch.Meta.Name, ch.Meta.Icon)
		iconName, err := "", error(nil)
		if icons[i].File != "" {
			iconName, err = b.iconCopy(icons[i].File)
		}
		if err != nil {
			// The site reports it.
			return
		}
		keys[i] = b.pageKey(ch, siteKey, iconName)
		prev := in.previous.Charts[ch.Meta.Name]
		if prev == nil || prev.PageKey != keys[i] || keys[i] == "" {
			return
		}
		reused[i] = b.linkPrevious("charts/"+ch.Meta.Name+"/index.html") == nil
	})
	kept := map[string]bool{}
	for i, ch := range in.charts {
		b.out.record.chart(ch.Meta.Name).PageKey = keys[i]
		kept[ch.Meta.Name] = reused[i]
	}
	cat, err := b.siteCatalog(kept, icons)
	if err != nil {
		return err
	}
	clock := &pageClock{in: in}
	opt := site.Options{
		Templates: in.Templates,
		KeepPage: func(sc *site.Chart) bool {
			clock.next(sc.Name, kept[sc.Name])
			return kept[sc.Name]
		},
		// The index page shows no digest: a change to a chart often leaves
		// it as it was.
		KeepIndex: func(key string) bool {
			key = hashStrings(siteKey, key)
			b.out.record.update(func(next *state) { next.IndexPage = key })
			return in.previous.IndexPage == key && b.linkPrevious("index.html") == nil
		},
		Icon: b.iconCopy,
		WriteFile: func(name string, data []byte) error {
			clock.stop()
			return b.writeFile(name, data)
		},
	}
	if err := site.Render(b.stage.dir, cat, opt); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	clock.stop()
	return nil
}

// pageClock times the chart pages site.Render renders, for
// Options.Progress. Render renders them one after the other, asking
// KeepPage about each right before, and writes files only once all are
// rendered: a page's time runs from the question about it to the next
// question, or to the first file written.
type pageClock struct {
	in *inputs
	mu sync.Mutex
	// chart is the page being rendered, "" when none is.
	chart string
	begin time.Time
}

// next starts timing a chart's page, or tells of it at once when the
// last build's is kept.
func (c *pageClock) next(chart string, kept bool) {
	c.stop()
	if kept {
		c.in.report("page", chart, 0, true)
		return
	}
	c.mu.Lock()
	c.chart, c.begin = chart, time.Now()
	c.mu.Unlock()
}

// stop tells of the page being rendered, if any.
func (c *pageClock) stop() {
	c.mu.Lock()
	chart, took := c.chart, time.Since(c.begin)
	c.chart = ""
	c.mu.Unlock()
	if chart != "" {
		c.in.report("page", chart, took, false)
	}
}

// siteKey hashes what every page depends on besides its chart: the
// templates, the catalog's settings, the region, how schemas are read (the
// platform and its schema registry) and the published address. It is
// worked out once (inputs.siteKey): reading the pages and rendering them
// both need it.
func (in *inputs) computeSiteKey() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00", formatVersion, siteVersion(), in.repoURL, in.ExtensionKey, in.RegionID)
	if err := in.hashEnv(h); err != nil {
		return "", err
	}
	if err := hashFS(h, templates.FS); err != nil {
		return "", err
	}
	if in.Templates != "" {
		if err := hashFS(h, os.DirFS(in.Templates)); err != nil {
			return "", fmt.Errorf("templates %s: %w", in.Templates, err)
		}
	}
	for _, f := range []string{in.RegionFile, in.configFile()} {
		if f != "" {
			if err := hashFile(h, f); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashStrings hashes strings, each ended by a NUL.
func hashStrings(s ...string) string {
	h := sha256.New()
	for _, x := range s {
		io.WriteString(h, x)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// pageKey hashes what a chart's page shows: the chart, its icon (whose
// copy's name hashes its content), its published versions (whose digests
// hash their changes and dependencies) and which of its latest version's
// dependencies are charts of the catalog, whose pages it links to.
func (b *build) pageKey(ch *Chart, siteKey, iconName string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", siteKey, ch.Hash, iconName)
	cvs := b.out.index.Entries[ch.Meta.Name]
	for _, cv := range cvs {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", cv.Version, cv.Created.UTC().Format(time.RFC3339Nano), cv.Digest, strings.Join(cv.URLs, " "))
	}
	// The chart's hash covers its local dependencies; a vendored one the
	// page links to is only named here.
	if len(cvs) > 0 {
		for _, d := range dependencies(cvs[0].Metadata) {
			fmt.Fprintf(h, "%s\x00%t\x00", d.Name, b.in.byName[d.Name] != nil)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (in *inputs) configFile() string {
	if in.catalog.Config == nil {
		return ""
	}
	return in.catalog.Config.File
}

// hashFS hashes the names and contents of a file tree.
func hashFS(w io.Writer, fsys fs.FS) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\x00%d\x00", p, len(data))
		_, err = w.Write(data)
		return err
	})
}

// siteVersion identifies the catalogist that renders pages, so that a new
// version re-renders them.
func siteVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	// The Go release too: it renders the templates.
	v := info.Main.Version + " " + runtime.Version()
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			v += " " + s.Value
		}
	}
	return v
}

// siteCatalog gathers what the pages show: the catalog's settings, each
// chart's metadata, README and computed form, and every version the index
// publishes.
func (b *build) siteCatalog(kept map[string]bool, icons []catalog.Icon) (*site.Catalog, error) {
	in := b.in
	cat := &site.Catalog{Name: filepath.Base(absOr(in.catalog.Dir)), RepoURL: in.repoURL}
	if cfg := in.catalog.Config; cfg != nil {
		cat.Name = cmp.Or(cfg.Name, cat.Name)
		cat.Title, cat.Description, cat.Source = cfg.Title, cfg.Description, cfg.Source
		cat.PlatformURL, cat.PlatformCatalogID = cfg.PlatformURL, cfg.PlatformCatalogID
	}
	cat.Title = cmp.Or(cat.Title, cat.Name)
	root := in.sourceRoot()
	for i, ch := range in.charts {
		sc, err := b.siteChart(ch, icons[i], root, !kept[ch.Meta.Name])
		if err != nil {
			return nil, err
		}
		cat.Charts = append(cat.Charts, sc)
	}
	return cat, nil
}

// siteChart gathers one chart's data; the README and the form, which only
// its own page shows, are read when withPage.
func (b *build) siteChart(ch *Chart, icon catalog.Icon, root string, withPage bool) (*site.Chart, error) {
	md := ch.Meta
	sc := &site.Chart{
		Name: md.Name, Description: md.Description, Keywords: md.Keywords,
		Home: md.Home, Sources: md.Sources, AppVersion: md.AppVersion, Deprecated: md.Deprecated,
		Library: isLibrary(md),
	}
	env, err := b.in.env()
	if err != nil {
		return nil, err
	}
	sc.ExtKey = env.ExtKey
	for _, m := range md.Maintainers {
		if m != nil {
			sc.Maintainers = append(sc.Maintainers, site.Maintainer{Name: m.Name, Email: m.Email, URL: m.URL})
		}
	}
	sc.IconFile, sc.IconURL = b.siteIcon(ch, icon, withPage), ""
	if rel, err := filepath.Rel(root, absOr(ch.Src.Dir)); err == nil && !strings.HasPrefix(rel, "..") {
		sc.SourcePath = filepath.ToSlash(rel)
	}
	for _, cv := range b.out.index.Entries[md.Name] {
		sc.Versions = append(sc.Versions, site.Version{
			Version: cv.Version, AppVersion: cv.AppVersion, Created: cv.Created,
			Digest: cv.Digest, URL: firstURL(cv.URLs),
		})
	}
	if !withPage {
		return sc, nil
	}
	// Each version's changes and dependencies, as its index entry
	// publishes them: only the chart's page shows them.
	for i, cv := range b.out.index.Entries[md.Name] {
		sc.Versions[i].Changes = changes(cv.Metadata)
		sc.Versions[i].Dependencies = dependencies(cv.Metadata)
	}
	p := b.out.pages[ch]
	if p == nil {
		p = b.in.readPage(ch, nil)
	}
	if p.err != nil {
		return nil, p.err
	}
	sc.README, sc.Values, sc.Changes, sc.Schema, sc.Form, sc.Verdict = p.readme, p.values, p.changes, p.schema, p.form, p.verdict
	return sc, nil
}

// pageSources is what only a chart's own page shows: its README, default
// values, changes and form.
type pageSources struct {
	readme  []byte
	values  []byte
	changes []site.Change
	schema  *schema.Schema
	form    *schema.Form
	verdict *schema.Form
	err     error
}

// readPages reads, alongside packaging, the page sources of the charts
// whose pages are to be rendered again: those whose content changed, and
// every one when what all pages depend on changed (a registry schema, the
// platform, the region, the templates).
func readPages(_ context.Context, b *build) error {
	in := b.in
	siteKey, err := in.siteKey()
	if err != nil {
		return err
	}
	var changed []*Chart
	for _, ch := range in.charts {
		if prev := in.previous.Charts[ch.Meta.Name]; prev == nil || prev.Hash != ch.Hash || prev.PageKey == "" || in.previous.SiteKey != siteKey {
			changed = append(changed, ch)
		}
	}
	pages := make([]*pageSources, len(changed))
	var analyses map[*catalog.Chart]*analysis.Chart
	if b.out.lint != nil {
		analyses = b.out.lint.Analyses
	}
	parallel(len(changed), func(i int) { pages[i] = in.readPage(changed[i], analyses) })
	b.out.pages = make(map[*Chart]*pageSources, len(changed))
	for i, ch := range changed {
		b.out.pages[ch] = pages[i]
	}
	return nil
}

// readPage reads what a chart's page shows besides its metadata: the
// README, the changes and, for a chart that can be launched, the form the
// platform shows, from the schema as the platform's API serves it (registry
// schemas in place of the properties that name them). A chart this build
// linted is not read again: its analysis is among analyses.
func (in *inputs) readPage(ch *Chart, analyses map[*catalog.Chart]*analysis.Chart) *pageSources {
	p := &pageSources{changes: changes(ch.Meta)}
	for _, name := range catalog.READMENames {
		data, err := readContained(in.catalog, filepath.Join(ch.Src.Dir, name), math.MaxInt64)
		if err != nil {
			p.err = err
			return p
		}
		if data != nil {
			p.readme = data
			break
		}
	}
	// The page shows the beginning of a large values.yaml, and says so.
	if ch.Src.ValuesFile != "" {
		if p.values, p.err = readContained(in.catalog, ch.Src.ValuesFile, site.MaxValuesSize+1); p.err != nil {
			return p
		}
	}
	// A library chart is never launched: the platform shows no form for it.
	if ch.Src.SchemaFile == "" || isLibrary(ch.Meta) {
		return p
	}
	// The page shows the form as a user without a profile sees it, and
	// says whether it opens as lint does: in the sample context every
	// deployment provides, with the region. The chart as lint analysed it,
	// when this build linted it, has that form already.
	a := analyses[ch.Src]
	if a == nil {
		env, err := in.env()
		if err != nil {
			p.err = err
			return p
		}
		if a, err = analysis.Load(in.catalog, ch.Src, env, schema.SampleContext(in.region, in.catalog), nil); err != nil {
			p.err = err
			return p
		}
	}
	if a.SchemaErr != nil {
		p.err = fmt.Errorf("%s: %w", ch.Src.SchemaFile, a.SchemaErr)
		return p
	}
	p.schema, p.form, p.verdict = a.Schema, a.FormIn(schema.CatalogContext(nil, in.region, in.catalog)), a.Form
	return p
}

// readContained reads at most limit bytes of a file a page shows. It must
// not lead out of the catalog: discovery refused the charts with links
// leading out, and it is checked again here, where the page reads it (an
// *catalog.EscapeError). A file that is missing or cannot be read gives no
// data: the page leaves it out.
func readContained(cat *catalog.Catalog, name string, limit int64) ([]byte, error) {
	file, err := cat.Contain(name)
	if err != nil {
		var esc *catalog.EscapeError
		if errors.As(err, &esc) {
			return nil, esc
		}
		return nil, nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, nil
	}
	return data, nil
}

// dependencies lists a version's Chart.yaml dependencies.
func dependencies(md *chart.Metadata) []site.Dependency {
	if md == nil {
		return nil
	}
	var out []site.Dependency
	for _, d := range md.Dependencies {
		if d != nil {
			out = append(out, site.Dependency{Name: d.Name, Version: d.Version, Repository: d.Repository, Condition: d.Condition, Alias: d.Alias})
		}
	}
	return out
}

// isLibrary reports whether a chart is a library chart, which other charts
// use and nobody installs.
func isLibrary(md *chart.Metadata) bool { return md != nil && md.Type == "library" }

// changes reads the artifacthub.io/changes annotation: a YAML list of
// strings or of {kind, description, links}.
func changes(md *chart.Metadata) []site.Change {
	if md == nil {
		return nil
	}
	// A malformed annotation shows no changes; lint's
	// artifacthub-annotations rule says what is wrong with it.
	parsed, err := changelog.ParseAnnotation(md.Annotations[changelog.Annotation])
	if err != nil {
		return nil
	}
	var out []site.Change
	for _, ch := range parsed {
		c := site.Change{Kind: ch.Kind, Description: ch.Description}
		for _, l := range ch.Links {
			c.Links = append(c.Links, site.Link{Name: l.Name, URL: l.URL})
		}
		out = append(out, c)
	}
	return out
}

// sourceRoot is the root of the catalog's repository, which contribute
// links are relative to: the nearest ancestor holding .git, else the
// catalog directory.
func (in *inputs) sourceRoot() string {
	dir := absOr(in.catalog.Dir)
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		next := filepath.Dir(d)
		if next == d {
			return dir
		}
		d = next
	}
}

func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func firstURL(urls []string) string {
	if len(urls) == 0 {
		return ""
	}
	return urls[0]
}
