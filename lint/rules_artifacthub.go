package lint

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// Artifact Hub lists a chart version from the annotations of its Chart.yaml
// (internal/tracker/source/helm in artifacthub/hub): a changes, links or
// images value it cannot read, or a prerelease or containsSecurityUpdates
// that strconv.ParseBool refuses, fails the whole version, which it then
// leaves out, logging the error where only the repository's owners look.
// It takes any license as written. Helm itself only refuses an annotation
// that is a list or a mapping rather than a string, which chart-field-type
// reports.

// RuleArtifactHub checks the annotations Artifact Hub reads.
var RuleArtifactHub = &Rule{
	Name: "artifacthub-annotations", Severity: Warning, Scope: PerChart,
	Doc: "Chart.yaml's artifacthub.io/* annotations are what Artifact Hub reads: changes, links and images as YAML lists of the right entries, prerelease and containsSecurityUpdates true or false, license an SPDX expression (Artifact Hub silently leaves out a version whose annotations it cannot read)",
	Run: checkArtifactHub,
}

// artifactHubRules check what Artifact Hub reads of a chart.
var artifactHubRules = []*Rule{RuleArtifactHub}

// ahPrefix starts the annotations Artifact Hub reads.
const ahPrefix = "artifacthub.io/"

// ahKnown are the annotations Artifact Hub reads on Helm charts.
var ahKnown = []string{"alternativeName", "category", "changes", "containsSecurityUpdates", "crds", "crdsExamples", "images", "license", "links", "maintainers", "operator", "operatorCapabilities", "prerelease", "recommendations", "screenshots", "signKey"}

// ahProblem is a defect of an annotation's value, at a position within
// the value read as YAML (invalid for the value as a whole).
type ahProblem struct {
	at  srcpos.Pos
	msg string
}

// ahCheckers check the values of the annotations whose shape Artifact Hub
// enforces. skip says what Artifact Hub does with a version it cannot read.
var ahCheckers = map[string]func(value, skip string) []ahProblem{
	"changes":                 checkAHChanges,
	"links":                   checkAHLinks,
	"images":                  checkAHImages,
	"license":                 checkAHLicense,
	"prerelease":              checkAHBool("prerelease"),
	"containsSecurityUpdates": checkAHBool("containsSecurityUpdates"),
}

func checkArtifactHub(p *Pass) {
	root := chartDoc(p, false)
	if root == nil {
		return
	}
	ann := root.Get("annotations")
	if ann == nil || ann.Kind != srcpos.Object {
		return
	}
	version := "this version"
	if v := root.Get("version"); v != nil && v.Text != "" {
		version = "version " + v.Text
	}
	skip := "Artifact Hub leaves " + version + " of the chart out entirely, saying why only in the repository's tracking errors"
	file := p.Chart.ChartFile
	var lines []string
	for _, a := range ann.Members {
		name, ok := strings.CutPrefix(a.Key, ahPrefix)
		if !ok {
			continue
		}
		check := ahCheckers[name]
		if check == nil {
			if !slices.Contains(ahKnown, name) {
				msg := fmt.Sprintf("Artifact Hub reads no annotation %s, and ignores it", a.Key)
				if s := suggest.Closest(name, ahKnown); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", ahPrefix+s)
				} else {
					msg += fmt.Sprintf(" (it reads %s%s)", ahPrefix, strings.Join(ahKnown, ", "+ahPrefix))
				}
				p.Reportf(file, a.KeyPos, a.Pointer(), "%s", msg)
			}
			continue
		}
		if a.Kind == srcpos.Array || a.Kind == srcpos.Object {
			// Helm cannot load the chart: chart-field-type says so.
			continue
		}
		// A null value reaches Artifact Hub as an empty string.
		for _, pr := range check(a.Text, skip) {
			pos := a.Pos
			if pr.at.IsValid() {
				if lines == nil {
					data, _ := srcpos.ReadFile(file)
					lines = strings.Split(string(data), "\n")
				}
				pos = blockPos(lines, a.Pos, pr.at)
			}
			p.Reportf(file, pos, a.Pointer(), "%s: %s", a.Key, pr.msg)
		}
	}
}

