package main

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/output/chartdocs"
)

type docsFlags struct {
	extKey, platform string
	registries       []string
	check            bool
}

func newDocsCmd() *cobra.Command {
	var f docsFlags
	cmd := &cobra.Command{
		Use:   "docs [PATH...]",
		Short: "Write the options section of each chart's README from its schema",
		Long: `Docs writes the options section of each chart's README from its
values.schema.json and the form the platform computes from it: for each
option its title, description, type and default, its slider bounds (and
the region slider that replaces them), when the form hides it, and what it
is pre-filled from. Options are grouped as the form groups them: a heading
per group, one level below the heading above the section, and a table of
its options.

The section is the text between these two lines, each alone on a line,
which a README must hold where the section goes; nothing else in the README
changes:

  ` + chartdocs.Begin + `
  ` + chartdocs.End + `

A chart whose README lacks them (or that has no README) is not written:
docs says which lines to add and exits 2, after documenting the other
charts. A chart without values.schema.json is left alone unless its README
holds the lines.

Defaults are the chart's, secrets masked; nothing depends on who runs docs.

PATH is a catalog directory (charts under charts/*/ or */) or a chart
directory; the default is the current directory. When every PATH is a
file, as a commit hook passes them, each stands for the charts it belongs
to, as for lint (a README.md or values.schema.json for its chart, a
catalog.yaml for every chart of its catalog).

With --check nothing is written: docs names each README that is out of
date, with the first line that differs, and the command that updates it.

Exit status: 0 when every README is (now) up to date, 1 with --check when
one is out of date, 2 for usage errors, unreadable files and READMEs
without the lines.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDocs(cmd.OutOrStdout(), cmd.ErrOrStderr(), args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.extKey, "extension-key", "", `schema extension key (default extensionKey in catalog.yaml, else "x-platform"; the reference platform uses x-onyxia)`)
	addSchemaFlags(fl, &f.platform, &f.registries)
	fl.BoolVar(&f.check, "check", false, "write nothing; exit 1 when a README is out of date (for CI and pre-commit)")
	return cmd
}

func runDocs(stdout, stderr io.Writer, args []string, f docsFlags) error {
	ov, err := schemaOverrides(f.extKey, f.platform, f.registries)
	if err != nil {
		return usageError(err)
	}
	var cats []*catalog.Catalog
	if len(args) > 0 && catalog.AllFiles(args) {
		// A commit hook names the files that changed: each stands for
		// the charts it belongs to, as for lint.
		named, err := catalog.NameFiles(args)
		if err != nil {
			return usageError(err)
		}
		if cats, err = named.Catalogs(); err != nil {
			return usageError(err)
		}
		if len(cats) == 0 {
			fmt.Fprintf(stdout, "no chart to document: %s belong(s) to no chart\n", strings.Join(args, " "))
			return nil
		}
	} else {
		paths := args
		if len(paths) == 0 {
			paths = []string{"."}
		}
		if cats, err = docsCatalogs(paths); err != nil {
			return usageError(err)
		}
	}
	rs := &schema.Registries{}
	var written, current, stale, failed int
	for _, cat := range cats {
		env, err := schema.EnvFor(ov, cat, nil, rs)
		if err != nil {
			if cat.Config != nil {
				err = fmt.Errorf("%s: %w", cat.Config.File, err)
			}
			fmt.Fprintln(stderr, "catalogist:", err)
			failed += len(cat.Charts)
			continue
		}
		for _, ch := range cat.Charts {
			res, err := chartdocs.Sync(cat, ch, env, f.check)
			if err != nil {
				fmt.Fprintln(stderr, "catalogist:", err)
				failed++
				continue
			}
			switch res.Status {
			case chartdocs.Written:
				written++
				fmt.Fprintf(stdout, "wrote %s (from line %d)\n", res.README, res.Line)
			case chartdocs.Stale:
				stale++
				fmt.Fprintf(stdout, "%s:%d: out of date: the options section differs from the chart's schema from this line on\n", res.README, res.Line)
			case chartdocs.UpToDate:
				current++
			}
		}
	}
	switch {
	case stale > 0:
		fmt.Fprintf(stdout, "%d README(s) out of date; update them with: %s\n", stale, fixCommand(args, f))
	case written > 0:
		fmt.Fprintf(stdout, "%d README(s) written, %d up to date\n", written, current)
	case failed == 0:
		fmt.Fprintf(stdout, "%d README(s) up to date\n", current)
	}
	if failed > 0 {
		return &exitError{code: 2, err: fmt.Errorf("%d chart(s) not documented (see above)", failed)}
	}
	if stale > 0 {
		return &exitError{code: 1}
	}
	return nil
}

// docsCatalogs discovers the catalogs and charts that paths name, as lint
// does; a chart named twice is documented once.
func docsCatalogs(paths []string) ([]*catalog.Catalog, error) {
	found, err := discoverPaths(paths, "document")
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
func fixCommand(args []string, f docsFlags) string {
	cmd := []string{"catalogist", "docs"}
	if f.extKey != "" {
		cmd = append(cmd, "--extension-key", f.extKey)
	}
	if f.platform != "" {
		cmd = append(cmd, "--platform", f.platform)
	}
	for _, r := range f.registries {
		cmd = append(cmd, "--schema-registry", r)
	}
	cmd = append(cmd, args...)
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
