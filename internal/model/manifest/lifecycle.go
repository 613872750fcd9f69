package manifest

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/catalogist/catalogist/internal/base/suggest"
)

// The lifecycle k8s.io/api's types declare, generated from their
// prerelease-lifecycle tags (k8s.io/apiserver's deprecation package reads
// the same methods; introduction has no interface there).
type (
	introduced  interface{ APILifecycleIntroduced() (major, minor int) }
	deprecated  interface{ APILifecycleDeprecated() (major, minor int) }
	removed     interface{ APILifecycleRemoved() (major, minor int) }
	replacement interface {
		APILifecycleReplacement() schema.GroupVersionKind
	}
)

// life is a built-in kind's lifecycle, read once from its type so that
// judging a document allocates nothing for it. A zero Version is a release
// the type does not declare.
type life struct {
	introduced, deprecated, removed Version
	replacement                     schema.GroupVersionKind
}

func lifeOf(obj runtime.Object) life {
	var l life
	if i, ok := obj.(introduced); ok {
		l.introduced.Major, l.introduced.Minor = i.APILifecycleIntroduced()
	}
	if d, ok := obj.(deprecated); ok {
		l.deprecated.Major, l.deprecated.Minor = d.APILifecycleDeprecated()
	}
	if r, ok := obj.(removed); ok {
		l.removed.Major, l.removed.Minor = r.APILifecycleRemoved()
	}
	if r, ok := obj.(replacement); ok {
		l.replacement = r.APILifecycleReplacement()
	}
	return l
}

// reached reports whether the target is at or after a declared release.
func reached(target, release Version) bool {
	return release != (Version{}) && !target.before(release.Major, release.Minor)
}

// gone is an API that Kubernetes served and k8s.io/api no longer has.
type gone struct {
	deprecatedIn, removedIn Version // zero when not known
	use                     string  // what to use instead
}

// goneKinds are the well-known removals that k8s.io/api has dropped, so
// that a chart still using one is told when it went and what replaces it.
var goneKinds = map[schema.GroupVersionKind]gone{
	{Group: "policy", Version: "v1beta1", Kind: "PodSecurityPolicy"}:                                 {Version{1, 21}, Version{1, 25}, "Pod Security Admission (the pod-security.kubernetes.io/* labels of a Namespace)"},
	{Group: "extensions", Version: "v1beta1", Kind: "PodSecurityPolicy"}:                             {Version{1, 11}, Version{1, 16}, "Pod Security Admission (the pod-security.kubernetes.io/* labels of a Namespace)"},
	{Group: "batch", Version: "v2alpha1", Kind: "CronJob"}:                                           {Version{1, 8}, Version{1, 21}, "batch/v1 CronJob"},
	{Group: "autoscaling", Version: "v2beta1", Kind: "HorizontalPodAutoscaler"}:                      {Version{1, 22}, Version{1, 25}, "autoscaling/v2 HorizontalPodAutoscaler"},
	{Group: "autoscaling", Version: "v2beta2", Kind: "HorizontalPodAutoscaler"}:                      {Version{1, 23}, Version{1, 26}, "autoscaling/v2 HorizontalPodAutoscaler"},
	{Group: "apiextensions.k8s.io", Version: "v1beta1", Kind: "CustomResourceDefinition"}:            {Version{1, 16}, Version{1, 22}, "apiextensions.k8s.io/v1 CustomResourceDefinition"},
	{Group: "apiregistration.k8s.io", Version: "v1beta1", Kind: "APIService"}:                        {Version{1, 19}, Version{1, 22}, "apiregistration.k8s.io/v1 APIService"},
	{Group: "settings.k8s.io", Version: "v1alpha1", Kind: "PodPreset"}:                               {Version{}, Version{1, 20}, "a mutating admission webhook"},
	{Group: "scheduling.k8s.io", Version: "v1alpha1", Kind: "PriorityClass"}:                         {Version{1, 14}, Version{1, 17}, "scheduling.k8s.io/v1 PriorityClass"},
	{Group: "storage.k8s.io", Version: "v1alpha1", Kind: "CSIDriver"}:                                {Version{}, Version{1, 18}, "storage.k8s.io/v1 CSIDriver"},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1alpha1", Kind: "FlowSchema"}:                 {Version{1, 20}, Version{1, 21}, "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
	{Group: "networking.k8s.io", Version: "v1alpha1", Kind: "IPAddress"}:                             {Version{}, Version{1, 33}, "networking.k8s.io/v1 IPAddress"},
	{Group: "networking.k8s.io", Version: "v1alpha1", Kind: "ServiceCIDR"}:                           {Version{}, Version{1, 33}, "networking.k8s.io/v1 ServiceCIDR"},
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1alpha1", Kind: "PriorityLevelConfiguration"}: {Version{1, 20}, Version{1, 21}, "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"},
}