// blockPos returns the position in the file of the position at in the
// value of a literal block scalar (key: |) written at value; for a value
// written otherwise, whose text the file does not hold line for line, it
// returns value's position.
func blockPos(lines []string, value, at srcpos.Pos) srcpos.Pos {
	if value.Line < 1 || value.Line > len(lines) {
		return value
	}
	header := []rune(lines[value.Line-1])
	if value.Col < 1 || value.Col > len(header) || header[value.Col-1] != '|' {
		return value
	}
	if strings.ContainsAny(string(header[value.Col-1:]), "123456789") {
		// An explicit indentation, rare enough not to work out.
		return value
	}
	indent := -1
	for _, l := range lines[value.Line:] {
		if strings.TrimSpace(l) != "" {
			indent = len(l) - len(strings.TrimLeft(l, " "))
			break
		}
	}
	line := value.Line + at.Line
	if indent < 0 || line > len(lines) {
		return value
	}
	return srcpos.Pos{Line: line, Col: indent + at.Col}
}

// parseAHYAML reads an annotation's value as YAML, as Artifact Hub does.
func parseAHYAML(name, value, skip, example string) (*srcpos.Node, []ahProblem) {
	root, err := srcpos.ParseYAML([]byte(value))
	if err == nil {
		return root, nil
	}
	at, msg := srcpos.Pos{Line: 1, Col: 1}, err.Error()
	var de *srcpos.Error
	if errors.As(err, &de) {
		at, msg = de.Pos, de.Msg
	}
	return nil, []ahProblem{{at, fmt.Sprintf("the %s are not valid YAML (%s), so %s: %s, and quote any text holding one of : { } [ ] , & * # ? | - < > = ! %% @", name, msg, skip, example)}}
}

const changesExample = `write one entry per change, such as - kind: fixed followed by description: "a crash on start"`

var changeKinds = []string{"added", "changed", "deprecated", "removed", "fixed", "security"}

// checkAHChanges checks artifacthub.io/changes: a list of descriptions, or
// of entries with a kind, a description and links.
func checkAHChanges(value, skip string) []ahProblem {
	root, probs := parseAHYAML("changes", value, skip, changesExample)
	if root == nil {
		return probs
	}
	switch root.Kind {
	case srcpos.Null:
		return nil
	case srcpos.Array:
	default:
		return []ahProblem{{root.Pos, fmt.Sprintf("the changes are %s, not a list, so %s: %s", yamlKind(root), skip, changesExample)}}
	}
	var plain, entries []*srcpos.Node
	for _, it := range root.Items {
		switch it.Kind {
		case srcpos.Object:
			entries = append(entries, it)
		case srcpos.Array:
			probs = append(probs, ahProblem{it.Pos, fmt.Sprintf("a change is a list, so %s: %s", skip, changesExample)})
		case srcpos.Null:
			probs = append(probs, ahProblem{it.Pos, fmt.Sprintf("a change is empty, so %s: remove the dash or write what changed", skip)})
		default:
			plain = append(plain, it)
			if strings.TrimSpace(it.Text) == "" {
				probs = append(probs, ahProblem{it.Pos, fmt.Sprintf("a change is empty, so %s: remove it or write what changed", skip)})
			}
		}
	}
	for _, e := range entries {
		if text, ok := colonChange(e); ok {
			probs = append(probs, ahProblem{e.Pos, fmt.Sprintf("the change %q reads as a mapping because of its \": \", which Artifact Hub cannot read as a change, so %s: quote it, - %q", text, skip, text)})
			continue
		}
		if len(plain) > 0 {
			probs = append(probs, ahProblem{e.Pos, fmt.Sprintf("the changes mix plain descriptions with kind and description entries, which Artifact Hub does not take, so %s: write every change the same way", skip)})
			continue
		}
		probs = append(probs, checkAHChange(e, skip)...)
	}
	return probs
}

// colonChange reports whether a change entry is a plain description that
// an unquoted ": " made a mapping of one key, and returns its text.
func colonChange(e *srcpos.Node) (string, bool) {
	if len(e.Members) != 1 {
		return "", false
	}
	m := e.Members[0]
	if slices.Contains([]string{"kind", "description", "links"}, m.Key) || suggest.Closest(m.Key, []string{"kind", "description", "links"}) != "" {
		return "", false
	}
	if m.Kind == srcpos.Array || m.Kind == srcpos.Object {
		return "", false
	}
	return m.Key + ": " + m.Text, true
}

