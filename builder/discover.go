package builder

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/lint"
)

// formatVersion changes whenever packaging changes the bytes it produces,
// so that packages of a previous catalogist are not reused.
const formatVersion = "catalogist-package-1"

// discover finds the catalog's charts, reads their Chart.yaml, orders them
// by their dependencies on each other and hashes their content.
func discover(ctx context.Context, b *build) error {
	in := b.in
	// The state is decoded while the catalog is listed.
	prev := make(chan *state, 1)
	go func() { prev <- loadState(in.Out) }()
	cat, err := catalog.Discover(in.Options.Catalog)
	in.previous = <-prev
	if err != nil {
		return err
	}
	for _, ch := range cat.Charts {
		if ch.OnlySchema {
			return fmt.Errorf("%s is a schema file: build needs a catalog directory (or a chart directory)", in.Options.Catalog)
		}
	}
	in.catalog = cat
	if in.ExtensionKey == "" {
		in.ExtensionKey = cat.ExtensionKey()
	}
	in.BaseURL = strings.TrimRight(in.BaseURL, "/")
	in.repoURL = in.BaseURL
	if in.repoURL == "" && cat.Config != nil {
		in.repoURL = strings.TrimRight(cat.Config.BaseURL, "/")
	}
	charts, escapes, err := b.scanCharts(ctx, cat.Charts)
	if err != nil {
		return err
	}
	if err := b.refuseEscapes(cat.Charts, escapes); err != nil {
		return err
	}
	in.byName = map[string]*Chart{}
	for _, ch := range charts {
		if prev := in.byName[ch.Meta.Name]; prev != nil {
			return fmt.Errorf("%s and %s both define chart %q", prev.Src.Dir, ch.Src.Dir, ch.Meta.Name)
		}
		in.byName[ch.Meta.Name] = ch
	}
	for _, ch := range charts {
		for _, d := range ch.Meta.Dependencies {
			if dep, ok := in.localDependency(ch, d.Name, d.Repository); ok {
				ch.deps = append(ch.deps, dep)
			}
		}
	}
	ordered, err := dependencyOrder(charts)
	if err != nil {
		return err
	}
	in.charts = ordered
	for _, ch := range in.charts {
		// Those without dependencies have theirs already (see scanChart).
		if len(ch.Meta.Dependencies) > 0 {
			ch.Hash = chartHash(ch.ownHash, ch.deps)
		}
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
// core. A file whose stat data are those the last build recorded keeps its
// recorded hash without being read, as git trusts its index, and so does
// Chart.yaml its recorded metadata. A chart with symbolic links leading
// outside the catalog repository is not read at all: its links are
// returned, by chart.
func (b *build) scanCharts(ctx context.Context, srcs []*catalog.Chart) ([]*Chart, [][]*catalog.EscapeError, error) {
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
			charts[i], escapes[i], errs[i] = b.scanChart(ctx, src)
		}()
	}
	wg.Wait()
	return charts, escapes, errors.Join(errs...)
}

func (b *build) scanChart(ctx context.Context, src *catalog.Chart) (*Chart, []*catalog.EscapeError, error) {
	files, escapes, err := chartFiles(src)
	if err != nil || len(escapes) > 0 {
		// Nothing of the chart is read: Helm's loader would follow the
		// links.
		return nil, escapes, err
	}
	if src.ChartFile == "" {
		return nil, nil, fmt.Errorf("%s: no Chart.yaml", src.Dir)
	}
	ch := &Chart{Src: src, files: files, pkg: newFuture[struct{}]()}
	prev := b.in.previous.byDir[src.Dir]
	metaKept, err := b.in.previous.hashFiles(prev, files)
	if err != nil {
		return nil, nil, err
	}
	ch.ownHash = filesHash(files)
	if metaKept && prev.Meta != nil {
		ch.Meta = prev.Meta
	} else {
		md, err := loadChartfile(src.ChartFile)
		if err != nil {
			return nil, nil, err
		}
		// A chart whose directory has another name is packaged under its
		// Chart.yaml name, as Helm packages it; lint warns (chart-advice).
		ch.Meta = md
	}
	// The hash of a chart with dependencies waits for theirs.
	if len(ch.Meta.Dependencies) == 0 {
		ch.Hash = chartHash(ch.ownHash, nil)
		b.startEarly(ctx, ch)
	}
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
	if info.Size() > srcpos.MaxBytes {
		return nil, fmt.Errorf("%s: file is %d bytes, more than the %d bytes accepted; is it the right file?", file, info.Size(), srcpos.MaxBytes)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading Chart.yaml: %w", err)
	}
	var de *srcpos.Error
	if _, err := srcpos.ParseYAML(data); errors.As(err, &de) && de.Limit {
		return nil, fmt.Errorf("%s:%d:%d: %s", file, de.Pos.Line, de.Pos.Col, de.Msg)
	}
	md := new(chart.Metadata)
	if err := yaml.Unmarshal(data, md); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return md, nil
}

