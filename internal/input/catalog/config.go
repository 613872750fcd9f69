package catalog

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// The names catalog.yaml's platform may take: the one list of platforms.
// Package schema defines what each one means, under these names.
const (
	PlatformOnyxia     = "onyxia"
	PlatformCatalogist = "catalogist"
)

// Platforms lists the platforms' names, the reference first.
func Platforms() []string { return []string{PlatformOnyxia, PlatformCatalogist} }

// Level is what catalog.yaml's lint.rules makes of a rule's findings.
type Level string

// Levels: drop the findings, or report them with this severity.
const (
	LevelOff     Level = "off"
	LevelWarning Level = "warning"
	LevelError   Level = "error"
)

var levels = []string{string(LevelOff), string(LevelWarning), string(LevelError)}

// LintConfig is the lint: section of catalog.yaml. Rule names are checked
// by package lint, which knows the rules; this package only reads shapes.
type LintConfig struct {
	// Rules holds the severity settings, in the order written.
	Rules []RuleLevel
	// Ignore holds the ignore entries, in the order written.
	Ignore []Ignore
	Node   *srcpos.Node
}

// RuleLevel is one entry of lint.rules.
type RuleLevel struct {
	Rule  string
	Level Level
	// Node is the entry's value; its KeyPos is where the rule is named.
	Node *srcpos.Node
}

// Ignore is one entry of lint.ignore. A finding is ignored when it matches
// every field given: the rule by name, its chart by one of the Charts
// globs, its option by the Option glob (path.Match syntax, where * stops at
// a slash).
type Ignore struct {
	// Rule is "" when the entry names no rule; RuleNode is then nil.
	Rule     string
	RuleNode *srcpos.Node
	Charts   []string
	Option   string
	Node     *srcpos.Node
}

func readPlatform(n *srcpos.Node) (string, error) {
	names := Platforms()
	if n.Kind != srcpos.String {
		return "", &srcpos.Error{Pos: n.Pos, Msg: fmt.Sprintf("platform must be a name: write platform: %s", strings.Join(names, " or platform: "))}
	}
	for _, p := range names {
		if n.Text == p {
			return p, nil
		}
	}
	msg := fmt.Sprintf("unknown platform %q (known: %s)", n.Text, strings.Join(names, ", "))
	if s := suggest.Closest(n.Text, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return "", &srcpos.Error{Pos: n.Pos, Msg: msg}
}

// readSchemaRegistry accepts one directory or a list, so that the common
// case of a single registry needs no brackets.
func readSchemaRegistry(n *srcpos.Node) ([]string, error) {
	const shape = "schemaRegistry must be a directory or a list of directories, relative to the catalog: write schemaRegistry: schemas or schemaRegistry: [schemas, ../shared-schemas]"
	switch n.Kind {
	case srcpos.Null:
		return nil, nil
	case srcpos.String:
		if n.Text == "" {
			return nil, &srcpos.Error{Pos: n.Pos, Msg: shape}
		}
		return []string{n.Text}, nil
	case srcpos.Array:
		var dirs []string
		for _, it := range n.Items {
			if it.Kind != srcpos.String || it.Text == "" {
				return nil, &srcpos.Error{Pos: it.Pos, Msg: "each schemaRegistry entry must be a directory, relative to the catalog, such as schemas"}
			}
			dirs = append(dirs, it.Text)
		}
		return dirs, nil
	}
	return nil, &srcpos.Error{Pos: n.Pos, Msg: shape}
}

func readLintConfig(n *srcpos.Node) (*LintConfig, error) {
	l := &LintConfig{Node: n}
	// A section whose entries are all commented out is empty, not wrong.
	if n.Kind == srcpos.Null {
		return l, nil
	}
	if n.Kind != srcpos.Object {
		return nil, &srcpos.Error{Pos: n.Pos, Msg: "lint must be a mapping with rules and ignore, for example lint: {rules: {slider-grid: off}}"}
	}
	err := srcpos.ReadFields(n, "unknown lint setting %q",
		srcpos.Field{Key: "rules", Read: func(m *srcpos.Node) (err error) {
			l.Rules, err = readRuleLevels(m)
			return err
		}},
		srcpos.Field{Key: "ignore", Read: func(m *srcpos.Node) (err error) {
			l.Ignore, err = readIgnores(m)
			return err
		}},
	)
	if err != nil {
		return nil, err
	}
	return l, nil
}

func readRuleLevels(n *srcpos.Node) ([]RuleLevel, error) {
	if n.Kind == srcpos.Null {
		return nil, nil
	}
	if n.Kind != srcpos.Object {
		return nil, &srcpos.Error{Pos: n.Pos, Msg: "lint.rules must map rule names to off, warning or error, for example rules: {slider-grid: off, context-path: error}"}
	}
	var out []RuleLevel
	seen := map[string]*srcpos.Node{}
	for _, m := range n.Members {
		if prev := seen[m.Key]; prev != nil {
			return nil, &srcpos.Error{Pos: m.KeyPos, Msg: fmt.Sprintf("rule %s is set twice in lint.rules (first at line %d): keep one", m.Key, prev.KeyPos.Line)}
		}
		seen[m.Key] = m
		lv := Level(m.Text)
		if m.Kind != srcpos.String || !validLevel(lv) {
			shown := m.Text
			if m.Kind == srcpos.String {
				shown = fmt.Sprintf("%q", m.Text)
			} else if m.Kind != srcpos.Bool && m.Kind != srcpos.Number {
				shown = m.Kind.WithArticle()
			}
			return nil, &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("lint.rules.%s is %s: write off, warning or error", m.Key, shown)}
		}
		out = append(out, RuleLevel{Rule: m.Key, Level: lv, Node: m})
	}
	return out, nil
}

