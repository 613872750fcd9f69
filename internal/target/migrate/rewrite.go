package migrate

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// session carries one run's state across its files.
type session struct {
	m *Options
	r *Result
	// alias is the key the umbrella chart's values of the platform sit
	// under, once the chart was read.
	alias     string
	chartDir  string
	isApp     bool
	themeSeen bool
	// doc names the document being migrated in what is reported ("" when
	// the file has one); apps counts the Applications found.
	doc  string
	apps int
}

func (s *session) note(f *File, format string, args ...any) {
	s.r.Notes = append(s.r.Notes, f.Path+": "+s.doc+fmt.Sprintf(format, args...))
}

func (s *session) change(f *File, format string, args ...any) {
	f.Changes = append(f.Changes, s.doc+fmt.Sprintf(format, args...))
}

// shape reports an edit that could not be made for its shape, or because
// an alias shares what it would change, and passes other errors on.
func (s *session) shape(f *File, what string, err error) error {
	if errors.Is(err, ErrShape) || errors.Is(err, ErrShared) {
		s.note(f, "%s left unchanged: %v; edit it by hand", what, err)
		return nil
	}
	return err
}

// indirect reports a value left alone for the reason reach gives; what
// names it, todo says what to do by hand, and then why.
func (s *session) indirect(f *File, what, why, todo, then string) {
	where := ""
	switch {
	case strings.HasPrefix(why, "also comes through"):
		where = " here and there"
	case strings.HasPrefix(why, "comes through"):
		where = " there"
	}
	s.note(f, "%s %s; %s%s by hand%s", what, why, todo, where, then)
}

func (s *session) setScalar(f *File, d *Doc, n *yaml.Node, what, value string) error {
	if n.Kind == yaml.AliasNode {
		if resolve(n).Value != value {
			s.indirect(f, what, "comes through "+d.viaAlias(n), "change it", "")
		}
		return nil
	}
	if n.Value == value {
		return nil
	}
	old := n.Value
	if err := d.SetScalar(n, value); err != nil {
		return s.shape(f, what, err)
	}
	s.change(f, "%s: %s -> %s", what, old, value)
	return nil
}

// repoKind says whether a repository reference names the old repository
// or the new one, by URL or by repository name (@name or alias:name).
func (s *session) repoKind(repo string) (old, isNew bool) {
	m := s.m
	switch {
	case sameURL(repo, m.OldRepoURL), repo == "@"+m.OldRepoName, repo == "alias:"+m.OldRepoName:
		return true, false
	case sameURL(repo, m.NewRepoURL), repo == "@"+m.NewRepoName, repo == "alias:"+m.NewRepoName:
		return false, true
	}
	return false, false
}

// newRepoRef is the new repository in the form the old reference used.
func (s *session) newRepoRef(old string) string {
	switch {
	case strings.HasPrefix(old, "@"):
		return "@" + s.m.NewRepoName
	case strings.HasPrefix(old, "alias:"):
		return "alias:" + s.m.NewRepoName
	}
	return s.m.NewRepoURL
}

// chart migrates an umbrella chart's dependency on the platform's chart.
func (s *session) chart(f *File, d *Doc) error {
	s.chartDir = filepath.Dir(f.Path)
	deps, _ := Get(d.Root, "dependencies")
	if deps == nil || deps.Kind != yaml.SequenceNode {
		s.note(f, "no dependencies list: this is not an umbrella chart of %s", s.m.OldChart)
		return nil
	}
	found := false
	for i, dep := range deps.Content {
		name, _ := Get(dep, "name")
		repo, _ := Get(dep, "repository")
		if name == nil || repo == nil || (resolve(name).Value != s.m.OldChart && resolve(name).Value != s.m.NewChart) {
			continue
		}
		old, isNew := s.repoKind(resolve(repo).Value)
		if !old && !isNew {
			continue
		}
		found = true
		what := fmt.Sprintf("dependencies[%d]", i)
		if err := s.setScalar(f, d, repo, what+".repository", s.newRepoRef(resolve(repo).Value)); err != nil {
			return err
		}
		if err := s.setScalar(f, d, name, what+".name", s.m.NewChart); err != nil {
			return err
		}
		if v, _ := Get(dep, "version"); v != nil {
			if err := s.setScalar(f, d, v, what+".version", s.r.Version); err != nil {
				return err
			}
		} else {
			s.note(f, "%s has no version: add `version: %s`", what, s.r.Version)
		}
		// The umbrella's values of the platform sit under the alias, or
		// the name the dependency had.
		s.alias = resolve(name).Value
		if a, _ := Get(dep, "alias"); a != nil && resolve(a).Value != "" {
			s.alias = resolve(a).Value
		}
	}
	if !found {
		s.note(f, "no dependency on %s from %s or %s", s.m.OldChart, s.m.OldRepoURL, s.m.NewRepoURL)
	} else if len(f.Changes) > 0 {
		s.r.Notes = append(s.r.Notes, fmt.Sprintf("%s: Chart.lock and charts/ still hold the old dependency: run `helm dependency update %s`", f.Path, s.chartDir))
	}
	return nil
}

