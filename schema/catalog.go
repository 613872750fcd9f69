package schema

import (
	"bytes"
	"cmp"
	"strings"
	"sync"

	"github.com/catalogist/catalogist/catalog"
	"github.com/catalogist/catalogist/region"
)

// ExtensionKeyFor is the extension key in force for a catalog's charts: the
// user's override, else the catalog's setting, else the key of the platform
// named (by the user, else the catalog), else the default.
func ExtensionKeyFor(override, platform string, cat *catalog.Catalog) string {
	if platform == "" && cat.Config != nil {
		platform = cat.Config.Platform
	}
	return cmp.Or(override, cat.ExtensionKey(), PlatformKey(platform), DefaultExtensionKey)
}

// Overrides are what a user sets on the command line for every catalog;
// empty fields leave each catalog's catalog.yaml in force.
type Overrides struct {
	ExtensionKey string
	Platform     string
	// Registry replaces the catalogs' schemaRegistry directories when set.
	Registry *Registry
}

// Registries loads each distinct list of registry directories once.
type Registries struct {
	mu     sync.Mutex
	loaded map[string]*Registry
}

// Load returns the registry of the directories.
func (rs *Registries) Load(dirs []string) (*Registry, error) {
	if len(dirs) == 0 {
		return nil, nil
	}
	key := strings.Join(dirs, "\x00")
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r := rs.loaded[key]; r != nil {
		return r, nil
	}
	r, err := LoadRegistry(dirs...)
	if err != nil {
		return nil, err
	}
	if rs.loaded == nil {
		rs.loaded = map[string]*Registry{}
	}
	rs.loaded[key] = r
	return r, nil
}

// EnvFor is the environment a catalog's charts are read in: the overrides,
// else the catalog's catalog.yaml, else the defaults (the platform follows
// the extension key).
func EnvFor(o Overrides, cat *catalog.Catalog, rs *Registries) (Env, error) {
	env := Env{ExtKey: ExtensionKeyFor(o.ExtensionKey, o.Platform, cat), Registry: o.Registry}
	name := o.Platform
	if cfg := cat.Config; cfg != nil {
		name = cmp.Or(name, cfg.Platform)
		if env.Registry == nil && len(cfg.SchemaRegistry) > 0 {
			reg, err := rs.Load(cfg.SchemaRegistry)
			if err != nil {
				return env, err
			}
			env.Registry = reg
		}
	}
	p, err := PlatformFor(name, env.ExtKey)
	if err != nil {
		return env, err
	}
	env.Platform = p
	return env, nil
}

// CatalogContext is the context a catalog's charts are computed in: the
// launch context document, the region and the catalog's own slider bounds.
func CatalogContext(data map[string]any, reg *region.Region, cat *catalog.Catalog) *Context {
	if cat.Config == nil {
		return NewContext(data, reg, nil, "")
	}
	return NewContext(data, reg, cat.Config.Sliders, cat.Config.File)
}

// DetectExtensionKey is the extension key a schema uses, for a chart whose
// catalog does not say: the seed's when the schema holds it, else the
// reference platform's when it holds that one, else "".
func DetectExtensionKey(schemaJSON []byte) string {
	switch {
	case bytes.Contains(schemaJSON, []byte(`"`+DefaultExtensionKey+`"`)):
		return DefaultExtensionKey
	case bytes.Contains(schemaJSON, []byte(`"x-onyxia"`)):
		return "x-onyxia"
	}
	return ""
}

// PackageKey is the extension key of a chart read without its catalog (a
// package): the user's, else the one its schema uses, else the named
// platform's, else the default.
func PackageKey(override, platform string, schemaJSON []byte) string {
	return cmp.Or(override, DetectExtensionKey(schemaJSON), PlatformKey(platform), DefaultExtensionKey)
}
