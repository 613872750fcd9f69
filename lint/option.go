package lint

import (
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// optionAt returns the slash path of the option a node of the schema file
// belongs to: the option whose node is n or its nearest ancestor, "" for
// the root or outside any option. Findings carry it so that catalog.yaml's
// ignore entries and baselines can name options rather than lines.
func (p *Pass) optionAt(n *srcpos.Node) string {
	if p.Schema() == nil || p.state == nil {
		return ""
	}
	p.state.optionsOnce.Do(func() {
		m := make(map[*srcpos.Node]*schema.Option, len(p.Schema().Options))
		for _, o := range p.Schema().Options {
			// Options come parents first; should two share a node, the
			// outer one names it.
			if _, dup := m[o.Node]; !dup {
				m[o.Node] = o
			}
		}
		p.state.optionByNode = m
	})
	for ; n != nil; n = n.Parent {
		if o := p.state.optionByNode[n]; o != nil {
			return o.Path
		}
	}
	return ""
}