func validLevel(l Level) bool {
	for _, k := range levels {
		if string(l) == k {
			return true
		}
	}
	return false
}

func readIgnores(n *srcpos.Node) ([]Ignore, error) {
	if n.Kind == srcpos.Null {
		return nil, nil
	}
	if n.Kind != srcpos.Array {
		return nil, &srcpos.Error{Pos: n.Pos, Msg: "lint.ignore must be a list of entries with rule, charts and option, for example ignore: [{rule: slider-grid, charts: [jupyter-*]}]"}
	}
	var out []Ignore
	for _, it := range n.Items {
		ig, err := readIgnore(it)
		if err != nil {
			return nil, err
		}
		out = append(out, ig)
	}
	return out, nil
}

func readIgnore(n *srcpos.Node) (Ignore, error) {
	ig := Ignore{Node: n}
	if n.Kind != srcpos.Object || len(n.Members) == 0 {
		// An entry without fields would match every finding: surely not
		// what was meant.
		return ig, &srcpos.Error{Pos: n.Pos, Msg: "a lint.ignore entry needs at least one of rule, charts and option, for example {rule: slider-grid, charts: [jupyter-*], option: resources/*}"}
	}
	err := srcpos.ReadFields(n, "unknown key %q in a lint.ignore entry",
		srcpos.Field{Key: "rule", Read: func(m *srcpos.Node) error {
			if m.Kind != srcpos.String || m.Text == "" {
				return &srcpos.Error{Pos: m.Pos, Msg: "rule must be a rule's name, as catalogist lint --rules lists them"}
			}
			ig.Rule, ig.RuleNode = m.Text, m
			return nil
		}},
		srcpos.Field{Key: "charts", Read: func(m *srcpos.Node) error {
			if m.Kind != srcpos.Array || len(m.Items) == 0 {
				return &srcpos.Error{Pos: m.Pos, Msg: "charts must be a list of chart name globs, for example charts: [jupyter-*, rstudio]"}
			}
			for _, c := range m.Items {
				if err := checkGlob(c, "chart glob"); err != nil {
					return err
				}
				ig.Charts = append(ig.Charts, c.Text)
			}
			return nil
		}},
		srcpos.Field{Key: "option", Read: func(m *srcpos.Node) error {
			if err := checkGlob(m, "option"); err != nil {
				return err
			}
			if strings.HasPrefix(m.Text, "/") {
				return &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("option paths have no leading slash: write option: %s", strings.TrimLeft(m.Text, "/"))}
			}
			ig.Option = m.Text
			return nil
		}},
	)
	return ig, err
}

