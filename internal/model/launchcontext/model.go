// Package launchcontext models the context a launch is computed from (the
// user's profile, the project, the region, the cluster) and resolves the
// references that schemas write in overwriteDefaultWith.
package launchcontext

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/catalogist/catalogist/internal/base/suggest"
	"github.com/catalogist/catalogist/internal/input/srcpos"
)

// builtinPaths are the context paths the seed names plus those of the
// reference platform's context. A trailing ".*" marks an object whose keys
// are free (a user-defined profile, a decoded token); "[]" marks a list.
var builtinPaths = []string{
	"user.idep", "user.name", "user.email", "user.password", "user.ip", "user.darkMode",
	"user.lang", "user.decodedIdToken.*", "user.accessToken", "user.refreshToken", "user.profile.*",
	"service.oneTimePassword",
	"project.id", "project.password", "project.basic",
	"git.name", "git.email", "git.credentials_cache_duration", "git.token",
	"vault.VAULT_ADDR", "vault.VAULT_TOKEN", "vault.VAULT_MOUNT", "vault.VAULT_TOP_DIR",
	"region.defaultIpProtection", "region.defaultNetworkPolicy", "region.allowedURIPattern",
	"region.customValues.*", "region.kafka.url", "region.kafka.topicName", "region.tolerations[].*",
	"region.from[].*", "region.nodeSelector.*", "region.startupProbe.*",
	"region.openshiftSCC.scc", "region.openshiftSCC.enabled",
	"k8s.domain", "k8s.ingressClassName", "k8s.ingress", "k8s.route", "k8s.istio.enabled",
	"k8s.istio.gateways[]", "k8s.randomSubdomain", "k8s.initScriptUrl", "k8s.useCertManager",
	"k8s.certManagerClusterIssuer",
	"proxyInjection.enabled", "proxyInjection.httpProxyUrl", "proxyInjection.httpsProxyUrl",
	"proxyInjection.noProxy",
	"packageRepositoryInjection.cranProxyUrl", "packageRepositoryInjection.condaProxyUrl",
	"packageRepositoryInjection.packageManagerUrl", "packageRepositoryInjection.pypiProxyUrl",
	"certificateAuthorityInjection.cacerts", "certificateAuthorityInjection.pathToCaBundle",
}

var s3Keys = []string{"profileName", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
	"AWS_DEFAULT_REGION", "AWS_S3_ENDPOINT", "port", "pathStyleAccess", "isAnonymous"}

// regionBoundsPaths are the seed's region slider configurations and default
// resources, which only a target with region-bounded sliders provides.
var regionBoundsPaths = []string{
	"region.sliders.*",
	"region.resources.cpuRequest", "region.resources.cpuLimit", "region.resources.memoryRequest",
	"region.resources.memoryLimit", "region.resources.disk", "region.resources.gpu",
}

// addedBy names what adds a context root that the built-in context lacks but
// real catalogs use: the message then says how to declare it instead of
// guessing that it was removed.
var addedBy = map[string]string{
	"ai": "a deployment running the platform's AI assistant adds ai.*; declare its paths with --context",
}

// node is one segment of the known context.
type node struct {
	children map[string]*node
	list     *node // element of a list
	open     bool  // any key below is accepted
}

func (n *node) child(seg string) *node {
	if n.children == nil {
		n.children = map[string]*node{}
	}
	c := n.children[seg]
	if c == nil {
		c = &node{}
		n.children[seg] = c
	}
	return c
}

// Model is the set of known context paths of one platform.
type Model struct {
	// Name is the platform's, for messages ("the onyxia context has no ...").
	Name  string
	root  node
	paths []string // every known path, for suggestions
}

// NewModel returns the context every platform provides: the seed's git paths
// and the reference platform's context. name is the platform's name.
func NewModel(name string) *Model {
	m := &Model{Name: name}
	for _, p := range builtinPaths {
		m.add(p)
	}
	for _, k := range s3Keys {
		m.add("s3." + k)
		m.add("s3_array[]." + k)
	}
	return m
}

// AddRegionBounds adds region.resources.* and region.sliders.*, which a
// platform with region-bounded sliders provides.
func (m *Model) AddRegionBounds() {
	for _, p := range regionBoundsPaths {
		m.add(p)
	}
}

