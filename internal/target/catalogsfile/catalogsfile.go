// Package catalogsfile holds the catalogs a user launches from: the catalogs
// file (catalogs.yaml in the user's configuration directory), with the
// platform's three default catalogs when there is none.
package catalogsfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// Catalog is one entry of the catalogs file, with the fields of the
// platform's catalog record that a launcher uses.
type Catalog struct {
	ID          string
	Name        string
	Description string
	// Location is the repository URL (or a local directory or index file).
	Location string
	// ExtensionKey is the schema extension the catalog's charts use; empty
	// means the one each chart's schema uses.
	ExtensionKey string
	// Platform names the platform whose form the catalog's charts are
	// launched for (one of schema.PlatformNames); empty means the one the
	// extension key implies.
	Platform string
	// Status is PROD or TEST.
	Status            string
	HighlightedCharts []string
	ExcludedCharts    []string
	SkipTLSVerify     bool
	CAFile            string
}

// Excludes reports whether the catalog hides a chart.
func (c *Catalog) Excludes(chart string) bool { return slices.Contains(c.ExcludedCharts, chart) }

// File is a parsed catalogs file.
type File struct {
	// Path is where it was read; empty for the built-in defaults.
	Path     string
	Catalogs []*Catalog
}

// Defaults are the platform's default catalogs.
func Defaults() *File {
	return &File{Catalogs: []*Catalog{
		{ID: "ide", Name: "Interactive services", Description: "Development environments: IDEs with a ready-to-use data-science stack.", Location: "https://inseefrlab.github.io/helm-charts-interactive-services", ExtensionKey: "x-onyxia", Status: "PROD"},
		{ID: "databases", Name: "Databases", Description: "Databases for data-science work.", Location: "https://inseefrlab.github.io/helm-charts-databases", ExtensionKey: "x-onyxia", Status: "PROD"},
		{ID: "automation", Name: "Automation", Description: "Workflow and automation tools.", Location: "https://inseefrlab.github.io/helm-charts-automation", ExtensionKey: "x-onyxia", Status: "PROD"},
	}}
}

// DefaultPath is the catalogs file in the user's configuration directory.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory for catalogs.yaml: pass --catalogs: %w", err)
	}
	return filepath.Join(dir, "catalogist", "catalogs.yaml"), nil
}

