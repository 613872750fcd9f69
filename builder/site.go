package builder

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/schema"
	"github.com/catalogist/catalogist/site"
	"github.com/catalogist/catalogist/templates"
)

// renderSite writes the catalog's pages into the staging directory. A
// chart page whose inputs are all unchanged since the last build is taken
// from it: rendering the options of large schemas is the costliest part of
// an incremental build.
func renderSite(c *Context) error {
	siteKey, err := c.siteKey()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(c.Stage, "charts"), 0o755); err != nil {
		return err
	}
	// Keys and links are file system work: done in parallel.
	keys := make([]string, len(c.Charts))
	reused := make([]bool, len(c.Charts))
	parallel(len(c.Charts), func(i int) {
		ch := c.Charts[i]
		keys[i] = c.pageKey(ch, siteKey)
		prev := c.previous.Charts[ch.Meta.Name]
		if prev == nil || prev.PageKey != keys[i] || keys[i] == "" {
			return
		}
		page := filepath.Join("charts", ch.Meta.Name, "index.html")
		if os.Mkdir(filepath.Join(c.Stage, "charts", ch.Meta.Name), 0o755) != nil {
			return
		}
		reused[i] = linkOrCopy(filepath.Join(c.Out, page), filepath.Join(c.Stage, page)) == nil
	})
	kept := map[string]bool{}
	for i, ch := range c.Charts {
		c.chartState(ch.Meta.Name).PageKey = keys[i]
		kept[ch.Meta.Name] = reused[i]
	}
	cat, err := c.siteCatalog(kept)
	if err != nil {
		return err
	}
	keep := func(sc *site.Chart) bool { return kept[sc.Name] }
	if err := site.Render(c.Stage, cat, site.Options{Templates: c.Templates, KeepPage: keep}); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	return nil
}

// siteKey hashes what every page depends on besides its chart: the
// templates, the catalog's settings, the region and the published address.
func (c *Context) siteKey() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", formatVersion, siteVersion(), c.RepoURL, c.ExtensionKey)
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

// pageKey hashes what a chart's page shows: the chart, its icon and its
// published versions.
func (c *Context) pageKey(ch *Chart, siteKey string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", siteKey, ch.Hash)
	if icon := c.Catalog.ResolveIcon(ch.Meta.Name, ch.Meta.Icon); icon.File != "" {
		if hashFile(h, icon.File) != nil {
			return ""
		}
	}
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
	v := info.Main.Version
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
func (c *Context) siteCatalog(kept map[string]bool) (*site.Catalog, error) {
	cat := &site.Catalog{Name: filepath.Base(absOr(c.Catalog.Dir)), RepoURL: c.RepoURL}
	if cfg := c.Catalog.Config; cfg != nil {
		cat.Name = cmp.Or(cfg.Name, cat.Name)
		cat.Title, cat.Description, cat.Source = cfg.Title, cfg.Description, cfg.Source
	}
	cat.Title = cmp.Or(cat.Title, cat.Name)
	root := c.sourceRoot()
	for _, ch := range c.Charts {
		sc, err := c.siteChart(ch, root, !kept[ch.Meta.Name])
		if err != nil {
			return nil, err
		}
		cat.Charts = append(cat.Charts, sc)
	}
	return cat, nil
}

// siteChart gathers one chart's data; the README and the form, which only
// its own page shows, are read when withPage.
func (c *Context) siteChart(ch *Chart, root string, withPage bool) (*site.Chart, error) {
	md := ch.Meta
	sc := &site.Chart{
		Name: md.Name, Description: md.Description, Keywords: md.Keywords,
		Home: md.Home, Sources: md.Sources, AppVersion: md.AppVersion, Deprecated: md.Deprecated,
		ExtKey: schema.ExtensionKeyFor(c.ExtensionKey, c.Catalog),
	}
	for _, m := range md.Maintainers {
		if m != nil {
			sc.Maintainers = append(sc.Maintainers, site.Maintainer{Name: m.Name, Email: m.Email, URL: m.URL})
		}
	}
	icon := c.Catalog.ResolveIcon(md.Name, md.Icon)
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
	for _, name := range []string{"README.md", "readme.md", "README"} {
		if data, err := os.ReadFile(filepath.Join(ch.Src.Dir, name)); err == nil {
			sc.README = data
			break
		}
	}
	sc.Changes = changes(md)
	if ch.Src.SchemaFile != "" {
		s, err := schema.Load(ch.Src.SchemaFile, sc.ExtKey)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ch.Src.SchemaFile, err)
		}
		var values map[string]any
		if ch.Src.ValuesFile != "" {
			data, err := os.ReadFile(ch.Src.ValuesFile)
			if err != nil {
				return nil, err
			}
			if v, err := common.ReadValues(data); err == nil {
				values = v.AsMap()
			}
		}
		sc.Schema = s
		sc.Form = schema.Compute(s, schema.CatalogContext(nil, c.Region, c.Catalog), values)
	}
	return sc, nil
}

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
