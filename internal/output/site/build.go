package site

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/yuin/goldmark"

	"github.com/catalogist/catalogist/internal/input/catalog"
)

// The view types below are what templates see. Every string is plain text
// that html/template escapes; URLs are already filtered (http/https only,
// relative ones made relative to the page), and README is the only
// template.HTML.

type link struct {
	Text, URL string
	// External adds rel="noopener noreferrer".
	External bool
}

// addressLink is a link whose text is a web address (addressLinkOf: its
// host and path), with Parts its text cut where it may wrap, after a
// separator. A URL that is not safe to link is plain text, as written.
type addressLink struct {
	link
	Parts []string
}

type catalogView struct {
	Name, Title, Description string
	// Source is the catalog's repository: a link when http(s), else text.
	Source *link
}

type timeView struct{ ISO, Text string }

type pageView struct {
	// Root is the way back to the site root from the page: "" or "../../".
	Root        string
	PageTitle   string
	Description string
	Generated   *timeView
	Catalog     catalogView
	// RemoteImages adds https: to the images the page's CSP allows: the
	// page shows an https icon or a README image from another host. Every
	// other page loads images from the site only.
	RemoteImages bool
	Index        *indexView
	Chart        *chartView
}

type indexView struct {
	// Cards are the launchable charts; Libraries the library charts,
	// listed apart so that their versions stay easy to find.
	Cards     []*cardView
	Libraries []*cardView
	// Keywords are the filter's chips: the keywords two or more cards
	// share (a chip that selects one card filters nothing the text
	// filter would not).
	Keywords []keywordView
	// Count is the number of cards.
	Count int
	// Install adds the catalog's repository to Helm (RepoAdd).
	Install installView
}

type keywordView struct {
	// Key is the lower-case keyword the filter compares; Text its first
	// spelling.
	Key, Text string
	Count     int
}

type cardView struct {
	Name, Description string
	// Href is the chart page, Icon the icon, both relative to the page.
	Href, Icon         string
	Latest, AppVersion string
	Deprecated         bool
	Library            bool
	// Keywords are shown as text; catalog.js filters on them and on the
	// name and description as the card shows them, so that the index of a
	// large catalog carries each text once.
	Keywords []string
}

type chartView struct {
	cardView
	// Root is the page's way back to the site root, for the partials the
	// page calls with the chart ("chart-form").
	Root        string
	Home        *addressLink
	Sources     []addressLink
	Contribute  string
	Maintainers []maintainerView
	// README is shown folded, as wide as the page, below the install
	// snippets, the form and the links.
	README  template.HTML
	Install installView
	ExtKey  string
	// Platform names the platform whose form the options describe.
	Platform string
	FormNote string
	// Options are the rows of the options reference, in the form's order;
	// Sections the same rows cut at each top-level option, each top-level
	// group a section that options.js collapses.
	Options  []optionView
	Sections []optionSection
	Versions []versionView
	// Changes are the latest version's changes; Changelog every version's
	// that has some, newest first.
	Changes   []changeView
	Changelog []releaseView
	// Dependencies are the latest version's Chart.yaml dependencies.
	Dependencies []dependencyView
	// Values is the latest version's default values.yaml (ValuesCut: cut
	// at MaxValuesSize), "" when the chart has none.
	Values    string
	ValuesCut bool
	// FormModel is what the live form of the page ("chart-form") renders:
	// the form model `catalogist form` prints, judged as lint judges it;
	// nil for a library chart and a chart without a schema.
	FormModel *pageForm
	// Launch is the form's link to the platform's launcher, nil when the
	// catalog names no platform address or the form is not the onyxia
	// platform's.
	Launch *launchView
}

// launchView is the form's link to the platform's launcher: Href opens it
// with the platform's own values (no change), and the page's script adds
// the changes to it as they are made.
type launchView struct {
	// Platform is the platform's title, as the button says it.
	Platform string
	Href     string
}

// optionSection is one top-level option of the options reference: Group is
// the row of a top-level object with properties (nil for top-level options
// that are not groups), Rows the rows below it.
type optionSection struct {
	Group *optionView
	Rows  []optionView
}

