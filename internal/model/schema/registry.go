package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// Registry is a platform API's schema registry: named schemas that replace
// a property whose extension says overwriteSchemaWith: NAME, and that $ref
// may name. A name is a file's path relative to its registry directory
// ("ide/resources.json").
type Registry struct {
	// Dirs are the directories read, in order; a later one's schema replaces
	// an earlier one's of the same name, as the API's deployer-configured
	// directories replace its built-in schemas.
	Dirs    []string
	entries map[string]*RegistryEntry
	names   []string
	roots   map[*srcpos.Node]string
}

// RegistryEntry is one named schema.
type RegistryEntry struct {
	Name string
	File string
	Root *srcpos.Node
}

// maxRegistryFiles bounds what a mistaken --schema-registry (a home
// directory) makes us read.
const maxRegistryFiles = 10000

// LoadRegistry reads every .json file below each directory. A file that is
// not JSON is an error naming its line, as it makes the API fail to start.
func LoadRegistry(dirs ...string) (*Registry, error) {
	r := &Registry{Dirs: dirs, entries: map[string]*RegistryEntry{}, roots: map[*srcpos.Node]string{}}
	count := 0
	for _, dir := range dirs {
		info, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("reading schema registry: %w", err)
		}
		if !info.IsDir() {
			return nil, fmt.Errorf("schema registry %s is not a directory", dir)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return nil, fmt.Errorf("reading schema registry: %w", err)
		}
		err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(d.Name(), ".json") {
				return nil
			}
			if count++; count > maxRegistryFiles {
				return fmt.Errorf("more than %d schema files: is %s the right directory?", maxRegistryFiles, dir)
			}
			if err := inside(real, path); err != nil {
				return err
			}
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			root, err := srcpos.ParseJSON(data)
			if err != nil {
				return fmt.Errorf("%s:%w (every file of a schema registry must be a JSON schema)", path, err)
			}
			e := &RegistryEntry{Name: filepath.ToSlash(rel), File: path, Root: root}
			r.entries[e.Name] = e
			r.roots[root] = path
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading schema registry %s: %w", dir, err)
		}
	}
	for n := range r.entries {
		r.names = append(r.names, n)
	}
	sort.Strings(r.names)
	return r, nil
}

// inside refuses a file whose real location is outside the registry
// directory (a symbolic link out of it).
func inside(realDir, path string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(realDir, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s links outside the registry directory; copy the schema in instead", path)
	}
	return nil
}

// Lookup returns the schema of a name, or nil.
func (r *Registry) Lookup(name string) *RegistryEntry {
	if r == nil {
		return nil
	}
	return r.entries[name]
}

// Names returns the registry's names, sorted.
func (r *Registry) Names() []string {
	if r == nil {
		return nil
	}
	return r.names
}

// IsFile reports whether path is one of the registry's files.
func (r *Registry) IsFile(path string) bool {
	if r == nil {
		return false
	}
	for _, e := range r.entries {
		if e.File == path {
			return true
		}
	}
	return false
}

// Suggest returns the registry name closest to a missing one: the name with
// ".json" added first, as catalogs often leave it out.
func (r *Registry) Suggest(name string) string {
	if r.Lookup(name+".json") != nil {
		return name + ".json"
	}
	return suggest.Closest(name, r.Names())
}

// Substitution is a property the API replaced by a registry schema.
type Substitution struct {
	// Node is the property as the chart writes it; Name is the registry name.
	Node  *srcpos.Node
	Name  string
	Entry *RegistryEntry
}

// Reference is a reference the API did not resolve: an overwriteSchemaWith
// name or a $ref.
type Reference struct {
	// Node is the string naming it; Name what it names.
	Node *srcpos.Node
	Name string
	// Why says why it was not resolved; Suggestion is a close registry name.
	Why        string
	Suggestion string
	// Ref is true for a $ref, false for overwriteSchemaWith.
	Ref bool
}

// ErrResolution is a schema the API cannot serve.
var ErrResolution = errors.New("the API cannot resolve this schema")

// maxResolvedNodes caps the nodes resolution copies: $ref inlining copies a
// target at each use, which a chain of references multiplies.
const maxResolvedNodes = 1 << 20