// values migrates a values file: the platform's part (at the top, or
// under the umbrella chart's key) and a keycloak: section if it has one.
func (s *session) values(f *File, d *Doc) error {
	if d.Root == nil {
		s.note(f, "empty: nothing to migrate")
		return nil
	}
	if d.Root.Kind != yaml.MappingNode {
		s.note(f, "is not a mapping of values: left unchanged")
		return nil
	}
	return s.valuesIn(f, d, d.Root, "")
}

// valuesIn migrates values rooted at root; prefix names root in messages.
func (s *session) valuesIn(f *File, d *Doc, root *yaml.Node, prefix string) error {
	var under []string
	for _, key := range []string{s.alias, s.m.OldChart, s.m.NewChart} {
		if v := lookup(root, key, map[*yaml.Node]bool{}); key != "" && v != nil && resolve(v).Kind == yaml.MappingNode {
			under = []string{key}
			break
		}
	}
	type found struct {
		path      []string
		comp, was string
	}
	var tags []found
	var paths [][]string
	for _, comp := range []string{"web", "api"} {
		p := append(slices.Clone(under), comp, "image", "tag")
		tag, why := d.reach(root, p)
		if why != "" {
			// Removing the text in front of us would not remove the
			// value, or would remove it from elsewhere too.
			s.indirect(f, prefix+strings.Join(p, "."), why, "remove it", fmt.Sprintf(" (the chart version now decides the %s image)", comp))
			continue
		}
		if tag != nil {
			tags = append(tags, found{p, comp, tag.Value})
			paths = append(paths, p)
		}
	}
	// Both tags at once, so that a mapping left with neither goes too; one
	// by one when that fails, to say which could not.
	dels, _ := planDeletes(root, paths)
	joint := d.DeletePairs(dels) == nil
	for _, tg := range tags {
		what := prefix + strings.Join(tg.path, ".")
		if !joint {
			one, _ := planDeletes(root, [][]string{tg.path})
			if err := d.DeletePairs(one); err != nil {
				if err := s.shape(f, what, err); err != nil {
					return err
				}
				continue
			}
		}
		s.change(f, "%s removed (was %s): the chart version now decides the %s image", what, tg.was, tg.comp)
	}
	for _, key := range []string{"keycloak", "keycloakx"} {
		kc, _ := Get(root, key)
		switch {
		case kc == nil:
			if mg, v := mergedFrom(root, key); v != nil && resolve(v).Kind == yaml.MappingNode {
				s.indirect(f, prefix+key, "comes through "+d.viaMerge(mg), "change its theme settings", "")
			}
		case kc.Kind == yaml.AliasNode:
			if resolve(kc).Kind == yaml.MappingNode {
				s.indirect(f, prefix+key, "comes through "+d.viaAlias(kc), "change its theme settings", "")
			}
		case kc.Kind == yaml.MappingNode:
			if err := s.idp(f, d, kc, prefix+key+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// pairRef is pair i of mapping m.
type pairRef struct {
	m *yaml.Node
	i int
}

// planDeletes finds the pairs to delete to remove the values at paths
// (each a list of keys from m): a mapping the removal would leave empty
// goes too, whole. empty says that every pair of m would go.
func planDeletes(m *yaml.Node, paths [][]string) (dels []pairRef, empty bool) {
	if m == nil || m.Kind != yaml.MappingNode || len(paths) == 0 {
		return nil, false
	}
	gone := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, ok := keyName(m.Content[i])
		if !ok || isMerge(m.Content[i]) {
			continue
		}
		whole := false
		var tails [][]string
		for _, p := range paths {
			if p[0] != key {
				continue
			}
			if len(p) == 1 {
				whole = true
			} else {
				tails = append(tails, p[1:])
			}
		}
		if !whole && len(tails) > 0 {
			sub, subEmpty := planDeletes(m.Content[i+1], tails)
			if !subEmpty {
				dels = append(dels, sub...)
				continue
			}
			whole = true
		}
		if whole {
			dels = append(dels, pairRef{m, i})
			gone++
		}
	}
	return dels, gone > 0 && gone == len(m.Content)/2
}

// app migrates an Argo CD Application.
func (s *session) app(f *File, d *Doc) error {
	s.isApp = true
	if kind, _ := Get(d.Root, "kind"); kind == nil || resolve(kind).Value != "Application" {
		if s.doc == "" {
			s.note(f, "is not an Argo CD Application (kind: Application): left unchanged")
		}
		// Among several documents, the others are the resources
		// deployed beside the Application: nothing to say about them.
		return nil
	}
	s.apps++
	spec, _ := Get(d.Root, "spec")
	var sources []*yaml.Node
	if src, _ := Get(spec, "source"); src != nil {
		sources = append(sources, src)
	}
	if list, _ := Get(spec, "sources"); list != nil && list.Kind == yaml.SequenceNode {
		sources = append(sources, list.Content...)
	}
	found := false
	for i, src := range sources {
		repo, _ := Get(src, "repoURL")
		ch, _ := Get(src, "chart")
		if repo == nil || ch == nil || (resolve(ch).Value != s.m.OldChart && resolve(ch).Value != s.m.NewChart) {
			continue
		}
		old, isNew := s.repoKind(resolve(repo).Value)
		if !old && !isNew {
			continue
		}
		found = true
		what := "spec.source"
		if len(sources) > 1 || src != sources[0] || Path(spec, "source") == nil {
			what = fmt.Sprintf("spec.sources[%d]", i)
		}
		if err := s.setScalar(f, d, repo, what+".repoURL", s.m.NewRepoURL); err != nil {
			return err
		}
		if err := s.setScalar(f, d, ch, what+".chart", s.m.NewChart); err != nil {
			return err
		}
		if rev, _ := Get(src, "targetRevision"); rev != nil {
			if err := s.setScalar(f, d, rev, what+".targetRevision", s.r.Version); err != nil {
				return err
			}
		} else {
			s.note(f, "%s has no targetRevision: add `targetRevision: %s`", what, s.r.Version)
		}
		helm, _ := Get(src, "helm")
		if obj, _ := Get(helm, "valuesObject"); obj != nil && obj.Kind == yaml.MappingNode {
			if err := s.valuesIn(f, d, obj, what+".helm.valuesObject."); err != nil {
				return err
			}
		}
		if v, _ := Get(helm, "values"); v != nil {
			if err := s.inlineValues(f, d, v, what+".helm.values."); err != nil {
				return err
			}
		}
	}
	if !found {
		s.note(f, "no source of chart %s from %s or %s", s.m.OldChart, s.m.OldRepoURL, s.m.NewRepoURL)
	}
	return nil
}

// inlineValues migrates values held as YAML text in a literal block.
func (s *session) inlineValues(f *File, d *Doc, n *yaml.Node, prefix string) error {
	b, err := d.BlockOf(n)
	if err != nil {
		return s.shape(f, strings.TrimSuffix(prefix, "."), err)
	}
	inner, err := parseDoc([]byte(b.Text), d.blockBase(b))
	if err != nil {
		s.note(f, "%s could not be read as YAML (%v): left unchanged", strings.TrimSuffix(prefix, "."), err)
		return nil
	}
	if inner.Root == nil || inner.Root.Kind != yaml.MappingNode {
		return nil
	}
	kept := len(f.Changes)
	if err := s.valuesIn(f, inner, inner.Root, prefix); err != nil {
		return err
	}
	return s.writeBack(f, d, b, inner, kept, strings.TrimSuffix(prefix, "."))
}

// idpFile migrates a Keycloak chart's values file.
func (s *session) idpFile(f *File, d *Doc) error {
	if d.Root == nil {
		s.note(f, "empty: the theme settings are added")
		return s.idp(f, d, nil, "")
	}
	if d.Root.Kind != yaml.MappingNode {
		s.note(f, "is not a mapping of values: left unchanged")
		return nil
	}
	return s.idp(f, d, d.Root, "")
}

// themeURL matches the theme archive of any platform release, from either
// repository the web front end was published from.
var themeURL = regexp.MustCompile(`https://github\.com/InseeFrLab/onyxia(?:-web)?/releases/download/v?[^/\s"']+/keycloak-theme\.jar`)

// The keys of the two shapes of Keycloak chart values: codecentric's
// keycloak and keycloakx charts take YAML text, Bitnami's takes lists.
var (
	textKeys = [3]string{"extraInitContainers", "extraVolumes", "extraVolumeMounts"}
	listKeys = [3]string{"initContainers", "extraVolumes", "extraVolumeMounts"}
)

// idp makes the identity provider fetch the theme of the chart's version:
// an init container downloading it into the extensions emptyDir volume,
// mounted at the extensions path.
func (s *session) idp(f *File, d *Doc, kc *yaml.Node, prefix string) (err error) {
	before := len(f.Changes)
	defer func() {
		if len(f.Changes) > before {
			s.themeSeen = true // the theme changes: its new name is worth a note
		}
	}()
	keys, path := s.idpLayout(kc)
	url := fmt.Sprintf(s.m.ThemeURL, s.r.Version)
	wants := [3]func(*listEdit) error{
		func(l *listEdit) error { return l.themeContainer(url) },
		func(l *listEdit) error { return l.volume() },
		func(l *listEdit) error { return l.mount(path) },
	}
	var missing []*yaml.Node
	var added []string
	for i, key := range keys {
		v, _ := Get(kc, key)
		what := prefix + key
		if v == nil && kc != nil {
			// A merged list would be hidden by one added here, and its
			// items lost.
			if mg, mv := mergedFrom(kc, key); mv != nil {
				s.indirect(f, what, "comes through "+d.viaMerge(mg), "add the theme settings", "")
				continue
			}
		}
		if v == nil {
			var item *yaml.Node
			switch i {
			case 0:
				item = themeContainerNode(url)
			case 1:
				item = volumeNode()
			case 2:
				item = mountNode(path)
			}
			missing = append(missing, keyNode(key), s.newListValue(keys == textKeys, item))
			added = append(added, what)
			continue
		}
		l := &listEdit{s: s, f: f, what: what}
		switch {
		case v.Kind == yaml.AliasNode:
			s.indirect(f, what, "comes through "+d.viaAlias(v), "change it", "")
		case v.Kind == yaml.ScalarNode && v.Style&yaml.LiteralStyle != 0:
			if err := s.editBlock(f, d, v, l, wants[i]); err != nil {
				return err
			}
		case v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0:
			l.d, l.seq = d, v
			if err := wants[i](l); err != nil {
				return err
			}
		default:
			s.note(f, "%s: %v: a list or a | block of YAML was expected; edit it by hand", what, ErrShape)
		}
	}
	if len(missing) > 0 {
		pairs := &yaml.Node{Kind: yaml.MappingNode, Content: missing}
		if err := d.AppendPairs(kc, pairs); err != nil {
			return s.shape(f, strings.TrimSuffix(prefix, "."), err)
		}
		for _, what := range added {
			s.change(f, "%s added", what)
		}
	}
	return nil
}

// idpLayout is how the identity provider's chart takes the theme settings:
// as text (the codecentric chart) or as lists (Bitnami's), and the
// extensions path of its image.
func (s *session) idpLayout(kc *yaml.Node) (keys [3]string, path string) {
	keys = textKeys
	if v, _ := Get(kc, "extraInitContainers"); v == nil {
		if v, _ := Get(kc, "initContainers"); v != nil {
			keys = listKeys
		} else if v, _ := Get(kc, "extraVolumes"); v != nil && v.Kind == yaml.SequenceNode {
			keys = listKeys
		}
	}
	path = s.m.IdpPath
	if path == "" {
		path = ProvidersPath
		if keys == listKeys {
			path = BitnamiProvidersPath
		}
		if img := Path(kc, "image", "repository"); img != nil && strings.Contains(img.Value, "jboss/keycloak") {
			path = DeploymentsPath
		}
	}
	return keys, path
}

// editBlock edits a list written as a | block of YAML text: the block is
// read as YAML, edited with want, and written back in its place.
func (s *session) editBlock(f *File, d *Doc, v *yaml.Node, l *listEdit, want func(*listEdit) error) error {
	what := l.what
	b, err := d.BlockOf(v)
	if err != nil {
		return s.shape(f, what, err)
	}
	inner, err := parseDoc([]byte(b.Text), d.blockBase(b))
	if err != nil {
		s.note(f, "%s could not be read as YAML (%v): left unchanged", what, err)
		return nil
	}
	if inner.Root == nil || inner.Root.Kind != yaml.SequenceNode || inner.Root.Style&yaml.FlowStyle != 0 {
		s.note(f, "%s: %v: a list of YAML items was expected; edit it by hand", what, ErrShape)
		return nil
	}
	l.d, l.seq = inner, inner.Root
	kept := len(f.Changes)
	if err := want(l); err != nil {
		return err
	}
	return s.writeBack(f, d, b, inner, kept, what)
}

// writeBack writes a block's edited YAML back in its place; when it cannot
// be, the changes made since kept are dropped and what is left unchanged
// is said.
func (s *session) writeBack(f *File, d *Doc, b *Block, inner *Doc, kept int, what string) error {
	out, err := inner.Bytes()
	if err != nil {
		return err
	}
	if err := d.SetBlock(b, string(out)); err != nil {
		f.Changes = f.Changes[:kept]
		return s.shape(f, what, err)
	}
	return nil
}

func keyNode(k string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: k} }

// newListValue is a one-item list, as YAML text in a literal block for
// the charts that take text.
func (s *session) newListValue(text bool, item *yaml.Node) *yaml.Node {
	list := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{item}}
	if !text {
		return list
	}
	out, err := Render(list, 2, "", "\n")
	if err != nil {
		panic(err) // nodes built here always encode
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.LiteralStyle, Value: out}
}

func themeContainerNode(url string) *yaml.Node {
	var v yaml.Node
	src := fmt.Sprintf(`name: onyxia-theme
image: curlimages/curl:8.11.1
command: [sh, -c]
args:
  - curl -L -f -S -o /extensions/onyxia-theme.jar %s
volumeMounts:
  - name: extensions
    mountPath: /extensions
`, url)
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		panic(err)
	}
	return v.Content[0]
}