func checkAHChange(e *srcpos.Node, skip string) []ahProblem {
	var probs []ahProblem
	described := false
	for _, m := range e.Members {
		switch m.Key {
		case "kind":
			if m.Kind == srcpos.Null {
				continue
			}
			if m.Kind == srcpos.Array || m.Kind == srcpos.Object || !slices.Contains(changeKinds, strings.ToLower(m.Text)) {
				msg := fmt.Sprintf("kind %s is none of %s, so %s", m.Show(), strings.Join(changeKinds, ", "), skip)
				if s := suggest.Closest(strings.ToLower(m.Text), changeKinds); s != "" && m.Kind == srcpos.String {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
				probs = append(probs, ahProblem{m.Pos, msg})
			}
		case "description":
			switch {
			case m.Kind == srcpos.Array || m.Kind == srcpos.Object:
				probs = append(probs, ahProblem{m.Pos, fmt.Sprintf("a change's description is %s, not text, so %s: quote it", yamlKind(m), skip)})
			case strings.TrimSpace(m.Text) != "":
				described = true
			}
		case "links":
			probs = append(probs, checkAHChangeLinks(m, skip)...)
		default:
			msg := fmt.Sprintf("Artifact Hub ignores key %q of a change (it reads kind, description and links)", m.Key)
			if s := suggest.Closest(m.Key, []string{"kind", "description", "links"}); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			probs = append(probs, ahProblem{m.KeyPos, msg})
		}
	}
	if !described {
		probs = append(probs, ahProblem{e.Pos, fmt.Sprintf("a change has no description, which Artifact Hub requires, so %s: add description: followed by what changed", skip)})
	}
	return probs
}

func checkAHChangeLinks(n *srcpos.Node, skip string) []ahProblem {
	const shape = "write links: [{name: the pull request, url: https://...}]"
	if n.Kind == srcpos.Null {
		return nil
	}
	if n.Kind != srcpos.Array {
		return []ahProblem{{n.Pos, fmt.Sprintf("a change's links are %s, not a list, so %s: %s", yamlKind(n), skip, shape)}}
	}
	var probs []ahProblem
	for _, l := range n.Items {
		if l.Kind != srcpos.Object {
			probs = append(probs, ahProblem{l.Pos, fmt.Sprintf("a link of a change is %s, so %s: %s", yamlKind(l), skip, shape)})
			continue
		}
		for _, k := range []string{"name", "url"} {
			if v := l.Get(k); v == nil || v.Kind == srcpos.Array || v.Kind == srcpos.Object || strings.TrimSpace(v.Text) == "" {
				probs = append(probs, ahProblem{l.Pos, fmt.Sprintf("a link of a change has no %s, which Artifact Hub requires, so %s: %s", k, skip, shape)})
			}
		}
	}
	return probs
}

// checkAHLinks checks artifacthub.io/links: a list of {name, url}.
func checkAHLinks(value, skip string) []ahProblem {
	const shape = "write - name: Documentation followed by url: https://..., one entry per link"
	root, probs := parseAHYAML("links", value, skip, shape)
	if root == nil || root.Kind == srcpos.Null {
		return probs
	}
	if root.Kind != srcpos.Array {
		return []ahProblem{{root.Pos, fmt.Sprintf("the links are %s, not a list, so %s: %s", yamlKind(root), skip, shape)}}
	}
	for _, l := range root.Items {
		if l.Kind != srcpos.Object {
			probs = append(probs, ahProblem{l.Pos, fmt.Sprintf("a link is %s, so %s: %s", yamlKind(l), skip, shape)})
			continue
		}
		bad := false
		for _, m := range l.Members {
			switch m.Key {
			case "name", "url":
				if m.Kind == srcpos.Array || m.Kind == srcpos.Object {
					probs = append(probs, ahProblem{m.Pos, fmt.Sprintf("a link's %s is %s, not text, so %s: %s", m.Key, yamlKind(m), skip, shape)})
					bad = true
				}
			default:
				msg := fmt.Sprintf("Artifact Hub ignores key %q of a link (it reads name and url)", m.Key)
				if s := suggest.Closest(m.Key, []string{"name", "url"}); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
				probs = append(probs, ahProblem{m.KeyPos, msg})
			}
		}
		if bad {
			continue
		}
		name, u := l.Get("name"), l.Get("url")
		switch {
		case name == nil || strings.TrimSpace(name.Text) == "":
			probs = append(probs, ahProblem{l.Pos, "a link has no name, so Artifact Hub shows it without a label: add name: such as Documentation"})
		case u == nil || strings.TrimSpace(u.Text) == "":
			probs = append(probs, ahProblem{l.Pos, fmt.Sprintf("link %q has no url, so Artifact Hub shows it leading nowhere: add url: https://...", name.Text)})
		case !absoluteHTTP(u.Text):
			probs = append(probs, ahProblem{u.Pos, fmt.Sprintf("link %q has url %q, not an absolute http(s) address, so it leads nowhere from Artifact Hub: write https://...", name.Text, u.Text)})
		}
	}
	return probs
}

func absoluteHTTP(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// checkAHImages checks artifacthub.io/images: a list of {name, image,
// whitelisted, platforms}, each image a reference Artifact Hub can parse.
func checkAHImages(value, skip string) []ahProblem {
	const shape = "write - name: app followed by image: registry.example.org/app:1.2.3, one entry per image"
	root, probs := parseAHYAML("images", value, skip, shape)
	if root == nil || root.Kind == srcpos.Null {
		return probs
	}
	if root.Kind != srcpos.Array {
		return []ahProblem{{root.Pos, fmt.Sprintf("the images are %s, not a list, so %s: %s", yamlKind(root), skip, shape)}}
	}
	known := []string{"name", "image", "whitelisted", "platforms"}
	for _, it := range root.Items {
		if it.Kind != srcpos.Object {
			probs = append(probs, ahProblem{it.Pos, fmt.Sprintf("an image is %s, so %s: %s", yamlKind(it), skip, shape)})
			continue
		}
		for _, m := range it.Members {
			switch m.Key {
			case "name", "image":
				if m.Kind == srcpos.Array || m.Kind == srcpos.Object {
					probs = append(probs, ahProblem{m.Pos, fmt.Sprintf("an image's %s is %s, not text, so %s: %s", m.Key, yamlKind(m), skip, shape)})
				}
			case "whitelisted":
				// Artifact Hub reads YAML 1.1, where yes and no are
				// booleans too.
				if m.Kind != srcpos.Bool && m.Kind != srcpos.Null && !slices.Contains([]string{"yes", "no", "on", "off", "y", "n"}, strings.ToLower(m.Text)) {
					probs = append(probs, ahProblem{m.Pos, fmt.Sprintf("whitelisted is %s, not a boolean, so %s: write whitelisted: true or whitelisted: false, unquoted", m.Show(), skip)})
				}
			case "platforms":
				if m.Kind == srcpos.Null {
					continue
				}
				ok := m.Kind == srcpos.Array
				for _, pl := range m.Items {
					ok = ok && pl.Kind != srcpos.Array && pl.Kind != srcpos.Object
				}
				if !ok {
					probs = append(probs, ahProblem{m.Pos, fmt.Sprintf("platforms is %s, not a list of platforms, so %s: write platforms: [linux/amd64, linux/arm64]", yamlKind(m), skip)})
				}
			default:
				msg := fmt.Sprintf("Artifact Hub ignores key %q of an image (it reads %s)", m.Key, strings.Join(known, ", "))
				if s := suggest.Closest(m.Key, known); s != "" {
					msg += fmt.Sprintf("; did you mean %q?", s)
				}
				probs = append(probs, ahProblem{m.KeyPos, msg})
			}
		}
		img := it.Get("image")
		if img != nil && (img.Kind == srcpos.Array || img.Kind == srcpos.Object) {
			continue
		}
		if img == nil {
			probs = append(probs, ahProblem{it.Pos, fmt.Sprintf("an image has no image reference, so %s: add image: such as registry.example.org/team/app:1.2.3", skip)})
			continue
		}
		text, at := img.Text, img.Pos
		if why := imageRefProblem(text); why != "" {
			probs = append(probs, ahProblem{at, fmt.Sprintf("image %q %s, so %s: write a reference such as registry.example.org/team/app:1.2.3", text, why, skip)})
		}
	}
	return probs
}

// imageRefProblem says why Artifact Hub cannot parse an image reference
// (go-containerregistry's name.ParseReference, weak validation), "" when it
// can: [registry/]repository[:tag] or [registry/]repository[:tag]@sha256:hex.
func imageRefProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://"):
		return "is a URL, not an image reference"
	}
	tagErr := tagRef(s)
	if tagErr == "" {
		return ""
	}
	base, digest, ok := strings.Cut(s, "@")
	if !ok || strings.Contains(digest, "@") {
		return tagErr
	}
	if len(digest) != 71 || !strings.HasPrefix(digest, "sha256:") || strings.Trim(digest[7:], "0123456789abcdef") != "" {
		return "has digest " + strconv.Quote(digest) + ", not sha256: followed by 64 lowercase hex digits"
	}
	if i := strings.LastIndex(base, ":"); i >= 0 && !strings.Contains(base[i:], "/") {
		if tagRef(base) == "" {
			base = base[:i]
		}
	}
	return repositoryRef(base)
}

