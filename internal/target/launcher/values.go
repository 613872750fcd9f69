package launcher

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/cli/values"
	"helm.sh/helm/v4/pkg/getter"
	"helm.sh/helm/v4/pkg/strvals"

	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/input/srcpos"
	"github.com/catalogist/catalogist/internal/model/analysis"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// Inputs are what a launch's values are computed from.
type Inputs struct {
	// Profile is the launch context document (user, project, git, vault, s3,
	// s3_array, region, k8s, ...); the region's values are merged under its
	// region key.
	Profile map[string]any
	Region  *region.Region
	// CatalogSliders are the catalog's slider bounds, which the region's
	// replace; CatalogSource says where they were read, for messages.
	CatalogSliders map[string]*region.Slider
	CatalogSource  string
	// ExtensionKey is the schema extension of the chart's catalog; empty
	// means the one the chart's schema uses.
	ExtensionKey string
	// Platform names the platform whose form is reproduced; empty means the
	// one the extension key implies (schema.PlatformFor).
	Platform string
	// Registry is the platform API's schema registry; nil resolves only the
	// schema's own #/definitions references.
	Registry *schema.Registry
	// ValueFiles (-f), SetJSON (--set-json), Set (--set) and SetString
	// (--set-string) go on top of the form's values, in Helm's order.
	ValueFiles []string
	Set        []string
	SetString  []string
	SetJSON    []string
}

// Values is the computation of a launch's values.
type Values struct {
	Schema *schema.Schema
	// Form is the form the platform computes, the launcher with no fields
	// of a chart without a schema (Schema nil), nil without values.yaml.
	Form *schema.Form
	// Overrides are the values given to Helm: the form's values, then the
	// -f files and --set on top. Helm adds the chart's values.yaml under them.
	Overrides map[string]any
	// Problems are every value the platform or Helm would refuse.
	Problems []schema.Problem
	// Unopenable are what keeps the platform's form from opening for the
	// chart (or its API from serving the schema): a user could not launch
	// the chart on the platform at all.
	Unopenable []FormFailure
	// Warnings are worth printing but do not stop the launch.
	Warnings []string
	// Secrets are what the launch holds that is secret: the options
	// rendered as passwords, the strings of keys named like secrets (in the
	// values and on the command line) and the launch context's
	// credentials. Everything printed about the launch is masked with them.
	Secrets *secret.Set
}

// LoadProfile reads a profile file (YAML or JSON): a launch context
// document.
func LoadProfile(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the profile: %w", err)
	}
	root, err := srcpos.ParseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	if root.Kind == srcpos.Null {
		return map[string]any{}, nil
	}
	m, ok := root.Value().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s:%d:%d: a profile is a launch context mapping such as `git: {name: Ada, email: ada@example.org}`", path, root.Pos.Line, root.Pos.Col)
	}
	return m, nil
}

// schemaFile names the chart's schema in messages; the chart and its
// version head them.
const schemaFile = "values.schema.json"

