package lint

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/catalogist/catalogist/doc"
)

// schemaURL is the location Helm registers a chart's schema under.
const schemaURL = "file:///values.schema.json"

var printer = message.NewPrinter(language.English)

// helmSchema is a chart schema compiled exactly as Helm compiles it before
// `helm install` validates values, so that our verdicts match Helm's.
type helmSchema struct {
	compiler *jsonschema.Compiler
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

func compileHelm(data []byte) *helmSchema {
	h := &helmSchema{}
	defer func() {
		// Helm guards the validator against panics the same way.
		if r := recover(); r != nil {
			h.err = fmt.Errorf("the validator failed on this schema: %v", r)
		}
	}()
	sch, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		h.err = err
		return h
	}
	h.compiler = jsonschema.NewCompiler()
	h.compiler.UseLoader(jsonschema.SchemeURLLoader{
		"file":  jsonschema.FileLoader{},
		"http":  offlineLoader{},
		"https": offlineLoader{},
		"urn":   permissiveURN{},
	})
	if err := h.compiler.AddResource(schemaURL, sch); err != nil {
		h.err = err
		return h
	}
	h.root, h.err = h.compiler.Compile(schemaURL)
	return h
}

// Helm returns the pass's schema compiled as Helm compiles it; rules share
// one compilation per chart.
func (p *Pass) Helm() *helmSchema {
	p.state.once.Do(func() { p.state.helm = compileHelm(p.SchemaData) })
	return p.state.helm
}

// Subschema compiles the subschema at a JSON pointer of the chart's schema.
func (h *helmSchema) Subschema(pointer string) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the validator failed on this schema: %v", r)
		}
	}()
	return h.compiler.Compile(schemaURL + "#" + pointer)
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