// Load reads the catalogs file at path; an empty path means the default
// file, and the built-in defaults when that file does not exist.
func Load(path string) (*File, error) {
	explicit := path != ""
	if !explicit {
		p, err := DefaultPath()
		if err != nil {
			return Defaults(), nil
		}
		path = p
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		return Defaults(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the catalogs file: %w", err)
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	f.Path = path
	// A relative caFile or local location is relative to the file.
	for _, c := range f.Catalogs {
		if c.CAFile != "" && !filepath.IsAbs(c.CAFile) {
			c.CAFile = filepath.Join(filepath.Dir(path), c.CAFile)
		}
		if isLocalPath(c.Location) && !filepath.IsAbs(c.Location) {
			c.Location = filepath.Join(filepath.Dir(path), c.Location)
		}
	}
	return f, nil
}

func isLocalPath(loc string) bool {
	return !strings.Contains(loc, "://")
}

// Parse reads a catalogs file: a list of catalogs, or a mapping with a
// catalogs list. Errors carry the line and column.
func Parse(data []byte) (*File, error) {
	root, err := srcpos.ParseYAML(data)
	if err != nil {
		return nil, err
	}
	list := root
	if root.Kind == srcpos.Object {
		list = root.Get("catalogs")
		if list == nil {
			return nil, &srcpos.Error{Pos: root.Pos, Msg: "no catalogs list: write `catalogs:` followed by entries with id and location"}
		}
	}
	if list.Kind != srcpos.Array {
		return nil, &srcpos.Error{Pos: list.Pos, Msg: fmt.Sprintf("catalogs must be a list, not %s", list.Kind.WithArticle())}
	}
	f := &File{}
	seen := map[string]*srcpos.Node{}
	for _, n := range list.Items {
		c, err := parseCatalog(n)
		if err != nil {
			return nil, err
		}
		if prev := seen[c.ID]; prev != nil {
			return nil, &srcpos.Error{Pos: n.Get("id").Pos, Msg: fmt.Sprintf("catalog id %q is already used at line %d: ids must be unique", c.ID, prev.Pos.Line)}
		}
		seen[c.ID] = n.Get("id")
		f.Catalogs = append(f.Catalogs, c)
	}
	return f, nil
}

func parseCatalog(n *srcpos.Node) (*Catalog, error) {
	if n.Kind != srcpos.Object {
		return nil, &srcpos.Error{Pos: n.Pos, Msg: "a catalog is a mapping with at least id and location"}
	}
	c := &Catalog{}
	err := srcpos.ReadFields(n, "unknown field %q",
		srcpos.Field{Key: "id", Read: srcpos.Text(&c.ID)},
		srcpos.Field{Key: "name", Read: srcpos.Text(&c.Name)},
		srcpos.Field{Key: "description", Read: srcpos.Text(&c.Description)},
		srcpos.Field{Key: "location", Read: srcpos.Text(&c.Location)},
		srcpos.Field{Key: "extensionKey", Read: srcpos.Text(&c.ExtensionKey)},
		srcpos.Field{Key: "platform", Read: func(m *srcpos.Node) error {
			if err := srcpos.Text(&c.Platform)(m); err != nil {
				return err
			}
			return platform(m)
		}},
		srcpos.Field{Key: "status", Read: func(m *srcpos.Node) error {
			if err := srcpos.Text(&c.Status)(m); err != nil {
				return err
			}
			if c.Status != "PROD" && c.Status != "TEST" {
				return &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("status %q: write PROD or TEST", c.Status)}
			}
			return nil
		}},
		srcpos.Field{Key: "highlightedCharts", Read: func(m *srcpos.Node) error { return strs(m, &c.HighlightedCharts) }},
		srcpos.Field{Key: "excludedCharts", Read: func(m *srcpos.Node) error { return strs(m, &c.ExcludedCharts) }},
		srcpos.Field{Key: "skipTLSVerify", Read: func(m *srcpos.Node) error {
			if m.Kind != srcpos.Bool {
				return &srcpos.Error{Pos: m.Pos, Msg: "skipTLSVerify must be true or false"}
			}
			c.SkipTLSVerify = m.Bool()
			return nil
		}},
		srcpos.Field{Key: "caFile", Read: srcpos.Text(&c.CAFile)},
	)
	if err != nil {
		return nil, err
	}
	if c.ID == "" || c.Location == "" {
		return nil, &srcpos.Error{Pos: n.Pos, Msg: "a catalog needs an id and a location (its chart repository URL)"}
	}
	if c.Status == "" {
		c.Status = "PROD"
	}
	return c, nil
}

// platform checks a platform name where it is written, so that a typo is
// not silently replaced by the default platform at launch.
func platform(m *srcpos.Node) error {
	names := schema.PlatformNames()
	if slices.Contains(names, m.Text) {
		return nil
	}
	msg := fmt.Sprintf("platform %q is not one of %s", m.Text, strings.Join(names, ", "))
	if s := suggest.Closest(m.Text, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return &srcpos.Error{Pos: m.Pos, Msg: msg}
}

func strs(m *srcpos.Node, dst *[]string) error {
	if m.Kind != srcpos.Array {
		return &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("%s must be a list of chart names", m.Key)}
	}
	for _, it := range m.Items {
		if it.Kind != srcpos.String {
			return &srcpos.Error{Pos: it.Pos, Msg: fmt.Sprintf("%s must list chart names (strings)", m.Key)}
		}
		*dst = append(*dst, it.Text)
	}
	return nil
}

// Get returns the catalog with an id, or an error listing the ids.
func (f *File) Get(id string) (*Catalog, error) {
	var ids []string
	for _, c := range f.Catalogs {
		if c.ID == id {
			return c, nil
		}
		ids = append(ids, c.ID)
	}
	sort.Strings(ids)
	where := "the built-in catalogs"
	if f.Path != "" {
		where = f.Path
	}
	msg := fmt.Sprintf("no catalog %q in %s", id, where)
	if s := suggest.Closest(id, ids); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return nil, fmt.Errorf("%s (catalogs: %s)", msg, strings.Join(ids, ", "))
}
