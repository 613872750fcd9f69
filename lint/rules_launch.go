package lint

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/Masterminds/semver/v3"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"

	"github.com/catalogist/catalogist/internal/input/chartload"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/internal/model/render"
)

// launchRules say whether a chart launches: whether Helm renders its
// templates with the values it is sent, and whether the API server of the
// target Kubernetes version accepts what they render. Each reports one
// verdict of the chart's rendering (launch.go).
var launchRules = []*Rule{
	RuleTemplateRender, RuleRenderDependency, RuleKubeVersion, RuleManifestYAML, RuleManifestFields,
	RuleAPIRemoved, RuleAPIDeprecated, RuleAPIDisabled, RuleManifestNames, RuleManifestSelector, RuleManifestListPolicy,
	RuleManifestCustomKind,
}

// RuleTemplateRender reports templates Helm cannot render.
var RuleTemplateRender = &Rule{
	Name: "template-render", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "the templates render, as helm template renders them, with values.yaml alone, each ci/*-values.yaml and the values the platform sends in each region: no failing template, fail or required, and a release name Helm accepts",
	Run: func(p *Pass) {
		l := p.launched()
		if l == nil {
			return
		}
		if l.loadErr != nil {
			p.reportLoadError(l.loadErr)
		}
		for _, sf := range l.failures {
			f := sf.f
			switch f.Kind {
			case render.KindKubeVersion, render.KindYAML:
				continue
			case render.KindReleaseName:
				n := chartNode(p, "name")
				p.Reportf(p.Chart.ChartFile, n.pos, n.ptr, "the platform names the release after the chart and a random suffix, which Helm refuses (%s): shorten the chart's name", f.Msg)
				continue
			}
			p.reportAtTemplate(l, f.At(), "", fmt.Sprintf("does not render with %s: %s", joinSets(sf.sets), f.Detail()))
		}
	},
}

// reportLoadError reports why Helm cannot load a chart, unless the rule
// of the file at fault reports it at its line: chart-metadata and
// chart-field-type for Chart.yaml, values-valid for values.yaml.
func (p *Pass) reportLoadError(err error) {
	if strings.Contains(err.Error(), "Chart.yaml") || p.ValuesErr() != nil {
		return
	}
	p.Reportf(p.Chart.ChartFile, srcpos.Pos{}, "", "Helm cannot load the chart, so its templates were not rendered: %v", err)
}

// RuleRenderDependency notes charts left unrendered for a dependency that
// cannot be had offline.
var RuleRenderDependency = &Rule{
	Name: "render-dependency", Severity: Note, Scope: PerChart, Launchable: true,
	Doc: "a chart whose dependency is neither in the catalog nor in the dependency cache is not rendered: a note says so and how to make the dependency available",
	Run: func(p *Pass) {
		l := p.launched()
		if l == nil {
			return
		}
		if l.depErr != nil {
			var de *chartload.DependencyError
			errors.As(l.depErr, &de)
			n := dependencyNode(p, de.Name)
			p.Reportf(p.Chart.ChartFile, n.pos, n.ptr, "the templates were not rendered: %v", l.depErr)
		}
		if l.missing == nil {
			return
		}
		m := l.missing
		n := dependencyNode(p, m.Name)
		how := fmt.Sprintf("run catalogist build once with network access, which fills the cache, or vendor it with helm dependency build %s", p.Chart.Dir)
		if v := p.catalogVersion(m.Name); v != "" {
			if p.ownAddress(m.Repository) {
				how = fmt.Sprintf("this catalog's %s is at %s, outside %q, so only the published repository holds it; %s", m.Name, v, m.Version, how)
			} else {
				how = fmt.Sprintf("this catalog has %s %s: when %s is where the catalog is published, say so with baseURL in catalog.yaml or --base-url, and the chart is rendered with the catalog's own; else %s", m.Name, v, m.Repository, how)
			}
		}
		p.Reportf(p.Chart.ChartFile, n.pos, n.ptr, "the templates were not rendered: dependency %s %s from %s is neither in the catalog nor in the dependency cache %s; %s", m.Name, m.Version, m.Repository, m.CacheDir, how)
	},
}

// RuleKubeVersion reports a chart that excludes the target Kubernetes
// version.
var RuleKubeVersion = &Rule{
	Name: "kube-version", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "Chart.yaml's kubeVersion admits the target Kubernetes version (--kube-version), or Helm refuses to install the chart",
	Run: func(p *Pass) {
		root := chartDoc(p, false)
		if root == nil {
			return
		}
		kv := root.Get("kubeVersion")
		if kv == nil || kv.Kind != srcpos.String || strings.TrimSpace(kv.Text) == "" {
			return
		}
		target := p.kube().String()
		if _, err := semver.NewConstraint(kv.Text); err != nil {
			p.Reportf(p.Chart.ChartFile, kv.Pos, kv.Pointer(), "kubeVersion %q is not a version range Helm reads (%v), so Helm refuses to install the chart", kv.Text, err)
			return
		}
		if !chartutil.IsCompatibleRange(kv.Text, "v"+target+".0") {
			p.Reportf(p.Chart.ChartFile, kv.Pos, kv.Pointer(), "kubeVersion %q excludes Kubernetes %s, the target (--kube-version), so Helm refuses to install the chart there", kv.Text, target)
		}
	},
}

