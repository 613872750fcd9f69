// Package catalog finds the charts of a catalog repository and reads the
// catalog's own settings (catalog.yaml).
package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// ConfigFile is the name of a catalog's settings file.
const ConfigFile = "catalog.yaml"

// READMENames are the names a chart's README goes by, in the order the
// site looks for them and docs writes the first found.
var READMENames = []string{"README.md", "readme.md", "README"}

// Config is a catalog's catalog.yaml; every field is optional.
type Config struct {
	File         string
	Name         string
	Title        string
	Description  string
	Source       string
	BaseURL      string
	ExtensionKey string
	IconsDir     string
	Sliders      map[string]*region.Slider
	// Platform is the platform the catalog is written for, one of
	// Platforms, or "" when unset.
	Platform string
	// SchemaRegistry lists directories of shared schemas, in the order
	// written. Discover resolves them against the catalog's directory;
	// ParseConfig, which knows no directory, keeps them as written.
	SchemaRegistry []string
	// Lint holds the lint: section, nil when absent.
	Lint *LintConfig
	// ArtifactHub holds the artifacthub: section, nil when absent.
	ArtifactHub *ArtifactHub
	// PlatformURL is the address of the platform that serves the catalog
	// (an http(s) URL without credentials, query or fragment), and
	// PlatformCatalogID the catalog's id there: with both, the chart pages
	// link to the platform's launcher. Both or neither are set.
	PlatformURL, PlatformCatalogID string
	Root                           *srcpos.Node
}

// Catalog is a directory of charts.
type Catalog struct {
	Dir    string
	Config *Config
	Charts []*Chart
	// root is Root's answer, "" when not worked out yet.
	root string
}

// IconsDir returns the catalog's icons directory.
func (c *Catalog) IconsDir() string {
	d := "icons"
	if c.Config != nil && c.Config.IconsDir != "" {
		d = c.Config.IconsDir
	}
	return filepath.Join(c.Dir, d)
}

// ExtensionKey returns the extension key the catalog declares, or "".
func (c *Catalog) ExtensionKey() string {
	if c.Config == nil {
		return ""
	}
	return c.Config.ExtensionKey
}

// Chart is one chart directory. File paths are empty when absent.
type Chart struct {
	Name    string
	Dir     string
	Catalog *Catalog
	// ChartFile, SchemaFile and ValuesFile are the chart's Chart.yaml,
	// values.schema.json and values.yaml.
	ChartFile, SchemaFile, ValuesFile string
	// CIValues are the ci/*-values.yaml files chart-testing installs with.
	CIValues []string
	// OnlySchema is true when the user named a schema file rather than a
	// chart: chart-level checks are skipped.
	OnlySchema bool
}

// ErrNoCharts is returned for a path that holds no chart.
var ErrNoCharts = errors.New("no chart found: expected a catalog directory (charts under charts/*/ or */), a chart directory (with Chart.yaml) or a values.schema.json file")

// Discover finds the charts a path designates: a catalog directory, a chart
// directory or a schema file.
func Discover(path string) (*Catalog, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !info.IsDir() {
		cat, err := enclosingCatalog(filepath.Dir(path))
		if err != nil {
			return nil, err
		}
		dir := filepath.Dir(path)
		ch := newChart(dir, cat)
		ch.SchemaFile, ch.OnlySchema = path, true
		ch.ChartFile, ch.ValuesFile, ch.CIValues = "", "", nil
		cat.Charts = []*Chart{ch}
		return cat, nil
	}
	isChart, err := hasChartFile(path)
	if err != nil {
		return nil, err
	}
	if isChart {
		cat, err := enclosingCatalog(path)
		if err != nil {
			return nil, err
		}
		cat.Charts = []*Chart{newChart(path, cat)}
		return cat, nil
	}
	cat := newCatalog(path)
	if err := cat.readConfig(); err != nil {
		return nil, err
	}
	for _, dir := range []string{filepath.Join(path, "charts"), path} {
		dirs, err := chartDirs(dir)
		if err != nil {
			return nil, err
		}
		for _, d := range dirs {
			cat.Charts = append(cat.Charts, newChart(d, cat))
		}
		if len(cat.Charts) > 0 {
			break
		}
	}
	if len(cat.Charts) == 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrNoCharts)
	}
	return cat, nil
}

