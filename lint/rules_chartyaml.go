package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"
	"github.com/asaskevich/govalidator"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// helm lint reads Chart.yaml through sigs.k8s.io/yaml, not as the rules
// read it for positions (yaml.v3): YAML 1.1, where yes and on are
// booleans, and numbers and booleans turned into the text of the string
// fields they are written in, so that version: 1.10 loads as "1.1". The
// rules below judge what helm lint judges, with its validators, and report
// at the line the maintainer edits. Each case is one rule's: chart-metadata
// keeps what Helm needs to load the chart, chart-advice what it accepts.

// RuleChartVersion checks what helm lint requires of version and
// appVersion beyond what Helm loads.
var RuleChartVersion = &Rule{
	Name: "chart-version", Severity: Error, Scope: PerChart,
	Doc: "Chart.yaml's version and appVersion are strings, not YAML numbers (version: 1.10 is published as 1.1), and version is above 0.0.0-0, as helm lint requires",
	Run: checkChartVersion,
}

// RuleChartAPIVersion checks the chart format helm lint accepts.
var RuleChartAPIVersion = &Rule{
	Name: "chart-api-version", Severity: Error, Scope: PerChart,
	Doc: "Chart.yaml's apiVersion is v1 or v2, and a chart with dependencies or a type has apiVersion v2, as helm lint requires",
	Run: checkChartAPIVersion,
}

// RuleChartFieldType checks that Helm can decode every field of
// Chart.yaml.
var RuleChartFieldType = &Rule{
	Name: "chart-field-type", Severity: Error, Scope: PerChart,
	Doc: "every field of Chart.yaml has the type Helm reads (keywords and sources lists of strings, annotations a mapping of strings, deprecated a boolean, maintainers and dependencies lists of mappings), or Helm cannot load the chart",
	Run: checkChartFieldTypes,
}

// RuleChartMaintainers checks the maintainers as helm lint does.
var RuleChartMaintainers = &Rule{
	Name: "chart-maintainers", Severity: Error, Scope: PerChart,
	Doc: "every maintainer in Chart.yaml is an entry with a name, and its email and url are valid, as helm lint checks them",
	Run: checkChartMaintainers,
}

// RuleChartURLs checks sources and icon as helm lint does.
var RuleChartURLs = &Rule{
	Name: "chart-urls", Severity: Error, Scope: PerChart,
	Doc: "Chart.yaml's sources, and its icon when set, are URLs with a scheme, as helm lint requires: an icon file is named after the chart in the icons directory instead, with no icon: key",
	Run: checkChartURLs,
}

// helmChartFile is Chart.yaml as helm lint reads it.
type helmChartFile struct {
	meta chart.Metadata
	// raw holds the top-level values with the Go types helm lint checks
	// version and appVersion by (float64 for a number).
	raw map[string]any
	// decodeErr is the first field Helm cannot decode, nil when none.
	decodeErr *json.UnmarshalTypeError
}

// helmChartYAML is nil when Chart.yaml is not YAML, which chart-metadata
// reports.
var helmChartYAML = newDerived(func(p *Pass) *helmChartFile {
	data, err := srcpos.ReadFile(p.Chart.ChartFile)
	if err != nil {
		return nil
	}
	hf := &helmChartFile{}
	if yaml.Unmarshal(data, &hf.raw) != nil {
		return nil
	}
	// encoding/json fills what it can past a field it cannot decode.
	if err := yaml.Unmarshal(data, &hf.meta); err != nil && !errors.As(err, &hf.decodeErr) {
		return nil
	}
	return hf
})

