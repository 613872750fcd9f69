package chartdocs

// READMEs as helm-docs (github.com/norwoodj/helm-docs) writes them. Many
// catalogs keep their charts' READMEs with helm-docs: a README.md.gotmpl
// per chart, or helm-docs' default template. catalogist docs writes such a
// README whole, as helm-docs v1.14.2 would, but for the values section,
// which says what the form says rather than what values.yaml's comments do.
//
// helm-docs is GPL-3.0, which keeps it out of this binary: its named
// templates are written here from the output helm-docs documents and
// produces, and the tests run helm-docs itself side by side (see
// helmdocs_test.go).

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"gopkg.in/yaml.v3"

	"github.com/catalogist/catalogist/internal/base/invisible"
)

// HelmDocsVersion is the helm-docs release whose output docs matches, and
// the version a README's footer names when it named none before.
const HelmDocsVersion = "1.14.2"

// TemplateFile is the template helm-docs renders a chart's README from,
// in the chart's directory.
const TemplateFile = "README.md.gotmpl"

// defaultTemplate is helm-docs' default README, as its documentation
// gives it.
const defaultTemplate = `{{ template "chart.header" . }}
{{ template "chart.deprecationWarning" . }}

{{ template "chart.badgesSection" . }}

{{ template "chart.description" . }}

{{ template "chart.homepageLine" . }}

{{ template "chart.maintainersSection" . }}

{{ template "chart.sourcesSection" . }}

{{ template "chart.requirementsSection" . }}

{{ template "chart.valuesSection" . }}

{{ template "helm-docs.versionFooter" . }}
`

// maxRendered caps what a template writes: a template that loops
// without end fails rather than filling the disk or the memory.
const maxRendered = 8 << 20

// ChartInfo is what a README template reads: Chart.yaml's fields, under
// the names helm-docs gives them, so that a template written for
// helm-docs reads the same. The values are not among them: the values
// section is the form's (chart.valuesSection, chart.valuesTable).
type ChartInfo struct {
	ApiVersion  string `yaml:"apiVersion"` //nolint:revive // helm-docs' name, which templates use
	AppVersion  string `yaml:"appVersion"`
	KubeVersion string `yaml:"kubeVersion"`
	Name        string `yaml:"name"`
	Deprecated  bool   `yaml:"deprecated"`
	Description string `yaml:"description"`
	Version     string `yaml:"version"`
	Home        string `yaml:"home"`
	Type        string `yaml:"type"`
	Sources     []string
	Engine      string `yaml:"engine"`
	Maintainers []Maintainer
	// Dependencies are sorted as helm-docs sorts them: by repository,
	// then name.
	Dependencies []Dependency `yaml:"-"`
	// ChartDirectory is the chart's directory.
	ChartDirectory string `yaml:"-"`
	// HelmDocsVersion is the version the footer names.
	HelmDocsVersion string `yaml:"-"`
	// SkipVersionFooter is always false: helm-docs' --skip-version-footer
	// has no counterpart, a README's footer being how docs tells a README
	// helm-docs wrote.
	SkipVersionFooter bool `yaml:"-"`

	// values is whether the chart has a values section: a schema.
	values bool
	// raw is the chart as Chart.yaml says it, for the named templates, in
	// the copy a template reads (forTemplate).
	raw *ChartInfo
}

// Maintainer is one of Chart.yaml's maintainers.
type Maintainer struct {
	Email string `yaml:"email"`
	Name  string `yaml:"name"`
	Url   string `yaml:"url"` //nolint:revive // helm-docs' name, which templates use
}

// Dependency is one of the chart's dependencies.
type Dependency struct {
	Name       string `yaml:"name"`
	Version    string `yaml:"version"`
	Repository string `yaml:"repository"`
	Alias      string `yaml:"alias"`
}

type dependencies struct {
	Dependencies []Dependency `yaml:"dependencies"`
}

// ParseChartInfo reads Chart.yaml (chartFile names it in errors) and, for
// a chart of apiVersion v1, its requirements.yaml (nil when it has none),
// as helm-docs reads them: YAML scalars as written, whatever their type.
func ParseChartInfo(chartFile string, chartYAML []byte, requirementsFile string, requirements []byte) (*ChartInfo, error) {
	var info ChartInfo
	if err := yaml.Unmarshal(chartYAML, &info); err != nil {
		return nil, fmt.Errorf("%s: %w; correct Chart.yaml there", chartFile, err)
	}
	depsFile, depsYAML := chartFile, chartYAML
	if info.ApiVersion == "v1" {
		depsFile, depsYAML = requirementsFile, requirements
	}
	var deps dependencies
	if err := yaml.Unmarshal(depsYAML, &deps); err != nil {
		return nil, fmt.Errorf("%s: %w; correct the dependencies there", depsFile, err)
	}
	key := func(d Dependency) string { return d.Repository + "/" + d.Name }
	slices.SortStableFunc(deps.Dependencies, func(a, b Dependency) int { return strings.Compare(key(a), key(b)) })
	info.Dependencies = deps.Dependencies
	info.HelmDocsVersion = HelmDocsVersion
	return &info, nil
}

