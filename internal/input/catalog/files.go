package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// RegionFileName matches the names region files go by: region.yaml, the
// platform's regions.json, and either with a suffix (region-eu.yaml,
// regions.prod.json). The files pattern of .pre-commit-hooks.yaml passes
// the same names.
var RegionFileName = regexp.MustCompile(`^regions?([-_.][^/]*)?\.(ya?ml|json)$`)

// AllFiles reports whether no path of args is a directory: the files a commit hook
// names, rather than catalogs and charts. A missing file is a deleted one.
func AllFiles(args []string) bool {
	for _, a := range args {
		if info, err := os.Stat(a); err == nil && info.IsDir() {
			return false
		}
	}
	return true
}

// Named is what a list of files stands for, as a commit hook passes the
// files of a commit to lint and docs: charts, whole catalogs and region
// files.
type Named struct {
	// regions are the region files named, in the order given.
	Regions []string
	// keys are the catalogs' absolute directories, in the order named.
	keys []string
	// whole holds, by key, the directory of each catalog linted whole.
	whole map[string]string
	// some holds, by key, the other catalogs with the charts named.
	some map[string]*Catalog
	// charts holds the absolute directory of each chart in some (the file
	// of a schema linted alone).
	charts map[string]bool
}

// NameFiles works out what each file named stands for. A file in a chart
// directory (or in one of its subcharts under charts/) stands for the
// chart. Any other file:
//   - a region file stands for --region, and for every chart of the
//     catalogs it belongs to: the one whose yaml is in its
//     directory or above, else those in the directories beside it;
//   - yaml stands for every chart of its catalog;
//   - another JSON file is a schema linted alone, as before;
//   - another file below a yaml stands for the charts it concerns
//     as --changed-since judges it (all of them for a file of the icons
//     directory or a schema registry, those whose links lead to it).
//
// Anything else is an error, as is a region file that belongs to no
// catalog when no other file names one.
func NameFiles(args []string) (*Named, error) {
	n := &Named{whole: map[string]string{}, some: map[string]*Catalog{}, charts: map[string]bool{}}
	for _, a := range args {
		_, statErr := os.Stat(a)
		if statErr != nil && strings.HasPrefix(a, "-") {
			// After --, a flag is a path: say so rather than let it
			// stand for a deleted file.
			return nil, fmt.Errorf("%s: no such file; every argument after -- is a path: put flags before -- (a pre-commit hook's flags go in its entry:, which ends with --, not in args:)", a)
		}
		dir := filepath.Dir(a)
		chart, err := enclosingChart(dir)
		if err != nil {
			return nil, err
		}
		base := filepath.Base(a)
		switch {
		case chart != "":
			cat, err := Discover(chart)
			if err != nil {
				return nil, err
			}
			if err := n.addSome(cat); err != nil {
				return nil, err
			}
		case statErr == nil && RegionFileName.MatchString(base):
			if slices.ContainsFunc(n.Regions, func(r string) bool { return SameFile(r, a) }) {
				continue
			}
			n.Regions = append(n.Regions, a)
			cats, err := regionCatalogs(dir)
			if err != nil {
				return nil, err
			}
			for _, c := range cats {
				if err := n.addWhole(c); err != nil {
					return nil, err
				}
			}
		case base == ConfigFile:
			if err := n.addWhole(dir); err != nil {
				return nil, err
			}
		case statErr == nil && filepath.Ext(a) == ".json":
			cat, err := Discover(a)
			if err != nil {
				return nil, err
			}
			if err := n.addSome(cat); err != nil {
				return nil, err
			}
		default:
			root, err := catalogRoot(dir)
			if err != nil {
				return nil, err
			}
			if root == "" && statErr != nil {
				return nil, fmt.Errorf("reading %s: %w", a, statErr)
			}
			if root == "" {
				return nil, fmt.Errorf("%s is not a catalog, a chart directory or a values.schema.json, nor a file of one (no Chart.yaml or %s in its directory or above it)", a, ConfigFile)
			}
			if err := n.addConcerned(root, a); err != nil {
				return nil, err
			}
		}
	}
	if len(n.keys) == 0 && len(n.Regions) > 0 {
		r := n.Regions[0]
		return nil, fmt.Errorf("%s is not a catalog, a chart directory or a values.schema.json; as a region file, it belongs to no catalog (none has its %s in the region file's directory, above it, or in a directory beside it): name the catalogs to lint with it, as in catalogist lint --region %s CATALOG", r, ConfigFile, r)
	}
	return n, nil
}

// key returns the key of the catalog in dir, noting it in n.keys.
func (n *Named) key(dir string) (string, error) {
	k, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolving %s: %w", dir, err)
	}
	if !slices.Contains(n.keys, k) {
		n.keys = append(n.keys, k)
	}
	return k, nil
}

// addWhole notes that every chart of the catalog in dir is linted.
func (n *Named) addWhole(dir string) error {
	k, err := n.key(dir)
	if err != nil {
		return err
	}
	n.whole[k] = dir
	return nil
}

