package scaffold_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/scaffold"
	"github.com/catalogist/catalogist/lint"
)

// listTree lists every path below dir, so that a test can tell that a
// refusal wrote nothing.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wantRefusal(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want a refusal saying %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("refusal %q does not say %q", err, p)
		}
	}
}

func TestNewCatalogRefusals(t *testing.T) {
	root := t.TempDir()
	full := filepath.Join(root, "full")
	if err := os.MkdirAll(full, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, root)

	_, err := scaffold.NewCatalog(full, scaffold.Options{})
	wantRefusal(t, err, full, "already exists and is not empty")
	_, err = scaffold.NewCatalog(file, scaffold.Options{})
	wantRefusal(t, err, file, "is a file")
	_, err = scaffold.NewCatalog(filepath.Join(root, "new"), scaffold.Options{ExtensionKey: "platform"})
	wantRefusal(t, err, `extension key "platform" must start with x-`)
	_, err = scaffold.NewCatalog(filepath.Join(root, "new"), scaffold.Options{Platform: "onyxa"})
	wantRefusal(t, err, `unknown platform "onyxa"`, `did you mean "onyxia"`)

	if after := listTree(t, root); !slices.Equal(before, after) {
		t.Errorf("a refusal wrote files: before %v, after %v", before, after)
	}
}

// TestNewCatalogIntoEmptyDirectory fills an existing empty directory in
// place (it may be the user's working directory) and names the catalog
// after it.
func TestNewCatalogIntoEmptyDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Data Science_Tools")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scaffold.NewCatalog(dir, scaffold.Options{}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(dir)
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("the directory was replaced (%v)", err)
	}
	noLeftovers(t, dir)
	data, err := os.ReadFile(filepath.Join(dir, "catalog.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := catalog.ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Name != "data-science-tools" || cfg.Title != "Data science tools" {
		t.Errorf("catalog named %q, titled %q", cfg.Name, cfg.Title)
	}
	if info, err := os.Stat(filepath.Join(dir, "charts")); err != nil || !info.IsDir() {
		t.Errorf("no charts directory: %v", err)
	}
}

func TestNewChartRefusals(t *testing.T) {
	root := t.TempDir()
	cat := filepath.Join(root, "cat")
	if _, err := scaffold.NewCatalog(cat, scaffold.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := scaffold.NewChart(cat, "web", scaffold.Options{}); err != nil {
		t.Fatal(err)
	}
	// A chart of the user's, which a refusal must leave alone.
	marker := filepath.Join(cat, "charts", "web", "values.yaml")
	if err := os.WriteFile(marker, []byte("mine: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(root, "plain")
	if err := os.Mkdir(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(root, "broken")
	if err := os.Mkdir(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "catalog.yaml"), []byte("name: b\niconsdir: icons\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, root)

	for _, name := range []string{"Web", "my_chart", "-web", "web-", "a.b", "", strings.Repeat("a", 64), "web/x", "../x"} {
		_, err := scaffold.NewChart(cat, name, scaffold.Options{})
		wantRefusal(t, err, "is not valid", "lowercase letters, digits and dashes")
	}
	_, err := scaffold.NewChart(cat, "my_Chart", scaffold.Options{})
	wantRefusal(t, err, "try my-chart")
	_, err = scaffold.NewChart(cat, "web", scaffold.Options{})
	wantRefusal(t, err, "chart web already exists", filepath.Join(cat, "charts", "web"))
	_, err = scaffold.NewChart(plain, "web", scaffold.Options{})
	wantRefusal(t, err, plain+" is not a catalog: it has no catalog.yaml", "catalogist new catalog")
	_, err = scaffold.NewChart(filepath.Join(root, "missing"), "web", scaffold.Options{})
	wantRefusal(t, err, "does not exist", "catalogist new catalog")
	_, err = scaffold.NewChart(broken, "web", scaffold.Options{})
	wantRefusal(t, err, filepath.Join(broken, "catalog.yaml")+":2:1:", `unknown setting "iconsdir"`, `did you mean "iconsDir"`)
	_, err = scaffold.NewChart(cat, "api", scaffold.Options{Platform: "onyx"})
	wantRefusal(t, err, `unknown platform "onyx"`)

	if after := listTree(t, root); !slices.Equal(before, after) {
		t.Errorf("a refusal wrote files: before %v, after %v", before, after)
	}
	if data, _ := os.ReadFile(marker); string(data) != "mine: true\n" {
		t.Errorf("the existing chart was changed: %q", data)
	}
}

// TestNewChartLayouts places a chart beside the catalog's other charts
// when they sit at its top, and keeps an icon the catalog already has.
func TestNewChartLayouts(t *testing.T) {
	cat := t.TempDir()
	for name, data := range map[string]string{
		"catalog.yaml":       "name: flat\n",
		"old/Chart.yaml":     "apiVersion: v2\nname: old\nversion: 1.0.0\n",
		"icons/web.png":      "not really a PNG",
		"icons/old-icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
	} {
		p := filepath.Join(cat, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := scaffold.NewChart(cat, "web", scaffold.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Dir != filepath.Join(cat, "web") {
		t.Errorf("chart written to %s, want beside old/", res.Dir)
	}
	if res.Icon != "" {
		t.Errorf("icon %s written over the catalog's icons/web.png", res.Icon)
	}
	if _, err := os.Stat(filepath.Join(cat, "icons", "web.svg")); err == nil {
		t.Error("icons/web.svg written beside icons/web.png")
	}
	if _, err := os.Stat(filepath.Join(cat, "charts")); err == nil {
		t.Error("a charts/ directory was made in a catalog that keeps its charts at its top")
	}
	noLeftovers(t, cat)
}

// TestNewChartOverrides writes a chart for the platform and key given
// rather than the catalog's, as lint's flags override them: lint with the
// same flags finds nothing.
func TestNewChartOverrides(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cat")
	if _, err := scaffold.NewCatalog(dir, scaffold.Options{}); err != nil {
		t.Fatal(err)
	}
	opt := scaffold.Options{Platform: "onyxia", ExtensionKey: "x-custom"}
	res, err := scaffold.NewChart(dir, "api", opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Platform != "onyxia" || res.ExtensionKey != "x-custom" {
		t.Errorf("chart written for %s/%s", res.Platform, res.ExtensionKey)
	}
	cat, err := catalog.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := lint.Run([]*catalog.Catalog{cat}, lint.Options{Overrides: schema.Overrides{Platform: opt.Platform, ExtensionKey: opt.ExtensionKey}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range out.Findings {
		t.Errorf("%s:%d:%d: %s [%s]", f.File, f.Line, f.Column, f.Message, f.Rule)
	}
	// Linted as the catalog says, the chart's extension is foreign.
	if out, err = lint.Run([]*catalog.Catalog{cat}, lint.Options{}); err != nil || len(out.Findings) == 0 {
		t.Errorf("the chart for x-custom lints clean under the catalog's x-platform (%v)", err)
	}
}