// resolver rewrites a chart schema as the reference API does before serving
// it: a property whose extension names overwriteSchemaWith is replaced by the
// registry schema of that name, and a $ref to #/definitions/... (of the
// chart, even inside a registry schema) or to a registry name is inlined, its
// members written over the referring object's. Nothing is mutated: a node
// that changes is copied, with its ancestors, and the rest is shared, so
// every node keeps the position it has in its own file.
type resolver struct {
	reg       *Registry
	extKey    string
	chartRoot *srcpos.Node
	s         *Schema
	active    map[string]bool
	copied    int
}

// resolveSchema returns the resolved document for s.Source and records what
// it substituted and what it could not resolve.
func resolveSchema(s *Schema, reg *Registry) *srcpos.Node {
	r := &resolver{reg: reg, extKey: s.ExtKey, chartRoot: s.Source, s: s, active: map[string]bool{}}
	out, changed := r.node(s.Source)
	if changed {
		s.files[out] = s.File
	}
	return out
}

// node resolves n; changed is false when n is returned as it is.
func (r *resolver) node(n *srcpos.Node) (*srcpos.Node, bool) {
	switch n.Kind {
	case srcpos.Array:
		var items []*srcpos.Node
		for i, it := range n.Items {
			c, changed := r.node(it)
			if changed && items == nil {
				items = append([]*srcpos.Node(nil), n.Items...)
			}
			if items != nil {
				items[i] = c
			}
		}
		if items == nil {
			return n, false
		}
		cp := r.copyOf(n)
		cp.Items = items
		adopt(cp, n, items)
		return cp, true
	case srcpos.Object:
		return r.object(n)
	}
	return n, false
}

// update is one member change of an object, applied after every member was
// looked at, as the API applies its map of updates.
type update struct {
	key  string
	node *srcpos.Node // nil removes the member
}

func (r *resolver) object(n *srcpos.Node) (*srcpos.Node, bool) {
	var updates []update
	set := func(u update) {
		for i := range updates {
			if updates[i].key == u.key {
				updates[i] = u
				return
			}
		}
		updates = append(updates, u)
	}
	for _, m := range n.Members {
		switch {
		case m.Key == "$ref" && m.Kind == srcpos.String:
			target := r.ref(m)
			if target == nil {
				continue
			}
			for _, tm := range target.Members {
				set(update{tm.Key, tm})
			}
			set(update{key: "$ref"})
		case m.Kind == srcpos.Object && m.Get(r.extKey).Get("overwriteSchemaWith") != nil:
			if rep := r.substitute(m); rep != nil {
				set(update{m.Key, rep})
			}
		case m.Kind == srcpos.Object || m.Kind == srcpos.Array:
			if c, changed := r.node(m); changed {
				set(update{m.Key, c})
			}
		}
	}
	if len(updates) == 0 {
		return n, false
	}
	cp := r.copyOf(n)
	members := append([]*srcpos.Node(nil), n.Members...)
	for _, u := range updates {
		i := memberIndex(members, u.key)
		switch {
		case u.node == nil && i >= 0:
			members = append(members[:i], members[i+1:]...)
		case u.node == nil:
		case i >= 0:
			members[i] = u.node
		default:
			members = append(members, u.node)
		}
	}
	cp.Members = members
	// Members inlined from a target keep their own parent, so that they still
	// point into the file they come from.
	adopt(cp, n, members)
	return cp, true
}

func memberIndex(members []*srcpos.Node, key string) int {
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].Key == key {
			return i
		}
	}
	return -1
}

// copyOf returns a shallow copy of n that keeps n's parent until a copied
// parent adopts it.
func (r *resolver) copyOf(n *srcpos.Node) *srcpos.Node {
	r.copied++
	cp := *n
	return &cp
}

// adopt makes the children of cp that are copies of orig's children point
// at cp. orig's own children are never changed: the source tree is shared.
func adopt(cp, orig *srcpos.Node, children []*srcpos.Node) {
	own := map[*srcpos.Node]bool{}
	for _, c := range append(orig.Items, orig.Members...) {
		own[c] = true
	}
	for _, c := range children {
		if c.Parent == orig && !own[c] {
			c.Parent = cp
		}
	}
}

