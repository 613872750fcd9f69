package builder

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/catalogist/catalogist/catalog"
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
func lintCatalog(c *Context) error {
	key, err := c.lintKey()
	if err != nil {
		return err
	}
	changed := *c.Catalog
	changed.Charts = nil
	var kept []lint.Finding
	for _, ch := range c.Charts {
		cs := c.chartState(ch.Meta.Name)
		cs.LintKey = key
		if prev := c.previous.Charts[ch.Meta.Name]; prev != nil && prev.Hash == ch.Hash && prev.LintKey == key {
			cs.Findings = prev.Findings
			for _, f := range prev.Findings {
				f.Finding.Severity = f.Sev
				kept = append(kept, f.Finding)
			}
			continue
		}
		changed.Charts = append(changed.Charts, ch.Src)
	}
	res, err := lint.Run([]*catalog.Catalog{&changed}, lint.Options{Overrides: c.overrides, Region: c.Region})
	if err != nil {
		return err
	}
	for _, f := range res.Findings {
		if ch := c.chartOf(f); ch != nil {
			cs := c.chartState(ch.Meta.Name)
			cs.Findings = append(cs.Findings, savedFinding{Finding: f, Sev: f.Severity})
		}
	}
	res.Findings = lint.Dedupe(append(res.Findings, kept...))
	res.Charts = len(c.Charts)
	c.Lint = res
	if len(res.Findings) > 0 {
		if err := lint.Write(c.Log, res, c.lintFormat()); err != nil {
			return err
		}
	}
	if errs, _ := res.Count(); errs > 0 {
		return &ErrLint{Errors: errs}
	}
	return nil
}

func (c *Context) lintFormat() string {
	if c.LintFormat == "" {
		return "text"
	}
	return c.LintFormat
}

// chartOf finds the chart a finding belongs to: the chart it names, else
// the one whose directory holds its file.
func (c *Context) chartOf(f lint.Finding) *Chart {
	if ch := c.byName[f.Chart]; ch != nil && f.Chart != "" {
		return ch
	}
	dir := filepath.Dir(f.File)
	for dir != "." && dir != string(filepath.Separator) {
		for _, ch := range c.Charts {
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
// catalog's settings, the region and the extension key.
func (c *Context) lintKey() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", formatVersion, c.ExtensionKey, c.Platform, c.Catalog.Dir)
	if err := c.hashEnv(h); err != nil {
		return "", err
	}
	if cfg := c.Catalog.Config; cfg != nil {
		if err := hashFile(h, cfg.File); err != nil {
			return "", err
		}
	}
	if c.RegionFile != "" {
		if err := hashFile(h, c.RegionFile); err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00", c.RegionID)
	}
	// The icons directory decides the chart-icon and symlink-outside
	// rules: an icon edited to hold a script, or replaced by a link out of
	// the catalog, must be linted again.
	if entries, err := os.ReadDir(c.Catalog.IconsDir()); err == nil {
		for _, e := range entries {
			fmt.Fprintf(h, "%s\x00", e.Name())
			p := filepath.Join(c.Catalog.IconsDir(), e.Name())
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
func (c *Context) hashEnv(w io.Writer) error {
	env, err := c.env()
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
