package lint

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// chartDoc parses the chart's Chart.yaml, reporting a parse error under the
// running rule. It returns nil when there is nothing to check.
func chartDoc(p *Pass, report bool) *srcpos.Node {
	if p.Chart.ChartFile == "" {
		return nil
	}
	p.state.chartOnce.Do(func() { p.state.chartDoc, p.state.chartErr = readChartDoc(p.Chart.ChartFile) })
	if err := p.state.chartErr; err != nil && report {
		var de *srcpos.Error
		if errors.As(err, &de) {
			p.Reportf(p.Chart.ChartFile, de.Pos, "", "%s", de.Msg)
		} else {
			p.Reportf(p.Chart.ChartFile, srcpos.Pos{}, "", "%v", err)
		}
	}
	return p.state.chartDoc
}

func readChartDoc(file string) (*srcpos.Node, error) {
	data, err := srcpos.ReadFile(file)
	if err != nil {
		return nil, err
	}
	root, err := srcpos.ParseYAML(data)
	if err != nil {
		var de *srcpos.Error
		if errors.As(err, &de) && !de.Limit {
			return nil, &srcpos.Error{Pos: de.Pos, Msg: "Chart.yaml is not valid YAML: " + de.Msg}
		}
		return nil, err
	}
	if root.Kind != srcpos.Object {
		return nil, &srcpos.Error{Pos: root.Pos, Msg: "Chart.yaml must be a mapping"}
	}
	return root, nil
}

var (
	chartNameRe = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	aliasRe     = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
)

// RuleChartMetadata checks what Helm refuses in Chart.yaml.
var RuleChartMetadata = &Rule{
	Name: "chart-metadata", Severity: Error, Scope: PerChart,
	Doc: "Chart.yaml has what Helm needs to load the chart: apiVersion, a name without slashes, a SemVer version, a known type, well-formed dependencies",
	Run: func(p *Pass) { checkChart(p, false) },
}

// RuleChartAdvice checks what catalogs expect of Chart.yaml beyond Helm.
var RuleChartAdvice = &Rule{
	Name: "chart-advice", Severity: Warning, Scope: PerChart,
	Doc: "Chart.yaml has apiVersion v2, a lowercase name equal to its directory, a strict SemVer 2 version, a description, and dependencies with versions and valid repositories",
	Run: func(p *Pass) { checkChart(p, true) },
}

