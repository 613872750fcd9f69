package builder

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/schema"
	"github.com/catalogist/catalogist/site"
	"github.com/catalogist/catalogist/templates"
)

// renderSite writes the catalog's pages into the staging directory. A
// chart page whose inputs are all unchanged since the last build is taken
// from it: rendering the options of large schemas is the costliest part of
// an incremental build. So is the index page when what it shows is
// unchanged, and icon files are examined again only when they changed.
func renderSite(c *Context) error {
	siteKey, err := c.siteKey()
	if err != nil {
		return err
	}
	c.nextState().SiteKey = siteKey
	if err := c.tree.mkdirAll("charts"); err != nil {
		return err
	}
	// Icons, keys and links are file system work: done in parallel.
	icons := make([]catalog.Icon, len(c.Charts))
	keys := make([]string, len(c.Charts))
	reused := make([]bool, len(c.Charts))
	parallel(len(c.Charts), func(i int) {
		ch := c.Charts[i]
		icons[i] = c.Catalog.ResolveIcon(ch.Meta.Name, ch.Meta.Icon)
		iconName, err := "", error(nil)
		if icons[i].File != "" {
			iconName, err = c.iconCopy(icons[i].File)
		}
		if err != nil {
			// The site reports it.
			return
		}
		keys[i] = c.pageKey(ch, siteKey, iconName)
		prev := c.previous.Charts[ch.Meta.Name]
		if prev == nil || prev.PageKey != keys[i] || keys[i] == "" {
			return
		}
		reused[i] = c.linkPrevious("charts/"+ch.Meta.Name+"/index.html") == nil
	})
	kept := map[string]bool{}
	for i, ch := range c.Charts {
		c.chartState(ch.Meta.Name).PageKey = keys[i]
		kept[ch.Meta.Name] = reused[i]
	}
	cat, err := c.siteCatalog(kept, icons)
	if err != nil {
		return err
	}
	opt := site.Options{
		Templates: c.Templates,
		KeepPage:  func(sc *site.Chart) bool { return kept[sc.Name] },
		// The index page shows no digest: a change to a chart often leaves
		// it as it was.
		KeepIndex: func(key string) bool {
			key = hashStrings(siteKey, key)
			c.nextState().IndexPage = key
			return c.previous.IndexPage == key && c.linkPrevious("index.html") == nil
		},
		Icon:      c.iconCopy,
		WriteFile: c.writeFile,
	}
	if err := site.Render(c.Stage, cat, opt); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	return nil
}

// siteKey hashes what every page depends on besides its chart: the
// templates, the catalog's settings, the region, how schemas are read (the
// platform and its schema registry) and the published address. It is
// worked out once: reading the pages and rendering them both need it.
func (c *Context) siteKey() (string, error) {
	c.siteKeyOnce.Do(func() { c.siteKeyVal, c.siteKeyErr = c.computeSiteKey() })
	return c.siteKeyVal, c.siteKeyErr
}