// ComputeValues computes the values of a launch as the platform does: the
// chart's schema as the platform's API serves it (registry schemas
// substituted, references inlined), its form from the profile, the region
// and the chart's values.yaml, then the -f files and --set flags on top; and
// checks the result against the schema as Helm validates it and against the
// effective slider bounds, units and enums. What keeps the platform's form
// from opening is recorded in Unopenable.
func ComputeValues(ch *chart.Chart, in Inputs) (*Values, error) {
	v := &Values{Overrides: map[string]any{}, Secrets: InputSecrets(in)}
	ctx := schema.NewContext(in.Profile, in.Region, in.CatalogSliders, in.CatalogSource)
	if len(ch.Schema) > 0 {
		env, err := schema.EnvFor(schema.Overrides{ExtensionKey: in.ExtensionKey, Platform: in.Platform, Registry: in.Registry}, nil, ch.Schema, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ch.Name(), err)
		}
		p := env.Platform
		a, err := analysis.Analyze(analysis.Input{SchemaFile: schemaFile, Schema: ch.Schema, ValuesFile: "values.yaml", Values: rawValues(ch), Env: env, Context: ctx})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ch.Name(), err)
		}
		if a.SchemaErr != nil {
			return nil, fmt.Errorf("%s: %s:%w", ch.Name(), schemaFile, a.SchemaErr)
		}
		// The platform's form refuses what its reader refuses; Helm still
		// installs with its own reading.
		if _, err := a.FormValues(); err != nil {
			return nil, fmt.Errorf("%s: %w", ch.Name(), err)
		}
		s := a.Schema
		v.Schema = s
		for _, o := range s.Options {
			if o.Render == "password" {
				v.Secrets.AddPath(o.Key)
			}
		}
		v.Form = a.Form
		v.Overrides = schema.HelmValues(v.Form.Values)
		v.Secrets.AddValues(nil, v.Overrides)
		v.Unopenable = unopenable(s, v.Form)
		if r := in.Region; r != nil && !p.RegionBoundsInContext && (len(r.Sliders) > 0 || len(r.Resources) > 0) {
			v.Warnings = append(v.Warnings, fmt.Sprintf("the %s platform has no region resources or slider configurations, so those of %s are not used", p.Name, r.File))
		}
	} else if raw := rawValues(ch); raw != nil {
		// Without a schema the platform opens a launcher with no fields,
		// which sends values.yaml as its form reads it (YAML 1.2), without
		// empty lists: what it reads otherwise than Helm (0755, yes) is
		// sent over Helm's own reading.
		a, err := analysis.Analyze(analysis.Input{ValuesFile: "values.yaml", Values: raw, Context: ctx})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ch.Name(), err)
		}
		if _, err := a.FormValues(); err != nil {
			return nil, fmt.Errorf("%s: %w", ch.Name(), err)
		}
		v.Form = a.Schemaless()
		v.Overrides = schema.HelmValues(v.Form.Values)
		v.Secrets.AddValues(nil, v.Overrides)
	}
	user, err := userValues(in)
	if err != nil {
		return nil, v.Secrets.Err(err)
	}
	v.Overrides = util.MergeTables(schema.HelmValues(user), v.Overrides)
	v.Secrets.AddValues(nil, v.Overrides)
	for i, f := range v.Unopenable {
		v.Unopenable[i].Msg = v.Secrets.Scrub(f.Msg)
	}
	if v.Schema == nil {
		return v, nil
	}
	final, err := util.CoalesceValues(ch, schema.HelmValues(v.Overrides))
	if err != nil {
		return nil, v.Secrets.Err(err)
	}
	v.Problems = schema.Check(v.Schema, ctx, final)
	if sch, err := schema.CompileHelm(ch.Schema); err != nil {
		v.Warnings = append(v.Warnings, fmt.Sprintf("the chart's schema was not checked before installing (%v); Helm checks it during the install", err))
	} else {
		v.Problems = mergeProblems(v.Schema, v.Problems, schema.HelmProblems(sch, final))
	}
	maskProblems(v.Schema, v.Secrets, v.Problems)
	return v, nil
}

// InputSecrets are the secrets of a launch's inputs, known before its
// values are computed, so that a message about a value given on the command
// line never repeats it: the launch context's credentials, and the values
// --set, --set-string and --set-json give to keys named like secrets.
func InputSecrets(in Inputs) *secret.Set {
	s := &secret.Set{}
	s.AddContext(in.Profile)
	parse := map[string]func(string, map[string]any) error{
		"set": strvals.ParseInto, "set-string": strvals.ParseIntoString, "set-json": parseJSONValue,
	}
	for flag, vals := range map[string][]string{"set": in.Set, "set-string": in.SetString, "set-json": in.SetJSON} {
		for _, e := range vals {
			m := map[string]any{}
			if err := parse[flag](e, m); err == nil {
				s.AddValues(nil, schema.HelmValues(m))
			}
			// What a key named like a secret is given is one as typed,
			// whether it parses or not, and whatever type it parses to
			// (a PIN is a number).
			key, val, ok := strings.Cut(e, "=")
			if !ok || !secret.Named(lastSegment(key)) {
				continue
			}
			s.Add(val, strings.Trim(val, `"'`))
			s.Add(strings.Split(val, ",")...)
		}
	}
	return s
}