// releaseView is one version of the changelog; Version is "" for changes
// of a chart with no published version yet.
type releaseView struct {
	Version, Date string
	Latest        bool
	Changes       []changeView
}

type dependencyView struct {
	// Version is the version constraint.
	Name, Version, Condition, Alias string
	// Href is the page of the chart of this catalog the dependency names,
	// relative to the page; "" for a chart of another repository.
	Href string
	// Repository is where the dependency comes from, a link when it is an
	// http(s) URL; nil for a chart of this catalog.
	Repository *addressLink
}

type maintainerView struct {
	Name       string
	Email, URL *link
}

type installView struct {
	// HelmInstall and Launch are empty for a library chart, which is not
	// installed on its own; Dependency is how a chart depends on it.
	RepoAdd, HelmInstall, Launch string
	Dependency                   string
	RepoURL                      string
	RepoKnown                    bool
	// repoWord is RepoURL as a shell word.
	repoWord string
}

type versionView struct {
	Version, AppVersion, Date string
	Digest, DigestShort       string
	Download                  string
	Latest                    bool
}

type changeView struct {
	Kind, KindClass, Description string
	Links                        []link
}

// RepoPlaceholder stands for the catalog's published address when it is not
// known; the pages explain it.
const RepoPlaceholder = "https://<owner>.github.io/<repo>"

// chartNameRe keeps chart names usable as one path segment of the site.
var chartNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// renderer renders the pages of one site into memory.
type renderer struct {
	cat    *Catalog
	ts     *templateSet
	md     goldmark.Markdown
	files  map[string][]byte
	charts []*Chart
	// byName holds the charts of the catalog, for links to dependencies.
	byName map[string]*Chart
	// models are the launch contexts of the platforms, for the options'
	// pre-fill notes.
	models contextModels
	// icons maps a chart to its icon, relative to the site root or an
	// absolute https URL.
	icons map[*Chart]string
	// iconHook is Options.Icon.
	iconHook func(file string) (string, error)
}

// build renders every file of the site into memory, by slash path.
func build(cat *Catalog, ts *templateSet, opt Options) (map[string][]byte, error) {
	b := &renderer{cat: cat, ts: ts, md: newMarkdown(), files: map[string][]byte{}, byName: map[string]*Chart{}, models: contextModels{}, icons: map[*Chart]string{}, iconHook: opt.Icon}
	for name, data := range ts.assets {
		b.files["assets/"+name] = data
	}
	seen := map[string]bool{}
	for _, c := range cat.Charts {
		if c == nil {
			continue
		}
		if !chartNameRe.MatchString(c.Name) {
			return nil, fmt.Errorf("chart %q: the name is not usable as a page name (letters, digits, '.', '_' and '-')", c.Name)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("chart %s: listed twice", c.Name)
		}
		seen[c.Name] = true
		b.charts = append(b.charts, c)
		b.byName[c.Name] = c
	}
	slices.SortFunc(b.charts, func(x, y *Chart) int { return strings.Compare(x.Name, y.Name) })
	for _, c := range b.charts {
		icon, err := b.icon(c)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", c.Name, err)
		}
		b.icons[c] = icon
	}

	index := b.indexPage()
	if opt.KeepIndex == nil || !opt.KeepIndex(b.viewKey(indexPage, index)) {
		if err := b.page("index.html", index); err != nil {
			return nil, err
		}
	}
	for _, c := range b.charts {
		if opt.KeepPage != nil && opt.KeepPage(c) {
			continue
		}
		pv, err := b.chartPage(c)
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", c.Name, err)
		}
		if err := b.page("charts/"+c.Name+"/index.html", pv); err != nil {
			return nil, err
		}
	}
	return b.files, nil
}

