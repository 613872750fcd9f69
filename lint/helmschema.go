package lint

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/catalogist/catalogist/doc"
)

var printer = message.NewPrinter(language.English)

// helmSchema is a chart schema compiled exactly as Helm compiles it before
// `helm install` validates values, so that our verdicts match Helm's.
type helmSchema struct {
	compiler *jsonschema.Compiler
	url      string
	root     *jsonschema.Schema
	err      error
}

// offlineLoader refuses remote references: lint runs offline, and a schema
// that needs the network at install time is worth knowing about.
type offlineLoader struct{}

func (offlineLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("remote reference %s is not fetched by an offline lint; Helm fetches it at install time", url)
}

// permissiveURN mirrors Helm: an unresolved urn: reference is a true schema.
type permissiveURN struct{}

func (permissiveURN) Load(string) (any, error) { return true, nil }

// newCompiler returns a compiler configured as Helm configures its own,
// except that remote references are not fetched.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{
		"file":  jsonschema.FileLoader{},
		"http":  offlineLoader{},
		"https": offlineLoader{},
		"urn":   permissiveURN{},
	})
	return c
}

// compilers hands each lint worker its own compiler: a compiler is not safe
// for concurrent use, and reusing one across charts compiles the draft
// metaschemas once instead of once per chart.
type compilers struct {
	mu   sync.Mutex
	free []*jsonschema.Compiler
	seq  atomic.Int64
}

func (cs *compilers) get() *jsonschema.Compiler {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if n := len(cs.free); n > 0 {
		c := cs.free[n-1]
		cs.free = cs.free[:n-1]
		return c
	}
	return newCompiler()
}

func (cs *compilers) put(c *jsonschema.Compiler) {
	cs.mu.Lock()
	cs.free = append(cs.free, c)
	cs.mu.Unlock()
}

// compile compiles one chart's schema (already decoded into plain values)
// under a URL of its own in a shared compiler.
func (cs *compilers) compile(doc any) (h *helmSchema) {
	c := cs.get()
	h = &helmSchema{compiler: c, url: fmt.Sprintf("file:///chart-%d/values.schema.json", cs.seq.Add(1))}
	defer func() {
		// Helm guards the validator against panics the same way; a compiler
		// that panicked is not reused.
		if r := recover(); r != nil {
			h.err = fmt.Errorf("the validator failed on this schema: %v", r)
			return
		}
		cs.put(c)
	}()
	if err := c.AddResource(h.url, doc); err != nil {
		h.err = err
		return h
	}
	h.root, h.err = c.Compile(h.url)
	return h
}

// Helm returns the pass's schema compiled as Helm compiles it; rules share
// one compilation per chart.
func (p *Pass) Helm() *helmSchema {
	p.state.once.Do(func() { p.state.helm = p.state.compilers.compile(p.Schema.Root.Value()) })
	return p.state.helm
}

// Subschema compiles the subschema at a JSON pointer of the chart's schema.
func (h *helmSchema) Subschema(pointer string) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the validator failed on this schema: %v", r)
		}
	}()
	return h.compiler.Compile(h.url + "#" + pointer)
}

// Violation is one leaf of a validation error.
type Violation struct {
	// Instance is the JSON pointer tokens of the offending value.
	Instance []string
	Message  string
}

// Violations flattens a validation error into its leaves, which carry the
// precise location and reason; intermediate nodes only repeat them.
func Violations(err error) []Violation {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Message: err.Error()}}
	}
	var out []Violation
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch k := e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf:
			// The causes are alternatives: one finding lists them, instead of
			// one finding per branch that each look like the whole story.
			if ok, _ := k.(*kind.OneOf); ok != nil && len(ok.Subschemas) > 1 {
				break
			}
			var alts []string
			for _, c := range e.Causes {
				for _, v := range Violations(c) {
					if !slices.Contains(alts, v.Message) {
						alts = append(alts, v.Message)
					}
				}
			}
			if len(alts) > 0 {
				out = append(out, Violation{Instance: e.InstanceLocation, Message: strings.Join(alts, "; or ")})
				return
			}
		}
		if len(e.Causes) == 0 {
			out = append(out, Violation{Instance: e.InstanceLocation, Message: e.ErrorKind.LocalizedString(printer)})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

var chartURL = regexp.MustCompile(`file:///chart-\d+/values\.schema\.json`)

var pointerInError = regexp.MustCompile(`#(/[^'"\s]*)`)

// schemaErrorPositions turns a compile error into findings at positions of
// the schema document.
func schemaErrorPositions(err error, root *doc.Node) []positioned {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var out []positioned
		for _, v := range Violations(sve.Err) {
			n, _ := root.LookupTokens(v.Instance)
			out = append(out, positioned{n, "not a valid JSON Schema: " + v.Message})
		}
		return out
	}
	msg := strings.TrimPrefix(err.Error(), "jsonschema: ")
	msg = chartURL.ReplaceAllString(msg, "values.schema.json")
	n := root
	if m := pointerInError.FindStringSubmatch(msg); m != nil {
		n, _ = root.Lookup(m[1])
	}
	return []positioned{{n, msg}}
}

type positioned struct {
	node *doc.Node
	msg  string
}