// footerLine is the last line of helm-docs' footer, which names the
// release that wrote the README.
var footerLine = regexp.MustCompile(`^Autogenerated from chart metadata using \[helm-docs v([0-9A-Za-z.+-]{1,64})\]\(https://github\.com/norwoodj/helm-docs/releases/v([0-9A-Za-z.+-]{1,64})\)$`)

// WrittenByHelmDocs returns the helm-docs version the footer of a README
// names, "" when its last line is no such footer.
func WrittenByHelmDocs(readme []byte) string {
	text := bytes.TrimRight(readme, " \t\r\n")
	last := text[bytes.LastIndexByte(text, '\n')+1:]
	m := footerLine.FindSubmatch(last)
	if m == nil || !bytes.Equal(m[1], m[2]) {
		return ""
	}
	return string(m[1])
}

// The named templates helm-docs documents, each written by a function of
// the chart (helmDocs below) so that a template file may call any of them,
// and redefine any.
var namedTemplates = []string{
	"chart.name", "chart.header", "chart.deprecationWarning", "chart.description",
	"chart.version", "chart.versionBadge", "chart.type", "chart.typeBadge",
	"chart.appVersion", "chart.appVersionBadge", "chart.badgesSection",
	"chart.homepage", "chart.homepageLine",
	"chart.maintainersHeader", "chart.maintainersTable", "chart.maintainersSection",
	"chart.sourcesHeader", "chart.sourcesList", "chart.sourcesSection",
	"chart.kubeVersion", "chart.kubeVersionLine",
	"chart.requirementsHeader", "chart.requirementsTable", "chart.requirementsSection",
	"chart.valuesHeader", "chart.valuesTable", "chart.valuesSection",
	"chart.valuesTableHtml", "chart.valuesSectionHtml", "chart.valueDefaultColumnRender",
	"helm-docs.version", "helm-docs.versionFooter",
}

// valuesPlaceholder is what the values templates write: the marker lines,
// between which the section goes once the template has run, out of reach
// of the blank-line folding helm-docs applies to the rest.
const valuesPlaceholder = Begin + "\n" + End

// badge is a shields.io badge, with a trailing blank as helm-docs writes
// it. shields.io reads a single dash as a separator.
func badge(label, value string) string {
	return "![" + label + ": " + chartText(value) + "](https://img.shields.io/badge/" + label + "-" +
		badgePath(strings.ReplaceAll(value, "-", "--")) + "-informational?style=flat-square) "
}

// badgePath writes a value into a badge's address as helm-docs does, but
// for the characters that would end the address or the image there (a
// blank, a parenthesis, a bracket, a control character...), which are
// percent-encoded: a version or a type keeps its bytes.
func badgePath(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~!$&'*+,;=:@/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// chartText writes a value of Chart.yaml or requirements.yaml as text
// wherever a template puts it in a line: as helm-docs writes it, but for
// what would make markup or end the line, escaped (see inline). > stays,
// as in kubeVersion's >=1.25.
func chartText(s string) string { return inline(s, false) }

// chartBlock writes a text of several lines (the chart's description) as
// helm-docs does, each line text, and none starting a heading, a quote, a
// list or a thematic break.
func chartBlock(s string) string {
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s), "\n")
	for i, l := range lines {
		lines[i] = paragraph(chartText(l))
	}
	return strings.Join(lines, "\n")
}

// link writes an address as helm-docs does, <address>, where Markdown
// reads that as a link showing the address: an http(s) URL or an e-mail
// address, with no blank, control character, angle bracket or pipe.
// Anything else is that text between &lt; and &gt;, which shows as
// helm-docs' does where it makes no link, and never as HTML (<img ...>).
func link(s string) string {
	if s == "" || isAutolink(s) {
		return "<" + s + ">"
	}
	return "&lt;" + chartText(s) + "&gt;"
}

// angle writes a link, nothing when there is none.
func angle(s string) string {
	if s == "" {
		return ""
	}
	return link(s)
}

var (
	// webAutolink is a URI autolink (CommonMark: a scheme, a colon, no
	// blank, control character or angle bracket) of http or https.
	webAutolink = regexp.MustCompile(`^(?i:https?):[^\x00-\x20\x7f<>|]*$`)
	// mailAutolink is CommonMark's e-mail autolink but for the pipe.
	mailAutolink = regexp.MustCompile("^[a-zA-Z0-9.!#$%&'*+/=?^_`{}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$")
)

