package schema

import (
	"bytes"
	"cmp"
	"strings"
	"sync"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
)

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

// EnvFor decides how a chart's schema is read: its extension key, the
// platform its form is judged for, and the schema registry. The key is, from
// the most binding: the command line's override; what the chart's source
// says (its catalog's catalog.yaml or, for a package read without its
// catalog, cat nil, the key its schema uses); the key of the platform named
// (by the command line, else catalog.yaml); the default. The platform is the
// one named, else the one the key is the reference platform's (see
// PlatformFor). A registry given on the command line replaces the catalog's.
//
// When nothing names a key or a platform, a catalog is read as its schemas
// are written: a catalog of the reference platform, whose schemas use
// x-onyxia and none x-platform, is judged as the onyxia platform's, rather
// than as a catalog whose extension fields are all misplaced.
func EnvFor(o Overrides, cat *catalog.Catalog, pkgSchema []byte, rs *Registries) (Env, error) {
	var cfg *catalog.Config
	if cat != nil {
		cfg = cat.Config
	}
	name, catKey := o.Platform, ""
	if cfg != nil {
		name = cmp.Or(name, cfg.Platform)
		catKey = cat.ExtensionKey()
	}
	env := Env{Registry: o.Registry}
	if cat == nil {
		catKey = usedExtensionKey(pkgSchema)
	} else if o.ExtensionKey == "" && catKey == "" && name == "" {
		catKey = schemasKey(cat)
		env.KeyFromSchemas = catKey != ""
	}
	env.ExtKey = cmp.Or(o.ExtensionKey, catKey, PlatformKey(name), DefaultExtensionKey)
	if env.Registry == nil && cfg != nil && len(cfg.SchemaRegistry) > 0 {
		if rs == nil {
			rs = &Registries{}
		}
		reg, err := rs.Load(cfg.SchemaRegistry)
		if err != nil {
			return env, err
		}
		env.Registry = reg
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

// SampleContext is the context lint judges a catalog's forms in, and a
// chart page says whether the form opens in: the sample launch context of
// what every deployment provides (launchcontext.Sample), the region and
// the catalog's sliders. A form that opens there opens for every user; one
// that opens only with a profile's values is no broken chart.
func SampleContext(reg *region.Region, cat *catalog.Catalog) *Context {
	return CatalogContext(launchcontext.Sample(), reg, cat)
}

// schemasKey is the reference platform's key when some schemas of the
// catalog use it and none uses the default key, else "": a mix keeps the
// default, and lint reports the fields under the other key.
func schemasKey(cat *catalog.Catalog) string {
	onyxia := false
	for _, ch := range cat.Charts {
		if ch.SchemaFile == "" {
			continue
		}
		data, err := srcpos.ReadFile(ch.SchemaFile)
		if err != nil {
			// lint reports what cannot be read.
			continue
		}
		switch usedExtensionKey(data) {
		case DefaultExtensionKey:
			return ""
		case Onyxia.ExtKey:
			onyxia = true
		}
	}
	if onyxia {
		return Onyxia.ExtKey
	}
	return ""
}

// usedExtensionKey is the extension key a package's schema uses, its
// catalog's catalog.yaml being unknown: the seed's when the schema holds it,
// else the reference platform's when it holds that one, else "".
func usedExtensionKey(schemaJSON []byte) string {
	switch {
	case bytes.Contains(schemaJSON, []byte(`"`+DefaultExtensionKey+`"`)):
		return DefaultExtensionKey
	case bytes.Contains(schemaJSON, []byte(`"`+Onyxia.ExtKey+`"`)):
		return Onyxia.ExtKey
	}
	return ""
}
