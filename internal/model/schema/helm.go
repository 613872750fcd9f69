package schema

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"regexp"
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

// newHelmCompiler returns a compiler configured as Helm configures its own,
// except that remote references are not fetched.
func newHelmCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{
		"file":  jsonschema.FileLoader{},
		"http":  offlineLoader{},
		"https": offlineLoader{},
		"urn":   permissiveURN{},
	})
	return c
}

// HelmCompiler compiles chart schemas exactly as Helm compiles them before
// `helm install` validates values, so that verdicts match Helm's. It is not
// safe for concurrent use. The zero value is ready.
type HelmCompiler struct {
	seq int
}

// HelmSchema is one chart schema compiled by a HelmCompiler.
type HelmSchema struct {
	compiler *jsonschema.Compiler
	// URL is the address the schema was compiled under; errors name it
	// (see HelmText).
	URL string
	// Root is the compiled schema, nil when Err is set.
	Root *jsonschema.Schema
	Err  error
}

// helmURL is the address of a chart's schema, one per compilation. Helm's
// own is file:///values.schema.json, which a relative $ref is read beside.
const helmURL = "file:///chart-%d/values.schema.json"

var (
	helmURLText = regexp.MustCompile(`file:///chart-\d+/values\.schema\.json`)
	helmBeside  = regexp.MustCompile(`failing loading "file:///chart-\d+/([^"#]+)"`)
)

// Compile compiles one chart schema, decoded into plain values (as
// jsonschema.UnmarshalJSON or doc.Node.Value give).
func (w *HelmCompiler) Compile(schemaDoc any) (h *HelmSchema) {
	// A compiler keeps every schema it compiled, and there is no
	// forgetting one: a compiler per chart keeps a lint's memory flat
	// however many charts it reads. It costs little, as the draft
	// metaschemas are the package's, and measured faster than one compiler
	// for eight charts, whose compiled schemas the collector kept scanning.
	w.seq++
	h = &HelmSchema{compiler: newHelmCompiler(), URL: fmt.Sprintf(helmURL, w.seq)}
	defer func() {
		// Helm guards the validator against panics the same way.
		if r := recover(); r != nil {
			h.Root, h.Err = nil, fmt.Errorf("the validator failed on this schema: %v", r)
		}
	}()
	if err := h.compiler.AddResource(h.URL, schemaDoc); err != nil {
		h.Err = err
		return h
	}
	h.Root, h.Err = h.compiler.Compile(h.URL)
	return h
}

// CompileHelm compiles a chart's values.schema.json as Helm does, with a
// compiler of its own.
func CompileHelm(data []byte) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	h := (&HelmCompiler{}).Compile(v)
	return h.Root, h.Err
}

// Subschema returns the compiled subschema at a JSON pointer of the chart's
// schema. A pointer through properties and items is followed in the
// compiled root, which holds that subschema already: the same one
// compiling its location gives, without resolving the address again.
func (h *HelmSchema) Subschema(pointer string) (*jsonschema.Schema, error) {
	if h.Root != nil {
		if s := follow(h.Root, pointer); s != nil {
			return s, nil
		}
	}
	return h.compileAt(pointer)
}

// follow walks pointer's properties/NAME and items tokens from s, nil
// when it takes another way.
func follow(s *jsonschema.Schema, pointer string) *jsonschema.Schema {
	if pointer == "" {
		return s
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil
	}
	toks := strings.Split(pointer[1:], "/")
	for i := 0; i < len(toks) && s != nil; i++ {
		switch toks[i] {
		case "properties":
			if i+1 == len(toks) {
				return nil
			}
			i++
			name := strings.ReplaceAll(strings.ReplaceAll(toks[i], "~1", "/"), "~0", "~")
			s = s.Properties[name]
		case "items":
			if s.Items2020 != nil {
				s = s.Items2020
			} else {
				s, _ = s.Items.(*jsonschema.Schema)
			}
		default:
			return nil
		}
	}
	return s
}

// compileAt compiles the subschema at a JSON pointer of the chart's schema.
func (h *HelmSchema) compileAt(pointer string) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the validator failed on this schema: %v", r)
		}
	}()
	// The fragment is a URI component: a "%" or a space in a property name
	// must be percent-encoded.
	return h.compiler.Compile(h.URL + "#" + (&url.URL{Fragment: pointer}).EscapedFragment())
}

// HelmText writes a compiler's message with the chart schema's address as
// its file name, values.schema.json.
func HelmText(msg string) string {
	return helmURLText.ReplaceAllString(msg, "values.schema.json")
}

// HelmBeside returns the file a message says the compiler failed to load
// beside the chart's schema: what a relative $ref names.
func HelmBeside(msg string) (string, bool) {
	m := helmBeside.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	return m[1], true
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
