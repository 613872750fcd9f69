package lint_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
	"github.com/catalogist/catalogist/lint"
)

// helmLintDir is a catalog whose charts each make one check of helm lint
// fail, or pass them all.
const helmLintDir = "../testdata/helmlint"

// helmLintCase is what helm lint and catalogist make of one chart of
// helmLintDir.
type helmLintCase struct {
	// helmFails is helm lint's verdict, as the chart was written for.
	helmFails bool
	// rule is the rule of every error catalogist reports, "" for none.
	rule string
	// intended says why catalogist passes a chart helm lint fails: the
	// one difference that is on purpose.
	intended string
}

var helmLintCases = map[string]helmLintCase{
	// Chart.yaml
	"float-version":        {true, "chart-version", ""},
	"number-appversion":    {true, "chart-version", ""},
	"lowest-version":       {true, "chart-version", ""},
	"api-v3":               {true, "chart-api-version", ""},
	"v1-dependencies":      {true, "chart-api-version", ""},
	"v1-type":              {true, "chart-api-version", ""},
	"no-api-version":       {true, "chart-metadata", ""},
	"bad-semver":           {true, "chart-metadata", ""},
	"duplicate-dependency": {true, "chart-metadata", ""},
	"keywords-string":      {true, "chart-field-type", ""},
	"deprecated-string":    {true, "chart-field-type", ""},
	"maintainer-email":     {true, "chart-maintainers", ""},
	"maintainer-noname":    {true, "chart-maintainers", ""},
	"maintainer-empty":     {true, "chart-maintainers", ""},
	"maintainer-url":       {true, "chart-maintainers", ""},
	"source-url":           {true, "chart-urls", ""},
	"icon-path":            {true, "chart-urls", ""},
	"icon-url":             {true, "chart-urls", ""},
	// values.yaml
	"values-unparsable": {true, "values-valid", ""},
	"values-schema":     {true, "values-valid", ""},
	// templates
	"nil-values":  {true, "template-render", ""},
	"parse-error": {true, "template-render", ""},
	"not-yaml":    {true, "manifest-yaml", ""},
	"no-selector": {true, "manifest-selector", ""},
	"list-policy": {true, "manifest-list-policy", ""},
	// helm lint renders in a lint mode that lets fail and required
	// through; an install does not.
	"fail-template":  {false, "template-render", ""},
	"required-value": {false, "template-render", ""},
	// the chart's files
	"json-template":      {true, "chart-files", ""},
	"uppercase-template": {true, "chart-files", ""},
	"templates-file":     {true, "chart-files", ""},
	"crds-file":          {true, "chart-files", ""},
	"crd-kind":           {true, "chart-files", ""},
	"crd-template":       {true, "chart-files", ""},
	"crd-apiversion":     {true, "chart-files", ""},
	"vendored-unlisted":  {true, "chart-files", ""},
	"stray-entry":        {true, "chart-files", ""},
	"catalog-dependency": {true, "", "base is a chart of the catalog, which catalogist renders from its sources, where helm lint wants it vendored under charts/"},
	// charts both pass
	"base":            {false, "", ""},
	"good":            {false, "", ""},
	"helmignored":     {false, "", ""},
	"vendored-listed": {false, "", ""},
	"icon-by-name":    {false, "", ""},
}

// minHelmFailures keeps the fixtures from rotting into charts helm lint
// passes: each of its error checks has a chart that fails it.
const minHelmFailures = 35

// TestHelmLint runs helm lint (Helm 4) and catalogist side by side on the
// charts of helmLintDir: catalogist fails every chart helm lint fails, with
// the rule the table names, save the one intended difference.
func TestHelmLint(t *testing.T) {
	h := tooltest.NewHelm(t, 4)
	cat, err := catalog.Discover(helmLintDir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lint.Run([]*catalog.Catalog{cat}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	errorsOf := map[string][]lint.Finding{}
	for _, f := range res.Findings {
		if f.Severity == lint.Error {
			errorsOf[f.Chart] = append(errorsOf[f.Chart], f)
		}
	}
	entries, err := os.ReadDir(filepath.Join(helmLintDir, "charts"))
	if err != nil {
		t.Fatal(err)
	}
	var charts []string
	for _, e := range entries {
		charts = append(charts, e.Name())
	}
	for name := range helmLintCases {
		if !slices.Contains(charts, name) {
			t.Errorf("the table names %s, which %s/charts does not hold", name, helmLintDir)
		}
	}
	verdicts := helmLint(t, h, charts)
	failed := 0
	for i, name := range charts {
		c, ok := helmLintCases[name]
		if !ok {
			t.Errorf("chart %s has no row in helmLintCases: say what helm lint and catalogist make of it", name)
			continue
		}
		v := verdicts[i]
		if v.fails {
			failed++
		}
		if v.fails != c.helmFails {
			t.Errorf("%s: helm lint fails it: %t, the table says %t\n%s", name, v.fails, c.helmFails, v.out)
		}
		checkCatalogistErrors(t, name, c, v.fails, errorsOf[name], v.out)
	}
	if failed < minHelmFailures {
		t.Errorf("helm lint fails %d charts of %s, fewer than the %d its error checks need", failed, helmLintDir, minHelmFailures)
	}
	t.Logf("%d charts, %d failed by helm lint", len(charts), failed)
}

// helmVerdict is what helm lint says of a chart.
type helmVerdict struct {
	fails bool
	out   string
}

// helmLint runs helm lint on each chart of helmLintDir, several at once.
func helmLint(t *testing.T, h *tooltest.Helm, charts []string) []helmVerdict {
	t.Helper()
	out := make([]helmVerdict, len(charts))
	errs := make([]error, len(charts))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, name := range charts {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			stdout, stderr, err := h.Try("lint", filepath.Join(helmLintDir, "charts", name))
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				errs[i] = fmt.Errorf("helm lint %s: %w", name, err)
			}
			out[i] = helmVerdict{fails: err != nil, out: stdout + stderr}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkCatalogistErrors checks catalogist's errors for one chart against
// its row of the table and helm lint's verdict.
func checkCatalogistErrors(t *testing.T, name string, c helmLintCase, helmFails bool, errs []lint.Finding, helmOut string) {
	t.Helper()
	var got strings.Builder
	for _, f := range errs {
		got.WriteString("  " + f.File + ": " + f.Message + " [" + f.Rule + "]\n")
	}
	switch {
	case helmFails && len(errs) == 0 && c.intended == "":
		t.Errorf("%s: helm lint fails it and catalogist reports no error:\n%s", name, helmOut)
	case c.rule == "" && len(errs) > 0:
		t.Errorf("%s: catalogist reports errors the table does not expect:\n%s", name, got.String())
	case c.rule != "" && len(errs) == 0:
		t.Errorf("%s: catalogist reports no error, the table expects %s", name, c.rule)
	}
	for _, f := range errs {
		if f.Rule != c.rule {
			t.Errorf("%s: catalogist reports an error of %s, the table expects only %s:\n%s", name, f.Rule, c.rule, got.String())
			break
		}
	}
}