// addSome adds the one chart that Discover found in cat to the charts
// linted of its
func (n *Named) addSome(cat *Catalog) error {
	ch := cat.Charts[0]
	id := ch.Dir
	if ch.OnlySchema {
		id = ch.SchemaFile
	}
	abs, err := filepath.Abs(id)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", id, err)
	}
	if n.charts[abs] {
		return nil
	}
	n.charts[abs] = true
	k, err := n.key(cat.Dir)
	if err != nil {
		return err
	}
	if c := n.some[k]; c != nil {
		ch.Catalog = c
		c.Charts = append(c.Charts, ch)
		return nil
	}
	n.some[k] = cat
	return nil
}

// addConcerned adds the charts of the catalog in root that file concerns.
func (n *Named) addConcerned(root, file string) error {
	cat, err := Discover(root)
	if errors.Is(err, ErrNoCharts) {
		return nil
	}
	if err != nil {
		return err
	}
	touched, err := cat.Touched([]string{resolvedPath(file)}, nil)
	if err != nil {
		return err
	}
	if len(touched) == len(cat.Charts) {
		return n.addWhole(root)
	}
	for _, ch := range cat.Charts {
		if !touched[ch] {
			continue
		}
		one, err := Discover(ch.Dir)
		if err != nil {
			return err
		}
		if err := n.addSome(one); err != nil {
			return err
		}
	}
	return nil
}

// catalogs returns the catalogs to lint, each with the charts named. With
// a region file named, every chart is read with it: each catalog is
// linted whole.
func (n *Named) Catalogs() ([]*Catalog, error) {
	var out []*Catalog
	for _, k := range n.keys {
		dir, whole := n.whole[k]
		some := n.some[k]
		if !whole && len(n.Regions) > 0 && !slices.ContainsFunc(some.Charts, func(ch *Chart) bool { return ch.OnlySchema }) {
			dir, whole = some.Dir, true
		}
		if !whole {
			out = append(out, some)
			continue
		}
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			// Deleted with its yaml: nothing is left to lint.
			continue
		}
		cat, err := Discover(dir)
		if errors.Is(err, ErrNoCharts) {
			// A catalog without charts yet, or a bare one Discover reads
			// otherwise: what was named is still linted.
			if some != nil {
				out = append(out, some)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, cat)
	}
	return out, nil
}

// enclosingChart returns the chart directory that dir is, or is in, in the
// form dir is written (relative or absolute); "" when none is, up to the
// catalog's root or the top of the git work tree. A subchart under a
// chart's charts/ stands for that chart.
func enclosingChart(dir string) (string, error) {
	up, err := ancestors(dir)
	if err != nil {
		return "", err
	}
	for _, d := range up {
		if hasFile(d, "Chart.yaml") {
			for filepath.Base(filepath.Dir(d)) == "charts" && hasFile(filepath.Dir(filepath.Dir(d)), "Chart.yaml") {
				d = filepath.Dir(filepath.Dir(d))
			}
			return relTo(dir, up[0], d), nil
		}
		if hasFile(d, ConfigFile) {
			return "", nil
		}
	}
	return "", nil
}

// catalogRoot returns the nearest directory holding a yaml, dir
// or above it up to the top of the git work tree, in the form dir is
// written; "" when none does.
func catalogRoot(dir string) (string, error) {
	up, err := ancestors(dir)
	if err != nil {
		return "", err
	}
	for _, d := range up {
		if hasFile(d, ConfigFile) {
			return relTo(dir, up[0], d), nil
		}
	}
	return "", nil
}

// regionCatalogs returns the catalogs a region file in dir belongs to: the
// catalog it is in, else the catalogs of the directories beside it (as
// examples/region.yaml is beside examples/ide).
func regionCatalogs(dir string) ([]string, error) {
	root, err := catalogRoot(dir)
	if err != nil || root != "" {
		return []string{root}, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("listing the catalogs beside the region file: %w", err)
	}
	var out []string
	for _, e := range entries {
		if d := filepath.Join(dir, e.Name()); hasFile(d, ConfigFile) {
			out = append(out, d)
		}
	}
	return out, nil
}

// ancestors returns the absolute directory of dir and those above it, up to
// the top of its git work tree (the directory holding .git), or to the
// root outside one.
func ancestors(dir string) ([]string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", dir, err)
	}
	var out []string
	for {
		out = append(out, d)
		parent := filepath.Dir(d)
		if parent == d || hasFile(d, ".git") {
			return out, nil
		}
		d = parent
	}
}

// hasFile reports whether dir holds an entry named name.
func hasFile(dir, name string) bool {
	_, err := os.Lstat(filepath.Join(dir, name))
	return err == nil
}

// resolvedPath returns p absolute, its symbolic links resolved, as git
// lists changed files; of a deleted file, its directory's are.
func resolvedPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(d, filepath.Base(abs))
	}
	return abs
}

// SameFile reports whether a and b name the same file.
func SameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(ia, ib)
	}
	return filepath.Clean(a) == filepath.Clean(b)
}
