package lint

import (
	"fmt"

	"github.com/catalogist/catalogist/internal/input/catalog"
)

// containRules keep files outside the catalog out of what is built.
var containRules = []*Rule{RuleSymlinkOutside}

const symlinkOutside = "symlink-outside"

// RuleSymlinkOutside refuses what would bring files from outside the
// catalog repository into its packages or its site: Helm's loader follows
// symbolic links wherever they lead, and the site copies icons. Such a
// chart is not read any further: its other files could be anything.
var RuleSymlinkOutside = &Rule{
	Name: symlinkOutside, Severity: Error, Scope: PerChart, Locked: true,
	Doc: "no symbolic link of a chart leads outside the catalog repository (the directory of catalog.yaml), to nothing, or back to a directory holding it, and the icon is a file inside the repository: Helm packages what links point to",
	Run: func(p *Pass) {
		if len(p.escapes) > 0 {
			p.mu.Lock()
			*p.findings = append(*p.findings, EscapeFindings(p.Chart, p.escapes)...)
			p.mu.Unlock()
			return
		}
		root := chartDoc(p, false)
		if root == nil {
			return
		}
		icon := root.Get("icon")
		text := ""
		if icon != nil {
			text = icon.Text
		}
		resolved := p.Catalog.ResolveIcon(p.Chart.Name, text)
		if resolved.Problem != catalog.IconOutside {
			return
		}
		n, shown := root, resolved.Escape.Path
		if icon != nil {
			n, shown = icon, fmt.Sprintf("%q", icon.Text)
		}
		p.Reportf(p.Chart.ChartFile, n.Pos, n.Pointer(), "icon %s: %s", shown, resolved.Escape.Problem())
	},
}

// EscapeFindings are the findings of symlink-outside for a chart's paths
// that lead outside the catalog repository, for build, which refuses them
// before it reads anything else.
func EscapeFindings(ch *catalog.Chart, escapes []*catalog.EscapeError) []Finding {
	var out []Finding
	for _, esc := range escapes {
		out = append(out, Finding{
			Rule: symlinkOutside, Severity: Error,
			File: esc.Path, Line: 1, Column: 1, Message: esc.Problem(), Chart: ch.Name,
		})
	}
	return out
}