// formerGroups are built-in API groups that no longer exist at all.
var formerGroups = map[string]bool{"settings.k8s.io": true}

// aggregated are built-in kinds the API server serves through its
// aggregator rather than from client-go's scheme: built in, but not
// decoded offline.
var aggregated = map[schema.GroupVersionKind]bool{
	{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService"}: true,
}

// servedAlpha are the alpha group versions kube-apiserver 1.37 still has
// (pkg/controlplane's alphaAPIGroupVersionsDisabledByDefault and its
// generic counterpart): served once a cluster enables them. Other alpha
// versions in k8s.io/api (rbac v1alpha1, node v1alpha1) are kept for old
// clients only.
var servedAlpha = map[schema.GroupVersion]bool{
	{Group: "admissionregistration.k8s.io", Version: "v1alpha1"}: true,
	{Group: "internal.apiserver.k8s.io", Version: "v1alpha1"}:    true,
	{Group: "authentication.k8s.io", Version: "v1alpha1"}:        true,
	{Group: "coordination.k8s.io", Version: "v1alpha2"}:          true,
	{Group: "certificates.k8s.io", Version: "v1alpha1"}:          true,
	{Group: "lifecycle.k8s.io", Version: "v1alpha1"}:             true,
	{Group: "resource.k8s.io", Version: "v1alpha3"}:              true,
	{Group: "scheduling.k8s.io", Version: "v1alpha3"}:            true,
	{Group: "storage.k8s.io", Version: "v1alpha1"}:               true,
}

// betaOnByDefault are beta versions introduced after 1.24 that the API
// server nevertheless enabled by default (an exception to KEP-3136, as
// their group's earlier beta was on).
var betaOnByDefault = map[schema.GroupVersion]bool{
	{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta3"}: true,
}

// verdict is what the target release does with a kind.
type verdict struct {
	decode  bool      // built in and served (perhaps deprecated or off by default): decode it
	custom  string    // not built in: why it is not decoded ("" when built in)
	results []Problem // lifecycle problems, paths relative to the object
}

// judgeKind says whether the target serves a kind, and how.
func (c *Checker) judgeKind(gvk schema.GroupVersionKind) verdict {
	k := api()
	if c.CRDs[gvk.GroupKind()] {
		return verdict{custom: fmt.Sprintf("%s is defined by a CustomResourceDefinition of the chart, whose schema is not known offline", gvk.Kind)}
	}
	if aggregated[gvk] {
		return verdict{custom: fmt.Sprintf("%s %s is served by the API server's aggregator, whose schema is not known offline", gvk.GroupVersion(), gvk.Kind)}
	}
	if _, builtIn := k.life[gvk]; !builtIn || nonResourceKind(gvk) {
		if g, ok := goneKinds[gvk]; ok {
			return c.judgeGone(gvk, g)
		}
		if !k.groups[gvk.Group] && !formerGroups[gvk.Group] && !groupOfAggregated(gvk.Group) {
			return verdict{custom: fmt.Sprintf("%s is not a built-in kind of Kubernetes (it comes from a CustomResourceDefinition or an aggregated API), so the API server's schema for it is not known offline", gvk.Kind)}
		}
		path := "apiVersion"
		if hasVersion(gvk.GroupVersion()) {
			path = "kind" // the version exists: the kind is what is wrong
		}
		return verdict{results: []Problem{{Check: CheckRemoved, Severity: Error, Path: path, Msg: c.unknownKind(gvk)}}}
	}
	return c.judgeLifecycle(gvk, k.life[gvk])
}

func groupOfAggregated(group string) bool {
	for gvk := range aggregated {
		if gvk.Group == group {
			return true
		}
	}
	return false
}

// judgeLifecycle compares a built-in kind's lifecycle with the target.
func (c *Checker) judgeLifecycle(gvk schema.GroupVersionKind, l life) verdict {
	target := c.target()
	name := gvk.GroupVersion().String() + " " + gvk.Kind
	refuse := func(format string, args ...any) verdict {
		msg := fmt.Sprintf(format, args...) + useClause(replacementOf(gvk, l, target))
		return verdict{results: []Problem{{Check: CheckRemoved, Severity: Error, Path: "apiVersion", Msg: msg}}}
	}
	switch {
	case l.introduced != (Version{}) && !reached(target, l.introduced):
		return refuse("%s is not served before Kubernetes %s, and the target is %s", name, l.introduced, target)
	case reached(target, l.removed):
		return refuse("%s was removed in Kubernetes %s", name, l.removed)
	case isAlpha(gvk.Version) && !servedAlpha[gvk.GroupVersion()]:
		return refuse("%s is no longer served by Kubernetes (k8s.io/api keeps the type for old clients only)", name)
	}
	v := verdict{decode: true}
	if off := offByDefault(gvk, l); off != "" {
		v.results = append(v.results, Problem{Check: CheckDisabled, Severity: Warning, Path: "apiVersion",
			Msg: fmt.Sprintf("%s is %s API that Kubernetes %s serves only where the cluster enables it (kube-apiserver --runtime-config=%s=true)%s",
				name, off, target, gvk.GroupVersion(), useClause(replacementOf(gvk, l, target)))})
	}
	// As deprecation.IsDeprecated decides (TestLifecycleAsHelm).
	if reached(target, l.deprecated) {
		msg := fmt.Sprintf("%s is deprecated since Kubernetes %s", name, l.deprecated)
		if l.removed != (Version{}) {
			msg += " and will be removed in " + l.removed.String()
		}
		v.results = append(v.results, Problem{Check: CheckDeprecated, Severity: Warning, Path: "apiVersion",
			Msg: msg + useClause(replacementOf(gvk, l, target))})
	}
	return v
}

// offByDefault says "an alpha" or "a beta" for a version the API server
// serves only when enabled: every alpha, and since 1.24 every new beta
// (KEP-3136).
func offByDefault(gvk schema.GroupVersionKind, l life) string {
	switch {
	case isAlpha(gvk.Version):
		return "an alpha"
	case strings.Contains(gvk.Version, "beta") && !betaOnByDefault[gvk.GroupVersion()] && reached(l.introduced, Version{1, 24}):
		return "a beta"
	}
	return ""
}

func isAlpha(version string) bool { return strings.Contains(version, "alpha") }

// judgeGone handles a well-known API that k8s.io/api has dropped.
func (c *Checker) judgeGone(gvk schema.GroupVersionKind, g gone) verdict {
	target := c.target()
	name := gvk.GroupVersion().String() + " " + gvk.Kind
	if !target.before(g.removedIn.Major, g.removedIn.Minor) {
		return verdict{results: []Problem{{Check: CheckRemoved, Severity: Error, Path: "apiVersion",
			Msg: fmt.Sprintf("%s was removed in Kubernetes %s%s", name, g.removedIn, useClause(g.use))}}}
	}
	v := verdict{custom: fmt.Sprintf("%s is no longer in the Kubernetes API this binary is built with, so its schema is not known offline", name)}
	if g.deprecatedIn != (Version{}) && !target.before(g.deprecatedIn.Major, g.deprecatedIn.Minor) {
		v.results = []Problem{{Check: CheckDeprecated, Severity: Warning, Path: "apiVersion",
			Msg: fmt.Sprintf("%s is deprecated since Kubernetes %s and will be removed in %s%s", name, g.deprecatedIn, g.removedIn, useClause(g.use))}}
	}
	return v
}

// unknownKind explains a kind the target does not serve in a built-in
// group: the version that serves it, or the kind meant.
func (c *Checker) unknownKind(gvk schema.GroupVersionKind) string {
	k := api()
	gv := gvk.GroupVersion()
	if nonResourceKind(gvk) && k.scheme.Recognizes(gvk) {
		return fmt.Sprintf("%s %s is not a kind of object the API server creates from a manifest", gv, gvk.Kind)
	}
	msg := fmt.Sprintf("Kubernetes %s serves no kind %s in %s", c.target(), gvk.Kind, apiVersionName(gv))
	if use := c.servedVersionOf(gvk.Kind, gvk.Group); use != "" {
		return msg + "; use " + use
	}
	for kind := range k.byKind {
		if strings.EqualFold(kind, gvk.Kind) {
			if use := c.servedVersionOf(kind, gvk.Group); use != "" {
				return msg + "; use " + use + " (kinds are case-sensitive)"
			}
		}
	}
	if use := c.servedVersionOf(gvk.Kind, anyGroup); use != "" {
		return msg + "; use " + use
	}
	return msg + suggest.Hint(gvk.Kind, k.byGV[gv])
}

func apiVersionName(gv schema.GroupVersion) string {
	if k := api(); !k.groups[gv.Group] && !formerGroups[gv.Group] {
		return gv.String()
	}
	if hasVersion(gv) {
		return gv.String()
	}
	return gv.String() + " (no such version of the group)"
}

func hasVersion(gv schema.GroupVersion) bool {
	return len(api().byGV[gv]) > 0
}

// anyGroup asks servedVersionOf for a kind in whichever group has it.
const anyGroup = "*"

// servedVersionOf names a version of a kind (in group, or in any group for
// anyGroup) that the target serves by default: "apps/v1 Deployment".
// Stable versions come first.
func (c *Checker) servedVersionOf(kind, group string) string {
	k := api()
	target := c.target()
	best := ""
	for _, gvk := range k.byKind[kind] {
		if group != anyGroup && gvk.Group != group {
			continue
		}
		if !servedByDefault(gvk, k.life[gvk], target) {
			continue
		}
		if best == "" || stable(gvk.Version) {
			best = gvk.GroupVersion().String() + " " + gvk.Kind
		}
	}
	return best
}

func stable(version string) bool {
	return !strings.Contains(version, "alpha") && !strings.Contains(version, "beta")
}

// servedByDefault reports whether a default API server of the target
// release serves a built-in kind.
func servedByDefault(gvk schema.GroupVersionKind, l life, target Version) bool {
	started := l.introduced == (Version{}) || reached(target, l.introduced)
	return started && !reached(target, l.removed) && offByDefault(gvk, l) == ""
}

// replacementOf names what replaces a kind at the target: its declared
// replacement when the target serves it, else a version of the same kind in
// the same group that the target serves. It is computed only for the
// documents that need it.
func replacementOf(gvk schema.GroupVersionKind, l life, target Version) string {
	if use := l.replacement; !use.Empty() {
		// networking.k8s.io/v1beta1 IngressClass names IngressClassList.
		if strings.HasSuffix(use.Kind, "List") && !strings.HasSuffix(gvk.Kind, "List") {
			use.Kind = strings.TrimSuffix(use.Kind, "List")
		}
		if ul, ok := api().life[use]; ok && !nonResourceKind(use) && servedByDefault(use, ul, target) {
			return use.GroupVersion().String() + " " + use.Kind
		}
	}
	c := &Checker{Version: target}
	if use := c.servedVersionOf(gvk.Kind, gvk.Group); use != gvk.GroupVersion().String()+" "+gvk.Kind {
		return use
	}
	return ""
}

func useClause(use string) string {
	if use == "" {
		return ""
	}
	return "; use " + use
}
