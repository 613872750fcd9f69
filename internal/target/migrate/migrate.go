// Package migrate moves a deployment of the platform from its old chart
// repository to the new one: values files, umbrella charts, Argo CD
// applications and the identity provider's theme. Files are edited in
// place, byte for byte outside what changes, and a second run changes
// nothing.
package migrate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/catalogist/catalogist/internal/base/atomicfile"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/repoindex"
)

// The reference platform's repositories (its chart moved in 2024).
const (
	DefaultOldRepoURL  = "https://inseefrlab.github.io/helm-charts"
	DefaultNewRepoURL  = "https://inseefrlab.github.io/onyxia"
	DefaultOldRepoName = "inseefrlab"
	DefaultNewRepoName = "onyxia"
	DefaultChart       = "onyxia"
	// DefaultThemeURL is the theme archive of a platform release, %s being
	// the chart version.
	DefaultThemeURL = "https://github.com/InseeFrLab/onyxia/releases/download/v%s/keycloak-theme.jar"
	// ProvidersPath is where current (Quarkus) Keycloak loads extensions;
	// DeploymentsPath where the old WildFly-based image did.
	ProvidersPath   = "/opt/keycloak/providers"
	DeploymentsPath = "/opt/jboss/keycloak/standalone/deployments"
	// BitnamiProvidersPath is where Bitnami's Keycloak image loads them.
	BitnamiProvidersPath = "/opt/bitnami/keycloak/providers"
)

// Options configure a migration; empty fields take the reference
// platform's values (see New).
type Options struct {
	// Files to migrate; any may be empty.
	Values, Chart, App, IdpValues string

	OldRepoURL, NewRepoURL   string
	OldRepoName, NewRepoName string
	OldChart, NewChart       string
	// RepoIndex is where the new repository's index is read (URL, file
	// or directory); empty means NewRepoURL.
	RepoIndex string
	// ToVersion pins the version; empty means the newest release.
	ToVersion string
	// IdpPath is the identity provider's extensions directory; empty means
	// the one of the Keycloak image the values use (ProvidersPath,
	// BitnamiProvidersPath for Bitnami's chart, DeploymentsPath for the
	// WildFly-based jboss/keycloak image), and an existing mount is kept
	// unless it is DeploymentsPath for another image.
	IdpPath string
	// ThemeURL is a format with the chart version; empty means
	// DefaultThemeURL.
	ThemeURL string
	// Release is the release name in the printed commands.
	Release string
	// Client reads the new repository's index; nil means one built with
	// chartrepo.New, without TLS settings or cache.
	Client *chartrepo.Client
}

// Migrate is the migration of one deployment: made by New, then Run.
type Migrate struct {
	opts   Options
	client *chartrepo.Client
}

// New configures a migration, filling what the options leave empty with
// the reference platform's values.
func New(opts Options) (*Migrate, error) {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&opts.OldRepoURL, DefaultOldRepoURL)
	def(&opts.NewRepoURL, DefaultNewRepoURL)
	def(&opts.OldRepoName, DefaultOldRepoName)
	def(&opts.NewRepoName, DefaultNewRepoName)
	def(&opts.OldChart, DefaultChart)
	def(&opts.NewChart, DefaultChart)
	def(&opts.ThemeURL, DefaultThemeURL)
	def(&opts.Release, DefaultChart)
	def(&opts.RepoIndex, opts.NewRepoURL)
	c := opts.Client
	if c == nil {
		var err error
		if c, err = chartrepo.New(chartrepo.Options{}); err != nil {
			return nil, fmt.Errorf("the repository client: %w", err)
		}
	}
	return &Migrate{opts: opts, client: c}, nil
}

// File is one migrated file.
type File struct {
	Path          string
	Before, After []byte
	// Changes says what changed, one line each.
	Changes []string
}

// Changed reports whether the file changes.
func (f *File) Changed() bool { return string(f.Before) != string(f.After) }

// Result is what a migration would do.
type Result struct {
	// Chart and Version are the new repository's chart and the version
	// moved to.
	Chart, Version string
	// Files are the files given, migrated.
	Files []*File
	// Notes are things to know or do by hand, including shapes that were
	// not recognised and so left alone.
	Notes []string
	// Commands are the helm commands for the new repository.
	Commands []string
}

