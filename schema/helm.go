package schema

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var printer = message.NewPrinter(language.English)

// offlineLoader refuses remote references: lint runs offline, and a schema
// that needs the network at install time is worth knowing about; the
// launcher leaves such schemas to Helm's own check.
type offlineLoader struct{}

func (offlineLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("remote reference %s is not fetched by an offline lint; Helm fetches it at install time", url)
}

// permissiveURN mirrors Helm: an unresolved urn: reference is a true schema.
type permissiveURN struct{}

func (permissiveURN) Load(string) (any, error) { return true, nil }

// NewHelmCompiler returns a compiler configured as Helm configures its own,
// except that remote references are not fetched.
func NewHelmCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{
		"file":  jsonschema.FileLoader{},
		"http":  offlineLoader{},
		"https": offlineLoader{},
		"urn":   permissiveURN{},
	})
	return c
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