func (c *Context) computeSiteKey() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00", formatVersion, siteVersion(), c.RepoURL, c.ExtensionKey, c.RegionID)
	if err := c.hashEnv(h); err != nil {
		return "", err
	}
	if err := hashFS(h, templates.FS); err != nil {
		return "", err
	}
	if c.Templates != "" {
		if err := hashFS(h, os.DirFS(c.Templates)); err != nil {
			return "", fmt.Errorf("templates %s: %w", c.Templates, err)
		}
	}
	for _, f := range []string{c.RegionFile, c.configFile()} {
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
// copy's name hashes its content) and its published versions.
func (c *Context) pageKey(ch *Chart, siteKey, iconName string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", siteKey, ch.Hash, iconName)
	for _, cv := range c.Index.Entries[ch.Meta.Name] {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", cv.Version, cv.Created.UTC().Format(time.RFC3339Nano), cv.Digest, strings.Join(cv.URLs, " "))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Context) configFile() string {
	if c.Catalog.Config == nil {
		return ""
	}
	return c.Catalog.Config.File
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
func (c *Context) siteCatalog(kept map[string]bool, icons []catalog.Icon) (*site.Catalog, error) {
	cat := &site.Catalog{Name: filepath.Base(absOr(c.Catalog.Dir)), RepoURL: c.RepoURL}
	if cfg := c.Catalog.Config; cfg != nil {
		cat.Name = cmp.Or(cfg.Name, cat.Name)
		cat.Title, cat.Description, cat.Source = cfg.Title, cfg.Description, cfg.Source
	}
	cat.Title = cmp.Or(cat.Title, cat.Name)
	root := c.sourceRoot()
	for i, ch := range c.Charts {
		sc, err := c.siteChart(ch, icons[i], root, !kept[ch.Meta.Name])
		if err != nil {
			return nil, err
		}
		cat.Charts = append(cat.Charts, sc)
	}
	return cat, nil
}

// siteChart gathers one chart's data; the README and the form, which only
// its own page shows, are read when withPage.
func (c *Context) siteChart(ch *Chart, icon catalog.Icon, root string, withPage bool) (*site.Chart, error) {
	md := ch.Meta
	sc := &site.Chart{
		Name: md.Name, Description: md.Description, Keywords: md.Keywords,
		Home: md.Home, Sources: md.Sources, AppVersion: md.AppVersion, Deprecated: md.Deprecated,
		Library: isLibrary(md),
	}
	env, err := c.env()
	if err != nil {
		return nil, err
	}
	sc.ExtKey = env.ExtKey
	for _, m := range md.Maintainers {
		if m != nil {
			sc.Maintainers = append(sc.Maintainers, site.Maintainer{Name: m.Name, Email: m.Email, URL: m.URL})
		}
	}
	sc.IconFile, sc.IconURL = icon.File, icon.URL
	if rel, err := filepath.Rel(root, absOr(ch.Src.Dir)); err == nil && !strings.HasPrefix(rel, "..") {
		sc.SourcePath = filepath.ToSlash(rel)
	}
	for _, cv := range c.Index.Entries[md.Name] {
		sc.Versions = append(sc.Versions, site.Version{
			Version: cv.Version, AppVersion: cv.AppVersion, Created: cv.Created,
			Digest: cv.Digest, URL: firstURL(cv.URLs),
		})
	}
	if !withPage {
		return sc, nil
	}
	p := c.pages[ch]
	if p == nil {
		p = c.readPage(ch)
	}
	if p.err != nil {
		return nil, p.err
	}
	sc.README, sc.Changes, sc.Schema, sc.Form = p.readme, p.changes, p.schema, p.form
	return sc, nil
}

// pageSources is what only a chart's own page shows: its README, changes
// and form.
type pageSources struct {
	readme  []byte
	changes []site.Change
	schema  *schema.Schema
	form    *schema.Form
	err     error
}

// readPages reads, alongside packaging, the page sources of the charts
// whose pages are to be rendered again: those whose content changed, and
// every one when what all pages depend on changed (a registry schema, the
// platform, the region, the templates).
func readPages(c *Context) error {
	siteKey, err := c.siteKey()
	if err != nil {
		return err
	}
	var changed []*Chart
	for _, ch := range c.Charts {
		if prev := c.previous.Charts[ch.Meta.Name]; prev == nil || prev.Hash != ch.Hash || prev.PageKey == "" || c.previous.SiteKey != siteKey {
			changed = append(changed, ch)
		}
	}
	pages := make([]*pageSources, len(changed))
	parallel(len(changed), func(i int) { pages[i] = c.readPage(changed[i]) })
	c.pages = make(map[*Chart]*pageSources, len(changed))
	for i, ch := range changed {
		c.pages[ch] = pages[i]
	}
	return nil
}

// readPage reads what a chart's page shows besides its metadata: the
// README, the changes and, for a chart that can be launched, the form the
// platform shows, from the schema as the platform's API serves it (registry
// schemas in place of the properties that name them).
func (c *Context) readPage(ch *Chart) *pageSources {
	p := &pageSources{changes: changes(ch.Meta)}
	for _, name := range []string{"README.md", "readme.md", "README"} {
		// Discovery refused the charts with links leading out; checked
		// again where the page reads it, as for every file a page shows.
		file, err := c.Catalog.Contain(filepath.Join(ch.Src.Dir, name))
		if err != nil {
			var esc *catalog.EscapeError
			if errors.As(err, &esc) {
				p.err = esc
				return p
			}
			continue
		}
		if data, err := os.ReadFile(file); err == nil {
			p.readme = data
			break
		}
	}
	// A library chart is never launched: the platform shows no form for it.
	if ch.Src.SchemaFile == "" || isLibrary(ch.Meta) {
		return p
	}
	env, err := c.env()
	if err != nil {
		p.err = err
		return p
	}
	if _, err := c.Catalog.Contain(ch.Src.SchemaFile); err != nil {
		p.err = err
		return p
	}
	s, err := schema.LoadEnv(ch.Src.SchemaFile, env)
	if err != nil {
		p.err = fmt.Errorf("%s: %w", ch.Src.SchemaFile, err)
		return p
	}
	var readErr error
	p.schema = s
	p.form = schema.ComputeLazy(s, schema.CatalogContext(nil, c.Region, c.Catalog), func() any {
		if ch.Src.ValuesFile == "" {
			return nil
		}
		file, err := c.Catalog.Contain(ch.Src.ValuesFile)
		if err != nil {
			readErr = err
			return nil
		}
		data, err := os.ReadFile(file)
		if err != nil {
			readErr = fmt.Errorf("reading values: %w", err)
			return nil
		}
		// A file the platform's reader refuses is read as Helm reads it
		// (lint reports it); one that neither reads gives no values.
		if m, err := schema.ParseValuesYAML(data, ch.Src.ValuesFile); err == nil {
			return m
		}
		if v, err := common.ReadValues(data); err == nil {
			return v.AsMap()
		}
		return nil
	})
	p.err = readErr
	return p
}

// isLibrary reports whether a chart is a library chart, which other charts
// use and nobody installs.
func isLibrary(md *chart.Metadata) bool { return md != nil && md.Type == "library" }

// changes reads the artifacthub.io/changes annotation: a YAML list of
// strings or of {kind, description, links}.
func changes(md *chart.Metadata) []site.Change {
	raw := md.Annotations["artifacthub.io/changes"]
	if raw == "" {
		return nil
	}
	var items []any
	if err := yaml.Unmarshal([]byte(raw), &items); err != nil {
		return nil
	}
	var out []site.Change
	for _, it := range items {
		switch v := it.(type) {
		case string:
			out = append(out, site.Change{Description: v})
		case map[string]any:
			var ch struct {
				Kind        string `json:"kind"`
				Description string `json:"description"`
				Links       []struct {
					Name string `json:"name"`
					URL  string `json:"url"`
				} `json:"links"`
			}
			data, _ := json.Marshal(v)
			if json.Unmarshal(data, &ch) != nil {
				continue
			}
			c := site.Change{Kind: ch.Kind, Description: ch.Description}
			for _, l := range ch.Links {
				c.Links = append(c.Links, site.Link{Name: l.Name, URL: l.URL})
			}
			out = append(out, c)
		}
	}
	return out
}

// sourceRoot is the root of the catalog's repository, which contribute
// links are relative to: the nearest ancestor holding .git, else the
// catalog directory.
func (c *Context) sourceRoot() string {
	dir := absOr(c.Catalog.Dir)
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