func checkChartVersion(p *Pass) {
	root := chartDoc(p, false)
	if root == nil {
		return
	}
	hf := helmChartYAML.of(p)
	if hf == nil {
		return
	}
	file := p.Chart.ChartFile
	if n := root.Get("version"); n != nil {
		_, isNumber := hf.raw["version"].(float64)
		switch {
		case isNumber && hf.meta.Version != n.Text:
			p.Reportf(file, n.Pos, n.Pointer(), "version %s is a YAML number, which Helm reads, and would publish, as %s, and helm lint refuses: quote it, version: %q", n.Text, hf.meta.Version, n.Text)
		case isNumber:
			p.Reportf(file, n.Pos, n.Pointer(), "version %s is a YAML number, which helm lint refuses (1.10 would be published as 1.1): quote it, version: %q", n.Text, n.Text)
		case n.Kind == srcpos.String:
			if v, err := semver.NewVersion(n.Text); err == nil && !lowestVersion.Check(v) {
				p.Reportf(file, n.Pos, n.Pointer(), "version %q is not above 0.0.0-0, which helm lint refuses: write a version such as 0.1.0", n.Text)
			}
		}
	}
	n := root.Get("appVersion")
	if n == nil {
		return
	}
	switch v := hf.raw["appVersion"].(type) {
	case string:
		// What helm lint wants, whatever the text.
	case float64:
		read := ""
		if hf.meta.AppVersion != n.Text {
			read = fmt.Sprintf(", which Helm reads as %s,", hf.meta.AppVersion)
		}
		p.Reportf(file, n.Pos, n.Pointer(), "appVersion %s is a YAML number%s and helm lint refuses it: quote it, appVersion: %q", n.Text, read, n.Text)
	case bool:
		p.Reportf(file, n.Pos, n.Pointer(), "appVersion %s is a YAML boolean (%t), which helm lint refuses: quote it, appVersion: %q", n.Text, v, n.Text)
	case nil:
		p.Reportf(file, n.Pos, n.Pointer(), "appVersion is empty, which helm lint refuses: write the version of the app, quoted (appVersion: \"1.0.0\"), or remove the key")
	default:
		p.Reportf(file, n.Pos, n.Pointer(), "appVersion is %s, which Helm cannot load: write the version of the app, quoted (appVersion: \"1.0.0\")", yamlKind(n))
	}
}

// lowestVersion is what helm lint requires of a version: 0.0.0-0 is the
// only one it refuses.
var lowestVersion, _ = semver.NewConstraint(">0.0.0-0")

func checkChartAPIVersion(p *Pass) {
	root := chartDoc(p, false)
	if root == nil {
		return
	}
	n := root.Get("apiVersion")
	if n == nil || (n.Kind != srcpos.String && n.Kind != srcpos.Number) {
		// chart-metadata asks for apiVersion: v2.
		return
	}
	file := p.Chart.ChartFile
	switch n.Text {
	case "v2":
		return
	case "v1":
	case "":
		p.Reportf(file, n.Pos, n.Pointer(), "apiVersion is empty, which helm lint refuses: write apiVersion: v2")
		return
	default:
		p.Reportf(file, n.Pos, n.Pointer(), "apiVersion %q is neither v1 nor v2, which helm lint refuses: write apiVersion: v2", n.Text)
		return
	}
	if d := root.Get("dependencies"); d != nil && d.Kind == srcpos.Array && len(d.Items) > 0 {
		p.Reportf(file, d.Pos, d.Pointer(), "dependencies in Chart.yaml need apiVersion: v2 (a v1 chart lists them in requirements.yaml), so helm lint refuses them: write apiVersion: v2")
	}
	if t := root.Get("type"); t != nil && t.Text != "" {
		p.Reportf(file, t.Pos, t.Pointer(), "type needs apiVersion: v2, so helm lint refuses it with apiVersion v1: write apiVersion: v2")
	}
}