// tagRef checks a reference by tag.
func tagRef(s string) string {
	base, tag := s, ""
	if i := strings.LastIndex(s, ":"); i >= 0 && !strings.Contains(s[i+1:], "/") {
		base, tag = s[:i], s[i+1:]
	}
	if tag != "" && !onlyChars(tag, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", 1, 127) {
		return "has tag " + strconv.Quote(tag) + ", which may only hold up to 127 letters, digits, _, - and ."
	}
	return repositoryRef(base)
}

// repositoryRef checks [registry/]repository.
func repositoryRef(s string) string {
	if s == "" {
		return "names no repository"
	}
	repo := s
	if reg, rest, ok := strings.Cut(s, "/"); ok && strings.ContainsAny(reg, ".:") {
		if u, err := url.Parse("//" + reg); err != nil || u.Host != reg {
			return "names registry " + strconv.Quote(reg) + ", which is not a host name"
		}
		repo = rest
	}
	if !onlyChars(repo, "abcdefghijklmnopqrstuvwxyz0123456789_-./", 2, 255) {
		return "names repository " + strconv.Quote(repo) + ", which must be 2 to 255 lowercase letters, digits, _, -, . and /"
	}
	return ""
}

// onlyChars reports whether s is minLen to maxLen characters of allowed.
func onlyChars(s, allowed string, minLen, maxLen int) bool {
	n := utf8.RuneCountInString(s)
	return n >= minLen && n <= maxLen && strings.Trim(s, allowed) == ""
}

