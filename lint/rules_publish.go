package lint

import (
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// A published version is what users have installed: its package never
// changes, and a merge refuses one that would. Comparing the content of
// the package a build would make now with the published one says, without
// any git history, whether a change came without a new version, whatever
// tool packaged the published one.

// RuleVersionBump reports a chart changed under a version already
// published.
var RuleVersionBump = &Rule{
	Name: "version-bump", Severity: Error, Scope: PerChart,
	Doc: "with --published, a chart whose version is already published packages to the same content as the published package (the same files with the same bytes): a change needs a new version",
	Run: checkVersionBump,
}

// publishRules compare the charts with what is published.
var publishRules = []*Rule{RuleVersionBump}

func checkVersionBump(p *Pass) {
	was := p.published
	if was == nil || was.File == "" {
		return
	}
	root := chartDoc(p, false)
	if root == nil {
		return
	}
	name, version := root.Get("name"), root.Get("version")
	if name == nil || version == nil || name.Kind != srcpos.String || name.Text != was.Name || version.Text != was.Version {
		return
	}
	p.Reportf(p.Chart.ChartFile, version.Pos, version.Pointer(), "version %s of %s is already published (%s) with other content: %s differs; bump version in Chart.yaml", version.Text, name.Text, was.URL, was.File)
}
