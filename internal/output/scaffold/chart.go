package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/catalogist/catalogist/internal/base/atomicfile"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/chartdocs"
)

// chartData is what the chart's templates are rendered with.
type chartData struct {
	Name, Title string
	// Key is the extension key the schema writes.
	Key string
	// RegionSliders is true on a platform whose region pre-fills and
	// bounds the resource sliders; elsewhere the schema names neither the
	// region's resources nor its slider configurations, which would only
	// fall back silently.
	RegionSliders bool
}

// chartFiles maps each file of a new chart to its template.
var chartFiles = map[string]string{
	"Chart.yaml":                "chart/Chart.yaml.tmpl",
	"values.schema.json":        "chart/values.schema.json.tmpl",
	"values.yaml":               "chart/values.yaml.tmpl",
	"README.md":                 "chart/README.md.tmpl",
	"templates/_helpers.tpl":    "chart/templates/_helpers.tpl.tmpl",
	"templates/deployment.yaml": "chart/templates/deployment.yaml.tmpl",
	"templates/service.yaml":    "chart/templates/service.yaml.tmpl",
	"templates/secret-git.yaml": "chart/templates/secret-git.yaml.tmpl",
	"templates/NOTES.txt":       "chart/templates/NOTES.txt.tmpl",
}

// checkChartName refuses a name Helm's conventions refuse: lowercase
// letters, digits and dashes, starting and ending with a letter or a digit.
// Objects are named after the chart and labelled with its name, which
// Kubernetes takes only as such a DNS label, of at most 63 characters.
// (Helm's own check, in helm create, is unexported and accepts names that
// its best practices and Kubernetes labels do not.)
func checkChartName(name string) error {
	problems := validation.IsDNS1123Label(name)
	if len(problems) == 0 {
		return nil
	}
	msg := fmt.Sprintf("chart name %q is not valid: Helm chart names are lowercase letters, digits and dashes, starting and ending with a letter or a digit, at most 63 characters", name)
	if s := dnsLabel(name); s != "" && s != name {
		msg += fmt.Sprintf("; try %s", s)
	}
	return errors.New(msg)
}

// NewChart writes a new chart NAME into the catalog at catalogDir, in its
// charts/ directory (or beside its other charts when they sit at its top),
// and an icon named after it in the catalog's icons directory unless one
// exists. The chart is written for the platform and extension key lint
// takes for the catalog, which opt overrides as lint's flags do. Its
// files are written into a directory of the catalog and moved into place
// once all are written.
func NewChart(catalogDir, name string, opt Options) (*Result, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	if err := checkChartName(name); err != nil {
		return nil, err
	}
	cat, err := readCatalog(catalogDir)
	if err != nil {
		return nil, err
	}
	e, err := env(opt, cat)
	if err != nil {
		return nil, err
	}
	chartsDir, err := chartsDirOf(catalogDir)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(chartsDir, name)
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("chart %s already exists: %s is there; choose another name, or remove it first", name, dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	data := chartData{Name: name, Title: title(name), Key: e.ExtKey, RegionSliders: e.Platform.RegionSliders}
	t := tree{}
	for rel, tmpl := range chartFiles {
		if err := t.add(rel, tmpl, data); err != nil {
			return nil, err
		}
	}
	res := &Result{Dir: dir, Files: t.names(), Platform: e.Platform.Name, ExtensionKey: e.ExtKey}

	stage, err := os.MkdirTemp(catalogDir, stagePattern)
	if err != nil {
		return nil, fmt.Errorf("writing chart %s: %w", name, err)
	}
	defer os.RemoveAll(stage)
	staged := filepath.Join(stage, name)
	if err := t.write(staged); err != nil {
		return nil, fmt.Errorf("writing chart %s: %w", name, err)
	}
	if err := document(staged, e); err != nil {
		return nil, fmt.Errorf("writing the options section of chart %s's README: %w", name, err)
	}
	if res.Icon, err = writeIcon(cat, name); err != nil {
		return nil, err
	}
	if err := moveInto(staged, chartsDir, dir); err != nil {
		// A chart that is not there needs no icon.
		if res.Icon != "" {
			os.Remove(res.Icon)
		}
		return nil, fmt.Errorf("writing chart %s: %w", name, err)
	}
	return res, nil
}

// document writes the options section of the README of the chart staged
// at dir, as `catalogist docs` does, so that a new chart passes `docs
// --check` as it passes lint.
func document(dir string, e schema.Env) error {
	cat, err := catalog.Discover(dir)
	if err != nil {
		return err
	}
	for _, ch := range cat.Charts {
		if _, err := chartdocs.Sync(cat, ch, e, false); err != nil {
			return err
		}
	}
	return nil
}

// moveInto renames src to dst, making dst's parent first.
func moveInto(src, parent, dst string) error {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	return os.Rename(src, dst)
}

// readCatalog reads the catalog at dir, which must have a catalog.yaml.
func readCatalog(dir string) (*catalog.Catalog, error) {
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("catalog %s does not exist: create it with catalogist new catalog %s", dir, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("reading catalog %s: %w", dir, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("catalog %s is a file, not a catalog directory", dir)
	}
	cat, err := catalog.Open(dir)
	if err != nil {
		return nil, err
	}
	if cat.Config == nil {
		return nil, fmt.Errorf("%s is not a catalog: it has no %s; run new chart in a catalog, name one with --catalog DIR, or create one with catalogist new catalog DIR", dir, catalog.ConfigFile)
	}
	return cat, nil
}

// chartsDirOf is where a catalog keeps its charts: charts/, unless it has
// none there and keeps them at its top.
func chartsDirOf(catalogDir string) (string, error) {
	charts := filepath.Join(catalogDir, "charts")
	if info, err := os.Stat(charts); err == nil && info.IsDir() {
		return charts, nil
	}
	entries, err := os.ReadDir(catalogDir)
	if err != nil {
		return "", fmt.Errorf("reading catalog %s: %w", catalogDir, err)
	}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(catalogDir, e.Name(), "Chart.yaml")); err == nil {
			return catalogDir, nil
		}
	}
	return charts, nil
}

// writeIcon writes an icon named after the chart into the catalog's icons
// directory and returns its path, or "" when the catalog already has an icon
// of that name.
func writeIcon(cat *catalog.Catalog, name string) (string, error) {
	icons := cat.IconsDir()
	if _, err := cat.Contain(icons); err != nil {
		var esc *catalog.EscapeError
		if errors.As(err, &esc) {
			return "", fmt.Errorf("%s: iconsDir %s: %s", cat.Config.File, icons, esc.Problem())
		}
	}
	for _, ext := range catalog.IconExtensions {
		p := filepath.Join(icons, name+ext)
		if _, err := os.Stat(p); err == nil {
			return "", nil
		}
	}
	svg, err := icon(name)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(icons, 0o755); err != nil {
		return "", fmt.Errorf("writing the icon of %s: %w", name, err)
	}
	p := filepath.Join(icons, name+".svg")
	if err := atomicfile.WriteBytes(p, 0o644, svg); err != nil {
		return "", fmt.Errorf("writing the icon of %s: %w", name, err)
	}
	return p, nil
}
