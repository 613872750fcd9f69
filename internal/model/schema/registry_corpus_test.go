//go:build corpus

package schema

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/corpustest"
)

// loadReference loads the reference API's built-in registry, which the
// corpus tests are given (never copied into the repository).
func loadReference(t *testing.T) *Registry {
	t.Helper()
	r, err := LoadRegistry(corpustest.Registry(t))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCorpusReferenceRegistry(t *testing.T) {
	r := loadReference(t)
	names := r.Names()
	for _, want := range []string{"ide/resources.json", "ide/git.json", "network-policy.json", "ide/password.json"} {
		if r.Lookup(want) == nil {
			t.Errorf("the registry has no %s (names: %v)", want, names)
		}
	}
	for _, n := range names {
		if !strings.HasSuffix(n, ".json") || strings.Contains(n, "\\") {
			t.Errorf("name %q", n)
		}
	}
	if got := r.Suggest("ide/password"); got != "ide/password.json" {
		t.Errorf("Suggest(ide/password) = %q", got)
	}
	if got := r.Suggest("ide/resorces.json"); got != "ide/resources.json" {
		t.Errorf("Suggest(ide/resorces.json) = %q", got)
	}
}

// A property naming a registry schema is replaced by it whole; its nodes
// keep their positions in the registry file, and the chart's own document is
// left as written.
func TestCorpusSubstitution(t *testing.T) {
	r := loadReference(t)
	src := `{"type": "object", "properties": {
  "resources": {"type": "object", "x-onyxia": {"overwriteSchemaWith": "ide/resources.json"},
    "properties": {"inline": {"type": "string", "default": "x"}}},
  "password": {"type": "string", "default": "p", "x-onyxia": {"overwriteSchemaWith": "ide/password"}}
}}`
	s := build(t, src, r)
	if s.Root == s.Source {
		t.Fatal("nothing was substituted")
	}
	if s.OptionKey("resources", "inline") != nil {
		t.Errorf("the inline copy is still read")
	}
	cpu := s.OptionKey("resources", "limits", "cpu")
	if cpu == nil {
		t.Fatalf("the registry's resources/limits/cpu is missing; options: %v", paths(s))
	}
	file := filepath.Join(corpustest.Registry(t), "ide", "resources.json")
	if got := s.FileOf(cpu.Node); got != file {
		t.Errorf("FileOf(limits/cpu) = %q, want %q", got, file)
	}
	data, _ := os.ReadFile(file)
	line := 1 + strings.Count(string(data[:strings.Index(string(data), `"limits"`)]), "\n")
	if cpu.Node.Pos.Line <= line {
		t.Errorf("limits/cpu at line %d, the registry's limits start at %d", cpu.Node.Pos.Line, line)
	}
	if got := s.FileOf(s.OptionKey("password").Node); got != "chart/values.schema.json" {
		t.Errorf("an option kept inline belongs to %q", got)
	}
	if len(s.Substitutions) != 1 || s.Substitutions[0].Name != "ide/resources.json" {
		t.Errorf("Substitutions = %+v", s.Substitutions)
	}
	if len(s.Unresolved) != 1 || s.Unresolved[0].Name != "ide/password" || s.Unresolved[0].Suggestion != "ide/password.json" {
		t.Errorf("Unresolved = %+v", s.Unresolved)
	}
	// The source still holds the inline copy.
	if s.Source.Get("properties").Get("resources").Get("properties").Get("inline") == nil {
		t.Errorf("the chart's document was changed")
	}
	// The form computes from the registry's schema.
	f := Compute(s, NewContext(nil, nil, nil, ""), nil)
	if fd := f.FieldKey("resources", "limits", "cpu"); fd == nil || !fd.Defined {
		t.Errorf("no value for the registry's cpu limit: %+v", fd)
	}
}

func TestCorpusRefs(t *testing.T) {
	r := loadReference(t)
	s := build(t, `{"type": "object",
  "definitions": {"name": {"type": "string", "default": "n", "title": "From definitions"}},
  "$defs": {"other": {"type": "string", "default": "o"}},
  "properties": {
    "a": {"$ref": "#/definitions/name", "description": "kept"},
    "b": {"$ref": "ide/git.json"},
    "c": {"$ref": "#/$defs/other"},
    "d": {"$ref": "#/definitions/absent", "type": "string", "default": "d"}
  }}`, r)
	a := s.OptionKey("a")
	if a.Title != "From definitions" || a.Description != "kept" || a.Node.Get("$ref") != nil {
		t.Errorf("a = title %q description %q ref %v", a.Title, a.Description, a.Node.Get("$ref"))
	}
	if s.FileOf(a.Node.Get("title")) != "chart/values.schema.json" {
		t.Errorf("an inlined definition belongs to %q", s.FileOf(a.Node.Get("title")))
	}
	if s.OptionKey("b", "enabled") == nil {
		t.Errorf("the registry's git schema was not inlined: %v", paths(s))
	}
	if s.OptionKey("c").Node.Get("$ref") == nil {
		t.Errorf("#/$defs was resolved")
	}
	var whys []string
	for _, u := range s.Unresolved {
		whys = append(whys, u.Name+": "+u.Why)
	}
	if len(s.Unresolved) != 2 || !strings.Contains(strings.Join(whys, "|"), "#/$defs/other: the API resolves only #/definitions/") {
		t.Errorf("Unresolved = %v", whys)
	}
}

// Registry schemas are shared by the charts being linted at once, and
// resolution never changes them.
func TestCorpusRegistryConcurrentUse(t *testing.T) {
	r := loadReference(t)
	src := `{"type": "object", "properties": {"resources": {"type": "object", "x-onyxia": {"overwriteSchemaWith": "ide/resources-gpu.json"}}}}`
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := build(t, src, r)
			Compute(s, NewContext(nil, nil, nil, ""), nil)
		}()
	}
	wg.Wait()
	e := r.Lookup("ide/resources-gpu.json")
	if e.Root.Parent != nil || e.Root.Key != "" {
		t.Errorf("the registry's root was changed: key %q", e.Root.Key)
	}
}

func paths(s *Schema) []string {
	var out []string
	for _, o := range s.Options {
		out = append(out, o.Path)
	}
	return out
}
