// Package analysis reads one chart as every command sees it: its schema
// resolved as the platform's API serves it, its values.yaml as Helm and as
// the platform's form read it, and the form computed in a context. Lint,
// the builder's pages, the form command and the launcher all start from
// one Chart, so that they cannot disagree on what a chart offers.
package analysis

import (
	"errors"
	"fmt"
	"sync"

	"helm.sh/helm/v4/pkg/chart/common"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// Input is what a chart is analysed from.
type Input struct {
	// SchemaFile names values.schema.json in positions and messages;
	// Schema is its content, nil when the chart has none.
	SchemaFile string
	Schema     []byte
	// ValuesFile names values.yaml; Values is its content, nil when the
	// chart has none.
	ValuesFile string
	Values     []byte
	// HelmValues, when set, is values.yaml as Helm's chart loader read it
	// (the caller loaded the chart): it is not read again.
	HelmValues map[string]any
	// Env is how the schema is read: the extension key, the platform and
	// the registry (see schema.EnvFor).
	Env schema.Env
	// Context is what the form is computed in: the launch context, the
	// region and the catalog's bounds.
	Context *schema.Context
}

// Chart is one chart analysed.
type Chart struct {
	In Input
	// Schema is the schema with registry names resolved, nil when the
	// chart has none or it is not JSON (SchemaErr says why).
	Schema    *schema.Schema
	SchemaErr error
	// HelmValues is values.yaml as Helm reads it, nil when absent or
	// broken (ValuesErr says why).
	HelmValues map[string]any
	ValuesErr  error
	// Form is the form in Input.Context, nil without a schema. It is
	// computed on first use.
	Form *schema.Form

	valuesOnce    sync.Once
	formOnce      sync.Once
	valuesDoc     *srcpos.Node
	valuesDocErr  error
	formValues    map[string]any
	formValuesErr error
}

// Analyze analyses a chart. Content problems are left in the Chart for
// whoever reports them; only a file beyond the parser's limits (an alias
// bomb, a nesting too deep) is an error, refused outright as every command
// refuses it.
func Analyze(in Input) (*Chart, error) {
	c := &Chart{In: in}
	if in.HelmValues != nil {
		c.HelmValues = in.HelmValues
	} else if in.Values != nil {
		vals, err := common.ReadValues(in.Values)
		if err != nil {
			if de := c.limit(); de != nil {
				return nil, fmt.Errorf("%s:%d:%d: %s", in.ValuesFile, de.Pos.Line, de.Pos.Col, de.Msg)
			}
			c.ValuesErr = err
		} else {
			c.HelmValues = vals.AsMap()
		}
	}
	if in.Schema == nil {
		return c, nil
	}
	root, err := srcpos.ParseJSON(in.Schema)
	if err != nil {
		var de *srcpos.Error
		if errors.As(err, &de) && de.Limit {
			return nil, fmt.Errorf("%s:%d:%d: %s", in.SchemaFile, de.Pos.Line, de.Pos.Col, de.Msg)
		}
		c.SchemaErr = err
		return c, nil
	}
	c.Schema = schema.Build(root, in.SchemaFile, in.Env)
	c.Form = c.FormIn(in.Context)
	return c, nil
}

// limit is the limit values.yaml exceeds, if any.
func (c *Chart) limit() *srcpos.Error {
	var de *srcpos.Error
	if _, err := c.ValuesDoc(); errors.As(err, &de) && de.Limit {
		return de
	}
	return nil
}

// FormIn computes the chart's form in another context (a page shows it as
// a user without a profile sees it), from the same schema and values.
func (c *Chart) FormIn(ctx *schema.Context) *schema.Form {
	if c.Schema == nil {
		return nil
	}
	return schema.ComputeLazy(c.Schema, ctx, func() any {
		v, _ := c.FormValues()
		if v == nil {
			return nil
		}
		return v
	})
}

// Schemaless returns the launcher the platform opens for a chart without a
// schema (see schema.Schemaless); nil when the chart has one.
func (c *Chart) Schemaless() *schema.Form {
	if c.In.Schema != nil {
		return nil
	}
	v, _ := c.FormValues()
	return schema.Schemaless(c.In.Env, c.In.ValuesFile, v)
}

// ValuesDoc returns values.yaml parsed with positions, nil when absent;
// the error says why it does not parse.
func (c *Chart) ValuesDoc() (*srcpos.Node, error) {
	c.parseValues()
	return c.valuesDoc, c.valuesDocErr
}

// FormValues returns values.yaml as the platform's form reads it: YAML 1.2
// with the core schema (srcpos.ParseYAMLCore), where Helm reads YAML 1.1:
// yes and on stay strings, 0755 is 755 (493 to Helm), 0b101 and 1_000 are
// strings (5 and 1000 to Helm), and a merge key is a plain key. The form
// falls back on it; Helm installs with HelmValues. When the form's reader
// refuses the file, the error says why and the values are Helm's reading
// (nil when neither reads it). Nil values with no error: the chart has no
// values.
func (c *Chart) FormValues() (map[string]any, error) {
	c.formOnce.Do(func() {
		if c.In.Values == nil {
			return
		}
		// Read apart from ValuesDoc, on first need: most options have a
		// default, so most charts never fall back on values.yaml.
		core, err := srcpos.ParseYAMLCore(c.In.Values)
		c.formValues, c.formValuesErr = formValues(core, err, c.In.ValuesFile)
		if c.formValuesErr != nil {
			c.formValues = c.HelmValues
		}
	})
	return c.formValues, c.formValuesErr
}

func (c *Chart) parseValues() {
	c.valuesOnce.Do(func() {
		if c.In.Values == nil {
			return
		}
		c.valuesDoc, c.valuesDocErr = srcpos.ParseYAML(c.In.Values)
		if c.valuesDocErr != nil {
			c.valuesDoc = nil
		}
	})
}

// formValues reads a values document as the form does. An empty document
// is no values.
func formValues(root *srcpos.Node, err error, file string) (map[string]any, error) {
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	switch root.Kind {
	case srcpos.Null:
		return nil, nil
	case srcpos.Object:
		return root.Value().(map[string]any), nil
	}
	return nil, fmt.Errorf("%s:%d:%d: values.yaml is %s; Helm and the form read it as a mapping of option names to values", file, root.Pos.Line, root.Pos.Col, root.Kind.WithArticle())
}

// Load reads and analyses a chart of a catalog. A file that leads out of
// the catalog, or cannot be read, is an error. helmValues, when not nil,
// is values.yaml as Helm's loader read it (see Input.HelmValues).
func Load(cat *catalog.Catalog, ch *catalog.Chart, env schema.Env, ctx *schema.Context, helmValues map[string]any) (*Chart, error) {
	in := Input{SchemaFile: ch.SchemaFile, ValuesFile: ch.ValuesFile, Env: env, Context: ctx, HelmValues: helmValues}
	var err error
	if in.Values, err = readIn(cat, ch.ValuesFile); err != nil {
		return nil, err
	}
	if in.Schema, err = readIn(cat, ch.SchemaFile); err != nil {
		return nil, err
	}
	return Analyze(in)
}

// readIn reads a file of the catalog, nil when it is not named.
func readIn(cat *catalog.Catalog, file string) ([]byte, error) {
	if file == "" {
		return nil, nil
	}
	if cat != nil {
		real, err := cat.Contain(file)
		if err != nil {
			return nil, err
		}
		file = real
	}
	return srcpos.ReadFile(file)
}
