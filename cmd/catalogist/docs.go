package main

import (
	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/output/chartdocs"
)

func newDocsCmd() *cobra.Command {
	var f action.Docs
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

Exit status (docs/exit-codes.md): 0 when every README is (now) up to
date, 1 with --check when one is out of date, 2 for usage errors,
unreadable files and READMEs without the lines.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Paths, f.Stdout, f.Stderr = args, cmd.OutOrStdout(), cmd.ErrOrStderr()
			return f.Run(cmd.Context())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.ExtensionKey, "extension-key", "", `schema extension key (default extensionKey in catalog.yaml, else "x-platform"; the reference platform uses x-onyxia)`)
	addSchemaFlags(fl, &f.Platform, &f.Registries)
	fl.BoolVar(&f.Check, "check", false, "write nothing; exit 1 when a README is out of date (for CI and pre-commit)")
	return cmd
}
