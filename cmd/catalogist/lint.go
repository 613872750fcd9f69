package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/launchcontext"
	"github.com/catalogist/catalogist/lint"
	"github.com/catalogist/catalogist/region"
)

type lintFlags struct {
	region, regionID, extKey, context, format string
	strict, listRules                         bool
}

func newLintCmd() *cobra.Command {
	var f lintFlags
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Check catalogs, charts or schemas offline, with exact positions",
		Long: `Lint checks every chart of a catalog for mistakes that would break or
silently degrade the platform's configuration form: JSON Schema validity as
Helm judges it, the vendor extension, sliders, hidden conditions, region and
catalog bounds, and Chart.yaml.

PATH is a catalog directory (charts under charts/*/ or */), a chart
directory, or a values.schema.json file; the default is the current directory.

Exit status: 0 without errors, 1 with errors (or warnings with --strict),
2 for usage or input errors.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.format == "" {
				f.format = "text"
				if os.Getenv("GITHUB_ACTIONS") == "true" {
					f.format = "github"
				}
			}
			return runLint(cmd.OutOrStdout(), args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.region, "region", "", "region file (YAML or JSON, or the platform's regions.json) whose values and slider bounds are injected")
	fl.StringVar(&f.regionID, "region-id", "", "region to pick from a regions.json with several regions")
	fl.StringVar(&f.extKey, "extension-key", "", `schema extension key (default "x-platform", or extensionKey in catalog.yaml; the reference platform uses x-onyxia)`)
	fl.StringVar(&f.context, "context", "", "YAML or JSON file whose keys are extra context paths overwriteDefaultWith may name")
	fl.StringVar(&f.format, "format", "", "output format: text, json, github or sarif (default text; github when GITHUB_ACTIONS=true)")
	fl.BoolVar(&f.strict, "strict", false, "exit 1 on warnings too")
	fl.BoolVar(&f.listRules, "rules", false, "list the rules and exit")
	return cmd
}

func runLint(stdout io.Writer, args []string, f lintFlags) error {
	if f.listRules {
		return listRules(stdout)
	}
	if !validFormat(f.format) {
		return usageError(fmt.Errorf("unknown format %q (known: %s)", f.format, strings.Join(lint.Formats, ", ")))
	}
	if f.extKey != "" && !strings.HasPrefix(f.extKey, "x-") {
		return usageError(fmt.Errorf("--extension-key %q must start with x- (for example x-onyxia)", f.extKey))
	}
	opt := lint.Options{ExtensionKey: f.extKey, Model: launchcontext.NewModel()}
	if f.regionID != "" && f.region == "" {
		return usageError(fmt.Errorf("--region-id needs --region"))
	}
	if f.region != "" {
		r, err := region.Load(f.region, f.regionID)
		if err != nil {
			return usageError(err)
		}
		opt.Region = r
	}
	if f.context != "" {
		if err := opt.Model.LoadFile(f.context); err != nil {
			return usageError(err)
		}
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	var cats []*catalog.Catalog
	for _, a := range args {
		if info, err := os.Stat(a); err == nil && !info.IsDir() && filepath.Ext(a) != ".json" {
			// A shell glob such as examples/* also names the files beside
			// the catalogs; only a file named alone is a mistake.
			if len(args) == 1 {
				return usageError(fmt.Errorf("%s is not a catalog, a chart directory or a values.schema.json", a))
			}
			continue
		}
		cat, err := catalog.Discover(a)
		if err != nil {
			return usageError(err)
		}
		cats = append(cats, cat)
	}
	if len(cats) == 0 {
		return usageError(fmt.Errorf("nothing to lint in %s: %w", strings.Join(args, " "), catalog.ErrNoCharts))
	}
	res, err := lint.Run(cats, opt)
	if err != nil {
		return usageError(err)
	}
	if err := lint.Write(stdout, res, f.format); err != nil {
		return usageError(err)
	}
	errs, warns := res.Count()
	if errs > 0 || (f.strict && warns > 0) {
		return &exitError{code: 1}
	}
	return nil
}

func validFormat(f string) bool {
	for _, k := range lint.Formats {
		if k == f {
			return true
		}
	}
	return false
}

func listRules(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tCHECKS THAT")
	for _, r := range lint.All {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Severity, r.Doc)
	}
	return tw.Flush()
}