// hasChartFile reports whether dir holds a Chart.yaml. A directory that
// cannot be searched is an error, not a directory without charts: saying
// "no chart found" would hide the cause.
func hasChartFile(dir string) (bool, error) {
	_, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return false, nil
	}
	return false, fmt.Errorf("reading chart directory %s: %w: make it readable and searchable (chmod u+rx)", dir, err)
}

// chartDirs lists the chart directories (those holding a Chart.yaml) of
// dir, in lexical order; a missing dir holds none.
func chartDirs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing charts: %w: make %s readable and searchable (chmod u+rx)", err, dir)
	}
	var out []string
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			// A file, or a link leading nowhere: no chart, as before.
			if err == nil || errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("listing charts: %w: make %s readable and searchable (chmod u+rx)", err, dir)
		}
		ok, err := hasChartFile(p)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// enclosingCatalog returns the catalog a chart directory belongs to: the
// nearest ancestor (up to two levels, for charts/<name>/) with a
// catalog.yaml, or a bare catalog at the chart's parent.
func enclosingCatalog(chartDir string) (*Catalog, error) {
	abs, err := filepath.Abs(chartDir)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", chartDir, err)
	}
	parent := filepath.Dir(abs)
	for _, d := range []string{parent, filepath.Dir(parent)} {
		if exists(filepath.Join(d, ConfigFile)) {
			cat := newCatalog(relTo(chartDir, abs, d))
			return cat, cat.readConfig()
		}
	}
	dir := filepath.Dir(chartDir)
	if filepath.Base(parent) == "charts" {
		dir = filepath.Dir(dir)
	}
	return newCatalog(dir), nil
}

// newCatalog makes the catalog of dir, its root resolved once: every file a
// build reads is checked against it, from many goroutines.
func newCatalog(dir string) *Catalog {
	c := &Catalog{Dir: dir}
	c.root, _ = c.Root()
	return c
}

// relTo expresses dir in the same relative-or-absolute form as chartDir.
func relTo(chartDir, absChart, dir string) string {
	if filepath.IsAbs(chartDir) {
		return dir
	}
	rel, err := filepath.Rel(absChart, dir)
	if err != nil {
		return dir
	}
	return filepath.Join(chartDir, rel)
}

func newChart(dir string, cat *Catalog) *Chart {
	ch := &Chart{Name: filepath.Base(dir), Dir: dir, Catalog: cat}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"Chart.yaml", &ch.ChartFile}, {"values.schema.json", &ch.SchemaFile}, {"values.yaml", &ch.ValuesFile}} {
		if p := filepath.Join(dir, f.name); exists(p) {
			*f.dst = p
		}
	}
	ci, _ := filepath.Glob(filepath.Join(dir, "ci", "*-values.yaml"))
	sort.Strings(ci)
	ch.CIValues = ci
	return ch
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Open reads the catalog at dir without looking for its charts, as for a
// catalog that has none yet: its catalog.yaml, when it has one (Config is
// nil otherwise).
func Open(dir string) (*Catalog, error) {
	c := newCatalog(dir)
	return c, c.readConfig()
}

func (c *Catalog) readConfig() error {
	p := filepath.Join(c.Dir, ConfigFile)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading catalog settings: %w", err)
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return fmt.Errorf("%s:%w", p, err)
	}
	cfg.File = p
	if err := c.checkIconsDir(cfg); err != nil {
		return fmt.Errorf("%s:%w", p, err)
	}
	for i, d := range cfg.SchemaRegistry {
		if !filepath.IsAbs(d) {
			cfg.SchemaRegistry[i] = filepath.Join(c.Dir, filepath.FromSlash(d))
		}
	}
	c.Config = cfg
	return nil
}

