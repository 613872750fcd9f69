package builder

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/lint"
)

// formatVersion changes whenever packaging changes the bytes it produces,
// so that packages of a previous catalogist are not reused.
const formatVersion = "catalogist-package-1"

// discover finds the catalog's charts, reads their Chart.yaml, orders them
// by their dependencies on each other and hashes their content.
func discover(c *Context) error {
	// The state is decoded while the catalog is listed.
	prev := make(chan *state, 1)
	go func() { prev <- loadState(c.Out) }()
	cat, err := catalog.Discover(c.Options.Catalog)
	c.previous = <-prev
	if err != nil {
		return err
	}
	for _, ch := range cat.Charts {
		if ch.OnlySchema {
			return fmt.Errorf("%s is a schema file: build needs a catalog directory (or a chart directory)", c.Options.Catalog)
		}
	}
	c.Catalog = cat
	if c.ExtensionKey == "" {
		c.ExtensionKey = cat.ExtensionKey()
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	c.RepoURL = c.BaseURL
	if c.RepoURL == "" && cat.Config != nil {
		c.RepoURL = strings.TrimRight(cat.Config.BaseURL, "/")
	}
	charts, escapes, err := c.scanCharts(cat.Charts)
	if err != nil {
		return err
	}
	if err := c.refuseEscapes(cat.Charts, escapes); err != nil {
		return err
	}
	c.byName = map[string]*Chart{}
	for _, ch := range charts {
		if prev := c.byName[ch.Meta.Name]; prev != nil {
			return fmt.Errorf("%s and %s both define chart %q", prev.Src.Dir, ch.Src.Dir, ch.Meta.Name)
		}
		c.byName[ch.Meta.Name] = ch
	}
	for _, ch := range charts {
		for _, d := range ch.Meta.Dependencies {
			if dep, ok := c.localDependency(ch, d.Name, d.Repository); ok {
				ch.deps = append(ch.deps, dep)
			}
		}
	}
	ordered, err := dependencyOrder(charts)
	if err != nil {
		return err
	}
	c.Charts = ordered
	for _, ch := range c.Charts {
		ch.Hash = chartHash(ch.ownHash, ch.deps)
	}
	return nil
}

// chartHash identifies a chart's content and its local dependencies'.
func chartHash(ownHash string, deps []*Chart) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", formatVersion, ownHash)
	for _, d := range deps {
		fmt.Fprintf(h, "dep\x00%s\x00", d.Hash)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// scanCharts reads every chart's Chart.yaml and hashes its files, on every
// core. A chart whose files all have the size and modification time the
// last build recorded keeps the recorded hash and metadata without being
// read, as git trusts its index. A chart with symbolic links leading
// outside the catalog repository is not read at all: its links are
// returned, by chart.
func (c *Context) scanCharts(srcs []*catalog.Chart) ([]*Chart, [][]*catalog.EscapeError, error) {
	charts := make([]*Chart, len(srcs))
	escapes := make([][]*catalog.EscapeError, len(srcs))
	errs := make([]error, len(srcs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, src := range srcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			charts[i], escapes[i], errs[i] = c.scanChart(src)
		}()
	}
	wg.Wait()
	return charts, escapes, errors.Join(errs...)
}

func (c *Context) scanChart(src *catalog.Chart) (*Chart, []*catalog.EscapeError, error) {
	ch := &Chart{Src: src}
	stamps, escapes, err := fileStamps(src)
	if err != nil || len(escapes) > 0 {
		// Nothing of the chart is read: Helm's loader would follow the
		// links.
		return nil, escapes, err
	}
	if src.ChartFile == "" {
		return nil, nil, fmt.Errorf("%s: no Chart.yaml", src.Dir)
	}
	ch.stamps, ch.stampsSum = stamps, stampsSum(stamps)
	if prev := c.previous.byDir[src.Dir]; prev != nil && prev.Meta != nil && c.previous.trusts(prev.Stamps, stamps, ch.stampsSum) {
		ch.Meta, ch.ownHash = prev.Meta, prev.OwnHash
		return ch, nil, nil
	}
	md, err := loadChartfile(src.ChartFile)
	if err != nil {
		return nil, nil, err
	}
	if md.Name != src.Name {
		return nil, nil, fmt.Errorf("%s: chart name %q differs from its directory %q: rename one of them", src.ChartFile, md.Name, src.Name)
	}
	ch.Meta = md
	if ch.ownHash, err = filesHash(stamps); err != nil {
		return nil, nil, err
	}
	c.packageEarly(ch)
	return ch, nil, nil
}

// loadChartfile reads a Chart.yaml as Helm does, after checking it against
// the limits every YAML file is read within: Helm's reader stops an alias
// bomb without saying where it is.
func loadChartfile(file string) (*chart.Metadata, error) {
	info, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("reading Chart.yaml: %w", err)
	}
	if info.Size() > doc.MaxBytes {
		return nil, fmt.Errorf("%s: file is %d bytes, more than the %d bytes accepted; is it the right file?", file, info.Size(), doc.MaxBytes)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading Chart.yaml: %w", err)
	}
	var de *doc.Error
	if _, err := doc.ParseYAML(data); errors.As(err, &de) && de.Limit {
		return nil, fmt.Errorf("%s:%d:%d: %s", file, de.Pos.Line, de.Pos.Col, de.Msg)
	}
	md := new(chart.Metadata)
	if err := yaml.Unmarshal(data, md); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return md, nil
}

// fileStamp is what a file's content is presumed unchanged by.
type fileStamp struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
	// file is the file to read: the target of the links leading to it.
	file string
}