// Run computes the migration of the given files; nothing is written.
func (m *Migrate) Run(ctx context.Context) (*Result, error) {
	o := &m.opts
	if o.Values == "" && o.Chart == "" && o.App == "" && o.IdpValues == "" {
		return nil, errors.New("nothing to migrate: give --values, --chart, --app or --idp-values")
	}
	r := &Result{Chart: o.NewChart}
	steps := []struct {
		path string
		run  step
	}{
		{o.Chart, (*session).chart},
		{o.Values, (*session).values},
		{o.App, (*session).app},
		{o.IdpValues, (*session).idpFile},
	}
	// Every file is read and checked before the network is asked for the
	// version: a file the migration refuses is the user's to fix whether
	// or not the repository answers.
	type input struct {
		path string
		run  step
		f    *File
		docs []*Doc
	}
	var inputs []input
	var seen []os.FileInfo
	var seenPaths []string
	for _, st := range steps {
		if st.path == "" {
			continue
		}
		f, docs, err := load(st.path)
		if err != nil {
			return nil, err
		}
		// The same file twice would be migrated twice from its old text,
		// and the second write would undo the first.
		if fi, err := os.Stat(st.path); err == nil {
			for i, o := range seen {
				if os.SameFile(fi, o) {
					return nil, &InputError{st.path, &isError{fmt.Sprintf("is the same file as %s; give it once (a values file's keycloak: section is migrated with --values)", seenPaths[i])}}
				}
			}
			seen, seenPaths = append(seen, fi), append(seenPaths, st.path)
		}
		inputs = append(inputs, input{st.path, st.run, f, docs})
	}
	var err error
	if r.Version, err = m.version(ctx); err != nil {
		return nil, err
	}
	s := &session{m: o, r: r}
	for _, in := range inputs {
		f := in.f
		after, why, err := s.runDocs(in.run, f, in.docs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.path, err)
		}
		f.After = f.Before
		if why == "" {
			f.After = after
			why = s.verify(in.run, f, len(in.docs))
		}
		if why != "" {
			// A shape the edits misjudged: better no change than a wrong file.
			r.Notes = append(r.Notes, fmt.Sprintf("%s: left unchanged: %s; make the changes by hand: %s", in.path, why, strings.Join(f.Changes, "; ")))
			f.After, f.Changes = f.Before, nil
		}
		r.Files = append(r.Files, f)
	}
	if s.themeSeen {
		r.Notes = append(r.Notes, fmt.Sprintf("the login theme is now called %q in the identity provider's theme list (it was %q): select it again in the realm's settings", o.NewChart, o.NewChart+"-web"))
	}
	r.Commands = s.commands()
	return r, nil
}

// step migrates one document of a file.
type step func(*session, *File, *Doc) error

// runDocs runs a step on each document of a file, each on its own text,
// and returns the file's new text. why says, instead, why the edits
// cannot be made.
func (s *session) runDocs(run step, f *File, docs []*Doc) (after []byte, why string, err error) {
	// Empty documents (a trailing "---", say) are no place to add settings
	// when the file has others.
	skipEmpty := len(docs) > 1 && slices.ContainsFunc(docs, func(d *Doc) bool { return !d.empty() })
	var out bytes.Buffer
	defer func() { s.doc = "" }()
	for i, d := range docs {
		if skipEmpty && d.empty() {
			out.Write(d.src)
			continue
		}
		if len(docs) > 1 {
			s.doc = fmt.Sprintf("document %d: ", i+1)
		}
		if err := run(s, f, d); err != nil {
			return nil, "", fmt.Errorf("%s%w", s.doc, err)
		}
		b, err := d.Bytes()
		if err != nil {
			return nil, fmt.Sprintf("the edits collide (%s%v)", s.doc, err), nil
		}
		if i == 0 && len(docs) > 1 && !d.empty() {
			// A first document without a "---" that lost all its values
			// would vanish, and the second would take its place.
			if n, err := countDocuments(b); err == nil && n == 0 {
				b = append(b, "{}"+d.newline()...)
			}
		}
		out.Write(b)
	}
	s.doc = ""
	if s.isApp && s.apps == 0 && len(docs) > 1 {
		s.note(f, "no document is an Argo CD Application (kind: Application): left unchanged")
	}
	return out.Bytes(), "", nil
}

