package action

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/chartdocs"
)

// Docs writes the options section of each chart's README from its schema,
// and READMEs that helm-docs writes whole, as helm-docs would.
type Docs struct {
	// Paths are catalog or chart directories, or the files a commit hook
	// names; "." when empty.
	Paths []string
	// ExtensionKey, Platform and Registries say how schemas are read.
	ExtensionKey, Platform string
	Registries             []string
	// Check writes nothing, and says which README is out of date.
	Check bool

	Stdout, Stderr io.Writer
}

// docsCount counts the READMEs by what became of them.
type docsCount struct{ written, current, stale, failed int }

// Run documents the charts. It returns a Refused error when Check finds a
// README out of date.
func (d *Docs) Run(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return Failed(err)
	}
	ov, err := SchemaOverrides(d.ExtensionKey, d.Platform, d.Registries)
	if err != nil {
		return Usage(err)
	}
	cats, err := d.catalogs()
	if err != nil {
		return Usage(err)
	}
	if cats == nil {
		return nil
	}
	n := d.sync(cats, ov)
	switch {
	case n.stale > 0:
		fmt.Fprintf(d.Stdout, "%d README(s) out of date; update them with: %s\n", n.stale, d.fixCommand())
	case n.written > 0:
		fmt.Fprintf(d.Stdout, "%d README(s) written, %d up to date\n", n.written, n.current)
	case n.failed == 0:
		fmt.Fprintf(d.Stdout, "%d README(s) up to date\n", n.current)
	}
	if n.failed > 0 {
		return Usage(fmt.Errorf("%d chart(s) not documented (see above)", n.failed))
	}
	if n.stale > 0 {
		return Refused(nil)
	}
	return nil
}

// catalogs are the catalogs and charts Paths name, nil (and a note) when
// the files a hook names belong to no chart.
func (d *Docs) catalogs() ([]*catalog.Catalog, error) {
	if len(d.Paths) > 0 && catalog.AllFiles(d.Paths) {
		// A commit hook names the files that changed: each stands for
		// the charts it belongs to, as for lint.
		named, err := catalog.NameFiles(d.Paths)
		if err != nil {
			return nil, err
		}
		cats, err := named.Catalogs()
		if err == nil && len(cats) == 0 {
			fmt.Fprintf(d.Stdout, "no chart to document: %s belong(s) to no chart\n", strings.Join(d.Paths, " "))
			return nil, nil
		}
		return cats, err
	}
	paths := d.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	return docsCatalogs(paths)
}

// sync writes or checks each chart's README, and says what became of each.
func (d *Docs) sync(cats []*catalog.Catalog, ov schema.Overrides) docsCount {
	rs := &schema.Registries{}
	var n docsCount
	for _, cat := range cats {
		env, err := schema.EnvFor(ov, cat, nil, rs)
		if err != nil {
			if cat.Config != nil {
				err = fmt.Errorf("%s: %w", cat.Config.File, err)
			}
			fmt.Fprintln(d.Stderr, "catalogist:", err)
			n.failed += len(cat.Charts)
			continue
		}
		for _, ch := range cat.Charts {
			res, err := chartdocs.Sync(cat, ch, env, d.Check)
			if err != nil {
				fmt.Fprintln(d.Stderr, "catalogist:", err)
				n.failed++
				continue
			}
			switch res.Status {
			case chartdocs.Written:
				n.written++
				fmt.Fprintln(d.Stdout, writtenNote(res))
			case chartdocs.Stale:
				n.stale++
				fmt.Fprintln(d.Stdout, staleNote(res))
			case chartdocs.UpToDate:
				n.current++
			}
		}
	}
	return n
}

// writtenNote says how a README was written.
func writtenNote(res chartdocs.Result) string {
	switch res.How {
	case chartdocs.Template:
		return fmt.Sprintf("wrote %s from %s, as helm-docs would but for the values section (from line %d)", res.README, res.Template, res.Line)
	case chartdocs.HelmDocsDefault:
		return fmt.Sprintf("wrote %s from helm-docs' default template, as its footer says helm-docs wrote it, but for the values section (from line %d)", res.README, res.Line)
	case chartdocs.Appended:
		return fmt.Sprintf("added an options section at the end of %s, under ## Options, from line %d: move it, marker lines included, where it belongs", res.README, res.Line)
	}
	return fmt.Sprintf("wrote %s (from line %d)", res.README, res.Line)
}

// staleNote says how a README is out of date.
func staleNote(res chartdocs.Result) string {
	switch res.How {
	case chartdocs.Template:
		return fmt.Sprintf("%s:%d: out of date: the README differs from what %s and the chart's schema make of it from this line on", res.README, res.Line, res.Template)
	case chartdocs.HelmDocsDefault:
		return fmt.Sprintf("%s:%d: out of date: the README differs from what helm-docs' default template and the chart's schema make of it from this line on", res.README, res.Line)
	case chartdocs.Appended:
		return fmt.Sprintf("%s: out of date: the README has no options section; docs would add one at its end", res.README)
	}
	return fmt.Sprintf("%s:%d: out of date: the options section differs from the chart's schema from this line on", res.README, res.Line)
}

// docsCatalogs discovers the catalogs and charts that paths name, as lint
// does; a chart named twice is documented once.
func docsCatalogs(paths []string) ([]*catalog.Catalog, error) {
	found, err := DiscoverPaths(paths, "document")
	if err != nil {
		return nil, err
	}
	var cats []*catalog.Catalog
	seen := map[string]bool{}
	for _, cat := range found {
		var charts []*catalog.Chart
		for _, ch := range cat.Charts {
			abs, err := filepath.Abs(ch.Dir)
			if err != nil {
				return nil, fmt.Errorf("resolving %s: %w", ch.Dir, err)
			}
			if !seen[abs] {
				seen[abs] = true
				charts = append(charts, ch)
			}
		}
		if cat.Charts = charts; len(charts) > 0 {
			cats = append(cats, cat)
		}
	}
	return cats, nil
}

// fixCommand is the command that writes what --check found out of date:
// the same one, without --check.
func (d *Docs) fixCommand() string {
	cmd := []string{"catalogist", "docs"}
	if d.ExtensionKey != "" {
		cmd = append(cmd, "--extension-key", d.ExtensionKey)
	}
	if d.Platform != "" {
		cmd = append(cmd, "--platform", d.Platform)
	}
	for _, r := range d.Registries {
		cmd = append(cmd, "--schema-registry", r)
	}
	cmd = append(cmd, d.Paths...)
	for i, a := range cmd {
		cmd[i] = shellWord(a)
	}
	return strings.Join(cmd, " ")
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellWord quotes a word for a POSIX shell when it needs it.
func shellWord(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