// ref resolves a $ref member to the object whose members replace the
// referring object's, or nil when the API leaves it unresolved.
func (r *resolver) ref(m *srcpos.Node) *srcpos.Node {
	name := m.Text
	var target *srcpos.Node
	var file string
	if strings.HasPrefix(name, "#/definitions/") {
		if t, ok := r.chartRoot.Lookup(name[1:]); ok {
			target = t
		}
		file = r.s.File
	} else if e := r.reg.Lookup(name); e != nil {
		target, file = e.Root, e.File
	}
	if target == nil {
		ref := Reference{Node: m, Name: name, Ref: true}
		switch {
		case strings.HasPrefix(name, "#/definitions/"):
			ref.Why = "the schema has no " + name[1:]
		case strings.HasPrefix(name, "#"):
			ref.Why = "the API resolves only #/definitions/... and names of its schema registry"
		case r.reg == nil:
			ref.Why = "no schema registry was given to resolve it"
		default:
			ref.Why = "the schema registry has no " + name
			ref.Suggestion = r.reg.Suggest(name)
		}
		r.s.Unresolved = append(r.s.Unresolved, ref)
		return nil
	}
	if target.Kind != srcpos.Object {
		r.fail(m, fmt.Sprintf("$ref %q names %s, not a schema object", name, target.Kind.WithArticle()))
		return nil
	}
	out := r.within(m, name, target)
	if out != nil && out != target {
		r.s.files[out] = file
	}
	return out
}

// substitute returns the registry schema that replaces property m, or nil
// when the API keeps the inline one.
func (r *resolver) substitute(m *srcpos.Node) *srcpos.Node {
	nameNode := m.Get(r.extKey).Get("overwriteSchemaWith")
	if nameNode.Kind != srcpos.String {
		// Not a name the API can look up; lint reports the type.
		return nil
	}
	name := nameNode.Text
	e := r.reg.Lookup(name)
	if e == nil {
		ref := Reference{Node: nameNode, Name: name}
		if r.reg == nil {
			ref.Why = "no schema registry was given"
		} else {
			ref.Why = "the schema registry has no " + name
			ref.Suggestion = r.reg.Suggest(name)
		}
		r.s.Unresolved = append(r.s.Unresolved, ref)
		return nil
	}
	if e.Root.Kind != srcpos.Object {
		r.fail(nameNode, fmt.Sprintf("the registry schema %s is %s, not a schema object", name, e.Root.Kind.WithArticle()))
		return nil
	}
	resolved := r.within(nameNode, name, e.Root)
	if resolved == nil {
		return nil
	}
	// The replacement takes the property's name but no position in the
	// chart: findings inside it belong to the registry file.
	cp := *resolved
	cp.Key, cp.KeyPos, cp.Parent = m.Key, srcpos.Pos{}, nil
	r.s.files[&cp] = e.File
	r.s.Substitutions = append(r.s.Substitutions, Substitution{Node: m, Name: name, Entry: e})
	return &cp
}

// within resolves a target while it is marked active, so that a target that
// leads back to itself is reported instead of recursing forever (the API
// overflows its stack on it).
func (r *resolver) within(at *srcpos.Node, name string, target *srcpos.Node) *srcpos.Node {
	if r.active[name] {
		r.fail(at, fmt.Sprintf("%s leads back to itself; the API inlines references by copying them, so this one never ends and the chart's schema cannot be served", name))
		return nil
	}
	if r.copied > maxResolvedNodes {
		r.fail(at, fmt.Sprintf("inlining the references copies more than %d schema nodes", maxResolvedNodes))
		return nil
	}
	r.active[name] = true
	defer delete(r.active, name)
	out, _ := r.node(target)
	return out
}

func (r *resolver) fail(at *srcpos.Node, msg string) {
	for _, e := range r.s.ResolveErrors {
		if e.Node == at && e.Msg == msg {
			return
		}
	}
	r.s.ResolveErrors = append(r.s.ResolveErrors, NodeError{Node: at, Msg: msg})
}

// NodeError is a problem at a node.
type NodeError struct {
	Node *srcpos.Node
	Msg  string
}