// verify checks a file's migration: the result must parse into as many
// documents, and migrating it again must change nothing, which catches
// edits that landed where the YAML parser does not read them as meant. It
// returns what is wrong.
func (s *session) verify(run step, f *File, ndocs int) string {
	if !f.Changed() {
		return ""
	}
	docs, err := parseFile(f.After)
	if err != nil {
		return fmt.Sprintf("the edits would not give valid YAML (%v)", err)
	}
	if len(docs) != ndocs {
		return fmt.Sprintf("the edits would make %d document(s) of %d", len(docs), ndocs)
	}
	again := *s
	again.r = &Result{Version: s.r.Version}
	again.apps = 0
	g := &File{Path: f.Path, Before: f.After}
	out, why, err := again.runDocs(run, g, docs)
	if err != nil {
		return fmt.Sprintf("the edited file could not be read back (%v)", err)
	}
	if why != "" || string(out) != string(f.After) {
		return "the edits would not read back as intended"
	}
	return ""
}

// InputError is a file given to migrate that cannot be read or parsed.
type InputError struct {
	Path string
	Err  error
}

func (e *InputError) Error() string {
	if ie := (*isError)(nil); errors.As(e.Err, &ie) {
		return e.Path + " " + e.Err.Error()
	}
	return e.Path + ": " + e.Err.Error()
}
func (e *InputError) Unwrap() error { return e.Err }

func load(path string) (*File, []*Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, &InputError{path, err}
	}
	if err := notText(data); err != nil {
		return nil, nil, &InputError{path, err}
	}
	docs, err := parseFile(data)
	if err != nil {
		return nil, nil, &InputError{path, fmt.Errorf("not valid YAML (%v); fix it, then run migrate again", err)}
	}
	return &File{Path: path, Before: data}, docs, nil
}

// version is the chart version to move to.
func (m *Migrate) version(ctx context.Context) (string, error) {
	o := &m.opts
	ix, err := m.client.Index(ctx, o.RepoIndex)
	if err != nil {
		if o.ToVersion != "" {
			return o.ToVersion, nil // pinned: the index only confirms it
		}
		return "", fmt.Errorf("reading the new repository's index to find its newest version: %w (give --repo-index FILE|URL to read it elsewhere, or --to-version)", err)
	}
	versions, err := repoindex.ChartVersions(ix.Data, ix.URL, o.NewChart)
	if err != nil {
		return "", err
	}
	want := ""
	if o.ToVersion != "" {
		want = strings.TrimPrefix(o.ToVersion, "v")
	}
	cv, err := repoindex.PickVersion(versions, want)
	if err != nil {
		return "", fmt.Errorf("%s, chart %s: %w", ix.URL, o.NewChart, err)
	}
	if want != "" && cv.Version != want {
		return "", fmt.Errorf("%s has no %s %s (newest matching: %s); --to-version takes a published version", ix.URL, o.NewChart, want, cv.Version)
	}
	return cv.Version, nil
}

// Diff is the unified diff of every changed file.
func (r *Result) Diff() string {
	var b strings.Builder
	for _, f := range r.Files {
		if !f.Changed() {
			continue
		}
		name := filepath.ToSlash(f.Path)
		d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A: lines(f.Before), B: lines(f.After),
			FromFile: name, ToFile: name + " (migrated)", Context: 3,
		})
		if err != nil {
			d = fmt.Sprintf("%s: %v\n", name, err) // difflib only fails writing to memory
		}
		b.WriteString(d)
	}
	return b.String()
}

// Write writes the changed files, each through a temporary file renamed
// over it, so that a failure leaves it whole. A file given through a
// symbolic link is written where the link points, which keeps the link.
func (r *Result) Write() error {
	for _, f := range r.Files {
		if !f.Changed() {
			continue
		}
		if err := writeAtomic(f.Path, f.After); err != nil {
			return err
		}
	}
	return nil
}

// lines splits a text into lines with their line breaks, as a unified
// diff shows them (difflib.SplitLines adds an empty line after the last).
func lines(b []byte) []string {
	ls := strings.SplitAfter(string(b), "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	} else {
		ls[len(ls)-1] += "\n\\ No newline at end of file\n"
	}
	return ls
}

func writeAtomic(path string, data []byte) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	st, err := os.Stat(target)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return atomicfile.WriteBytes(target, st.Mode().Perm(), data)
}

// sameURL compares repository addresses as Helm would reach them.
func sameURL(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimSpace(s)
		u, err := url.Parse(s)
		if err != nil {
			return strings.TrimRight(s, "/")
		}
		u.Host = strings.ToLower(u.Host)
		u.Scheme = strings.ToLower(u.Scheme)
		u.Path = strings.TrimRight(u.Path, "/")
		return u.String()
	}
	return norm(a) == norm(b)
}
