package manifest

import (
	"fmt"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// checkSelector validates the selector of a workload as the API server's
// apps and batch validation does on creation.
func (r *run) checkSelector(obj runtime.Object, at fieldPath) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		r.appsSelector("Deployment", o.Spec.Selector, o.Spec.Template.Labels, at)
	case *appsv1.ReplicaSet:
		r.appsSelector("ReplicaSet", o.Spec.Selector, o.Spec.Template.Labels, at)
	case *appsv1.DaemonSet:
		r.appsSelector("DaemonSet", o.Spec.Selector, o.Spec.Template.Labels, at)
	case *appsv1.StatefulSet:
		r.appsSelector("StatefulSet", o.Spec.Selector, o.Spec.Template.Labels, at)
	case *batchv1.Job:
		r.jobSelector(o, at)
	case *batchv1.CronJob:
		spec := at.child("spec").child("jobTemplate").child("spec")
		if o.Spec.JobTemplate.Spec.Selector != nil {
			r.add(CheckSelector, Error, spec.child("selector"), "a CronJob's job template may not have a selector: the API server generates it")
		}
		if m := o.Spec.JobTemplate.Spec.ManualSelector; m != nil && *m {
			r.add(CheckSelector, Error, spec.child("manualSelector"), "a CronJob's job template may not set manualSelector: true (its selector is generated)")
		}
	}
}

// appsSelector: an apps/v1 workload needs a non-empty, valid selector that
// selects its pod template's labels.
func (r *run) appsSelector(kind string, sel *metav1.LabelSelector, podLabels map[string]string, at fieldPath) {
	p := at.child("spec").child("selector")
	if sel == nil {
		r.add(CheckSelector, Error, p, fmt.Sprintf("a %s needs spec.selector (matchLabels selecting the pod template's labels)", kind))
		return
	}
	if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		r.add(CheckSelector, Error, p, fmt.Sprintf("a %s's spec.selector may not be empty: give matchLabels selecting the pod template's labels", kind))
		return
	}
	if !r.validSelector(sel, p) {
		return
	}
	r.matchTemplate(sel, podLabels, at)
}

// validSelector reports a selector's invalid keys, values and operators.
func (r *run) validSelector(sel *metav1.LabelSelector, p fieldPath) bool {
	errs := metavalidation.ValidateLabelSelector(sel, metavalidation.LabelSelectorValidationOptions{}, field.NewPath("spec", "selector"))
	for _, e := range errs {
		r.add(CheckSelector, Error, p.join(strings.TrimPrefix(e.Field, "spec.selector")), e.Error())
	}
	return len(errs) == 0
}

// matchTemplate: the selector must select the pod template's labels, or
// the workload would not own the pods it creates.
func (r *run) matchTemplate(sel *metav1.LabelSelector, podLabels map[string]string, at fieldPath) {
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		r.add(CheckSelector, Error, at.child("spec").child("selector"), "invalid label selector: "+err.Error())
		return
	}
	if !s.Matches(labels.Set(podLabels)) {
		r.add(CheckSelector, Error, at.child("spec").child("template").child("metadata").child("labels"),
			fmt.Sprintf("spec.selector (%s) does not select the pod template's labels (%s)", describeSelector(s), describeLabels(podLabels)))
	}
}

// The unprefixed Job labels, which the API server still sets and checks
// (k8s.io/kubernetes pkg/apis/batch, not in k8s.io/api).
const (
	legacyJobNameLabel       = "job-name"
	legacyControllerUIDLabel = "controller-uid"
)

// jobSelector: by default the API server generates a Job's selector and
// pod labels from the Job's uid and name, and refuses a selector or labels
// that would contradict them; with manualSelector: true the selector is the
// chart's, and must select the pod template's labels.
func (r *run) jobSelector(o *batchv1.Job, at fieldPath) {
	p := at.child("spec").child("selector")
	if m := o.Spec.ManualSelector; m != nil && *m {
		if o.Spec.Selector == nil {
			r.add(CheckSelector, Error, p, "a Job with manualSelector: true needs spec.selector")
			return
		}
		if r.validSelector(o.Spec.Selector, p) {
			r.matchTemplate(o.Spec.Selector, o.Spec.Template.Labels, at)
		}
		return
	}
	podLabels := at.child("spec").child("template").child("metadata").child("labels")
	for _, l := range []string{batchv1.ControllerUidLabel, legacyControllerUIDLabel} {
		if _, ok := o.Spec.Template.Labels[l]; ok {
			r.add(CheckSelector, Error, podLabels.key(l), fmt.Sprintf("the pod label %s is the Job's uid, which the API server sets: remove it", l))
		}
	}
	for _, l := range []string{batchv1.JobNameLabel, legacyJobNameLabel} {
		if v, ok := o.Spec.Template.Labels[l]; ok && v != o.Name {
			r.add(CheckSelector, Error, podLabels.key(l), fmt.Sprintf("the pod label %s must be the Job's name %q, not %q: remove it, the API server sets it", l, o.Name, v))
		}
	}
	if o.Spec.Selector == nil || !r.validSelector(o.Spec.Selector, p) {
		return
	}
	// The generated selector is the chart's plus the uid; what it selects
	// must be the labels the API server gives the pods.
	const uid = "00000000-0000-0000-0000-000000000000"
	sel := o.Spec.Selector.DeepCopy()
	if _, ok := sel.MatchLabels[batchv1.ControllerUidLabel]; !ok {
		if sel.MatchLabels == nil {
			sel.MatchLabels = map[string]string{}
		}
		sel.MatchLabels[batchv1.ControllerUidLabel] = uid
	}
	generated := labels.Set{batchv1.ControllerUidLabel: uid, legacyControllerUIDLabel: uid, batchv1.JobNameLabel: o.Name, legacyJobNameLabel: o.Name}
	if s, err := metav1.LabelSelectorAsSelector(sel); err == nil && !s.Matches(generated) {
		r.add(CheckSelector, Error, p, "a Job's spec.selector is generated by the API server, which refuses one that selects other labels: remove it (or set manualSelector: true and manage the selector and pod labels yourself)")
	}
}

func describeSelector(s labels.Selector) string {
	if s.Empty() {
		return "everything"
	}
	return s.String()
}

func describeLabels(l map[string]string) string {
	if len(l) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + l[k]
	}
	return shorten(strings.Join(parts, ","))
}
