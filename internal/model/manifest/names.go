package manifest

import (
	"fmt"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// nameRule is how the API server validates the names of a kind.
type nameRule struct {
	what  string // "a DNS subdomain", for messages
	check apivalidation.ValidateNameFunc
}

var (
	subdomain   = nameRule{"a lowercase RFC 1123 subdomain (at most 253 characters: a-z, 0-9, '-' and '.', starting and ending with a letter or digit)", apivalidation.NameIsDNSSubdomain}
	dnsLabel    = nameRule{"a lowercase RFC 1123 label (at most 63 characters: a-z, 0-9 and '-', starting and ending with a letter or digit)", apivalidation.NameIsDNSLabel}
	dns1035     = nameRule{"a DNS-1035 label (at most 63 characters: a-z, 0-9 and '-', starting with a letter and ending with a letter or digit)", apivalidation.NameIsDNS1035Label}
	pathSegment = nameRule{"usable in a URL path (not \".\" or \"..\", without '/' or '%')", func(name string, prefix bool) []string {
		if prefix {
			return content.IsPathSegmentPrefix(name)
		}
		return content.IsPathSegmentName(name)
	}}
)

// nameRules are the name validations of kube-apiserver's
// pkg/apis/*/validation, by kind: the functions each kind's
// ValidateObjectMeta call is given. A built-in kind missing here gets only
// what the API server checks for every object (pathSegment), so that no
// name the server accepts is refused.
var nameRules = map[schema.GroupKind]nameRule{}

func init() {
	add := func(group string, rule nameRule, kinds ...string) {
		for _, k := range kinds {
			nameRules[schema.GroupKind{Group: group, Kind: k}] = rule
		}
	}
	add("", subdomain, "Pod", "Node", "Secret", "ConfigMap", "Endpoints", "ResourceQuota", "LimitRange",
		"PersistentVolume", "PersistentVolumeClaim", "PodTemplate", "ReplicationController", "Event", "ServiceAccount")
	add("", dnsLabel, "Namespace")
	add("apps", subdomain, "Deployment", "ReplicaSet", "DaemonSet", "ControllerRevision")
	add("apps", dnsLabel, "StatefulSet") // its pods' names are hostnames
	add("batch", subdomain, "Job", "CronJob")
	add("autoscaling", subdomain, "HorizontalPodAutoscaler")
	add("networking.k8s.io", subdomain, "Ingress", "IngressClass", "NetworkPolicy", "ServiceCIDR")
	add("discovery.k8s.io", subdomain, "EndpointSlice")
	add("events.k8s.io", subdomain, "Event")
	add("rbac.authorization.k8s.io", pathSegment, "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding")
	add("scheduling.k8s.io", subdomain, "PriorityClass", "Workload", "PodGroup", "CompositePodGroup")
	add("storage.k8s.io", subdomain, "StorageClass", "VolumeAttachment", "CSIDriver", "CSINode", "CSIStorageCapacity", "VolumeAttributesClass")
	add("node.k8s.io", subdomain, "RuntimeClass")
	add("coordination.k8s.io", subdomain, "Lease")
	add("admissionregistration.k8s.io", subdomain, "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
		"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding")
	add("flowcontrol.apiserver.k8s.io", subdomain, "FlowSchema", "PriorityLevelConfiguration")
	add("resource.k8s.io", subdomain, "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice", "DeviceTaintRule", "ResourcePoolStatusRequest")
	add("storagemigration.k8s.io", subdomain, "StorageVersionMigration")
	add("certificates.k8s.io", subdomain, "PodCertificateRequest")
	add("apiextensions.k8s.io", subdomain, "CustomResourceDefinition")
}

// nameRuleFor is the rule of a built-in kind at the target. Service names
// were DNS-1035 labels until RelaxedServiceNameValidation (on by default
// from 1.36, GA in 1.37) allowed any DNS label.
func (c *Checker) nameRuleFor(gk schema.GroupKind) nameRule {
	if gk == (schema.GroupKind{Kind: "Service"}) {
		if c.target().before(1, 36) {
			return dns1035
		}
		return dnsLabel
	}
	if r, ok := nameRules[gk]; ok {
		return r
	}
	return pathSegment
}

// checkMeta validates an object's metadata as the API server's
// ValidateObjectMeta does on creation, with the kind's name rule.
func (r *run) checkMeta(m metav1.Object, gk schema.GroupKind, rule nameRule, namespaced bool, at fieldPath) {
	kind := gk.Kind
	meta := at.child("metadata")
	if msgs := rule.check(m.GetName(), false); len(msgs) > 0 {
		r.add(CheckNames, Error, meta.child("name"), fmt.Sprintf("%q is not a valid %s name: it must be %s (%s)", m.GetName(), kind, rule.what, strings.Join(msgs, "; ")))
	}
	if g := m.GetGenerateName(); g != "" {
		if msgs := rule.check(g, true); len(msgs) > 0 {
			r.add(CheckNames, Error, meta.child("generateName"), fmt.Sprintf("%q is not a valid %s name prefix: %s", g, kind, strings.Join(msgs, "; ")))
		}
	}
	if ns := m.GetNamespace(); namespaced && ns != "" {
		if msgs := apivalidation.ValidateNamespaceName(ns, false); len(msgs) > 0 {
			r.add(CheckNames, Error, meta.child("namespace"), fmt.Sprintf("%q is not a valid namespace: %s", ns, strings.Join(msgs, "; ")))
		}
	}
	r.checkLabels(m.GetLabels(), meta.child("labels"), Error, "")
	r.checkAnnotations(m.GetAnnotations(), meta.child("annotations"), Error, "")
	r.addFieldErrors(CheckNames, Error, at, apivalidation.ValidateOwnerReferences(m.GetOwnerReferences(), field.NewPath("metadata", "ownerReferences")))
	r.checkFinalizers(m.GetFinalizers(), gk.Group, at)
}

// checkFinalizers validates finalizer names as ValidateFinalizers does,
// and for the groups of kubeFinalizers as validateKubeFinalizerName does.
func (r *run) checkFinalizers(finalizers []string, group string, at fieldPath) {
	r.addFieldErrors(CheckNames, Error, at, apivalidation.ValidateFinalizers(finalizers, field.NewPath("metadata", "finalizers")))
	if !kubeFinalizers[group] {
		return
	}
	for i, f := range finalizers {
		if !strings.Contains(f, "/") && !standardFinalizers[f] && len(apivalidation.ValidateFinalizerName(f, nil)) == 0 {
			r.add(CheckNames, Error, at.child("metadata").child("finalizers").index(i),
				fmt.Sprintf("finalizer %q is neither a standard finalizer (kubernetes, orphan, foregroundDeletion) nor qualified by a domain (example.org/%s)", f, f))
		}
	}
}

// kubeFinalizers are the groups whose validation goes through
// pkg/apis/core/validation's ValidateObjectMeta, which refuses a finalizer
// that is neither standard nor domain-qualified (validateKubeFinalizerName).
// The others (admissionregistration, coordination, node, policy's
// PodDisruptionBudget, CRDs and custom resources) only validate its syntax.
var kubeFinalizers = map[string]bool{
	"": true, "apps": true, "autoscaling": true, "batch": true, "certificates.k8s.io": true,
	"discovery.k8s.io": true, "events.k8s.io": true, "flowcontrol.apiserver.k8s.io": true,
	"networking.k8s.io": true, "rbac.authorization.k8s.io": true, "resource.k8s.io": true,
	"scheduling.k8s.io": true, "storage.k8s.io": true, "storagemigration.k8s.io": true,
}

var standardFinalizers = map[string]bool{"kubernetes": true, metav1.FinalizerOrphanDependents: true, metav1.FinalizerDeleteDependents: true}

// checkLabels validates labels as ValidateLabels does, keyed by label so
// that each problem points at its line.
func (r *run) checkLabels(labels map[string]string, p fieldPath, sev Severity, why string) {
	if len(metavalidation.ValidateLabels(labels, nil)) == 0 {
		return
	}
	for _, k := range sortedStrings(labels) {
		for _, e := range metavalidation.ValidateLabels(map[string]string{k: labels[k]}, nil) {
			what := "value " + quoteShort(labels[k])
			if e.Origin == "format=k8s-label-key" {
				what = "key"
			}
			r.add(CheckNames, sev, p.key(k), fmt.Sprintf("label %s: invalid %s: %s%s", quoteShort(k), what, e.Detail, why))
		}
	}
}

// checkAnnotations validates annotation keys and their total size, as
// ValidateAnnotations does.
func (r *run) checkAnnotations(annotations map[string]string, p fieldPath, sev Severity, why string) {
	if len(apivalidation.ValidateAnnotations(annotations, nil)) == 0 {
		return
	}
	for _, k := range sortedStrings(annotations) {
		for _, e := range apivalidation.ValidateAnnotations(map[string]string{k: ""}, nil) {
			r.add(CheckNames, sev, p.key(k), fmt.Sprintf("annotation %s: invalid key: %s%s", quoteShort(k), e.Detail, why))
		}
	}
	if err := apivalidation.ValidateAnnotationsSize(annotations); err != nil {
		r.add(CheckNames, sev, p, fmt.Sprintf("the annotations are too large: %v (keys and values together, in bytes)%s", err, why))
	}
}

// addFieldErrors reports validation errors of the apimachinery functions,
// whose paths are relative to the object at at.
func (r *run) addFieldErrors(check Check, sev Severity, at fieldPath, errs field.ErrorList) {
	for _, e := range errs {
		r.add(check, sev, at.join(e.Field), e.Error())
	}
}

// checkNames validates the metadata of a decoded built-in object, and the
// metadata of the pod templates it holds.
func (r *run) checkNames(obj runtime.Object, gvk schema.GroupVersionKind, at fieldPath) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return
	}
	gk := gvk.GroupKind()
	r.checkMeta(m, gk, r.c.nameRuleFor(gk), !clusterScoped[gk], at)
	switch o := obj.(type) {
	case *batchv1.CronJob:
		if len(o.Name) > 52 {
			r.add(CheckNames, Error, at.child("metadata").child("name"), fmt.Sprintf("a CronJob name must be no more than 52 characters (it has %d): its Jobs are named after it with an 11-character suffix", len(o.Name)))
		}
		why := ": the API server accepts the CronJob, but refuses each Job it creates"
		jt := at.child("spec").child("jobTemplate").child("metadata")
		r.checkLabels(o.Spec.JobTemplate.Labels, jt.child("labels"), Warning, why)
		r.checkAnnotations(o.Spec.JobTemplate.Annotations, jt.child("annotations"), Warning, why)
		r.checkTemplate(&o.Spec.JobTemplate.Spec.Template, at.child("spec").child("jobTemplate").child("spec").child("template"))
	case *batchv1.Job:
		if (o.Spec.ManualSelector == nil || !*o.Spec.ManualSelector) && len(o.Name) > 63 {
			r.add(CheckNames, Error, at.child("metadata").child("name"), fmt.Sprintf("a Job name must be no more than 63 characters (it has %d): it is the value of its pods' label %s", len(o.Name), batchv1.JobNameLabel))
		}
		r.checkTemplate(&o.Spec.Template, at.child("spec").child("template"))
	case *apiextensionsv1.CustomResourceDefinition:
		if want := o.Spec.Names.Plural + "." + o.Spec.Group; o.Name != want {
			r.add(CheckNames, Error, at.child("metadata").child("name"), fmt.Sprintf("a CustomResourceDefinition must be named spec.names.plural+\".\"+spec.group (%q), not %q", want, o.Name))
		}
	default:
		if t := podTemplate(obj); t != nil {
			p := at.child("spec").child("template")
			if _, ok := obj.(*corev1.PodTemplate); ok {
				p = at.child("template")
			}
			r.checkTemplate(t, p)
		}
	}
}

// checkTemplate validates a pod template's labels and annotations, as
// ValidatePodTemplateSpec does.
func (r *run) checkTemplate(t *corev1.PodTemplateSpec, p fieldPath) {
	r.checkLabels(t.Labels, p.child("metadata").child("labels"), Error, "")
	r.checkAnnotations(t.Annotations, p.child("metadata").child("annotations"), Error, "")
}

// podTemplate is the pod template of the workloads that have one at
// spec.template (template, for a PodTemplate).
func podTemplate(obj runtime.Object) *corev1.PodTemplateSpec {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Template
	case *appsv1.ReplicaSet:
		return &o.Spec.Template
	case *appsv1.DaemonSet:
		return &o.Spec.Template
	case *appsv1.StatefulSet:
		return &o.Spec.Template
	case *corev1.ReplicationController:
		return o.Spec.Template
	case *corev1.PodTemplate:
		return &o.Template
	}
	return nil
}

func sortedStrings(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
