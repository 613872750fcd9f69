package manifest

import (
	"reflect"
	"sort"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// kube is what the Checker knows of the built-in API, built once: the
// scheme (client-go's, plus the CustomResourceDefinition API Helm installs
// crds/ with), the API server's strict decoder over it, and indexes of its
// kinds.
type kube struct {
	scheme  *runtime.Scheme
	decoder runtime.Decoder
	life    map[schema.GroupVersionKind]life     // the lifecycle of every kind of the scheme
	groups  map[string]bool                      // API groups the scheme knows, "" for core
	byKind  map[string][]schema.GroupVersionKind // resource kinds by name, in every group and version
	byGV    map[schema.GroupVersion][]string     // resource kinds of each group version, sorted
}

// api returns the built-in API, building it on first use: building the
// scheme takes milliseconds, which a linter calls for every document
// cannot pay each time. Everything in it is read-only afterwards, so it is
// shared by concurrent checks.
var api = sync.OnceValue(func() *kube {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic("manifest: client-go's scheme: " + err.Error()) // a build defect, not an input's
	}
	if err := apiextensionsv1.AddToScheme(s); err != nil {
		panic("manifest: the apiextensions scheme: " + err.Error())
	}
	k := &kube{
		scheme: s,
		// The API server's own decoder: JSON, strict, so that unknown and
		// duplicate fields are errors as with fieldValidation=Strict.
		decoder: json.NewSerializerWithOptions(json.DefaultMetaFactory, s, s, json.SerializerOptions{Yaml: false, Strict: true}),
		life:    map[schema.GroupVersionKind]life{},
		groups:  map[string]bool{},
		byKind:  map[string][]schema.GroupVersionKind{},
		byGV:    map[schema.GroupVersion][]string{},
	}
	for gvk := range s.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		k.groups[gvk.Group] = true
		obj, err := s.New(gvk)
		if err != nil {
			panic("manifest: the scheme cannot make its own " + gvk.String() + ": " + err.Error())
		}
		k.life[gvk] = lifeOf(obj)
		if nonResourceKind(gvk) {
			continue
		}
		k.byKind[gvk.Kind] = append(k.byKind[gvk.Kind], gvk)
		k.byGV[gvk.GroupVersion()] = append(k.byGV[gvk.GroupVersion()], gvk.Kind)
	}
	for _, kinds := range k.byGV {
		sort.Strings(kinds)
	}
	for _, gvks := range k.byKind {
		sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
	}
	return k
})

// goType is the Go type the scheme decodes a kind into.
func (k *kube) goType(gvk schema.GroupVersionKind) reflect.Type {
	t, ok := k.scheme.AllKnownTypes()[gvk]
	if !ok {
		return nil
	}
	return t
}

// nonResourceKind reports kinds that the scheme knows but the API server
// never creates from a manifest: API machinery (Status, WatchEvent, the
// *Options), subresources (Scale, Eviction, TokenRequest), lists (which
// Helm takes apart) and read-only or internal kinds.
func nonResourceKind(gvk schema.GroupVersionKind) bool {
	if strings.HasSuffix(gvk.Kind, "Options") || strings.HasSuffix(gvk.Kind, "List") {
		return true
	}
	switch gvk.Kind {
	case "WatchEvent", "Status", "APIGroup", "APIVersions", "APIResourceList", "Table",
		"PartialObjectMetadata", "Scale", "DeploymentRollback", "TokenRequest",
		"RangeAllocation", "SerializedReference", "ComponentStatus", "ConversionReview":
		return true
	case "Eviction":
		return gvk.Group == "policy" // lifecycle.k8s.io's Eviction is a resource of its own
	}
	return false
}

// clusterScoped are the built-in kinds without a namespace: the API server
// clears a namespace given to them rather than validating it.
var clusterScoped = map[schema.GroupKind]bool{
	{Group: "", Kind: "Namespace"}:        true,
	{Group: "", Kind: "Node"}:             true,
	{Group: "", Kind: "PersistentVolume"}: true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"}:          true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"}:   true,
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}:                 true,
	{Group: "apiregistration.k8s.io", Kind: "APIService"}:                             true,
	{Group: "authentication.k8s.io", Kind: "TokenReview"}:                             true,
	{Group: "authentication.k8s.io", Kind: "SelfSubjectReview"}:                       true,
	{Group: "authorization.k8s.io", Kind: "SubjectAccessReview"}:                      true,
	{Group: "authorization.k8s.io", Kind: "SelfSubjectAccessReview"}:                  true,
	{Group: "authorization.k8s.io", Kind: "SelfSubjectRulesReview"}:                   true,
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}:                 true,
	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}:                        true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                       true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}:       true,
	{Group: "internal.apiserver.k8s.io", Kind: "StorageVersion"}:                      true,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                true,
	{Group: "networking.k8s.io", Kind: "IPAddress"}:                                   true,
	{Group: "networking.k8s.io", Kind: "ServiceCIDR"}:                                 true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                      true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                         true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                  true,
	{Group: "resource.k8s.io", Kind: "DeviceClass"}:                                   true,
	{Group: "resource.k8s.io", Kind: "DeviceTaintRule"}:                               true,
	{Group: "resource.k8s.io", Kind: "ResourceSlice"}:                                 true,
	{Group: "resource.k8s.io", Kind: "ResourcePoolStatusRequest"}:                     true,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               true,
	{Group: "storage.k8s.io", Kind: "CSIDriver"}:                                      true,
	{Group: "storage.k8s.io", Kind: "CSINode"}:                                        true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                   true,
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:                               true,
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}:                          true,
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}:               true,
}