// page executes a page template into the file name.
func (b *renderer) page(name string, pv *pageView) error {
	tmpl := indexPage
	if pv.Chart != nil {
		tmpl = chartPage
	}
	p := b.ts.pages[tmpl]
	var buf bytes.Buffer
	if err := p.tmpl.ExecuteTemplate(&buf, tmpl, pv); err != nil {
		return fmt.Errorf("%s: template %s: %w", name, p.origin, err)
	}
	b.files[name] = buf.Bytes()
	return nil
}

func (b *renderer) catalogView() catalogView {
	cat := b.cat
	v := catalogView{
		Name:        cat.Name,
		Title:       cmp.Or(strings.TrimSpace(cat.Title), cat.Name, "Chart catalog"),
		Description: strings.TrimSpace(cat.Description),
	}
	if src := strings.TrimSpace(cat.Source); src != "" {
		l := webLink(src, src)
		v.Source = &l
	}
	return v
}

func (b *renderer) basePage(root string) *pageView {
	pv := &pageView{Root: root, Catalog: b.catalogView()}
	if g := b.cat.Generated; !g.IsZero() {
		g = g.UTC()
		pv.Generated = &timeView{ISO: g.Format("2006-01-02T15:04:05Z"), Text: g.Format("2006-01-02 15:04 UTC")}
	}
	return pv
}

func (b *renderer) indexPage() *pageView {
	pv := b.basePage("")
	pv.PageTitle = pv.Catalog.Title
	pv.Description = pv.Catalog.Description
	iv := &indexView{}
	counts := map[string]*keywordView{}
	for _, c := range b.charts {
		card := b.card(c, "")
		// A library chart gets no card: the cards are what can be launched,
		// and what the filter counts.
		if c.Library {
			iv.Libraries = append(iv.Libraries, card)
			continue
		}
		iv.Cards = append(iv.Cards, card)
		pv.RemoteImages = pv.RemoteImages || isHTTPS(card.Icon)
		for _, k := range card.Keywords {
			key := strings.ToLower(k)
			if kv := counts[key]; kv != nil {
				kv.Count++
			} else {
				counts[key] = &keywordView{Key: key, Text: k, Count: 1}
			}
		}
	}
	for _, kv := range counts {
		if kv.Count >= 2 {
			iv.Keywords = append(iv.Keywords, *kv)
		}
	}
	slices.SortFunc(iv.Keywords, func(x, y keywordView) int { return strings.Compare(x.Key, y.Key) })
	iv.Count = len(iv.Cards)
	iv.Install = b.repository()
	pv.Index = iv
	return pv
}

// keywords trims, drops empty and repeated (case-insensitively) keywords.
func keywords(in []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range in {
		k = strings.TrimSpace(k)
		if k == "" || seen[strings.ToLower(k)] {
			continue
		}
		seen[strings.ToLower(k)] = true
		out = append(out, k)
	}
	return out
}

func (b *renderer) card(c *Chart, root string) *cardView {
	v := &cardView{
		Name:        c.Name,
		Description: strings.TrimSpace(c.Description),
		Href:        root + "charts/" + c.Name + "/index.html",
		Icon:        fromRoot(root, b.icons[c]),
		AppVersion:  c.AppVersion,
		Deprecated:  c.Deprecated,
		Library:     c.Library,
		Keywords:    keywords(c.Keywords),
	}
	if len(c.Versions) > 0 {
		v.Latest = c.Versions[0].Version
		v.AppVersion = cmp.Or(c.Versions[0].AppVersion, c.AppVersion)
	}
	return v
}