func volumeNode() *yaml.Node {
	var v yaml.Node
	if err := yaml.Unmarshal([]byte("name: extensions\nemptyDir: {}\n"), &v); err != nil {
		panic(err)
	}
	return v.Content[0]
}

func mountNode(path string) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		keyNode("name"), keyNode("extensions"), keyNode("mountPath"), keyNode(path),
	}}
}

// listEdit edits one list of the identity provider's values.
type listEdit struct {
	s    *session
	f    *File
	d    *Doc
	seq  *yaml.Node
	what string
}

func (l *listEdit) named(name string) (*yaml.Node, int) {
	for i, it := range l.seq.Content {
		if n, _ := Get(it, "name"); n != nil && n.Value == name {
			return it, i
		}
	}
	return nil, -1
}

func (l *listEdit) unit() int { return indentUnit(l.seq.Content[0]) }

// themeContainer points the init container that fetches the theme at the
// release of the chart's version, or adds one.
func (l *listEdit) themeContainer(url string) error {
	for i, it := range l.seq.Content {
		first := it.Line
		last := l.d.lastLine(it, max(l.d.dash(it), 0))
		text := string(l.d.src[l.d.lineStart(first):l.d.lineAfter(last)])
		olds := themeURL.FindAllString(text, -1)
		if len(olds) == 0 {
			continue
		}
		changed := false
		for _, o := range olds {
			if o != url {
				changed = true
			}
		}
		if changed {
			if err := l.d.ReplaceInLines(it, first, last, func(s string) string { return themeURL.ReplaceAllLiteralString(s, url) }); err != nil {
				return l.s.shape(l.f, fmt.Sprintf("%s[%d]", l.what, i), err)
			}
			l.s.change(l.f, "%s[%d]: theme URL %s -> %s", l.what, i, olds[0], url)
		}
		return nil
	}
	if err := l.d.AppendItem(l.seq, themeContainerNode(url), l.unit()); err != nil {
		return l.s.shape(l.f, l.what, err)
	}
	l.s.change(l.f, "%s: init container fetching the theme added", l.what)
	return nil
}