func checkChartMaintainers(p *Pass) {
	root := chartDoc(p, false)
	if root == nil {
		return
	}
	list := root.Get("maintainers")
	if list == nil || list.Kind != srcpos.Array {
		// Another shape is chart-field-type's.
		return
	}
	file := p.Chart.ChartFile
	for i, m := range list.Items {
		switch m.Kind {
		case srcpos.Null:
			p.Reportf(file, m.Pos, m.Pointer(), "maintainer %d is empty, which Helm refuses: give it a name (and an email or url), or remove the entry", i+1)
			continue
		case srcpos.Object:
		default:
			continue
		}
		n, email, u := m.Get("name"), m.Get("email"), m.Get("url")
		name := scalarText(n)
		who := fmt.Sprintf("maintainer %q", name)
		if name == "" {
			who = fmt.Sprintf("maintainer %d", i+1)
		}
		if name == "" && (n == nil || (n.Kind != srcpos.Array && n.Kind != srcpos.Object)) {
			at := m
			if n != nil {
				at = n
			}
			p.Reportf(file, at.Pos, at.Pointer(), "maintainer %d has no name, which helm lint requires: add name: with the person's or team's name", i+1)
		}
		if t := scalarText(email); t != "" && !govalidator.IsEmail(t) {
			p.Reportf(file, email.Pos, email.Pointer(), "email %q of %s is not an email address, which helm lint refuses: write one such as team@example.org, or remove email", t, who)
		}
		if t := scalarText(u); t != "" && !govalidator.IsURL(t) {
			p.Reportf(file, u.Pos, u.Pointer(), "url %q of %s is not a URL, which helm lint refuses: write one such as https://example.org/team, or remove url", t, who)
		}
	}
}

// scalarText is the text of a scalar as Helm reads it into a string, ""
// for none or for a list or mapping (chart-field-type's).
func scalarText(n *srcpos.Node) string {
	if n == nil || n.Kind == srcpos.Array || n.Kind == srcpos.Object {
		return ""
	}
	return n.Text
}

func checkChartURLs(p *Pass) {
	root := chartDoc(p, false)
	if root == nil {
		return
	}
	file := p.Chart.ChartFile
	if list := root.Get("sources"); list != nil && list.Kind == srcpos.Array {
		for i, s := range list.Items {
			if s.Kind == srcpos.Array || s.Kind == srcpos.Object {
				continue
			}
			switch {
			case s.Text == "":
				p.Reportf(file, s.Pos, s.Pointer(), "source %d is empty, which helm lint refuses: write the URL of the chart's sources, or remove the entry", i+1)
			case !govalidator.IsRequestURL(s.Text):
				p.Reportf(file, s.Pos, s.Pointer(), "source %q is not a URL with a scheme, which helm lint refuses: write %s", s.Text, urlFor(s.Text))
			}
		}
	}
	icon := root.Get("icon")
	if icon == nil || !helmRefusesIcon(icon) {
		return
	}
	named := iconNamedAfter(p.Catalog, p.Chart.Name, icon.Text)
	if u, err := url.Parse(icon.Text); err == nil && u.Scheme == "" && u.Host == "" {
		p.Reportf(file, icon.Pos, icon.Pointer(), "icon %q is a file path, which helm lint refuses (icon must be a URL): remove icon: and name the file %s, which catalogist finds by the chart's name, or write an https URL", icon.Text, named)
		return
	}
	p.Reportf(file, icon.Pos, icon.Pointer(), "icon %q is not a URL Helm accepts (a scheme, a host and no spaces), which helm lint refuses: write an https URL, or remove icon: and name the file %s, which catalogist finds by the chart's name", icon.Text, named)
}

// helmRefusesIcon reports an icon helm lint refuses, which chart-urls
// reports and chart-icon leaves alone.
func helmRefusesIcon(icon *srcpos.Node) bool {
	return icon.Kind != srcpos.Array && icon.Kind != srcpos.Object && icon.Text != "" && !govalidator.IsRequestURL(icon.Text)
}

// iconNamedAfter is the path, from the catalog, of the icon file named
// after a chart, with the extension of the file an icon path names.
func iconNamedAfter(cat *catalog.Catalog, chartName, iconPath string) string {
	ext := strings.ToLower(filepath.Ext(iconPath))
	if !slices.Contains(catalog.IconExtensions, ext) {
		ext = ".svg"
	}
	dir, err := filepath.Rel(cat.Dir, cat.IconsDir())
	if err != nil {
		dir = cat.IconsDir()
	}
	return filepath.ToSlash(filepath.Join(dir, chartName+ext))
}

