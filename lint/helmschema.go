package lint

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// Helm returns the pass's schema compiled as Helm compiles it; rules share
// one compilation per chart.
func (p *Pass) Helm() *schema.HelmSchema {
	p.state.once.Do(func() { p.state.helm = p.state.compiler.Compile(p.Schema().Source.Value()) })
	return p.state.helm
}

var pointerInError = regexp.MustCompile(`#(/[^'"\s]*)`)

// schemaErrorPositions turns a compile error into findings at positions of
// the schema document.
func schemaErrorPositions(err error, root *srcpos.Node) []positioned {
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
	if file, ok := schema.HelmBeside(msg); ok {
		if n := findReference(root, file); n != nil {
			return []positioned{{n, fmt.Sprintf("$ref %q names no schema Helm can load: helm install reads it as the file /%s of the machine it runs on, and refuses the values when it is not there (a name of the platform API's registry is resolved by the API only); write the schema inline or under #/definitions/", n.Text, file)}}
		}
	}
	msg = schema.HelmText(msg)
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
func findReference(root *srcpos.Node, ref string) *srcpos.Node {
	frag := ""
	if i := strings.Index(ref, "#"); i >= 0 {
		frag = ref[i:]
	}
	var found *srcpos.Node
	var walk func(n *srcpos.Node)
	walk = func(n *srcpos.Node) {
		for _, c := range append(n.Members, n.Items...) {
			if found != nil {
				return
			}
			if c.Kind == srcpos.String && (c.Key == "$ref" || c.Key == "$dynamicRef" || c.Key == "$schema") &&
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
	node *srcpos.Node
	msg  string
}
