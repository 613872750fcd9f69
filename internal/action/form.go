package action

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

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

// Form shows the configuration form the platform computes for a chart.
type Form struct {
	// Chart is a chart directory, a values.schema.json or a packaged
	// chart (.tgz).
	Chart string
	// Profile is a launch context document, empty for the sample context.
	Profile string
	// Region is a region file, RegionID the region of a regions.json.
	Region, RegionID string
	// ExtensionKey, Platform and Registries say how the schema is read.
	ExtensionKey, Platform string
	Registries             []string
	// Format is one of FormFormats.
	Format string
	// ShowSecrets prints secrets in clear.
	ShowSecrets bool
	// LaunchURL prints, instead of the form, the link that opens the
	// chart's launcher on the platform catalog.yaml names (platformURL,
	// platformCatalogID), with the changes ValueFiles make to the form's
	// values set; what the link cannot carry is named on Stderr.
	LaunchURL bool
	// ValueFiles are values files, merged as Helm merges -f files, over
	// the form's values: with LaunchURL only.
	ValueFiles []string

	Stdout, Stderr io.Writer
}

// FormFormats are the formats Form writes.
var FormFormats = []string{"text", "json", "yaml"}

// formChart is what a form is computed from, read from a chart directory,
// a schema file or a package.
type formChart struct {
	in analysis.Input
	// dir is the chart's directory ("" for a package), where its
	// Chart.yaml is.
	dir string
	// cat is the catalog a chart on disk belongs to (its catalog.yaml);
	// nil for a package.
	cat *catalog.Catalog
}

// Run writes the form; it returns a Refused error when the form does not
// open.
func (f *Form) Run(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return Failed(err)
	}
	if !slices.Contains(FormFormats, f.Format) {
		return Usage(fmt.Errorf("unknown format %q (known: %s)", f.Format, strings.Join(FormFormats, ", ")))
	}
	if f.RegionID != "" && f.Region == "" {
		return Usage(errors.New("--region-id needs --region"))
	}
	if f.LaunchURL && f.Format != "text" {
		return Usage(errors.New("--launch-url prints a link, not the form: leave out --format"))
	}
	if !f.LaunchURL && len(f.ValueFiles) > 0 {
		return Usage(errors.New("--values gives the changes of a launch link: add --launch-url"))
	}
	a, ch, data, contextName, err := f.analyze()
	if err != nil {
		return Usage(err)
	}
	form := a.Form
	if form == nil {
		form = a.Schemaless()
	}
	d := form.Describe()
	if f.LaunchURL {
		return f.launchURL(a, ch, d, data)
	}
	if !f.ShowSecrets {
		d = formview.Mask(d, data)
	}
	// Everything is written to a buffer first, so that an error leaves
	// nothing half-written.
	var out bytes.Buffer
	switch f.Format {
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
		return Usage(fmt.Errorf("writing the form: %w", err))
	}
	if _, err := f.Stdout.Write(out.Bytes()); err != nil {
		return Usage(err)
	}
	if !d.Opens {
		return Refused(nil)
	}
	return nil
}

// analyze reads the chart and the launch context, and computes the form.
// It returns what the chart was read from, the context's data and what to
// call it.
func (f *Form) analyze() (*analysis.Chart, *formChart, map[string]any, string, error) {
	ov, err := SchemaOverrides(f.ExtensionKey, f.Platform, f.Registries)
	if err != nil {
		return nil, nil, nil, "", err
	}
	ch, err := readFormChart(f.Chart)
	if err != nil {
		return nil, nil, nil, "", err
	}
	if ch.in.Env, err = formEnv(ov, ch); err != nil {
		return nil, nil, nil, "", err
	}
	data, contextName := launchcontext.Sample(), "a sample launch context (no --profile)"
	if f.Profile != "" {
		if data, err = readProfile(f.Profile); err != nil {
			return nil, nil, nil, "", err
		}
		contextName = "the launch context " + f.Profile
	}
	var reg *region.Region
	if f.Region != "" {
		if reg, err = region.Load(f.Region, f.RegionID); err != nil {
			return nil, nil, nil, "", err
		}
		contextName += ", region " + f.Region
	}
	ch.in.Context = schema.NewContext(data, reg, nil, "")
	if ch.cat != nil {
		ch.in.Context = schema.CatalogContext(data, reg, ch.cat)
	}
	a, err := analysis.Analyze(ch.in)
	if err != nil {
		return nil, nil, nil, "", err
	}
	if a.SchemaErr != nil {
		return nil, nil, nil, "", fmt.Errorf("%s:%w; the platform shows no form for a chart whose schema does not parse: correct the JSON there", ch.in.SchemaFile, a.SchemaErr)
	}
	if _, err := a.FormValues(); err != nil {
		return nil, nil, nil, "", fmt.Errorf("%w; Helm refuses such a chart: correct values.yaml there", err)
	}
	return a, ch, data, contextName, nil
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
	if p := filepath.Join(arg, "values.schema.json"); !exists(p) {
		return readSchemaless(arg)
	}
	return readChartFiles(filepath.Join(arg, "values.schema.json"))
}

// readSchemaless reads a chart directory without values.schema.json: the
// platform opens a launcher with no fields for it, which sends its
// values.yaml.
func readSchemaless(dir string) (*formChart, error) {
	cat, err := catalog.Discover(dir)
	if err != nil {
		return nil, err
	}
	ch := &formChart{cat: cat, dir: dir}
	if p := filepath.Join(dir, "values.yaml"); exists(p) {
		ch.in.ValuesFile = p
		if ch.in.Values, err = srcpos.ReadFile(p); err != nil {
			return nil, err
		}
	}
	return ch, nil
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
	ch := &formChart{in: analysis.Input{SchemaFile: schemaFile}, cat: cat, dir: filepath.Dir(schemaFile)}
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
	ch := &formChart{in: analysis.Input{SchemaFile: filepath.Join(inside, "values.schema.json"), Schema: hc.Schema}}
	if len(hc.Schema) == 0 {
		// The platform opens a launcher with no fields.
		ch.in.SchemaFile, ch.in.Schema = "", nil
	}
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
