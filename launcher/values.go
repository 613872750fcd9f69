package launcher

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"helm.sh/helm/v4/pkg/chart/common/util"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/cli/values"
	"helm.sh/helm/v4/pkg/getter"

	"github.com/catalogist/catalogist/doc"
	"github.com/catalogist/catalogist/region"
	"github.com/catalogist/catalogist/schema"
)

// Inputs are what a launch's values are computed from.
type Inputs struct {
	// Profile is the user's part of the launch context (git.*, user.*, ...).
	Profile map[string]any
	Region  *region.Region
	// CatalogSliders are the catalog's slider bounds, which the region's
	// replace; CatalogSource says where they were read, for messages.
	CatalogSliders map[string]*region.Slider
	CatalogSource  string
	// ExtensionKey is the schema extension of the chart's catalog.
	ExtensionKey string
	// ValueFiles (-f) and Set (--set) go on top of the form's values.
	ValueFiles []string
	Set        []string
}

// Values is the computation of a launch's values.
type Values struct {
	Schema *schema.Schema
	Form   *schema.Form
	// Overrides are the values given to Helm: the form's values, then the
	// -f files and --set on top. Helm adds the chart's values.yaml under them.
	Overrides map[string]any
	// Problems are every value the platform or Helm would refuse.
	Problems []schema.Problem
	// Warnings are worth printing but do not stop the launch.
	Warnings []string
}

// LoadProfile reads a profile file (YAML or JSON).
func LoadProfile(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the profile: %w", err)
	}
	root, err := doc.ParseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	if root.Kind == doc.Null {
		return map[string]any{}, nil
	}
	m, ok := root.Value().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s:%d:%d: a profile is a mapping such as `git: {name: Ada, email: ada@example.org}`", path, root.Pos.Line, root.Pos.Col)
	}
	return m, nil
}

// ComputeValues computes the values of a launch as the platform does: the
// form from the chart's schema, the profile and the region, then the -f
// files and --set on top; and checks the result against the schema as Helm
// validates it and against the effective slider bounds, units and enums.
func ComputeValues(ch *chart.Chart, in Inputs) (*Values, error) {
	v := &Values{Overrides: map[string]any{}}
	ctx := schema.NewContext(in.Profile, in.Region, in.CatalogSliders, in.CatalogSource)
	if len(ch.Schema) > 0 {
		key := in.ExtensionKey
		if key == "" {
			key = schema.DetectExtensionKey(ch.Schema)
		}
		s, err := schema.Parse(ch.Schema, key)
		if err != nil {
			return nil, fmt.Errorf("%s: values.schema.json: %w", ch.Name(), err)
		}
		v.Schema = s
		v.Form = schema.Compute(s, ctx, plain(ch.Values))
		v.Overrides = plain(v.Form.Values).(map[string]any)
	}
	user, err := (&values.Options{ValueFiles: in.ValueFiles, Values: in.Set}).MergeValues(getter.Providers{})
	if err != nil {
		return nil, err
	}
	v.Overrides = util.MergeTables(plain(user).(map[string]any), v.Overrides)
	if v.Schema == nil {
		return v, nil
	}
	final, err := util.CoalesceValues(ch, copyValues(v.Overrides))
	if err != nil {
		return nil, err
	}
	v.Problems = schema.Check(v.Schema, ctx, final)
	sch, err := compile(ch.Schema)
	if err != nil {
		v.Warnings = append(v.Warnings, fmt.Sprintf("the chart's schema was not checked before installing (%v); Helm checks it during the install", err))
		return v, nil
	}
	seen := map[string]bool{}
	for _, p := range v.Problems {
		seen[p.Path] = true
	}
	for _, p := range schema.HelmProblems(sch, final) {
		if !seen[p.Path] {
			v.Problems = append(v.Problems, p)
		}
	}
	return v, nil
}

// compile compiles a chart schema as Helm does.
func compile(data []byte) (sch *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the validator failed on this schema: %v", r)
		}
	}()
	docv, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		return nil, err
	}
	c := schema.NewHelmCompiler()
	const url = "file:///values.schema.json"
	if err := c.AddResource(url, docv); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// plain returns v with the types Helm's own YAML reading gives (float64
// numbers, map[string]any objects), through JSON.
func plain(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(data, &out) != nil {
		return v
	}
	if out == nil {
		return map[string]any{}
	}
	return out
}

func copyValues(m map[string]any) map[string]any {
	c, _ := plain(m).(map[string]any)
	return c
}

// ProblemsError is a launch refused for its values.
type ProblemsError struct {
	Chart    string
	Problems []schema.Problem
}

func (e *ProblemsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d value(s) not allowed, nothing was installed:", e.Chart, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// secretName matches option and key names whose values are secrets.
var secretName = regexp.MustCompile(`(?i)pass(word|wd)?$|secret|token|credential(s)?$|private.?key`)

// Masked returns the overrides with secrets masked, for printing: options
// the schema renders as passwords, and keys whose names say they hold one.
func (v *Values) Masked() map[string]any {
	out := copyValues(v.Overrides)
	if v.Schema != nil {
		for _, o := range v.Schema.Options {
			if o.Render == "password" && !o.InItems {
				maskAt(out, strings.Split(o.Path, "/"))
			}
		}
	}
	maskNamed(out)
	return out
}

const mask = "********"

func maskAt(m map[string]any, segs []string) {
	for i, s := range segs {
		x, ok := m[s]
		if !ok {
			return
		}
		if i == len(segs)-1 {
			if x != nil && x != "" {
				m[s] = mask
			}
			return
		}
		if m, ok = x.(map[string]any); !ok {
			return
		}
	}
}

func maskNamed(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if s, ok := c.(string); ok && s != "" && secretName.MatchString(k) {
				x[k] = mask
				continue
			}
			maskNamed(c)
		}
	case []any:
		for _, c := range x {
			maskNamed(c)
		}
	}
}