// checkGlob refuses what path.Match would refuse, so that a malformed glob
// is reported where it is written instead of silently matching nothing.
func checkGlob(n *srcpos.Node, what string) error {
	if n.Kind != srcpos.String || n.Text == "" {
		return &srcpos.Error{Pos: n.Pos, Msg: fmt.Sprintf("%s must be a non-empty string such as jupyter-* or resources/limits/*", what)}
	}
	if _, err := path.Match(n.Text, ""); err != nil {
		return &srcpos.Error{Pos: n.Pos, Msg: fmt.Sprintf("%s %q is malformed (%v): use * and ? for any characters but /, [a-z] for a class, \\ to escape", what, n.Text, err)}
	}
	return nil
}

// ArtifactHub is the artifacthub: section of catalog.yaml: what the build
// writes to artifacthub-repo.yml beside index.yaml, the file Artifact Hub
// reads to show the repository's publisher as verified (repositoryID) and
// to let its owners claim it (owners).
type ArtifactHub struct {
	// RepositoryID is the repository's ID on Artifact Hub, a UUID; "" when
	// not given.
	RepositoryID string
	Owners       []Owner
	Node         *srcpos.Node
}

// Owner is one entry of artifacthub.owners: the Artifact Hub user, by the
// email of their account, who may claim the repository.
type Owner struct {
	Name, Email string
}

// The forms of an Artifact Hub repository ID and of an owner's email, as
// catalog.yaml is checked (and its editor schema checks it).
var (
	UUIDPattern  = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	EmailPattern = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// readArtifactHub reads the artifacthub: section; a section whose entries
// are all commented out is absent (nil).
func readArtifactHub(n *srcpos.Node) (*ArtifactHub, error) {
	const shape = "artifacthub must be a mapping with repositoryID and owners, for example artifacthub: {repositoryID: 00000000-0000-0000-0000-000000000000, owners: [{name: jane, email: jane@example.org}]}"
	if n.Kind == srcpos.Null {
		return nil, nil
	}
	if n.Kind != srcpos.Object || len(n.Members) == 0 {
		return nil, &srcpos.Error{Pos: n.Pos, Msg: shape}
	}
	ah := &ArtifactHub{Node: n}
	err := srcpos.ReadFields(n, "unknown artifacthub setting %q",
		srcpos.Field{Key: "repositoryID", Read: func(m *srcpos.Node) error {
			if m.Kind != srcpos.String || !UUIDPattern.MatchString(m.Text) {
				return &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("artifacthub.repositoryID is %s, not a repository ID: copy the UUID (such as 00000000-0000-0000-0000-000000000000) from the repository's entry in Artifact Hub's control panel", m.Show())}
			}
			ah.RepositoryID = m.Text
			return nil
		}},
		srcpos.Field{Key: "owners", Read: func(m *srcpos.Node) (err error) {
			ah.Owners, err = readOwners(m)
			return err
		}},
	)
	if err != nil {
		return nil, err
	}
	return ah, nil
}