// ParseConfig reads a catalog.yaml.
func ParseConfig(data []byte) (*Config, error) {
	root, err := srcpos.ParseYAML(data)
	if err != nil {
		return nil, err
	}
	cfg := &Config{Root: root}
	if root.Kind == srcpos.Null {
		return cfg, nil
	}
	if root.Kind != srcpos.Object {
		return nil, &srcpos.Error{Pos: root.Pos, Msg: "catalog.yaml must be a mapping"}
	}
	// In the order the documentation lists the settings.
	err = srcpos.ReadFields(root, "unknown setting %q",
		srcpos.Field{Key: "name", Read: srcpos.Text(&cfg.Name)},
		srcpos.Field{Key: "title", Read: srcpos.Text(&cfg.Title)},
		srcpos.Field{Key: "description", Read: srcpos.Text(&cfg.Description)},
		srcpos.Field{Key: "source", Read: srcpos.Text(&cfg.Source)},
		srcpos.Field{Key: "baseURL", Read: srcpos.Text(&cfg.BaseURL)},
		srcpos.Field{Key: "extensionKey", Read: srcpos.Text(&cfg.ExtensionKey)},
		srcpos.Field{Key: "iconsDir", Read: srcpos.Text(&cfg.IconsDir)},
		srcpos.Field{Key: "sliders", Read: func(m *srcpos.Node) (err error) {
			cfg.Sliders, err = region.ReadSliders(m)
			return err
		}},
		srcpos.Field{Key: "platform", Read: func(m *srcpos.Node) (err error) {
			cfg.Platform, err = readPlatform(m)
			return err
		}},
		srcpos.Field{Key: "schemaRegistry", Read: func(m *srcpos.Node) (err error) {
			cfg.SchemaRegistry, err = readSchemaRegistry(m)
			return err
		}},
		srcpos.Field{Key: "lint", Read: func(m *srcpos.Node) (err error) {
			cfg.Lint, err = readLintConfig(m)
			return err
		}},
		srcpos.Field{Key: "artifacthub", Read: func(m *srcpos.Node) (err error) {
			cfg.ArtifactHub, err = readArtifactHub(m)
			return err
		}},
		srcpos.Field{Key: "platformURL", Read: func(m *srcpos.Node) (err error) {
			cfg.PlatformURL, err = readPlatformURL(m)
			return err
		}},
		srcpos.Field{Key: "platformCatalogID", Read: func(m *srcpos.Node) (err error) {
			cfg.PlatformCatalogID, err = readPlatformCatalogID(m)
			return err
		}},
	)
	if err != nil {
		return nil, err
	}
	if err := checkPlatformPair(root, cfg); err != nil {
		return nil, err
	}
	if cfg.ExtensionKey != "" && !strings.HasPrefix(cfg.ExtensionKey, "x-") {
		return nil, &srcpos.Error{Pos: root.Get("extensionKey").Pos, Msg: fmt.Sprintf("extensionKey %q must start with x-", cfg.ExtensionKey)}
	}
	return cfg, nil
}

// checkIconsDir refuses an iconsDir that leads outside the catalog
// repository: the site publishes the icons it holds.
func (c *Catalog) checkIconsDir(cfg *Config) error {
	if cfg.IconsDir == "" {
		return nil
	}
	// As IconsDir reads it: relative to the catalog, even with a leading /.
	_, err := c.Contain(filepath.Join(c.Dir, cfg.IconsDir))
	var esc *EscapeError
	if !errors.As(err, &esc) {
		// A missing directory only means no icons; the icons themselves
		// are checked when read.
		return nil
	}
	return &srcpos.Error{Pos: cfg.Root.Get("iconsDir").Pos, Msg: fmt.Sprintf("iconsDir %q: %s", cfg.IconsDir, esc.Problem())}
}