// volume makes sure the extensions emptyDir volume exists.
func (l *listEdit) volume() error {
	if it, _ := l.named("extensions"); it != nil {
		if ed, _ := Get(it, "emptyDir"); ed == nil {
			l.s.note(l.f, "%s: volume extensions is not an emptyDir: left as it is", l.what)
		}
		return nil
	}
	if err := l.d.AppendItem(l.seq, volumeNode(), l.unit()); err != nil {
		return l.s.shape(l.f, l.what, err)
	}
	l.s.change(l.f, "%s: emptyDir volume extensions added", l.what)
	return nil
}

// mount makes sure the extensions volume is mounted at path.
func (l *listEdit) mount(path string) error {
	if it, _ := l.named("extensions"); it != nil {
		mp, _ := Get(it, "mountPath")
		if mp == nil {
			l.s.note(l.f, "%s: mount extensions has no mountPath: add `mountPath: %s`", l.what, path)
			return nil
		}
		// An existing mount is the deployer's choice, which knows the
		// image; it moves when asked to, or when it is the WildFly-era
		// path while the values do not use that image.
		if mp.Value != path && (l.s.m.IdpPath != "" || mp.Value == DeploymentsPath) {
			old := mp.Value
			if err := l.s.setScalar(l.f, l.d, mp, l.what+" extensions mountPath", path); err != nil {
				return err
			}
			if l.s.m.IdpPath == "" {
				l.s.note(l.f, "the extensions mount moved from %s (the old WildFly-based image) to %s: pass --idp-path %s if your Keycloak image still loads extensions from there", old, path, old)
			}
		}
		return nil
	}
	if err := l.d.AppendItem(l.seq, mountNode(path), l.unit()); err != nil {
		return l.s.shape(l.f, l.what, err)
	}
	l.s.change(l.f, "%s: extensions mounted at %s", l.what, path)
	return nil
}

// commands are the helm commands to use the new repository.
func (s *session) commands() []string {
	m := s.m
	cmds := []string{
		fmt.Sprintf("helm repo add %s %s", m.NewRepoName, m.NewRepoURL),
		fmt.Sprintf("helm repo update %s", m.NewRepoName),
	}
	switch {
	case s.chartDir != "":
		cmds = append(cmds,
			fmt.Sprintf("helm dependency update %s", s.chartDir),
			fmt.Sprintf("helm upgrade --install %s %s", m.Release, s.chartDir))
	case s.isApp:
		cmds = append(cmds, "# Argo CD: commit the Application; it syncs the new chart version")
	default:
		values := ""
		if m.Values != "" {
			values = " -f " + m.Values
		}
		cmds = append(cmds,
			fmt.Sprintf("helm upgrade --install %s %s/%s --version %s%s", m.Release, m.NewRepoName, m.NewChart, s.r.Version, values))
	}
	return cmds
}