// urlFor says what URL to write for text that is not one.
func urlFor(text string) string {
	if u, err := url.Parse("https://" + text); err == nil && !strings.ContainsAny(text, " :") && strings.Contains(u.Host, ".") {
		return "https://" + text
	}
	return "a URL such as https://github.com/org/repo"
}

// chartMetadataType is the Go type Helm decodes Chart.yaml into.
var chartMetadataType = reflect.TypeFor[chart.Metadata]()

func checkChartFieldTypes(p *Pass) {
	root := chartDoc(p, false)
	if root == nil || root.Kind != srcpos.Object {
		return
	}
	var lines []string
	if data, err := srcpos.ReadFile(p.Chart.ChartFile); err == nil {
		lines = strings.Split(string(data), "\n")
	}
	w := typeWalk{plain: func(n *srcpos.Node) bool { return plainScalar(lines, n) }}
	w.walk(root, chartMetadataType)
	found := w.found
	for _, m := range found {
		if ownedElsewhere(m.node) {
			continue
		}
		fix := typeFix(m.want)
		if toks := srcpos.SplitPointer(m.node.Pointer()); len(toks) == 2 && toks[0] == "annotations" && m.want.Kind() == reflect.String && (m.node.Kind == srcpos.Array || m.node.Kind == srcpos.Object) {
			// Artifact Hub's annotations hold YAML in a string.
			fix = fmt.Sprintf("write the YAML as a block, %s: |, with the entries indented below", toks[1])
		}
		p.Reportf(p.Chart.ChartFile, m.node.Pos, m.node.Pointer(), "%s is %s, where Helm reads %s, so it cannot load the chart: %s", fieldName(m.node), yamlKind(m.node), typeWords(m.want), fix)
	}
	if len(found) > 0 {
		return
	}
	// Helm's decoder has the last word on what the walk may not foresee.
	if hf := helmChartYAML.of(p); hf != nil && hf.decodeErr != nil {
		top, _, _ := strings.Cut(hf.decodeErr.Field, ".")
		n := root
		if m := root.Get(top); m != nil {
			n = m
		}
		if !ownedElsewhere(n) {
			p.Reportf(p.Chart.ChartFile, n.Pos, n.Pointer(), "%s is %s to Helm, where it reads %s, so it cannot load the chart: %s", hf.decodeErr.Field, articled(hf.decodeErr.Value), typeWords(hf.decodeErr.Type), typeFix(hf.decodeErr.Type))
		}
	}
}

// typeMismatch is a value of Chart.yaml Helm cannot decode into the Go
// type it reads there.
type typeMismatch struct {
	node *srcpos.Node
	want reflect.Type
}

// typeWalk walks a value against the type Helm decodes it into, through
// sigs.k8s.io/yaml: any scalar fits a string (Helm turns numbers and
// booleans into text), null fits anything, and YAML 1.1 reads yes, no, on
// and off as booleans when they are not quoted, as plain says.
type typeWalk struct {
	plain func(*srcpos.Node) bool
	found []typeMismatch
}

func (w *typeWalk) walk(n *srcpos.Node, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == srcpos.Null {
		return
	}
	bad := false
	switch t.Kind() {
	case reflect.String:
		bad = n.Kind == srcpos.Array || n.Kind == srcpos.Object
	case reflect.Bool:
		bad = n.Kind != srcpos.Bool && !(n.Kind == srcpos.String && yaml11Bools[n.Text] && w.plain(n))
	case reflect.Slice:
		if bad = n.Kind != srcpos.Array; !bad {
			for _, it := range n.Items {
				w.walk(it, t.Elem())
			}
		}
	case reflect.Map:
		if bad = n.Kind != srcpos.Object; !bad {
			for _, m := range n.Members {
				w.walk(m, t.Elem())
			}
		}
	case reflect.Struct:
		if bad = n.Kind != srcpos.Object; !bad {
			for _, m := range n.Members {
				if f, ok := jsonField(t, m.Key); ok {
					w.walk(m, f.Type)
				}
			}
		}
	}
	if bad {
		w.found = append(w.found, typeMismatch{node: n, want: t})
	}
}