// RuleManifestYAML reports rendered documents that are not Kubernetes
// objects.
var RuleManifestYAML = &Rule{
	Name: "manifest-yaml", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "every rendered document is YAML with apiVersion, kind and metadata.name (Helm refuses the release otherwise)",
	Run: func(p *Pass) {
		l := p.launched()
		if l == nil {
			return
		}
		for _, sf := range l.failures {
			if sf.f.Kind == render.KindYAML {
				p.reportAtTemplate(l, sf.f.At(), "", fmt.Sprintf("renders, with %s, a document that is not YAML, which Helm refuses: %s", joinSets(sf.sets), sf.f.Msg))
			}
		}
		p.reportProblems(l, manifest.CheckYAML)
	},
}

// RuleManifestFields reports fields the API server refuses.
var RuleManifestFields = &Rule{
	Name: "manifest-fields", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "each rendered object of a built-in kind decodes strictly against the Kubernetes API types of the target version: no field of the wrong type, no unknown or repeated field (Helm installs with strict field validation)",
	Run: func(p *Pass) { p.reportProblems(p.launched(), manifest.CheckFields) },
}

// RuleAPIRemoved reports API versions the target no longer serves.
var RuleAPIRemoved = &Rule{
	Name: "api-removed", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "every rendered object's apiVersion is served by the target Kubernetes version (not removed, nor newer), with the release that removed it and its replacement",
	Run: func(p *Pass) { p.reportProblems(p.launched(), manifest.CheckRemoved) },
}

// RuleAPIDeprecated reports deprecated API versions.
var RuleAPIDeprecated = &Rule{
	Name: "api-deprecated", Severity: Warning, Scope: PerChart, Launchable: true,
	Doc: "no rendered object uses an apiVersion deprecated in the target Kubernetes version (it still works, and a later release removes it)",
	Run: func(p *Pass) { p.reportProblems(p.launched(), manifest.CheckDeprecated) },
}

// RuleAPIDisabled reports API versions a default cluster does not serve.
var RuleAPIDisabled = &Rule{
	Name: "api-disabled", Severity: Warning, Scope: PerChart, Launchable: true,
	Doc: "no rendered object uses an alpha API, or a beta API introduced since Kubernetes 1.24, which the target's API server serves only when the cluster enables it",
	Run: func(p *Pass) { p.reportProblems(p.launched(), manifest.CheckDisabled) },
}

// RuleManifestNames reports names and labels the API server refuses.
var RuleManifestNames = &Rule{
	Name: "manifest-names", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "names, namespaces, labels and annotations of rendered objects are what the API server accepts for their kind (DNS-1123 names and lengths, label keys and values), with the release name the platform gives",
	Run: func(p *Pass) { p.reportProblems(p.launched(), manifest.CheckNames) },
}

// RuleManifestSelector reports workloads the API server refuses for their
// selector.
var RuleManifestSelector = &Rule{
	Name: "manifest-selector", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "Deployments, ReplicaSets, DaemonSets and StatefulSets have a selector that selects their pod template's labels",
	Run: func(p *Pass) { p.reportProblems(p.launched(), manifest.CheckSelector) },
}

// RuleManifestListPolicy reports resource policies Helm ignores.
var RuleManifestListPolicy = &Rule{
	Name: "manifest-list-policy", Severity: Error, Scope: PerChart, Launchable: true,
	Doc: "no item of a rendered List carries the helm.sh/resource-policy annotation, which Helm ignores there",
	Run: func(p *Pass) { p.reportProblems(p.launched(), manifest.CheckListPolicy) },
}

// RuleManifestCustomKind notes the kinds that are not checked.
var RuleManifestCustomKind = &Rule{
	Name: "manifest-custom-kind", Severity: Note, Scope: PerChart, Launchable: true,
	Doc: "a rendered kind defined in the chart's crds/, or not built into Kubernetes, is not decoded: one note per kind says so",
	Run: func(p *Pass) {
		l := p.launched()
		if l == nil {
			return
		}
		for _, c := range l.custom {
			p.reportAtTemplate(l, render.Location{Template: c.template}, "", fmt.Sprintf("%s %s: %s", c.obj.APIVersion, c.obj.Kind, c.msg))
		}
	},
}

// launched is the chart's rendering, nil for a pass without one.
func (p *Pass) launched() *launched {
	if p.launch == nil {
		return nil
	}
	return p.launch.get()
}

// kube is the Kubernetes version the run targets.
func (p *Pass) kube() manifest.Version {
	if p.run == nil {
		return manifest.Default
	}
	return p.run.kube
}

