package action

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/input/gitchange"
	"github.com/catalogist/catalogist/lint"
)

// selectChanged keeps, of each catalog, the charts whose files differ from
// the git ref ChangedSince and the charts depending on them, drops the
// catalogs left without any, and tells opt which charts changed. It
// returns the catalogs, and the charts kept by name.
func (l *Lint) selectChanged(ctx context.Context, cats []*catalog.Catalog, regions []string, opt *lint.Options) ([]*catalog.Catalog, map[string]bool, error) {
	// Every chart is read with these.
	var shared []string
	for _, p := range slices.Concat(regions, []string{l.Context}, l.Registries) {
		if p != "" {
			shared = append(shared, p)
		}
	}
	changed, selected := map[string]bool{}, map[string]bool{}
	regionChanged := false
	var kept []*catalog.Catalog
	for _, cat := range cats {
		files, err := gitchange.Changed(ctx, cat.Dir, l.ChangedSince)
		if err != nil {
			return nil, nil, fmt.Errorf("--changed-since: %w", err)
		}
		regionChanged = regionChanged || slices.ContainsFunc(regions, func(r string) bool { return listsFile(files, r) })
		touched, err := cat.Touched(files, shared)
		if err != nil {
			return nil, nil, fmt.Errorf("--changed-since: %w", err)
		}
		linted := cat.WithDependents(touched)
		var charts []*catalog.Chart
		for _, ch := range cat.Charts {
			if linted[ch] {
				charts = append(charts, ch)
				selected[ch.Name] = true
			}
			if touched[ch] {
				changed[ch.Name] = true
			}
		}
		if len(charts) > 0 {
			cat.Charts = charts
			kept = append(kept, cat)
		}
	}
	opt.Changed = changed
	if len(opt.Regions) > 0 && !regionChanged {
		// The region file's own findings are not the change's.
		opt.Rules = nil
		for _, r := range lint.All {
			if r.Scope != lint.PerRegion {
				opt.Rules = append(opt.Rules, r)
			}
		}
	}
	if len(kept) == 0 {
		w := l.Stdout
		if l.Format != "text" && l.Format != "github" {
			// The report itself is a document.
			w = l.Stderr
		}
		fmt.Fprintf(w, "no chart changed since %s\n", l.ChangedSince)
	}
	return kept, selected, nil
}

// listsFile reports whether files, absolute and resolved as git lists
// them, holds the file p.
func listsFile(files []string, p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return slices.Contains(files, abs)
}

// addPublished gives opt what rule version-bump reports: the linted
// charts' packages, as a build makes them, compared with the published
// packages of their versions.
func (l *Lint) addPublished(ctx context.Context, cats []*catalog.Catalog, opt *lint.Options) error {
	compared, found, err := builder.ComparePublished(ctx, cats, l.Published, builder.Options{CacheDir: l.CacheDir})
	var le *builder.ErrLint
	if errors.As(err, &le) {
		// A chart with links leading out of its catalog is not packaged:
		// lint reports the links (symlink-outside), which fail the run.
		return nil
	}
	if err != nil {
		return fmt.Errorf("--published: %w", err)
	}
	if !found {
		fmt.Fprintf(l.Stderr, "catalogist: nothing is published at %s yet: no version to compare\n", chartrepo.Redact(l.Published))
	}
	opt.Published = compared
	return nil
}
