package catalog

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// LocalDependency reports whether a dependency of chart from, taken from
// repository, is the catalog's chart dep, the chart its name designates:
// a file:// path to dep's directory, or the address the catalog is
// published at, repoURL ("" when unknown). Such a dependency is taken from
// the sources, so a change to dep changes from.
func LocalDependency(from, dep *Chart, repository, repoURL string) bool {
	if p, ok := strings.CutPrefix(repository, "file://"); ok {
		target, err1 := filepath.Abs(filepath.Join(from.Dir, p))
		own, err2 := filepath.Abs(dep.Dir)
		return err1 == nil && err2 == nil && target == own
	}
	repoURL = strings.TrimRight(repoURL, "/")
	return repoURL != "" && strings.TrimRight(repository, "/") == repoURL
}

// Touched returns the charts of the catalog that changed files concern.
// changed are absolute paths, symbolic links resolved, as git lists them
// (deleted files included). A file concerns a chart when it is in the
// chart's directory or a symbolic link of the chart leads to it; it
// concerns every chart when it is catalog.yaml, in the catalog's schema
// registries or icons directory, or under one of shared, the other files
// and directories every chart is read with (a region file, a registry
// given on the command line). A chart with links leading out of the
// catalog or nowhere is included: what they lead to cannot be known.
func (c *Catalog) Touched(changed, shared []string) (map[*Chart]bool, error) {
	files := make(map[string]bool, len(changed))
	for _, p := range changed {
		files[p] = true
	}
	under := func(dirs ...string) bool {
		for _, d := range dirs {
			if d == "" {
				continue
			}
			d = resolvePath(d)
			for p := range files {
				if within(d, p) {
					return true
				}
			}
		}
		return false
	}
	everything := append([]string{filepath.Join(c.Dir, ConfigFile), c.IconsDir()}, shared...)
	if c.Config != nil {
		everything = append(everything, c.Config.SchemaRegistry...)
	}
	out := map[*Chart]bool{}
	if under(everything...) {
		for _, ch := range c.Charts {
			out[ch] = true
		}
		return out, nil
	}
	for _, ch := range c.Charts {
		if ch.OnlySchema {
			out[ch] = out[ch] || files[resolvePath(ch.SchemaFile)]
			continue
		}
		if under(ch.Dir) {
			out[ch] = true
			continue
		}
		list, escapes, err := c.ChartFiles(ch.Dir)
		if err != nil {
			return nil, err
		}
		if len(escapes) > 0 {
			out[ch] = true
			continue
		}
		for _, f := range list {
			if files[f.Path] {
				out[ch] = true
				break
			}
		}
	}
	return out, nil
}

// WithDependents returns the given charts and the charts of the catalog
// depending on them, directly or through others, by a local dependency
// (see LocalDependency; the published address is catalog.yaml's baseURL).
// A chart whose Chart.yaml cannot be read is included: what it depends on
// is unknown, and lint says why.
func (c *Catalog) WithDependents(given map[*Chart]bool) map[*Chart]bool {
	byName := map[string]*Chart{}
	for _, ch := range c.Charts {
		byName[ch.Name] = ch
	}
	repoURL := ""
	if c.Config != nil {
		repoURL = c.Config.BaseURL
	}
	// dependents[d] are the charts with a local dependency on d.
	dependents := map[*Chart][]*Chart{}
	out := map[*Chart]bool{}
	for ch := range given {
		out[ch] = true
	}
	for _, ch := range c.Charts {
		deps, err := chartDependencies(ch)
		if err != nil {
			out[ch] = true
			continue
		}
		for _, d := range deps {
			if dep := byName[d.name]; dep != nil && dep != ch && LocalDependency(ch, dep, d.repository, repoURL) {
				dependents[dep] = append(dependents[dep], ch)
			}
		}
	}
	var todo []*Chart
	for ch := range given {
		todo = append(todo, ch)
	}
	for len(todo) > 0 {
		ch := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, up := range dependents[ch] {
			if !out[up] {
				out[up] = true
				todo = append(todo, up)
			}
		}
	}
	return out
}

type dependency struct{ name, repository string }

// chartDependencies reads the dependencies Chart.yaml lists, within the
// limits every YAML file is read within.
func chartDependencies(ch *Chart) ([]dependency, error) {
	if ch.ChartFile == "" {
		return nil, nil
	}
	data, err := srcpos.ReadFile(ch.ChartFile)
	if err != nil {
		return nil, err
	}
	root, err := srcpos.ParseYAML(data)
	if err != nil {
		return nil, err
	}
	deps := root.Get("dependencies")
	if deps == nil || deps.Kind == srcpos.Null {
		return nil, nil
	}
	if deps.Kind != srcpos.Array {
		return nil, errors.New("dependencies is not a list")
	}
	var out []dependency
	for _, d := range deps.Items {
		name, repo := d.Get("name"), d.Get("repository")
		if name == nil || name.Kind != srcpos.String {
			return nil, errors.New("a dependency has no name")
		}
		dep := dependency{name: name.Text}
		if repo != nil {
			dep.repository = repo.Text
		}
		out = append(out, dep)
	}
	return out, nil
}

// resolvePath makes p absolute with its symbolic links resolved, as far
// as it exists: the path of a deleted file is in its resolved directory.
func resolvePath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return resolveExisting(abs)
}
