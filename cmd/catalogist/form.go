package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/formview"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/schema"
)

type formFlags struct {
	profile, region, regionID string
	platform, extKey, format  string
	registries                []string
	showSecrets               bool
}

var formFormats = []string{"text", "json", "yaml"}

func newFormCmd() *cobra.Command {
	var f formFlags
	cmd := &cobra.Command{
		Use:   "form CHART",
		Short: "Show the configuration form the platform computes for a chart, and whether it opens",
		Long: `Form computes a chart's configuration form as the platform does: for each
option its widget, its pre-filled value and where it comes from (const, the
launch context, the default, values.yaml), its slider bounds and their
origin, whether it is hidden or read-only, and the choices of a select; then
the values the platform would send, and every failure that makes the form
refuse to open or crash, at its file:line:col.

CHART is a chart directory, a values.schema.json (with the values.yaml beside
it, when there is one) or a packaged chart (.tgz).

Without --profile the form is computed in a sample launch context holding
what every deployment provides (the one lint uses). Secrets (password options,
keys named like token, password or secret, and options pre-filled from such
context keys) are masked in every format unless --show-secrets is given.

Exit status: 0 when the form opens, 1 when it does not (everything is still
printed), 2 for usage errors and unreadable files.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runForm(cmd.OutOrStdout(), args[0], f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.profile, "profile", "", "launch context document (YAML or JSON: user, project, git, vault, s3, s3_array, region, k8s, ...) as the platform builds it (default a sample context)")
	fl.StringVar(&f.region, "region", "", "region file whose values are merged under region and whose sliders bound the options")
	fl.StringVar(&f.regionID, "region-id", "", "region to pick from a regions.json with several regions")
	fl.StringVar(&f.extKey, "extension-key", "", `schema extension key (default extensionKey in catalog.yaml, else "x-platform"; for a .tgz, x-onyxia when the schema uses it)`)
	addSchemaFlags(fl, &f.platform, &f.registries)
	fl.StringVar(&f.format, "format", "text", "output format: "+strings.Join(formFormats, ", "))
	fl.BoolVar(&f.showSecrets, "show-secrets", false, "print secrets in clear (they are masked otherwise, in every format)")
	return cmd
}

// formChart is what a form is computed from, read from a chart directory,
// a schema file or a package.
type formChart struct {
	in analysis.Input
	// cat is the catalog a chart on disk belongs to (its catalog.yaml);
	// nil for a package.
	cat *catalog.Catalog
}

func runForm(stdout io.Writer, arg string, f formFlags) error {
	if !slices.Contains(formFormats, f.format) {
		return usageError(fmt.Errorf("unknown format %q (known: %s)", f.format, strings.Join(formFormats, ", ")))
	}
	if f.regionID != "" && f.region == "" {
		return usageError(errors.New("--region-id needs --region"))
	}
	ov, err := schemaOverrides(f.extKey, f.platform, f.registries)
	if err != nil {
		return usageError(err)
	}
	ch, err := readFormChart(arg)
	if err != nil {
		return usageError(err)
	}
	if ch.in.Env, err = formEnv(ov, ch); err != nil {
		return usageError(err)
	}
	data, contextName := launchcontext.Sample(), "a sample launch context (no --profile)"
	if f.profile != "" {
		if data, err = readProfile(f.profile); err != nil {
			return usageError(err)
		}
		contextName = "the launch context " + f.profile
	}
	var reg *region.Region
	if f.region != "" {
		if reg, err = region.Load(f.region, f.regionID); err != nil {
			return usageError(err)
		}
		contextName += ", region " + f.region
	}
	ch.in.Context = schema.NewContext(data, reg, nil, "")
	if ch.cat != nil {
		ch.in.Context = schema.CatalogContext(data, reg, ch.cat)
	}
	a, err := analysis.Analyze(ch.in)
	if err != nil {
		return usageError(err)
	}
	if a.SchemaErr != nil {
		return usageError(fmt.Errorf("%s:%w; the platform shows no form for a chart whose schema does not parse: correct the JSON there", ch.in.SchemaFile, a.SchemaErr))
	}
	if _, err := a.FormValues(); err != nil {
		return usageError(fmt.Errorf("%w; Helm refuses such a chart: correct values.yaml there", err))
	}
	d := a.Form.Describe()
	if !f.showSecrets {
		d = formview.Mask(d, data)
	}
	// Everything is written to a buffer first, so that an error leaves
	// nothing half-written.
	var out bytes.Buffer
	switch f.format {
	case "text":
		err = formview.Text(&out, d, contextName)
	case "json":
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err = enc.Encode(d)
	case "yaml":
		var y []byte
		if y, err = yaml.Marshal(d); err == nil {
			out.Write(y)
		}
	}
	if err != nil {
		return fmt.Errorf("writing the form: %w", err)
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return err
	}
	if !d.Opens {
		return &exitError{code: 1}
	}
	return nil
}

// readFormChart reads what CHART names.
func readFormChart(arg string) (*formChart, error) {
	info, err := os.Stat(arg)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", arg, err)
	}
	switch {
	case !info.IsDir() && strings.HasSuffix(arg, ".tgz"):
		return readPackage(arg)
	case !info.IsDir() && filepath.Ext(arg) == ".json":
		return readChartFiles(arg)
	case !info.IsDir():
		return nil, fmt.Errorf("%s is not a chart directory, a values.schema.json or a packaged chart (.tgz)", arg)
	}
	if !exists(filepath.Join(arg, "Chart.yaml")) {
		if p := filepath.Join(arg, "values.schema.json"); exists(p) {
			return readChartFiles(p)
		}
		cat, err := catalog.Discover(arg)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(cat.Charts))
		for i, c := range cat.Charts {
			names[i] = c.Dir
		}
		return nil, fmt.Errorf("%s is a catalog of %d chart(s); name one chart: %s", arg, len(names), strings.Join(names, ", "))
	}
	return readChartFiles(filepath.Join(arg, "values.schema.json"))
}

// readChartFiles reads a schema file, the values.yaml beside it and the
// catalog it belongs to.
func readChartFiles(schemaFile string) (*formChart, error) {
	if !exists(schemaFile) {
		return nil, fmt.Errorf("%s has no values.schema.json, so the platform shows no form for it", filepath.Dir(schemaFile))
	}
	cat, err := catalog.Discover(schemaFile)
	if err != nil {
		return nil, err
	}
	ch := &formChart{in: analysis.Input{SchemaFile: schemaFile}, cat: cat}
	if ch.in.Schema, err = srcpos.ReadFile(schemaFile); err != nil {
		return nil, err
	}
	if p := filepath.Join(filepath.Dir(schemaFile), "values.yaml"); exists(p) {
		ch.in.ValuesFile = p
		if ch.in.Values, err = srcpos.ReadFile(p); err != nil {
			return nil, err
		}
	}
	return ch, nil
}

// readPackage reads a packaged chart with Helm's loader, which checks the
// archive as helm install does.
func readPackage(path string) (*formChart, error) {
	hc, err := loader.LoadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the chart package %s: %w", path, err)
	}
	// Files inside the archive are named after it, as the archive's own
	// paths: chart-1.0.0.tgz/chart/values.schema.json.
	inside := filepath.Join(path, hc.Name())
	if len(hc.Schema) == 0 {
		return nil, fmt.Errorf("%s has no values.schema.json, so the platform shows no form for it", path)
	}
	ch := &formChart{in: analysis.Input{SchemaFile: filepath.Join(inside, "values.schema.json"), Schema: hc.Schema}}
	for _, f := range hc.Raw {
		if f.Name == "values.yaml" {
			ch.in.ValuesFile, ch.in.Values = filepath.Join(inside, "values.yaml"), f.Data
		}
	}
	return ch, nil
}

// formEnv is how the chart's schema is read: the command line, else the
// catalog's catalog.yaml, else the defaults. A package carries no
// catalog.yaml, so its extension key is the one its schema uses, as launch
// reads it.
func formEnv(ov schema.Overrides, ch *formChart) (schema.Env, error) {
	env, err := schema.EnvFor(ov, ch.cat, ch.in.Schema, nil)
	if err != nil && ch.cat != nil && ch.cat.Config != nil {
		return env, fmt.Errorf("%s: %w", ch.cat.Config.File, err)
	}
	return env, err
}

// readProfile reads a launch context document; an empty one is an empty
// context.
func readProfile(path string) (map[string]any, error) {
	data, err := srcpos.ReadFile(path)
	if err != nil {
		return nil, err
	}
	root, err := srcpos.ParseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w; correct the YAML or JSON there", path, err)
	}
	switch root.Kind {
	case srcpos.Null:
		return map[string]any{}, nil
	case srcpos.Object:
		return root.Value().(map[string]any), nil
	}
	return nil, fmt.Errorf("%s:%d:%d: a launch context is a mapping such as `git: {name: Ada, email: ada@example.org}`, not %s", path, root.Pos.Line, root.Pos.Col, root.Kind.WithArticle())
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