var (
	spdxID     = regexp.MustCompile(`^(DocumentRef-[A-Za-z0-9.-]+:)?(LicenseRef-)?[A-Za-z0-9.-]+\+?$`)
	spdxTokens = regexp.MustCompile(`\(|\)|[^\s()]+`)
)

// checkAHLicense checks that artifacthub.io/license has the shape of an
// SPDX license expression; Artifact Hub shows any text, but only a known
// identifier links to the license.
func checkAHLicense(value, _ string) []ahProblem {
	if value == "" || spdxExpression(value) {
		return nil
	}
	return []ahProblem{{msg: fmt.Sprintf("%q is not an SPDX license expression, which Artifact Hub shows as written but cannot link to a license or filter by: write an SPDX identifier such as Apache-2.0 or MIT (combined with AND, OR, WITH), or LicenseRef-name for a license of your own", value)}}
}

// spdxExpression reports whether s has the shape of an SPDX license
// expression: identifiers joined by AND and OR, with WITH exceptions and
// parentheses. Whether each identifier is on the SPDX list is not asked.
func spdxExpression(s string) bool {
	toks := spdxTokens.FindAllString(s, -1)
	i := 0
	var expr func() bool
	term := func() bool {
		if i >= len(toks) {
			return false
		}
		if toks[i] == "(" {
			i++
			if !expr() || i >= len(toks) || toks[i] != ")" {
				return false
			}
			i++
			return true
		}
		if isOperator(toks[i]) || !spdxID.MatchString(toks[i]) {
			return false
		}
		i++
		if i < len(toks) && strings.EqualFold(toks[i], "WITH") {
			i++
			if i >= len(toks) || isOperator(toks[i]) || !spdxID.MatchString(toks[i]) {
				return false
			}
			i++
		}
		return true
	}
	expr = func() bool {
		if !term() {
			return false
		}
		for i < len(toks) && (strings.EqualFold(toks[i], "AND") || strings.EqualFold(toks[i], "OR")) {
			i++
			if !term() {
				return false
			}
		}
		return true
	}
	return expr() && i == len(toks)
}

func isOperator(t string) bool {
	return strings.EqualFold(t, "AND") || strings.EqualFold(t, "OR") || strings.EqualFold(t, "WITH")
}

// checkAHBool checks a boolean annotation as strconv.ParseBool reads it.
func checkAHBool(name string) func(value, skip string) []ahProblem {
	return func(value, skip string) []ahProblem {
		if _, err := strconv.ParseBool(value); err == nil {
			return nil
		}
		return []ahProblem{{msg: fmt.Sprintf("%q is not a boolean, so %s: write %s: \"true\" or %s: \"false\"", value, skip, ahPrefix+name, ahPrefix+name)}}
	}
}

// yamlKind names a node's kind as YAML does: a list, a mapping.
func yamlKind(n *srcpos.Node) string {
	switch n.Kind {
	case srcpos.Array:
		return "a list"
	case srcpos.Object:
		return "a mapping"
	}
	return n.Kind.WithArticle()
}
