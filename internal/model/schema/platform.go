package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/catalog"

	"github.com/catalogist/catalogist/internal/model/launchcontext"
)

// Platform is a target whose configuration form catalogist reproduces. Both
// targets share one semantics (how values are chosen, what makes the form
// refuse to open); the fields below are the whole of what differs.
type Platform struct {
	Name string
	// Title is the name people know the platform by, as a button says it
	// ("Open in Onyxia").
	Title string
	// ExtKey is the extension key the platform's own catalogs use.
	ExtKey string
	// RegionSliders is true when useRegionSliderConfig takes an option's
	// slider minimum, maximum, step and unit from the region's slider
	// configuration of that name, else the catalog's. The reference platform
	// removed region slider configurations in 2024 and ignores the key.
	RegionSliders bool
	// StepAndUnitRequired is true when a slider must carry sliderStep, and a
	// string slider sliderUnit (the seed's table). The reference's widget
	// uses a step of 1 and no unit when they are absent.
	StepAndUnitRequired bool
	// RegionBoundsInContext is true when the launch context holds
	// region.resources.* and region.sliders.*, which the reference's context
	// no longer has.
	RegionBoundsInContext bool
}

// The targets.
var (
	// Onyxia is the reference platform as it behaves today.
	Onyxia = &Platform{Name: catalog.PlatformOnyxia, Title: "Onyxia", ExtKey: "x-onyxia"}
	// Catalogist is the extension as this project documents it, with the
	// seed's region-bounded sliders.
	Catalogist = &Platform{Name: catalog.PlatformCatalogist, Title: "catalogist", ExtKey: DefaultExtensionKey, RegionSliders: true, StepAndUnitRequired: true, RegionBoundsInContext: true}
)

// platformNamed is the target of each name of catalog.Platforms, nil for
// another name.
func platformNamed(name string) *Platform {
	switch name {
	case catalog.PlatformOnyxia:
		return Onyxia
	case catalog.PlatformCatalogist:
		return Catalogist
	}
	return nil
}

// PlatformNames lists the targets, sorted.
func PlatformNames() []string {
	return slices.Sorted(slices.Values(catalog.Platforms()))
}

// PlatformNamed returns a target by name.
func PlatformNamed(name string) (*Platform, error) {
	if p := platformNamed(name); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("unknown platform %q (known: %s)%s", name, strings.Join(PlatformNames(), ", "), suggest.Hint(name, PlatformNames()))
}

// PlatformKey is the extension key of the named platform, "" when none is
// named (or the name is unknown): a catalog linted for onyxia writes
// x-onyxia unless it says otherwise.
func PlatformKey(name string) string {
	if p := platformNamed(name); p != nil {
		return p.ExtKey
	}
	return ""
}

// PlatformFor picks the target: the one named (by a flag, then catalog.yaml),
// else the reference platform for its own extension key x-onyxia, else
// catalogist's.
func PlatformFor(name, extKey string) (*Platform, error) {
	if name != "" {
		return PlatformNamed(name)
	}
	if extKey == "x-onyxia" {
		return Onyxia, nil
	}
	return Catalogist, nil
}

// Model returns the context paths the target's launch context provides,
// extended with extra (from --context files; may be nil).
func (p *Platform) Model() *launchcontext.Model {
	m := launchcontext.NewModel(p.Name)
	if p.RegionBoundsInContext {
		m.AddRegionBounds()
	}
	return m
}