// fileStamps lists a chart's regular files in lexical order, as Helm's
// loader reads them: through the symbolic links that stay inside the
// catalog repository, stamped with their targets' sizes and times, so that
// editing a shared file changes every chart linking to it. A file reached
// through links has a second stamp, the links' time, which changes when a
// link is pointed elsewhere. The links that leave the repository are
// returned apart.
func fileStamps(src *catalog.Chart) ([]fileStamp, []*catalog.EscapeError, error) {
	files, escapes, err := src.Catalog.ChartFiles(src.Dir)
	if err != nil || len(escapes) > 0 {
		return nil, escapes, err
	}
	stamps := make([]fileStamp, 0, len(files))
	for _, f := range files {
		stamps = append(stamps, fileStamp{Path: f.Rel, Size: f.Size, MTime: f.ModTime, file: f.Path})
		if f.LinkTime != 0 {
			stamps = append(stamps, fileStamp{Path: f.Rel + "\x00link", MTime: f.LinkTime})
		}
	}
	return stamps, nil, nil
}

// filesHash hashes the names and contents of a chart's files.
func filesHash(stamps []fileStamp) (string, error) {
	h := sha256.New()
	for _, st := range stamps {
		if st.file == "" {
			// A link's stamp: what it leads to is hashed under its name.
			continue
		}
		fmt.Fprintf(h, "%s\x00", st.Path)
		if err := hashFile(h, st.file); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// refuseEscapes stops the build, before any chart is packaged, when a
// chart has symbolic links leading outside the catalog repository: the
// report is lint's (rule symlink-outside), so that build and lint say the
// same.
func (c *Context) refuseEscapes(srcs []*catalog.Chart, escapes [][]*catalog.EscapeError) error {
	var found []lint.Finding
	for i, src := range srcs {
		found = append(found, lint.EscapeFindings(src, escapes[i])...)
	}
	if len(found) == 0 {
		return nil
	}
	lint.Sort(found)
	res := &lint.Result{Findings: found, Charts: len(srcs)}
	if err := lint.Write(c.Log, res, c.lintFormat()); err != nil {
		return err
	}
	return &ErrLint{Errors: len(found)}
}

// localDependency returns the catalog chart a dependency designates, when
// it is taken from the sources: a file:// repository that is a chart of
// this catalog, or the catalog's own published URL.
func (c *Context) localDependency(ch *Chart, name, repository string) (*Chart, bool) {
	dep := c.byName[name]
	if dep == nil {
		return nil, false
	}
	if p, ok := strings.CutPrefix(repository, "file://"); ok {
		target, err1 := filepath.Abs(filepath.Join(ch.Src.Dir, p))
		own, err2 := filepath.Abs(dep.Src.Dir)
		return dep, err1 == nil && err2 == nil && target == own
	}
	return dep, c.RepoURL != "" && strings.TrimRight(repository, "/") == c.RepoURL
}

// dependencyOrder sorts charts so that every chart comes after the catalog
// charts it depends on, keeping the discovery order otherwise.
func dependencyOrder(charts []*Chart) ([]*Chart, error) {
	const (
		unseen = iota
		visiting
		done
	)
	mark := map[*Chart]int{}
	var out []*Chart
	var visit func(ch *Chart, path []string) error
	visit = func(ch *Chart, path []string) error {
		switch mark[ch] {
		case done:
			return nil
		case visiting:
			return fmt.Errorf("dependency cycle: %s", strings.Join(append(path, ch.Meta.Name), " -> "))
		}
		mark[ch] = visiting
		for _, d := range ch.deps {
			if err := visit(d, append(path, ch.Meta.Name)); err != nil {
				return err
			}
		}
		mark[ch] = done
		out = append(out, ch)
		return nil
	}
	for _, ch := range charts {
		if err := visit(ch, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func hashFile(w io.Writer, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("hashing: %w", err)
	}
	defer f.Close()
	n, err := io.Copy(w, f)
	if err != nil {
		return fmt.Errorf("hashing %s: %w", p, err)
	}
	fmt.Fprintf(w, "\x00%d\x00", n)
	return nil
}

// errNotDir reports an output path that exists but is not a directory.
var errNotDir = errors.New("exists and is not a directory")