// parseJSONValue reads a --set-json value as Helm does: KEY=JSON, or a
// whole JSON object.
func parseJSONValue(e string, dest map[string]any) error {
	if strings.HasPrefix(strings.TrimSpace(e), "{") {
		return json.Unmarshal([]byte(e), &dest)
	}
	return strvals.ParseJSON(e, dest)
}

// lastSegment is the last key of a --set path: a.b[0].c gives c.
func lastSegment(key string) string {
	key = strings.TrimRight(key, "]0123456789[")
	if i := strings.LastIndexAny(key, ".["); i >= 0 {
		return key[i+1:]
	}
	return key
}

// maskProblems masks the refused values of secrets: the values of password
// options and keys named like secrets, the secrets inside a refused group
// or list, and any secret string a reason quotes.
func maskProblems(s *schema.Schema, sec *secret.Set, problems []schema.Problem) {
	for i, p := range problems {
		segs := p.Key
		o := s.Resolve(segs)
		if len(segs) > 0 && (o != nil && o.Render == "password" || secret.Named(segs[len(segs)-1])) {
			if str, ok := p.Value.(string); ok && str != "" {
				problems[i].Reason = strings.ReplaceAll(p.Reason, str, secret.Mask)
			}
			if p.Value != nil && p.Value != "" {
				problems[i].Value = secret.Mask
			}
		} else {
			problems[i].Value = sec.Mask(segs, p.Value)
		}
		problems[i].Reason = sec.Scrub(problems[i].Reason)
	}
}