// reportProblems reports the documents' problems of one check.
func (p *Pass) reportProblems(l *launched, check manifest.Check) {
	if l == nil {
		return
	}
	for _, dp := range l.problems {
		if dp.p.Check != check {
			continue
		}
		what := strings.TrimSpace(dp.obj.Kind + " " + dp.obj.Name)
		msg := dp.p.Msg
		if dp.p.Path != "" && dp.p.Path != "apiVersion" && !strings.Contains(msg, dp.p.Path) {
			msg = dp.p.Path + ": " + msg
		}
		if what != "" {
			msg = what + ": " + msg
		}
		if len(dp.sets) < l.labels {
			msg += " (with " + joinSets(dp.sets) + ")"
		}
		p.reportAtTemplate(l, render.Location{Template: dp.template}, dp.p.Path, msg)
	}
}

// reportAtTemplate reports at a place of a template Helm names: in the
// catalog's file when the template is one, else at the dependency in
// Chart.yaml that holds it. Without a line, the line of the field path's
// last key in the template is used when only one line holds that key.
func (p *Pass) reportAtTemplate(l *launched, loc render.Location, fieldPath, msg string) {
	file, archive, inChart, ok := l.origin.Locate(loc.Template)
	switch {
	case !ok:
		if loc.Template != "" {
			msg = fmt.Sprintf("%s: %s", loc, msg)
		}
		p.Reportf(p.Chart.ChartFile, srcpos.Pos{}, "", "%s", msg)
	case file == "":
		dep := dependencyOf(loc.Template)
		n := dependencyNode(p, dep)
		where := inChart
		if loc.Line > 0 {
			where = fmt.Sprintf("%s:%d", inChart, loc.Line)
		}
		p.Reportf(p.Chart.ChartFile, n.pos, n.ptr, "in dependency %s (%s), %s: %s", dep, filepath.Base(archive), where, msg)
	default:
		pos := srcpos.Pos{Line: loc.Line, Col: max(loc.Col, 1)}
		if pos.Line == 0 {
			pos = keyPos(p.sources.get(file), fieldPath)
		}
		p.Reportf(file, pos, "", "%s", msg)
	}
}

// dependencyOf is the dependency of the rendered chart a template belongs
// to: "lib" for "web/charts/lib/templates/_x.tpl".
func dependencyOf(template string) string {
	parts := strings.Split(template, "/")
	if len(parts) > 2 && parts[1] == "charts" {
		return parts[2]
	}
	return ""
}

var pathKey = regexp.MustCompile(`(?:^|\.)([^.\[\]]+)(?:\[([^\]]*)\])?$`)

// keyPos is where a field path's last key is written in a template: the
// one line that writes it, else the template's first line.
func keyPos(lines []string, fieldPath string) srcpos.Pos {
	m := pathKey.FindStringSubmatch(fieldPath)
	if m == nil {
		return srcpos.Pos{Line: 1, Col: 1}
	}
	key := m[1]
	if m[2] != "" && !isIndex(m[2]) {
		key = m[2]
	}
	found := srcpos.Pos{}
	for i, l := range lines {
		col, ok := keyAt(l, key)
		if !ok {
			continue
		}
		if found.Line != 0 {
			return srcpos.Pos{Line: 1, Col: 1}
		}
		found = srcpos.Pos{Line: i + 1, Col: col}
	}
	if found.Line == 0 {
		return srcpos.Pos{Line: 1, Col: 1}
	}
	return found
}

// keyAt reports whether a line of YAML writes key (after its indentation
// and a list's "- ", quoted or not), and the column it starts at.
func keyAt(line, key string) (int, bool) {
	rest := strings.TrimLeft(line, " \t")
	if r, ok := strings.CutPrefix(rest, "- "); ok {
		rest = strings.TrimLeft(r, " \t")
	}
	col := len(line) - len(rest) + 1
	quote := ""
	if strings.HasPrefix(rest, `"`) || strings.HasPrefix(rest, "'") {
		quote, rest = rest[:1], rest[1:]
	}
	rest, ok := strings.CutPrefix(rest, key+quote)
	if !ok || key == "" {
		return 0, false
	}
	return col, strings.HasPrefix(strings.TrimLeft(rest, " \t"), ":")
}

func isIndex(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// nodePos is a position and pointer in Chart.yaml.
type nodePos struct {
	pos srcpos.Pos
	ptr string
}

// chartNode is the position of a key of Chart.yaml, its start when absent.
func chartNode(p *Pass, key string) nodePos {
	root := chartDoc(p, false)
	if root == nil {
		return nodePos{}
	}
	if n := root.Get(key); n != nil {
		return nodePos{n.Pos, n.Pointer()}
	}
	return nodePos{root.Pos, ""}
}

// dependencyNode is the position of a dependency's entry in Chart.yaml (by
// name or alias), of the dependencies list when not found.
func dependencyNode(p *Pass, name string) nodePos {
	root := chartDoc(p, false)
	if root == nil {
		return nodePos{}
	}
	deps := root.Get("dependencies")
	if deps == nil {
		return nodePos{root.Pos, ""}
	}
	for _, d := range deps.Items {
		for _, k := range []string{"alias", "name"} {
			if n := d.Get(k); n != nil && n.Text == name {
				return nodePos{d.Pos, d.Pointer()}
			}
		}
	}
	return nodePos{deps.Pos, deps.Pointer()}
}