// yaml11Bools are the plain words YAML 1.1 reads as booleans and YAML 1.2
// as strings.
var yaml11Bools = map[string]bool{}

func init() {
	for _, w := range []string{"y", "yes", "n", "no", "on", "off"} {
		yaml11Bools[w], yaml11Bools[strings.ToUpper(w)], yaml11Bools[strings.ToUpper(w[:1])+w[1:]] = true, true, true
	}
}

// plainScalar reports a scalar written without quotes, so that YAML 1.1
// may read it as a boolean; unsure without the file's line, it says yes.
func plainScalar(lines []string, n *srcpos.Node) bool {
	if n.Pos.Line < 1 || n.Pos.Line > len(lines) {
		return true
	}
	line := []rune(lines[n.Pos.Line-1])
	if n.Pos.Col < 1 || n.Pos.Col > len(line) {
		return true
	}
	c := line[n.Pos.Col-1]
	return c != '"' && c != '\''
}

// jsonField finds the field encoding/json decodes a key into: its exact
// name, else one equal under case folding.
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	var folded *reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if name == key {
			return f, true
		}
		if folded == nil && strings.EqualFold(name, key) {
			folded = &f
		}
	}
	if folded != nil {
		return *folded, true
	}
	return reflect.StructField{}, false
}

// ownedElsewhere reports a value whose wrong type another rule reports:
// chart-metadata the fields it checks, chart-version appVersion.
func ownedElsewhere(n *srcpos.Node) bool {
	toks := srcpos.SplitPointer(n.Pointer())
	switch {
	case len(toks) == 1:
		return slices.Contains([]string{"apiVersion", "name", "version", "description", "appVersion", "dependencies"}, toks[0])
	case len(toks) == 2 && toks[0] == "dependencies":
		return true
	case len(toks) == 3 && toks[0] == "dependencies":
		return toks[2] == "name"
	}
	return false
}

// fieldName names a value of Chart.yaml as a maintainer reads it:
// maintainers[1].email.
func fieldName(n *srcpos.Node) string {
	var b strings.Builder
	for _, tok := range srcpos.SplitPointer(n.Pointer()) {
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 {
			fmt.Fprintf(&b, "[%d]", i)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// typeWords says in words what a Go type of chart.Metadata holds.
func typeWords(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeFor[chart.Maintainer]():
		return "a mapping with name, email and url"
	case reflect.TypeFor[chart.Dependency]():
		return "a mapping with name, version and repository"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list of " + pluralWords(typeWords(t.Elem()))
	case reflect.Map:
		return "a mapping of " + pluralWords(typeWords(t.Elem()))
	}
	return "a value"
}

// typeFix says what to write for a value of a Go type of chart.Metadata.
func typeFix(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "write one line of text, quoted when it holds a colon or starts with [ or {"
	case reflect.Bool:
		return "write true or false, unquoted"
	case reflect.Slice:
		return "write a list, one \"- \" entry a line"
	case reflect.Map:
		return "write key: value lines indented below it, a value holding YAML as a block (key: |)"
	case reflect.Struct:
		return "write " + strings.TrimPrefix(typeWords(t), "a mapping with ") + " as key: value lines"
	}
	return "write " + typeWords(t)
}

// articled puts an article before the name of a JSON kind Helm's decoder
// gives ("string", "array").
func articled(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// pluralWords turns "a string" into "strings", "a mapping with ..." into
// "mappings with ...".
func pluralWords(s string) string {
	s = strings.TrimPrefix(s, "a ")
	head, rest, _ := strings.Cut(s, " ")
	if rest != "" {
		rest = " " + rest
	}
	return head + "s" + rest
}
