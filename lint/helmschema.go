package lint

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/schema"
)

// helmSchema is a chart schema compiled exactly as Helm compiles it before
// `helm install` validates values, so that our verdicts match Helm's.
type helmSchema struct {
	compiler *jsonschema.Compiler
	url      string
	root     *jsonschema.Schema
	err      error
}

// compiler is one lint worker's schema compiler. A compiler is not safe for
// concurrent use, and reusing one across the worker's charts compiles the
// draft metaschemas once instead of once per chart.
type compiler struct {
	c   *jsonschema.Compiler
	seq int
}

// compile compiles one chart's schema (already decoded into plain values)
// under a URL of its own.
func (w *compiler) compile(doc any) (h *helmSchema) {
	if w.c == nil {
		w.c = schema.NewHelmCompiler()
	}
	w.seq++
	h = &helmSchema{compiler: w.c, url: fmt.Sprintf("file:///chart-%d/values.schema.json", w.seq)}
	defer func() {
		// Helm guards the validator against panics the same way; a compiler
		// that panicked is not reused.
		if r := recover(); r != nil {
			h.err = fmt.Errorf("the validator failed on this schema: %v", r)
			w.c = nil
		}
	}()
	if err := w.c.AddResource(h.url, doc); err != nil {
		h.err = err
		return h
	}
	h.root, h.err = w.c.Compile(h.url)
	return h
}

// Helm returns the pass's schema compiled as Helm compiles it; rules share
// one compilation per chart.
func (p *Pass) Helm() *helmSchema {
	p.state.once.Do(func() { p.state.helm = p.state.compiler.compile(p.Schema.Source.Value()) })
	return p.state.helm
}

// Subschema compiles the subschema at a JSON pointer of the chart's schema.
func (h *helmSchema) Subschema(pointer string) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the validator failed on this schema: %v", r)
		}
	}()
	// The fragment is a URI component: a "%" or a space in a property name
	// must be percent-encoded.
	return h.compiler.Compile(h.url + "#" + (&url.URL{Fragment: pointer}).EscapedFragment())
}

var (
	chartURL = regexp.MustCompile(`file:///chart-\d+/values\.schema\.json`)
	beside   = regexp.MustCompile(`failing loading "file:///chart-\d+/([^"#]+)"`)
)

var pointerInError = regexp.MustCompile(`#(/[^'"\s]*)`)

// schemaErrorPositions turns a compile error into findings at positions of
// the schema document.
func schemaErrorPositions(err error, root *doc.Node) []positioned {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var out []positioned
		for _, v := range schema.Violations(sve.Err) {
			n, _ := root.LookupTokens(v.Instance)
			msg := "not a valid JSON Schema: " + v.Message
			if len(v.Instance) > 0 {
				// Name the keyword: "got string, want array" alone does
				// not say which key is wrong.
				msg = fmt.Sprintf("not a valid JSON Schema: %s: %s", v.Instance[len(v.Instance)-1], v.Message)
			}
			out = append(out, positioned{n, msg})
		}
		return out
	}
	msg := strings.TrimPrefix(err.Error(), "jsonschema: ")
	// A relative $ref makes Helm read a file of the machine it runs on,
	// beside the schema's own address file:///values.schema.json.
	if m := beside.FindStringSubmatch(msg); m != nil {
		if n := findReference(root, m[1]); n != nil {
			return []positioned{{n, fmt.Sprintf("$ref %q names no schema Helm can load: helm install reads it as the file /%s of the machine it runs on, and refuses the values when it is not there (a name of the platform API's registry is resolved by the API only); write the schema inline or under #/definitions/", n.Text, m[1])}}
		}
	}
	msg = chartURL.ReplaceAllString(msg, "values.schema.json")
	// Errors that name a reference are reported at the $ref or $schema that
	// wrote it.
	for _, m := range quotedInError.FindAllStringSubmatch(msg, -1) {
		ref := m[1]
		n := findReference(root, ref)
		if n == nil {
			continue
		}
		switch {
		case n.Key == "$schema":
			return []positioned{{n, fmt.Sprintf("unknown $schema %q: Helm knows the drafts 4, 6, 7, 2019-09 and 2020-12; write \"http://json-schema.org/schema#\" or leave $schema out for the latest", n.Text)}}
		case strings.Contains(msg, "offline lint"):
			return []positioned{{n, fmt.Sprintf("$ref %q is remote: an offline lint cannot check it, and helm install fetches it over the network", n.Text)}}
		case strings.Contains(msg, "not found"):
			return []positioned{{n, fmt.Sprintf("$ref %q points at nothing in this schema", n.Text)}}
		}
		return []positioned{{n, msg}}
	}
	n := root
	if m := pointerInError.FindStringSubmatch(msg); m != nil {
		n, _ = root.Lookup(m[1])
	}
	return []positioned{{n, msg}}
}

var quotedInError = regexp.MustCompile(`"([^"]+)"`)

// findReference finds the $ref, $dynamicRef or $schema member that names
// ref, as written or as resolved against this schema's own address.
func findReference(root *doc.Node, ref string) *doc.Node {
	frag := ""
	if i := strings.Index(ref, "#"); i >= 0 {
		frag = ref[i:]
	}
	var found *doc.Node
	var walk func(n *doc.Node)
	walk = func(n *doc.Node) {
		for _, c := range append(n.Members, n.Items...) {
			if found != nil {
				return
			}
			if c.Kind == doc.String && (c.Key == "$ref" || c.Key == "$dynamicRef" || c.Key == "$schema") &&
				(c.Text == ref || strings.TrimSuffix(c.Text, "#") == strings.TrimSuffix(ref, "#") ||
					(frag != "" && strings.HasPrefix(ref, "values.schema.json#") && c.Text == frag)) {
				found = c
				return
			}
			walk(c)
		}
	}
	walk(root)
	return found
}

type positioned struct {
	node *doc.Node
	msg  string
}