// isAutolink reports whether <s> is a link Markdown shows as s.
func isAutolink(s string) bool {
	return !strings.ContainsFunc(s, invisible.Is) && (webAutolink.MatchString(s) || mailAutolink.MatchString(s))
}

// forTemplate is the chart as a template reads it: every text escaped as
// text (the description as a block), the chart as it is kept for the
// named templates, which escape each value for where they write it.
func (c *ChartInfo) forTemplate() *ChartInfo {
	t := *c
	t.raw = c
	for _, f := range []*string{&t.ApiVersion, &t.AppVersion, &t.KubeVersion, &t.Name, &t.Version, &t.Home, &t.Type, &t.Engine, &t.ChartDirectory} {
		*f = chartText(*f)
	}
	t.Description = chartBlock(c.Description)
	t.Sources = make([]string, len(c.Sources))
	for i, s := range c.Sources {
		t.Sources[i] = chartText(s)
	}
	t.Maintainers = make([]Maintainer, len(c.Maintainers))
	for i, m := range c.Maintainers {
		t.Maintainers[i] = Maintainer{Name: chartText(m.Name), Email: chartText(m.Email), Url: chartText(m.Url)}
	}
	t.Dependencies = make([]Dependency, len(c.Dependencies))
	for i, d := range c.Dependencies {
		t.Dependencies[i] = Dependency{Name: chartText(d.Name), Version: chartText(d.Version), Repository: chartText(d.Repository), Alias: chartText(d.Alias)}
	}
	return &t
}

// helmDocs writes the named template name for a chart, each value of the
// chart escaped for where it goes: text in a line or a table cell, a
// block for the description, a code span, a link's address.
func helmDocs(name string, c *ChartInfo) (string, error) {
	if c == nil {
		return "", fmt.Errorf("template %q needs the chart as its argument: {{ template %q . }}", name, name)
	}
	if c.raw != nil {
		c = c.raw
	}
	var b strings.Builder
	switch name {
	case "chart.name":
		return chartText(c.Name), nil
	case "chart.header":
		return "# " + headingText(c.Name) + "\n", nil
	case "chart.deprecationWarning":
		if c.Deprecated {
			return "> **:exclamation: This Helm Chart is deprecated!**", nil
		}
	case "chart.description":
		return chartBlock(c.Description), nil
	case "chart.version":
		return chartText(c.Version), nil
	case "chart.versionBadge":
		return badge("Version", c.Version), nil
	case "chart.type":
		return chartText(c.Type), nil
	case "chart.typeBadge":
		if c.Type != "" {
			return badge("Type", c.Type), nil
		}
	case "chart.appVersion":
		return chartText(c.AppVersion), nil
	case "chart.appVersionBadge":
		if c.AppVersion != "" {
			return badge("AppVersion", c.AppVersion), nil
		}
	case "chart.badgesSection":
		for _, n := range []string{"chart.versionBadge", "chart.typeBadge", "chart.appVersionBadge"} {
			s, _ := helmDocs(n, c)
			b.WriteString(s)
		}
	case "chart.homepage":
		return chartText(c.Home), nil
	case "chart.homepageLine":
		if c.Home != "" {
			return "**Homepage:** " + link(c.Home), nil
		}
	case "chart.maintainersHeader":
		return "## Maintainers", nil
	case "chart.maintainersTable":
		b.WriteString("| Name | Email | Url |\n| ---- | ------ | --- |")
		for _, m := range c.Maintainers {
			b.WriteString("\n| " + chartText(m.Name) + " | " + angle(m.Email) + " | " + angle(m.Url) + " |")
		}
	case "chart.maintainersSection":
		if len(c.Maintainers) > 0 {
			t, _ := helmDocs("chart.maintainersTable", c)
			return "## Maintainers\n\n" + t, nil
		}
	case "chart.sourcesHeader":
		return "## Source Code", nil
	case "chart.sourcesList":
		for _, s := range c.Sources {
			b.WriteString("\n* " + link(s))
		}
	case "chart.sourcesSection":
		if len(c.Sources) > 0 {
			l, _ := helmDocs("chart.sourcesList", c)
			return "## Source Code\n" + l, nil
		}
	case "chart.kubeVersion":
		return chartText(c.KubeVersion), nil
	case "chart.kubeVersionLine":
		if c.KubeVersion != "" {
			return "Kubernetes: " + span(c.KubeVersion, false), nil
		}
	case "chart.requirementsHeader":
		return "## Requirements", nil
	case "chart.requirementsTable":
		b.WriteString("| Repository | Name | Version |\n|------------|------|---------|")
		for _, d := range c.Dependencies {
			n := d.Name
			if d.Alias != "" {
				n = d.Alias + "(" + d.Name + ")"
			}
			b.WriteString("\n| " + chartText(d.Repository) + " | " + chartText(n) + " | " + chartText(d.Version) + " |")
		}
	case "chart.requirementsSection":
		if c.KubeVersion == "" && len(c.Dependencies) == 0 {
			return "", nil
		}
		b.WriteString("## Requirements\n\n")
		if c.KubeVersion != "" {
			b.WriteString("Kubernetes: " + span(c.KubeVersion, false) + "\n\n")
		}
		if len(c.Dependencies) > 0 {
			t, _ := helmDocs("chart.requirementsTable", c)
			b.WriteString(t)
		}
	case "chart.valuesHeader":
		return "## Values", nil
	case "chart.valuesTable", "chart.valuesTableHtml":
		if c.values {
			return valuesPlaceholder, nil
		}
	case "chart.valuesSection", "chart.valuesSectionHtml":
		if c.values {
			return "## Values\n\n" + valuesPlaceholder, nil
		}
	case "chart.valueDefaultColumnRender":
		// A hook of helm-docs' HTML values table, which the form's
		// section does not have.
	case "helm-docs.version":
		return c.HelmDocsVersion, nil
	case "helm-docs.versionFooter":
		v := c.HelmDocsVersion
		return "\n----------------------------------------------\nAutogenerated from chart metadata using [helm-docs v" + v +
			"](https://github.com/norwoodj/helm-docs/releases/v" + v + ")", nil
	default:
		return "", fmt.Errorf("no template %q", name)
	}
	return b.String(), nil
}