// mergeProblems adds Helm's problems to the platform's, one per path. The
// platform's form reads a value of another type leniently (9 as "9") and
// judges its bounds; Helm, like the platform's API, refuses it for its type
// first, so that refusal, which says what to write, wins.
func mergeProblems(s *schema.Schema, platform, helm []schema.Problem) []schema.Problem {
	at := map[string]int{}
	out := append([]schema.Problem(nil), platform...)
	for i, p := range out {
		at[p.Path] = i
	}
	for _, p := range helm {
		o := s.Resolve(p.Key)
		i, seen := at[p.Path]
		typed := o != nil && o.Type != "" && !hasType(p.Value, o.Type)
		if typed {
			// The platform's Allowed says what fits besides the type.
			var allowed []string
			if seen && out[i].Allowed != "" && out[i].Allowed != "type "+o.Type {
				allowed = append(allowed, out[i].Allowed)
			}
			if o.Type == "string" {
				allowed = append(allowed, "--set-string sets a string")
			}
			p.Allowed = strings.Join(allowed, "; ")
		}
		switch {
		case !seen:
			at[p.Path] = len(out)
			out = append(out, p)
		case typed:
			out[i] = p
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// hasType reports whether a plain value is of a JSON Schema type.
func hasType(v any, t string) bool {
	switch x := v.(type) {
	case string:
		return t == "string"
	case bool:
		return t == "boolean"
	case float64:
		return t == "number" || (t == "integer" && x == math.Trunc(x))
	case map[string]any:
		return t == "object"
	case []any:
		return t == "array"
	}
	return false
}

// rawValues is the chart's values.yaml as written, nil when it has none. A
// chart assembled in memory has no raw files: its values, written as JSON
// (which YAML 1.2 reads alike), are all there is.
func rawValues(ch *chart.Chart) []byte {
	for _, files := range [][]*common.File{ch.Raw, ch.Files} {
		for _, f := range files {
			if f != nil && f.Name == "values.yaml" {
				return f.Data
			}
		}
	}
	if len(ch.Values) == 0 {
		return nil
	}
	data, err := json.Marshal(ch.Values)
	if err != nil {
		return nil
	}
	return data
}

// userValues merges -f, --set-json, --set and --set-string as Helm does.
func userValues(in Inputs) (map[string]any, error) {
	opts := values.Options{ValueFiles: in.ValueFiles, Values: in.Set, StringValues: in.SetString, JSONValues: in.SetJSON}
	user, err := opts.MergeValues(getter.Providers{})
	if err != nil && strings.HasPrefix(err.Error(), "failed parsing --set-json data") {
		// Helm's message repeats the whole value, which may be a secret.
		return nil, setJSONError(in.SetJSON)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the values given on the command line: %w", err)
	}
	return user, nil
}

// setJSONError names the --set-json value that is not JSON by its key
// alone.
func setJSONError(vals []string) error {
	for i, s := range vals {
		if _, err := (&values.Options{JSONValues: []string{s}}).MergeValues(getter.Providers{}); err == nil {
			continue
		}
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") {
			return fmt.Errorf("--set-json value %d is not a JSON object; write KEY=JSON or a whole object such as '{\"a\": {\"b\": 1}}'", i+1)
		}
		key, _, _ := strings.Cut(s, "=")
		return fmt.Errorf("--set-json %s: the value is not JSON (a string needs its quotes: %s='\"text\"'); write KEY=JSON", key, key)
	}
	return fmt.Errorf("--set-json: a value cannot be merged with the others; write KEY=JSON")
}

// FormFailure is one reason the platform's form would not open for a chart,
// where the chart (or a registry schema) should be edited.
type FormFailure struct {
	File string
	Pos  srcpos.Pos
	Msg  string
}

func (f FormFailure) String() string {
	if !f.Pos.IsValid() {
		return fmt.Sprintf("%s: %s", f.File, f.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", f.File, f.Pos.Line, f.Pos.Col, f.Msg)
}

// unopenable lists what keeps the platform from showing the chart's form:
// a schema its API cannot serve, nodes of a shape the form refuses, and
// failures of the form's computation that do not wait for a hidden option
// to be shown. Each is at its file and position.
func unopenable(s *schema.Schema, f *schema.Form) []FormFailure {
	var out []FormFailure
	seen := map[FormFailure]bool{}
	add := func(n *srcpos.Node, atKey bool, msg string) {
		ff := FormFailure{File: s.File, Msg: msg}
		if n != nil {
			ff.File, ff.Pos = s.FileOf(n), n.Pos
			if atKey && n.KeyPos.IsValid() {
				ff.Pos = n.KeyPos
			}
		}
		if !seen[ff] {
			seen[ff] = true
			out = append(out, ff)
		}
	}
	for _, e := range s.ResolveErrors {
		add(e.Node, false, e.Msg)
	}
	// The shape checks say in detail what the computation's shape failures
	// only name.
	shaped := map[*schema.Option]bool{}
	for _, sh := range s.Shapes() {
		add(sh.Node, sh.AtKey, sh.Msg)
		shaped[sh.Option] = true
	}
	for _, fl := range f.Failures {
		if fl.Revealed || (fl.Kind == schema.FailShape && shaped[fl.Option]) {
			continue
		}
		add(fl.Node, false, fl.Msg)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Pos.Col < b.Pos.Col
	})
	return out
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

// FormError is a launch refused because the platform's form would not open
// for the chart: the platform would not let a user launch it either.
type FormError struct {
	Chart    string
	Platform string
	Failures []FormFailure
	// Problems are the values refused besides.
	Problems []schema.Problem
}

func (e *FormError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the %s platform's form would not open for this chart, so the platform would not let a user launch it either; nothing was installed:", e.Chart, e.Platform)
	for _, f := range e.Failures {
		b.WriteString("\n  " + f.String())
	}
	if len(e.Problems) > 0 {
		fmt.Fprintf(&b, "\nand %d value(s) not allowed:", len(e.Problems))
		for _, p := range e.Problems {
			b.WriteString("\n  " + p.String())
		}
	}
	return b.String()
}

// Masked returns the overrides with secrets masked, for printing: options
// the schema renders as passwords, keys whose names say they hold one, and
// strings holding a secret of the launch context or the command line.
func (v *Values) Masked() map[string]any {
	m, _ := v.Secrets.Mask(nil, schema.HelmValues(v.Overrides)).(map[string]any)
	return m
}
