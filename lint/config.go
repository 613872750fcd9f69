package lint

import (
	"fmt"
	"path"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// filter is a catalog's lint settings, checked against the rules: what it
// drops and which severity it gives the findings of its charts.
type filter struct {
	levels map[string]catalog.Level
	ignore []catalog.Ignore
}

// configFilters checks the lint settings of every catalog and returns the
// filter of each catalog that has some.
func configFilters(cats []*catalog.Catalog) (map[*catalog.Catalog]*filter, error) {
	out := map[*catalog.Catalog]*filter{}
	for _, cat := range cats {
		if cat.Config == nil || cat.Config.Lint == nil {
			continue
		}
		f, err := newFilter(cat.Config.File, cat.Config.Lint)
		if err != nil {
			return nil, err
		}
		out[cat] = f
	}
	return out, nil
}

func newFilter(file string, cfg *catalog.LintConfig) (*filter, error) {
	f := &filter{levels: map[string]catalog.Level{}, ignore: cfg.Ignore}
	for _, rl := range cfg.Rules {
		if err := checkRuleName(file, rl.Node.KeyPos, "lint.rules", rl.Rule); err != nil {
			return nil, err
		}
		if Lookup(rl.Rule).Locked && rl.Level != catalog.LevelError {
			return nil, fmt.Errorf("%s:%d:%d: rule %s cannot be set to %s: build refuses what it reports whatever lint says, so that no file from outside the catalog is published; remove the setting and fix the findings", file, rl.Node.Pos.Line, rl.Node.Pos.Col, rl.Rule, rl.Level)
		}
		f.levels[rl.Rule] = rl.Level
	}
	for _, ig := range cfg.Ignore {
		if ig.RuleNode == nil {
			continue
		}
		if err := checkRuleName(file, ig.RuleNode.Pos, "lint.ignore", ig.Rule); err != nil {
			return nil, err
		}
		if Lookup(ig.Rule).Locked {
			return nil, fmt.Errorf("%s:%d:%d: the findings of rule %s cannot be ignored: build refuses them whatever lint says, so that no file from outside the catalog is published; remove the entry and fix the findings", file, ig.RuleNode.Pos.Line, ig.RuleNode.Pos.Col, ig.Rule)
		}
	}
	return f, nil
}

// checkRuleName refuses a name that is not a rule, and a region rule: its
// findings are about the region file, which belongs to no catalog, so a
// catalog's setting would silently do nothing.
func checkRuleName(file string, pos srcpos.Pos, where, name string) error {
	r := Lookup(name)
	if r == nil {
		names := make([]string, len(All))
		for i, r := range All {
			names[i] = r.Name
		}
		msg := fmt.Sprintf("unknown rule %q in %s", name, where)
		if s := suggest.Closest(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return fmt.Errorf("%s:%d:%d: %s (catalogist lint --rules lists the rules)", file, pos.Line, pos.Col, msg)
	}
	if r.Scope == PerRegion {
		return fmt.Errorf("%s:%d:%d: rule %s in %s checks the region file, which belongs to no catalog, so catalog.yaml cannot change its findings: remove it", file, pos.Line, pos.Col, name, where)
	}
	return nil
}

// apply drops the findings of rules set to off and those an ignore entry
// matches, and gives the others the severity their rule is set to (notes
// stay notes).
func (f *filter) apply(fs []Finding) []Finding {
	if f == nil {
		return fs
	}
	out := fs[:0]
	for _, x := range fs {
		if r := Lookup(x.Rule); r != nil && r.Locked {
			out = append(out, x)
			continue
		}
		lv, set := f.levels[x.Rule]
		if lv == catalog.LevelOff || f.ignored(x) {
			continue
		}
		// A note informs whatever its rule's severity; only off touches it.
		if set && x.Severity != Note {
			x.Severity = Warning
			if lv == catalog.LevelError {
				x.Severity = Error
			}
		}
		out = append(out, x)
	}
	return out
}

func (f *filter) ignored(x Finding) bool {
	for _, ig := range f.ignore {
		if matches(ig, x) {
			return true
		}
	}
	return false
}

// matches reports whether a finding matches every field an ignore entry
// gives. An option glob matches only findings about an option: "*" would
// otherwise also match every finding of Chart.yaml or values.yaml.
func matches(ig catalog.Ignore, x Finding) bool {
	if ig.Rule != "" && ig.Rule != x.Rule {
		return false
	}
	if len(ig.Charts) > 0 && !anyMatch(ig.Charts, x.Chart) {
		return false
	}
	if ig.Option != "" && (x.Option == "" || !anyMatch([]string{ig.Option}, x.Option)) {
		return false
	}
	return true
}

// anyMatch reports whether one of the globs matches name. The globs were
// checked when catalog.yaml was read, so path.Match cannot fail here.
func anyMatch(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}