// funcs are the functions a template may call: sprig's, as for helm-docs
// and Helm, but for those that read the environment or the network: a
// README must not carry the CI's secrets, nor depend on who writes it.
func funcs() template.FuncMap {
	f := sprig.TxtFuncMap()
	for _, n := range []string{"env", "expandenv", "getHostByName"} {
		delete(f, n)
	}
	f["toYaml"] = func(v any) string {
		out, err := yaml.Marshal(v)
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(string(out), "\n")
	}
	f["fromYaml"] = func(s string) map[string]any {
		m := map[string]any{}
		if err := yaml.Unmarshal([]byte(s), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	f["helmDocsNamed"] = helmDocs
	return f
}

// render runs a README template (name names it in errors, text is its
// content; "" for helm-docs' default) for a chart, and folds blank lines
// as helm-docs does: a blank before a line's end dropped, three line
// endings or more in a row made two. The values section is left as its
// marker lines.
func render(name, text string, c *ChartInfo) ([]byte, error) {
	t := template.New(name).Funcs(funcs())
	var defs strings.Builder
	for _, n := range namedTemplates {
		fmt.Fprintf(&defs, "{{ define %q }}{{ helmDocsNamed %q . }}{{ end }}", n, n)
	}
	if _, err := t.Parse(defs.String()); err != nil {
		return nil, fmt.Errorf("the named templates: %w", err)
	}
	if text == "" {
		text = defaultTemplate
	}
	// A template file may redefine any named template: text/template
	// keeps the last definition, as helm-docs' does.
	if _, err := t.Parse(text); err != nil {
		return nil, fmt.Errorf("%w; correct the template there", err)
	}
	var out bytes.Buffer
	if err := t.Execute(&capped{w: &out, left: maxRendered}, c.forTemplate()); err != nil {
		if errors.Is(err, errTooLong) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		hint := "correct the template there"
		if strings.Contains(err.Error(), "can't evaluate field Values") || strings.Contains(err.Error(), "can't evaluate field Sections") {
			hint = "the values section is written from values.schema.json: call chart.valuesSection or chart.valuesTable instead of reading .Values"
		}
		return nil, fmt.Errorf("%w; %s", err, hint)
	}
	return foldBlankLines(out.Bytes()), nil
}

var (
	blankBeforeEOL = regexp.MustCompile(` \n`)
	blankLines     = regexp.MustCompile(`\n{3,}`)
)

// foldBlankLines folds blank lines as helm-docs does after rendering.
func foldBlankLines(b []byte) []byte {
	b = blankBeforeEOL.ReplaceAllLiteral(b, []byte("\n"))
	return blankLines.ReplaceAllLiteral(b, []byte("\n\n"))
}

// errTooLong stops a template that writes without end.
var errTooLong = errors.New("the template writes more than 8 MiB")

// capped is a writer that refuses more than left bytes.
type capped struct {
	w    io.Writer
	left int
}

func (c *capped) Write(p []byte) (int, error) {
	if len(p) > c.left {
		return 0, errTooLong
	}
	c.left -= len(p)
	return c.w.Write(p)
}