// checkChart reports Chart.yaml's defects: those Helm refuses, or, with
// advice, those it accepts but catalogs should not have.
func checkChart(p *Pass, advice bool) {
	root := chartDoc(p, !advice)
	if root == nil {
		return
	}
	file := p.Chart.ChartFile
	report := func(isAdvice bool, n *srcpos.Node, format string, args ...any) {
		if isAdvice == advice {
			p.Reportf(file, n.Pos, n.Pointer(), format, args...)
		}
	}
	refuse := func(n *srcpos.Node, format string, args ...any) { report(false, n, format, args...) }
	warn := func(n *srcpos.Node, format string, args ...any) { report(true, n, format, args...) }
	str := func(key string) (*srcpos.Node, bool) {
		n := root.Get(key)
		if n == nil {
			return nil, false
		}
		if n.Kind != srcpos.String && n.Kind != srcpos.Number {
			refuse(n, "%s must be a string", key)
			return nil, false
		}
		return n, true
	}
	if n, ok := str("apiVersion"); !ok && n == nil && root.Get("apiVersion") == nil {
		refuse(root, "Chart.yaml has no apiVersion, which Helm requires; write apiVersion: v2")
	} else if ok && n.Text == "v1" {
		// Any other apiVersion is chart-api-version's error.
		warn(n, "apiVersion is %q; catalogs should use apiVersion: v2 (Helm 3 and 4 charts)", n.Text)
	}
	if n, ok := str("name"); !ok && root.Get("name") == nil {
		refuse(root, "Chart.yaml has no name, which Helm requires; write name: %s", p.Chart.Name)
	} else if ok {
		switch {
		case n.Text == "." || n.Text == ".." || strings.ContainsAny(n.Text, `/\`):
			refuse(n, "name %q is not allowed by Helm; write name: %s", n.Text, p.Chart.Name)
		case n.Text != p.Chart.Name:
			warn(n, "name %q differs from the chart's directory %q; Helm packages and indexes it under the name", n.Text, p.Chart.Name)
		case !chartNameRe.MatchString(n.Text):
			warn(n, "name %q should be lowercase letters, digits and dashes", n.Text)
		}
	}
	if n, ok := str("version"); !ok && root.Get("version") == nil {
		refuse(root, "Chart.yaml has no version, which Helm requires; write a SemVer 2 version such as version: 1.0.0")
	} else if ok {
		if _, err := semver.NewVersion(n.Text); err != nil {
			refuse(n, "version %q is not a SemVer version, so Helm refuses the chart: %v", n.Text, err)
		} else if _, err := semver.StrictNewVersion(n.Text); err != nil {
			warn(n, "version %q is not strict SemVer 2 (MAJOR.MINOR.PATCH, e.g. 1.0.0): %v", n.Text, err)
		}
	}
	if n, ok := str("description"); !ok && root.Get("description") == nil {
		warn(root, "Chart.yaml has no description; catalogs and helm search show it")
	} else if ok && strings.TrimSpace(n.Text) == "" {
		warn(n, "description is empty; catalogs and helm search show it")
	}
	if t := root.Get("type"); t != nil && t.Text != "" && t.Text != "application" && t.Text != "library" {
		refuse(t, "type %q must be application or library, or Helm refuses the chart", t.Text)
	}
	checkDependencies(p.Chart, root.Get("dependencies"), refuse, warn)
}

type reporter func(n *srcpos.Node, format string, args ...any)

// checkDependencies reports the defects of Chart.yaml's dependencies.
func checkDependencies(ch *catalog.Chart, deps *srcpos.Node, refuse, warn reporter) {
	if deps == nil || deps.Kind == srcpos.Null {
		return
	}
	if deps.Kind != srcpos.Array {
		refuse(deps, "dependencies must be a list")
		return
	}
	seen := map[string]bool{}
	for i, d := range deps.Items {
		checkDependency(ch, i, d, refuse, warn)
		// Helm refuses two dependencies loaded under one name.
		name := d.Get("alias")
		if name == nil {
			name = d.Get("name")
		}
		if name != nil && name.Text != "" {
			if seen[name.Text] {
				refuse(name, "two dependencies are named %q, which Helm refuses: give one an alias", name.Text)
			}
			seen[name.Text] = true
		}
	}
}

func checkDependency(ch *catalog.Chart, i int, d *srcpos.Node, refuse, warn reporter) {
	if d.Kind != srcpos.Object {
		refuse(d, "dependency %d must be a mapping with name, version and repository", i+1)
		return
	}
	name := d.Get("name")
	if name == nil || name.Kind != srcpos.String || name.Text == "" {
		refuse(d, "dependency %d has no name", i+1)
		return
	}
	if v := d.Get("version"); v == nil {
		warn(d, "dependency %q has no version; pin one such as 1.2.3 or a range such as ~1.2", name.Text)
	} else if _, err := semver.NewConstraint(v.Text); err != nil {
		warn(v, "version %q of dependency %q is not a version or range: %v", v.Text, name.Text, err)
	}
	if r := d.Get("repository"); r != nil && r.Text != "" {
		repo := r.Text
		switch {
		case strings.HasPrefix(repo, "@"), strings.HasPrefix(repo, "alias:"):
		case strings.HasPrefix(repo, "file://"):
			dir := filepath.Join(ch.Dir, strings.TrimPrefix(repo, "file://"))
			if _, err := os.Stat(filepath.Join(dir, "Chart.yaml")); err != nil {
				refuse(r, "repository %q of dependency %q has no Chart.yaml at %s", repo, name.Text, dir)
			}
		default:
			u, err := url.Parse(repo)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "oci") || u.Host == "" {
				warn(r, "repository %q of dependency %q is not an http(s), oci or file:// address", repo, name.Text)
			}
		}
	}
	if a := d.Get("alias"); a != nil && !aliasRe.MatchString(a.Text) {
		refuse(a, "alias %q of dependency %q may only hold letters, digits, _ and -, or Helm refuses the chart", a.Text, name.Text)
	}
}

// RuleChartIcon checks that every launchable chart has an icon.
var RuleChartIcon = &Rule{
	Name: "chart-icon", Severity: Warning, Scope: PerChart, Launchable: true,
	Doc: "a launchable chart has an icon the site shows: Chart.yaml's icon is an https URL, or the catalog's icons directory holds a file named after the chart, and an SVG icon holds no script",
	Run: func(p *Pass) {
		root := chartDoc(p, false)
		if root == nil {
			return
		}
		if t := root.Get("type"); t != nil && t.Text == "library" {
			return
		}
		icons := p.Catalog.IconsDir()
		icon := root.Get("icon")
		text := ""
		if icon != nil {
			text = icon.Text
		}
		resolved := p.Catalog.ResolveIcon(p.Chart.Name, text)
		if strings.EqualFold(filepath.Ext(resolved.File), ".svg") {
			if data, err := os.ReadFile(resolved.File); err == nil {
				if bad := catalog.CheckSVG(data); bad != nil {
					n := root
					if icon != nil {
						n = icon
					}
					p.Reportf(p.Chart.ChartFile, n.Pos, n.Pointer(), "icon %s is refused (%v): an SVG opened from the site runs on its origin, so the site shows the default icon instead; export a plain SVG", resolved.File, bad)
				}
			}
		}
		if icon != nil && helmRefusesIcon(icon) {
			// A file path, or no URL at all: chart-urls says to name
			// the file after the chart instead.
			return
		}
		switch resolved.Problem {
		case catalog.IconMissing:
			n := root
			if icon != nil {
				n = icon
			}
			p.Reportf(p.Chart.ChartFile, n.Pos, n.Pointer(), "chart %q has no icon: add icon: https://... to Chart.yaml or put %s.svg in %s", p.Chart.Name, p.Chart.Name, icons)
		case catalog.IconHTTP:
			p.Reportf(p.Chart.ChartFile, icon.Pos, "/icon", "icon %q uses http; pages served over https block it as mixed content: use https", icon.Text)
		case catalog.IconNotHTTPS:
			p.Reportf(p.Chart.ChartFile, icon.Pos, "/icon", "icon %q is not an https URL", icon.Text)
		}
	},
}

// All lists every rule, in the order they are documented. Each theme's
// file lists its own rules: a new rule is added there, beside its code.
var All = slices.Concat(schemaRules, formRules, valuesRules, extRules, sliderRules, hiddenRules, regionRules, chartRules, containRules, artifactHubRules, publishRules, launchRules)

// chartRules check Chart.yaml, the chart's icon and its files: what Helm
// needs, what helm lint requires, and what catalogs should have.
var chartRules = []*Rule{RuleChartMetadata, RuleChartAdvice, RuleChartIcon, RuleChartVersion, RuleChartAPIVersion, RuleChartFieldType, RuleChartMaintainers, RuleChartURLs, RuleChartFiles}

// Lookup returns the rule named name, or nil.
func Lookup(name string) *Rule {
	for _, r := range All {
		if r.Name == name {
			return r
		}
	}
	return nil
}
