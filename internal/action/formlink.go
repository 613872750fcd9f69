package action

import (
	"errors"
	"fmt"
	"path/filepath"

	"helm.sh/helm/v4/pkg/chart/common/util"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/cli/values"
	"helm.sh/helm/v4/pkg/getter"

	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/launchlink"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// launchURL prints the link to the chart's launcher on the catalog's
// platform, with the changes the values files make to the form's values.
// It refuses (exit 1), the link still printed, when the form does not open
// or when the link leaves out a change that is no secret: the platform
// would not show what the files ask for.
func (f *Form) launchURL(a *analysis.Chart, ch *formChart, d *schema.Description, context map[string]any) error {
	target, err := launchTarget(a, ch)
	if err != nil {
		return Usage(err)
	}
	defaults := schema.HelmValues(d.Values)
	edited := defaults
	if len(f.ValueFiles) > 0 {
		user, err := (&values.Options{ValueFiles: f.ValueFiles}).MergeValues(getter.Providers{})
		if err != nil {
			return Usage(fmt.Errorf("reading the values files: %w", err))
		}
		// As launch puts -f files over the form's values.
		edited = util.MergeTables(schema.HelmValues(user), schema.HelmValues(d.Values))
	}
	var passwords [][]string
	for _, o := range d.Options {
		if o.Widget == schema.WidgetPassword {
			passwords = append(passwords, o.Key)
		}
	}
	byKey := launchlink.Secrets(passwords)
	// The profile's credentials are secrets wherever a file puts them.
	known := &secret.Set{}
	known.AddContext(context)
	held := map[string]bool{}
	for _, s := range known.Strings() {
		held[s] = true
	}
	isSecret := func(path []any, v any) bool {
		s, ok := v.(string)
		return byKey(path, v) || ok && held[s]
	}
	entries, left := launchlink.Changes(defaults, edited, isSecret)
	if _, err := fmt.Fprintln(f.Stdout, target.Link(entries)); err != nil {
		return Usage(err)
	}
	refused := 0
	for _, o := range left {
		fmt.Fprintf(f.Stderr, "left out of the link: %s: %s\n", o.Key, o.Reason)
		if o.Reason != launchlink.ReasonSecret {
			refused++
		}
	}
	switch {
	case !d.Opens:
		return Refused(errors.New("the platform would not open this form: catalogist form without --launch-url says why"))
	case refused > 0:
		return Refused(fmt.Errorf("the link leaves out %d change(s) the platform would not read from it: make them on the platform", refused))
	}
	return nil
}

// launchTarget is the launcher of the chart: the platform and catalog id
// of its catalog.yaml, the name and version of its Chart.yaml.
func launchTarget(a *analysis.Chart, ch *formChart) (launchlink.Target, error) {
	var t launchlink.Target
	if ch.cat == nil {
		return t, fmt.Errorf("a packaged chart carries no catalog.yaml, which names the platform to link to: run --launch-url on the chart's directory in its catalog")
	}
	cfg := ch.cat.Config
	if cfg == nil || cfg.PlatformURL == "" || cfg.PlatformCatalogID == "" {
		file := filepath.Join(ch.cat.Dir, catalog.ConfigFile)
		if cfg != nil && cfg.File != "" {
			file = cfg.File
		}
		return t, fmt.Errorf("%s names no platform to link to: add platformURL: https://datalab.example.org (the platform's address) and platformCatalogID: ide (the catalog's id there) to it", file)
	}
	if p := a.In.Env.Platform; p == nil || p.Name != catalog.PlatformOnyxia {
		name := "another"
		if p != nil {
			name = "the " + p.Name
		}
		return t, fmt.Errorf("--launch-url opens the launcher of the onyxia platform, and %s is read for %s platform: set platform: onyxia in %s, or give --platform onyxia", ch.dir, name, catalog.ConfigFile)
	}
	chartFile := filepath.Join(ch.dir, "Chart.yaml")
	if !exists(chartFile) {
		return t, fmt.Errorf("%s has no Chart.yaml, which gives the chart's name and version for the link: name the chart's directory", ch.dir)
	}
	md, err := chartutil.LoadChartfile(chartFile)
	if err != nil {
		return t, fmt.Errorf("%s: %w", chartFile, err)
	}
	if md.Name == "" {
		return t, fmt.Errorf("%s has no name, which the link needs: add name: %s", chartFile, filepath.Base(ch.dir))
	}
	return launchlink.Target{URL: cfg.PlatformURL, CatalogID: cfg.PlatformCatalogID, Chart: md.Name, Version: md.Version}, nil
}