// iconExts are the icon files a catalog may ship.
var iconExts = map[string]bool{".svg": true, ".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// icon returns a chart's icon: its file copied under a content-hashed name,
// else its https URL, else the default icon. A file of another type, or
// whose bytes are not an image of its kind, gets the default icon too: the
// pages never show a broken image.
func (b *renderer) icon(c *Chart) (string, error) {
	if c.IconFile != "" {
		var name string
		var err error
		if b.iconHook != nil {
			name, err = b.iconHook(c.IconFile)
		} else {
			var data []byte
			if name, data, err = IconCopy(c.IconFile); name != "" {
				b.files[name] = data
			}
		}
		if err != nil {
			return "", fmt.Errorf("icon: %w", err)
		}
		if name != "" {
			return name, nil
		}
	}
	if u := strings.TrimSpace(c.IconURL); isHTTPS(u) {
		return u, nil
	}
	return "assets/" + defaultIcon, nil
}

// IconCopy examines an icon file: name is the path of its copy in the site,
// content-hashed ("icons/<hash>.svg"), and data its bytes; name is "" for a
// file that is not an image of a type the site shows.
func IconCopy(file string) (name string, data []byte, err error) {
	ext := strings.ToLower(filepath.Ext(file))
	if !iconExts[ext] {
		return "", nil, nil
	}
	data, err = os.ReadFile(file)
	if err != nil || !looksLikeImage(ext, data) {
		return "", nil, err
	}
	sum := sha256.Sum256(data)
	return "icons/" + hex.EncodeToString(sum[:])[:16] + ext, data, nil
}

func looksLikeImage(ext string, data []byte) bool {
	if len(data) == 0 {
		return false
	}
	if ext == ".svg" {
		return catalog.CheckSVG(data) == nil
	}
	return strings.HasPrefix(http.DetectContentType(data), "image/")
}

func (b *renderer) chartPage(c *Chart) (*pageView, error) {
	root := "../../"
	pv := b.basePage(root)
	pv.PageTitle = c.Name + " · " + pv.Catalog.Title
	pv.Description = strings.TrimSpace(c.Description)
	cv := &chartView{cardView: *b.card(c, root), Root: root, ExtKey: cmp.Or(c.ExtKey, schemaExtKey(c))}

	if h := strings.TrimSpace(c.Home); h != "" {
		l := addressLinkOf(h)
		cv.Home = &l
	}
	for _, s := range c.Sources {
		if s = strings.TrimSpace(s); s != "" {
			cv.Sources = append(cv.Sources, addressLinkOf(s))
		}
	}
	tree, hasTree := newSourceTree(b.cat.Source, b.cat.SourceBranch, c.SourcePath)
	if hasTree {
		cv.Contribute = tree.url("tree", tree.dir)
	}
	cv.Maintainers = maintainers(c)
	pv.RemoteImages = isHTTPS(cv.Icon)
	if len(bytes.TrimSpace(c.README)) > 0 {
		html, remote, err := renderMarkdown(b.md, c.README, tree, hasTree)
		if err != nil {
			return nil, fmt.Errorf("README: %w", err)
		}
		cv.README = html
		pv.RemoteImages = pv.RemoteImages || remote
	}
	if len(bytes.TrimSpace(c.Values)) > 0 {
		cv.Values, cv.ValuesCut = valuesText(c.Values)
	}
	cv.Install = b.install(c)
	cv.Versions = versions(c, root)
	cv.Changelog = changelog(c)
	if len(cv.Changelog) > 0 && (cv.Changelog[0].Latest || len(c.Versions) == 0) {
		cv.Changes = cv.Changelog[0].Changes
	}
	if len(c.Versions) > 0 {
		for _, d := range c.Versions[0].Dependencies {
			if dv, ok := b.dependency(d, root); ok {
				cv.Dependencies = append(cv.Dependencies, dv)
			}
		}
	}
	// A library chart is never launched, so no form shows its options.
	if !c.Library {
		cv.Options, cv.FormNote = options(c, b.models.of(c))
		cv.Sections = sections(cv.Options)
		cv.FormModel = formModel(c)
		if c.Schema != nil && c.Schema.Platform != nil {
			cv.Platform = c.Schema.Platform.Name
		}
		cv.Launch = b.launch(c, cv)
	}
	pv.Chart = cv
	return pv, nil
}

// maintainers are the chart's maintainers as the page links them; an
// entry with nothing to show is left out.
func maintainers(c *Chart) []maintainerView {
	var out []maintainerView
	for _, m := range c.Maintainers {
		mv := maintainerView{Name: strings.TrimSpace(m.Name)}
		if e := strings.TrimSpace(m.Email); e != "" {
			if isEmail(e) {
				mv.Email = &link{Text: e, URL: "mailto:" + e}
			} else {
				mv.Email = &link{Text: e}
			}
		}
		if u := strings.TrimSpace(m.URL); u != "" {
			l := link{Text: u}
			if isHTTPS(u) {
				l.URL, l.External = u, true
			}
			mv.URL = &l
		}
		if mv.Name == "" && mv.Email == nil && mv.URL == nil {
			continue
		}
		if mv.Name == "" {
			mv.Name = "Maintainer"
		}
		out = append(out, mv)
	}
	return out
}

// versions are the chart's versions, newest first, with their downloads
// relative to the page at root.
func versions(c *Chart, root string) []versionView {
	var out []versionView
	for i, v := range c.Versions {
		vv := versionView{
			Version:    v.Version,
			AppVersion: v.AppVersion,
			Date:       dateText(v.Created),
			Latest:     i == 0,
		}
		if d := strings.TrimSpace(v.Digest); d != "" {
			vv.Digest = d
			short := strings.TrimPrefix(d, "sha256:")
			vv.DigestShort = short[:min(len(short), 12)]
		}
		if u, abs, ok := siteURL(v.URL); ok {
			if abs {
				vv.Download = u
			} else {
				vv.Download = root + u
			}
		}
		out = append(out, vv)
	}
	return out
}

// changelog lists the changes of every version that has some, newest
// first. The latest version without changes of its own takes the chart's
// (Chart.Changes), as does a chart with no version yet.
func changelog(c *Chart) []releaseView {
	var out []releaseView
	for i, v := range c.Versions {
		changes := v.Changes
		if i == 0 && len(changes) == 0 {
			changes = c.Changes
		}
		if views := changeViews(changes); len(views) > 0 {
			out = append(out, releaseView{Version: v.Version, Date: dateText(v.Created), Latest: i == 0, Changes: views})
		}
	}
	if len(c.Versions) == 0 {
		if views := changeViews(c.Changes); len(views) > 0 {
			out = append(out, releaseView{Changes: views})
		}
	}
	return out
}

func changeViews(changes []Change) []changeView {
	var out []changeView
	for _, ch := range changes {
		chv := changeView{Kind: strings.TrimSpace(ch.Kind), Description: strings.TrimSpace(ch.Description)}
		chv.KindClass = kindClass(chv.Kind)
		for _, l := range ch.Links {
			chv.Links = append(chv.Links, webLink(cmp.Or(strings.TrimSpace(l.Name), strings.TrimSpace(l.URL)), l.URL))
		}
		if chv.Kind == "" && chv.Description == "" && len(chv.Links) == 0 {
			continue
		}
		out = append(out, chv)
	}
	return out
}

func dateText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

// dependency describes a dependency of the latest version, linking to its
// page when it is a chart of this catalog: one of its charts by name,
// which the dependency takes from the catalog's folder (file://) or from
// its published repository.
func (b *renderer) dependency(d Dependency, root string) (dependencyView, bool) {
	dv := dependencyView{
		Name:      strings.TrimSpace(d.Name),
		Version:   strings.TrimSpace(d.Version),
		Condition: strings.TrimSpace(d.Condition),
		Alias:     strings.TrimSpace(d.Alias),
	}
	if dv.Name == "" {
		return dv, false
	}
	repo := strings.TrimSpace(d.Repository)
	if b.byName[dv.Name] != nil && b.sameRepository(repo) {
		dv.Href = root + "charts/" + dv.Name + "/index.html"
		return dv, true
	}
	if repo != "" {
		// The address as it is written: what helm repo add takes.
		dv.Repository = &addressLink{link: webLink(repo, repo), Parts: addressParts(repo)}
	}
	return dv, true
}

// sameRepository reports whether a dependency's repository is this
// catalog: a folder of its sources, or its published address.
func (b *renderer) sameRepository(repo string) bool {
	if strings.HasPrefix(strings.ToLower(repo), "file://") {
		return true
	}
	own := strings.TrimRight(strings.TrimSpace(b.cat.RepoURL), "/")
	return own != "" && strings.TrimRight(repo, "/") == own
}

// valuesText is a values.yaml as the page shows it: valid UTF-8, cut at
// the last line end within MaxValuesSize.
func valuesText(data []byte) (string, bool) {
	cut := false
	if len(data) > MaxValuesSize {
		data = data[:MaxValuesSize]
		if i := bytes.LastIndexByte(data, '\n'); i > 0 {
			data = data[:i+1]
		}
		cut = true
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), cut
}

// sections cuts the options reference at each top-level group: the
// group's row and its descendants' (the rows are in the form's order, a
// group's descendants right after it), and between groups the top-level
// options that are not groups, with theirs.
func sections(rows []optionView) []optionSection {
	var out []optionSection
	for i := 0; i < len(rows); {
		var s optionSection
		j := i + 1
		if rows[i].Depth == 0 && rows[i].Group {
			s.Group = &rows[i]
			for j < len(rows) && rows[j].Depth > 0 {
				j++
			}
			s.Rows = rows[i+1 : j]
		} else {
			for j < len(rows) && !(rows[j].Depth == 0 && rows[j].Group) {
				j++
			}
			s.Rows = rows[i:j]
		}
		out = append(out, s)
		i = j
	}
	return out
}

// kindClass maps an artifacthub.io/changes kind to a CSS class suffix.
func kindClass(kind string) string {
	switch k := strings.ToLower(kind); k {
	case "added", "changed", "deprecated", "removed", "fixed", "security":
		return k
	}
	return "other"
}

func schemaExtKey(c *Chart) string {
	if c.Schema != nil {
		return c.Schema.ExtKey
	}
	return ""
}

// repository is how the catalog's chart repository is added to Helm,
// for the index and for every chart's install snippets.
func (b *renderer) repository() installView {
	repo := strings.TrimSpace(b.cat.RepoURL)
	known := repo != ""
	repoWord := RepoPlaceholder
	if known {
		repoWord = shellWord(repo)
	} else {
		repo = RepoPlaceholder
	}
	return installView{
		RepoAdd:   "helm repo add " + b.catalogWord() + " " + repoWord,
		RepoURL:   repo,
		RepoKnown: known,
		repoWord:  repoWord,
	}
}

// catalogWord is the name Helm knows the catalog's repository by, as a
// shell word.
func (b *renderer) catalogWord() string {
	return shellWord(cmp.Or(strings.TrimSpace(b.cat.Name), "catalog"))
}

func (b *renderer) install(c *Chart) installView {
	iv := b.repository()
	ref := b.catalogWord() + "/" + c.Name
	version := ""
	if len(c.Versions) > 0 && c.Versions[0].Version != "" {
		version = " --version " + shellWord(c.Versions[0].Version)
	}
	if c.Library {
		iv.Dependency = dependencySnippet(c, iv.RepoURL)
		return iv
	}
	iv.HelmInstall = "helm install my-" + c.Name + " " + ref + version
	// With --repo, launch takes the chart's name alone: the repository
	// names its catalog.
	iv.Launch = "catalogist launch " + shellWord(c.Name) + " \\\n  --repo " + iv.repoWord + strings.Replace(version, " --version", " \\\n  --version", 1)
	return iv
}

// dependencySnippet is the Chart.yaml entry of a chart that uses a library
// chart, at its latest version. Values are JSON strings, which YAML reads as
// they are whatever they hold.
func dependencySnippet(c *Chart, repo string) string {
	quote := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	var b strings.Builder
	b.WriteString("dependencies:\n  - name: " + quote(c.Name) + "\n")
	if len(c.Versions) > 0 && c.Versions[0].Version != "" {
		b.WriteString("    version: " + quote(c.Versions[0].Version) + "\n")
	}
	b.WriteString("    repository: " + quote(repo))
	return b.String()
}

// writeFiles writes the rendered files under dir, in name order.
func writeFiles(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("render %s: %w", name, err)
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return fmt.Errorf("render %s: %w", name, err)
		}
	}
	return nil
}