// chartFiles lists a chart's regular files in lexical order, as Helm's
// loader reads them: through the symbolic links that stay inside the
// catalog repository, with their targets' stat data, so that editing a
// shared file changes every chart linking to it, and the links' time, which
// changes when a link is pointed elsewhere. The links that leave the
// repository are returned apart.
func chartFiles(src *catalog.Chart) ([]fileRecord, []*catalog.EscapeError, error) {
	files, escapes, err := src.Catalog.ChartFiles(src.Dir)
	if err != nil || len(escapes) > 0 {
		return nil, escapes, err
	}
	recs := make([]fileRecord, len(files))
	for i, f := range files {
		st, err := statFile(f.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", f.Path, err)
		}
		st.Link = f.LinkTime
		recs[i] = fileRecord{Path: f.Rel, fileStat: st, file: f.Path}
	}
	return recs, nil, nil
}

// hashFiles sets the hash of each of a chart's files: the one prev, the
// chart's record, gives when the file's stat data vouch for it, else the
// hash of its content. It reports whether prev vouches for Chart.yaml.
func (s *state) hashFiles(prev *chartState, files []fileRecord) (chartYAML bool, err error) {
	var byPath map[string]*fileRecord
	recorded := func(i int) *fileRecord {
		if prev == nil {
			return nil
		}
		// The files are listed in the same order unless some were added
		// or removed.
		if i < len(prev.Files) && prev.Files[i].Path == files[i].Path {
			return &prev.Files[i]
		}
		if byPath == nil {
			byPath = make(map[string]*fileRecord, len(prev.Files))
			for j := range prev.Files {
				byPath[prev.Files[j].Path] = &prev.Files[j]
			}
		}
		return byPath[files[i].Path]
	}
	for i := range files {
		f := &files[i]
		if rec := recorded(i); rec != nil && s.unchanged(rec.fileStat, f.fileStat) {
			f.Hash = rec.Hash
			chartYAML = chartYAML || f.Path == "Chart.yaml"
			continue
		}
		if f.Hash, err = chartrepo.ReadDigest(f.file); err != nil {
			return false, err
		}
	}
	return chartYAML, nil
}

// filesHash hashes the names and content hashes of a chart's files.
func filesHash(files []fileRecord) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%s\x00", f.Path, f.Hash)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// refuseEscapes stops the build, before any chart is packaged, when a
// chart has symbolic links leading outside the catalog repository: the
// report is lint's (rule symlink-outside), so that build and lint say the
// same.
func (b *build) refuseEscapes(srcs []*catalog.Chart, escapes [][]*catalog.EscapeError) error {
	var found []lint.Finding
	for i, src := range srcs {
		found = append(found, lint.EscapeFindings(src, escapes[i])...)
	}
	if len(found) == 0 {
		return nil
	}
	lint.Sort(found)
	res := &lint.Result{Findings: found, Charts: len(srcs)}
	if err := lint.Write(b.in.Log, res, b.in.lintFormat()); err != nil {
		return err
	}
	return &ErrLint{Errors: len(found)}
}

// localDependency returns the catalog chart a dependency designates, when
// it is taken from the sources: a file:// repository that is a chart of
// this catalog, or the catalog's own published URL.
func (in *inputs) localDependency(ch *Chart, name, repository string) (*Chart, bool) {
	dep := in.byName[name]
	if dep == nil {
		return nil, false
	}
	return dep, catalog.LocalDependency(ch.Src, dep.Src, repository, in.repoURL)
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