func readOwners(n *srcpos.Node) ([]Owner, error) {
	if n.Kind != srcpos.Array || len(n.Items) == 0 {
		return nil, &srcpos.Error{Pos: n.Pos, Msg: "artifacthub.owners must be a list of Artifact Hub users, for example owners: [{name: jane, email: jane@example.org}]"}
	}
	var out []Owner
	for _, it := range n.Items {
		if it.Kind != srcpos.Object {
			return nil, &srcpos.Error{Pos: it.Pos, Msg: fmt.Sprintf("an artifacthub.owners entry is %s: write {name: jane, email: jane@example.org}, with the email of the owner's Artifact Hub account", it.Kind.WithArticle())}
		}
		var o Owner
		err := srcpos.ReadFields(it, "unknown key %q in an artifacthub.owners entry",
			srcpos.Field{Key: "name", Read: func(m *srcpos.Node) error {
				if m.Kind != srcpos.String {
					return &srcpos.Error{Pos: m.Pos, Msg: "an owner's name must be a string, such as name: jane"}
				}
				o.Name = m.Text
				return nil
			}},
			srcpos.Field{Key: "email", Read: func(m *srcpos.Node) error {
				if m.Kind != srcpos.String || !EmailPattern.MatchString(m.Text) {
					return &srcpos.Error{Pos: m.Pos, Msg: fmt.Sprintf("an owner's email is %s: write the email of the owner's Artifact Hub account, such as email: jane@example.org", m.Show())}
				}
				o.Email = m.Text
				return nil
			}},
		)
		if err != nil {
			return nil, err
		}
		if o.Email == "" {
			// Artifact Hub matches the claim by the account's email.
			return nil, &srcpos.Error{Pos: it.Pos, Msg: "an artifacthub.owners entry has no email: Artifact Hub recognises an owner by the email of their account; add email: jane@example.org"}
		}
		out = append(out, o)
	}
	return out, nil
}

// The forms of platformURL and platformCatalogID, as catalog.yaml is
// checked (and its editor schema checks it): an http(s) address with a
// host, without user information, query or fragment, since the chart pages
// add the launcher's path and parameters to it; and an id that is one
// path segment of the launcher's address as written.
var (
	PlatformURLPattern = regexp.MustCompile(`^https?://[^/?#@\s\\:][^/?#@\s\\]*(/[^?#\s\\]*)?$`)
	CatalogIDPattern   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
)

// userinfo is an address's user information: what comes before an @ in
// its authority.
var userinfo = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@`)

func readPlatformURL(n *srcpos.Node) (string, error) {
	const how = "write the platform's http(s) address, such as platformURL: https://datalab.example.org"
	if n.Kind != srcpos.String {
		return "", &srcpos.Error{Pos: n.Pos, Msg: fmt.Sprintf("platformURL is %s: %s", n.Kind.WithArticle(), how)}
	}
	if userinfo.MatchString(n.Text) {
		// The text may hold a password: it is not repeated.
		return "", &srcpos.Error{Pos: n.Pos, Msg: "platformURL holds a user name or password (user:password@): remove them; the chart pages publish this address in their links, and a link carries no credentials"}
	}
	u, err := url.Parse(n.Text)
	if err != nil || !PlatformURLPattern.MatchString(n.Text) || u.Hostname() == "" {
		return "", &srcpos.Error{Pos: n.Pos, Msg: fmt.Sprintf("platformURL %s is not the platform's address: %s (http or https, with no query or fragment)", n.Show(), how)}
	}
	return n.Text, nil
}

func readPlatformCatalogID(n *srcpos.Node) (string, error) {
	if n.Kind != srcpos.String || !CatalogIDPattern.MatchString(n.Text) {
		return "", &srcpos.Error{Pos: n.Pos, Msg: fmt.Sprintf("platformCatalogID is %s, not a catalog id: write the id the platform's catalogs list gives this catalog (letters, digits, '.', '_' and '-'), such as platformCatalogID: ide", n.Show())}
	}
	return n.Text, nil
}

// checkPlatformPair refuses one of platformURL and platformCatalogID
// without the other: a launcher's address needs both.
func checkPlatformPair(root *srcpos.Node, cfg *Config) error {
	switch {
	case cfg.PlatformURL != "" && cfg.PlatformCatalogID == "":
		return &srcpos.Error{Pos: root.Get("platformURL").KeyPos, Msg: "platformURL needs platformCatalogID, the catalog's id on that platform: add platformCatalogID: ide (the id its catalogs list gives this catalog), or remove platformURL"}
	case cfg.PlatformCatalogID != "" && cfg.PlatformURL == "":
		return &srcpos.Error{Pos: root.Get("platformCatalogID").KeyPos, Msg: "platformCatalogID needs platformURL, the platform's address: add platformURL: https://datalab.example.org, or remove platformCatalogID"}
	}
	return nil
}
