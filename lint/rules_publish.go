package lint

import (
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// A published version is what users have installed: its package never
// changes, and a merge refuses one that would. Packages are reproducible,
// so comparing the package a build would make now with the published one
// says, without any git history, whether a change came without a new
// version.

// RuleVersionBump reports a chart changed under a version already
// published.
var RuleVersionBump = &Rule{
	Name: "version-bump", Severity: Error, Scope: PerChart,
	Doc: "with --published, a chart whose version is already published packages to the same content as the published package: a change needs a new version",
	Run: checkVersionBump,
}

// publishRules compare the charts with what is published.
var publishRules = []*Rule{RuleVersionBump}

func checkVersionBump(p *Pass) {
	if p.published == nil || p.pkg == "" {
		return
	}
	root := chartDoc(p, false)
	if root == nil {
		return
	}
	name, version := root.Get("name"), root.Get("version")
	if name == nil || version == nil || name.Kind != srcpos.String || version.Text == "" {
		return
	}
	was := p.published[name.Text][version.Text]
	if was == "" || chartrepo.SameDigest(was, p.pkg) {
		return
	}
	a, b := shortDigests(chartrepo.NormalDigest(was), chartrepo.NormalDigest(p.pkg))
	p.Reportf(p.Chart.ChartFile, version.Pos, version.Pointer(), "version %s of %s is already published with other content (published sha256:%s, now sha256:%s): bump version in Chart.yaml", version.Text, name.Text, a, b)
}

// shortDigests shortens two different digests to 12 hex digits, or as
// many more as tell them apart.
func shortDigests(a, b string) (string, string) {
	n := 12
	for n < len(a) && n < len(b) && a[:n] == b[:n] {
		n++
	}
	return a[:min(n, len(a))], b[:min(n, len(b))]
}
