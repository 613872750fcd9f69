package builder

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/lint"
)

// ErrLint is returned when the catalog has lint errors; the report has been
// written to the log.
type ErrLint struct{ Errors int }

func (e *ErrLint) Error() string {
	return fmt.Sprintf("lint found %d error(s); fix them and build again (nothing was written)", e.Errors)
}

// lintCatalog lints the charts whose content changed since the last build
// and reuses the recorded findings of the others. Errors stop the build;
// warnings are only printed.
func lintCatalog(ctx context.Context, b *build) error {
	in := b.in
	key, err := in.lintKey()
	if err != nil {
		return err
	}
	changed := *in.catalog
	changed.Charts = nil
	var kept []lint.Finding
	for _, ch := range in.charts {
		cs := b.out.record.chart(ch.Meta.Name)
		cs.LintKey = key
		if prev := in.previous.Charts[ch.Meta.Name]; prev != nil && prev.Hash == ch.Hash && prev.LintKey == key {
			cs.Findings = prev.Findings
			for _, f := range prev.Findings {
				f.Finding.Severity = f.Sev
				kept = append(kept, f.Finding)
			}
			in.report("lint", ch.Meta.Name, 0, true)
			continue
		}
		changed.Charts = append(changed.Charts, ch.Src)
	}
	opt := lint.Options{
		Overrides: in.overrides, KeepAnalyses: true, KubeVersion: in.KubeVersion,
		BaseURL: in.repoURL, CacheDir: in.CacheDir, Dependencies: b.depLoader(),
	}
	if in.region != nil {
		opt.Regions = []*region.Region{in.region}
	}
	if in.Progress != nil {
		opt.Progress = func(d lint.ChartDone) { in.report("lint", d.Chart, d.Took, false) }
	}
	res, err := lint.RunContext(ctx, []*catalog.Catalog{&changed}, opt)
	if err != nil {
		return err
	}
	for _, f := range res.Findings {
		if ch := in.chartOf(f); ch != nil {
			cs := b.out.record.chart(ch.Meta.Name)
			cs.Findings = append(cs.Findings, savedFinding{Finding: f, Sev: f.Severity})
		}
	}
	res.Findings = lint.Dedupe(append(res.Findings, kept...))
	res.Charts = len(in.charts)
	b.out.lint = res
	if len(res.Findings) > 0 {
		if err := lint.Write(in.Log, res, in.lintFormat()); err != nil {
			return err
		}
	}
	if errs, _ := res.Count(); errs > 0 {
		return &ErrLint{Errors: errs}
	}
	return nil
}

func (in *inputs) lintFormat() string {
	if in.LintFormat == "" {
		return "text"
	}
	return in.LintFormat
}

// chartOf finds the chart a finding belongs to: the chart it names, else
// the one whose directory holds its file.
func (in *inputs) chartOf(f lint.Finding) *Chart {
	if ch := in.byName[f.Chart]; ch != nil && f.Chart != "" {
		return ch
	}
	dir := filepath.Dir(f.File)
	for dir != "." && dir != string(filepath.Separator) {
		for _, ch := range in.charts {
			if filepath.Clean(ch.Src.Dir) == dir {
				return ch
			}
		}
		next := filepath.Dir(dir)
		if next == dir {
			break
		}
		dir = next
	}
	return nil
}

// lintKey hashes what findings depend on besides the chart itself: the
// catalog's settings, the region, the extension key, the Kubernetes version
// charts are rendered for and the catalog's address, which decides where
// dependencies are taken from.
func (in *inputs) lintKey() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00", formatVersion, in.ExtensionKey, in.Platform, in.catalog.Dir, in.kube(), in.repoURL)
	if err := in.hashEnv(h); err != nil {
		return "", err
	}
	if cfg := in.catalog.Config; cfg != nil {
		if err := hashFile(h, cfg.File); err != nil {
			return "", err
		}
	}
	if in.RegionFile != "" {
		if err := hashFile(h, in.RegionFile); err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00", in.RegionID)
	}
	// The icons directory decides the chart-icon and symlink-outside
	// rules: an icon edited to hold a script, or replaced by a link out of
	// the catalog, must be linted again.
	if entries, err := os.ReadDir(in.catalog.IconsDir()); err == nil {
		for _, e := range entries {
			fmt.Fprintf(h, "%s\x00", e.Name())
			p := filepath.Join(in.catalog.IconsDir(), e.Name())
			if info, err := os.Lstat(p); err == nil {
				fmt.Fprintf(h, "%v\x00%d\x00%d\x00", info.Mode(), info.Size(), info.ModTime().UnixNano())
			}
			if target, err := os.Readlink(p); err == nil {
				fmt.Fprintf(h, "%s\x00", target)
				if info, err := os.Stat(p); err == nil {
					fmt.Fprintf(h, "%d\x00%d\x00", info.Size(), info.ModTime().UnixNano())
				}
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashEnv hashes how the catalog's schemas are read: the extension key, the
// platform and every registry schema, whose change changes every chart that
// uses it (and adding one can make an unresolved name resolve).
func (in *inputs) hashEnv(w io.Writer) error {
	env, err := in.env()
	if err != nil {
		return err
	}
	platform := ""
	if env.Platform != nil {
		platform = env.Platform.Name
	}
	fmt.Fprintf(w, "env\x00%s\x00%s\x00", env.ExtKey, platform)
	if env.Registry == nil {
		return nil
	}
	for _, name := range env.Registry.Names() {
		fmt.Fprintf(w, "%s\x00", name)
		if err := hashFile(w, env.Registry.Lookup(name).File); err != nil {
			return fmt.Errorf("schema registry: %w", err)
		}
	}
	return nil
}

// kube is the Kubernetes version lint renders the charts for.
func (in *inputs) kube() manifest.Version {
	if in.KubeVersion == (manifest.Version{}) {
		return manifest.Default
	}
	return in.KubeVersion
}