// add registers a path written with "." segments, "[]" list markers and a
// final ".*" for free keys.
func (m *Model) add(p string) {
	cur := &m.root
	display := strings.TrimSuffix(p, ".*")
	for seg := range strings.SplitSeq(p, ".") {
		if seg == "*" {
			cur.open = true
			break
		}
		list := strings.HasSuffix(seg, "[]")
		cur = cur.child(strings.TrimSuffix(seg, "[]"))
		if list {
			if cur.list == nil {
				cur.list = &node{}
			}
			cur = cur.list
		}
	}
	// Suggestions name a list itself, or its first element's fields.
	m.paths = append(m.paths, strings.TrimSuffix(strings.ReplaceAll(display, "[].", "[0]."), "[]"))
}

// AddDocument registers every path of a YAML or JSON document: nested keys
// become dotted paths, and a key may itself be a dotted path. A leaf that is
// an empty object accepts any key below it.
func (m *Model) AddDocument(root *srcpos.Node) {
	var walk func(prefix string, n *srcpos.Node)
	walk = func(prefix string, n *srcpos.Node) {
		switch {
		case n.Kind == srcpos.Object && len(n.Members) > 0:
			for _, c := range n.Members {
				walk(join(prefix, c.Key), c)
			}
		case n.Kind == srcpos.Object:
			m.add(prefix + ".*")
		case n.Kind == srcpos.Array:
			m.add(prefix + "[].*")
		default:
			m.add(prefix)
		}
	}
	if root != nil && root.Kind == srcpos.Object {
		walk("", root)
	}
}

// LoadFile extends the model with the paths of a YAML or JSON file.
func (m *Model) LoadFile(path string) error {
	root, err := ReadFile(path)
	if err != nil {
		return err
	}
	m.AddDocument(root)
	return nil
}

// ReadFile reads a context file: a YAML or JSON mapping whose keys are
// context paths.
func ReadFile(path string) (*srcpos.Node, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading context file: %w", err)
	}
	root, err := srcpos.ParseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	if root.Kind != srcpos.Object {
		return nil, fmt.Errorf("%s:%d:%d: a context file is a mapping whose keys are context paths", path, root.Pos.Line, root.Pos.Col)
	}
	return root, nil
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// Check tells whether a path (already split into segments) names something
// the context provides. When it does not, the returned text explains why,
// with a suggestion when one is close.
func (m *Model) Check(segs []string) (ok bool, why string) {
	cur := &m.root
	for i, seg := range segs {
		if cur.open {
			return true, ""
		}
		var next *node
		if isIndex(seg) && cur.list != nil {
			next = cur.list
		} else if cur.children != nil {
			next = cur.children[seg]
		}
		if next == nil {
			full := strings.Join(segs, ".")
			if strings.TrimSpace(seg) != seg {
				return false, fmt.Sprintf("segment %q has spaces, which are not trimmed", seg)
			}
			why := fmt.Sprintf("the %s context has no %q", m.name(), full)
			if how, ok := addedBy[segs[0]]; ok && i == 0 {
				why += " (" + how + ")"
			} else if s := suggest.Closest(full, m.paths); s != "" {
				why += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return false, why
		}
		cur = next
	}
	return true, ""
}

func (m *Model) name() string {
	if m.Name == "" {
		return "launch"
	}
	return m.Name
}

// Element reports what the elements of the list at segs are known to hold:
// known is false when segs names no list of the model, or a list whose
// elements are free (then nothing can be said of a reference into them);
// keys are the element's known fields otherwise.
func (m *Model) Element(segs []string) (keys []string, known bool) {
	cur := &m.root
	for _, seg := range segs {
		if cur.open || cur.children == nil || cur.children[seg] == nil {
			return nil, false
		}
		cur = cur.children[seg]
	}
	if cur.list == nil || cur.list.open {
		return nil, false
	}
	for k := range cur.list.children {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, true
}

// Roots returns the top-level keys of the context, sorted.
func (m *Model) Roots() []string {
	out := make([]string, 0, len(m.root.children))
	for k := range m.root.children {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// IsRoot reports whether name is a top-level key of the context.
func (m *Model) IsRoot(name string) bool {
	_, ok := m.root.children[name]
	return ok
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
