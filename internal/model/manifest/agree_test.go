package manifest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/testkit/kubetest"
)

// serverChecks are the checks whose errors the API server's refusal stands
// for: what it decodes, serves and validates. list-policy is Helm's own,
// and warnings and notes do not refuse anything.
var serverChecks = map[Check]bool{CheckYAML: true, CheckFields: true, CheckRemoved: true, CheckDisabled: true, CheckNames: true, CheckSelector: true}

// warnings records the Warning headers of the API server's answers.
type warnings struct {
	mu   sync.Mutex
	text []string
}

func (w *warnings) HandleWarningHeader(_ int, _ string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.text = append(w.text, text)
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.text
	w.text = nil
	return t
}

// server puts manifests to a real kube-apiserver, with server-side dry
// runs, as Helm 4 sends them.
type server struct {
	ns       string
	dyn      dynamic.Interface
	raw      rest.Interface
	mapper   meta.RESTMapper
	disc     discovery.DiscoveryInterface
	warnings *warnings
}

func startServer(t *testing.T) *server {
	c := kubetest.Start(t)
	cfg := rest.CopyConfig(c.Config(t, kubetest.Admin))
	w := &warnings{}
	cfg.WarningHandler = w
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{ns: c.NewNamespace(t), dyn: dyn, raw: disc.RESTClient(), disc: disc, warnings: w}
	s.installWidgets(t)
	groups, err := restmapper.GetAPIGroupResources(disc)
	if err != nil {
		t.Fatal(err)
	}
	s.mapper = restmapper.NewDiscoveryRESTMapper(groups)
	return s
}

// installWidgets installs the CustomResourceDefinition of the cases'
// Widget kind (kept on a shared cluster: it is the same each time).
func (s *server) installWidgets(t *testing.T) {
	ctx := context.Background()
	crds := s.dyn.Resource(apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"))
	crd := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(strings.ReplaceAll(strings.ReplaceAll(gadgetCRD, "gadget", "widget"), "Gadget", "Widget")), &crd.Object); err != nil {
		t.Fatal(err)
	}
	if _, err := crds.Create(ctx, crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("installing the Widget CRD: %v", err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		got, err := crds.Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err == nil && established(got) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Widget CRD is not established after a minute (%v)", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Discovery lags the Established condition a little.
	for {
		if _, err := s.disc.ServerResourcesForGroupVersion(testGroup + "/v1"); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the Widget CRD is not in discovery after a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func established(crd *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// judge creates a manifest with a dry run (each item of a list, as Helm
// takes lists apart) and returns why the API server refused it, nil when
// it accepted it, and the warnings it gave.
func (s *server) judge(t *testing.T, doc string, mode serverMode) (error, []string) {
	s.warnings.take()
	js, err := yaml.YAMLToJSON([]byte(doc)) // Helm's conversion
	if err != nil {
		t.Fatalf("converting the case: %v", err)
	}
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(js, nil, nil)
	if err != nil {
		return fmt.Errorf("Helm cannot read it: %w", err), nil
	}
	var objs []*unstructured.Unstructured
	switch o := obj.(type) {
	case *unstructured.UnstructuredList:
		for i := range o.Items {
			objs = append(objs, &o.Items[i])
		}
	case *unstructured.Unstructured:
		objs = append(objs, o)
	}
	var errs []error
	for _, o := range objs {
		if err := s.create(t, o, doc, mode); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...), s.warnings.take()
}

func (s *server) create(t *testing.T, o *unstructured.Unstructured, doc string, mode serverMode) error {
	ctx := context.Background()
	gvk := o.GroupVersionKind()
	m, err := s.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return fmt.Errorf("no resource: %w", err)
	}
	ns := ""
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		ns = o.GetNamespace()
		if ns == "" {
			ns = s.ns
			o.SetNamespace(ns)
		}
	}
	if mode == asYAML {
		path := []string{"/apis", gvk.Group, gvk.Version}
		if gvk.Group == "" {
			path = []string{"/api", gvk.Version}
		}
		if ns != "" {
			path = append(path, "namespaces", ns)
		}
		return s.raw.Post().AbsPath(append(path, m.Resource.Resource)...).
			Param("dryRun", "All").Param("fieldValidation", "Strict").
			SetHeader("Content-Type", "application/yaml").Body([]byte(doc)).Do(ctx).Error()
	}
	client := s.dyn.Resource(m.Resource).Namespace(ns)
	_, createErr := client.Create(ctx, o, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: metav1.FieldValidationStrict})
	// Helm 4 sends the object as a server-side apply patch; the answer must
	// be the same.
	data, err := o.MarshalJSON()
	if err != nil {
		return err
	}
	force := true
	_, applyErr := client.Patch(ctx, o.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{
		DryRun: []string{metav1.DryRunAll}, FieldManager: "catalogist-manifest-test", Force: &force, FieldValidation: metav1.FieldValidationStrict})
	if (createErr == nil) != (applyErr == nil) {
		t.Errorf("%s: a dry-run create says %v, a dry-run server-side apply says %v", o.GetName(), createErr, applyErr)
	}
	return createErr
}

// TestAgreesWithAPIServer is what shows that the Checker judges manifests as
// the API server does: every case of the table that the server can judge is
// created with a server-side dry run (fieldValidation=Strict) on a real
// kube-apiserver of the release Default names, and the server refuses it
// exactly when the Checker gives an error of a check the server makes. The
// server's lists of resources are compared with the Checker's lifecycle
// tables too.
func TestAgreesWithAPIServer(t *testing.T) {
	s := startServer(t)

	t.Run("version", func(t *testing.T) {
		info, err := s.disc.ServerVersion()
		if err != nil {
			t.Fatal(err)
		}
		v, err := ParseVersion(info.GitVersion)
		if err != nil || v != Default {
			t.Fatalf("the test API server is %s (%v), the Checker's Default is %s: they must be the same release", info.GitVersion, err, Default)
		}
	})

	t.Run("cases", func(t *testing.T) {
		judged := map[Check]int{}
		for _, c := range cases {
			if c.server == offline || c.version != (Version{}) {
				continue
			}
			_, problems := c.checker().Check([]byte(c.doc))
			checkerRefuses := false
			deprecated := false
			for _, p := range problems {
				// A disabled API is a warning, for the clusters that enable
				// it; the test's server, like a default one, refuses it.
				checkerRefuses = checkerRefuses || (p.Severity == Error || p.Check == CheckDisabled) && serverChecks[p.Check]
				deprecated = deprecated || p.Check == CheckDeprecated
				judged[p.Check]++
			}
			refused, warned := s.judge(t, c.doc, c.server)
			if apierrors.IsAlreadyExists(refused) || apierrors.IsForbidden(refused) {
				t.Fatalf("%s: the test environment, not the manifest, is refused: %v", c.name, refused)
			}
			switch {
			case checkerRefuses && refused == nil:
				t.Errorf("%s: the API server accepts it, the Checker refuses it:%s", c.name, describe(problems))
			case !checkerRefuses && refused != nil:
				t.Errorf("%s: the API server refuses it (%v), the Checker does not:%s", c.name, refused, describe(problems))
			case refused == nil && deprecated != slices.ContainsFunc(warned, func(w string) bool { return strings.Contains(w, "deprecated") }):
				t.Errorf("%s: the API server's warnings %q, the Checker's:%s", c.name, warned, describe(problems))
			}
			if testing.Verbose() {
				t.Logf("%s: server %v %q", c.name, refused, warned)
			}
		}
		// The comparison covers every check, refusing and not.
		for _, check := range []Check{CheckFields, CheckRemoved, CheckDisabled, CheckNames, CheckSelector, CheckYAML, CheckDeprecated, CheckCustom, CheckListPolicy} {
			if judged[check] == 0 {
				t.Errorf("no case puts %s to the API server", check)
			}
		}
	})

	t.Run("resources", func(t *testing.T) { s.compareResources(t) })
}

// compareResources compares the kinds the API server serves (discovery)
// with what the Checker says of them at Default: every kind it can create
// is decoded without error, with the scope the Checker has for it, and
// every built-in kind the Checker decodes without error is served.
func (s *server) compareResources(t *testing.T) {
	_, lists, err := s.disc.ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	c := &Checker{}
	served := map[schema.GroupVersionKind]bool{}
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range l.APIResources {
			if strings.Contains(r.Name, "/") || gv.Group == testGroup {
				continue
			}
			gvk := gv.WithKind(r.Kind)
			v := c.judgeKind(gvk)
			creatable := slices.Contains(r.Verbs, "create")
			served[gvk] = creatable
			refused := slices.ContainsFunc(v.results, func(p Problem) bool { return p.Severity == Error })
			switch {
			case creatable && v.custom == "" && (!v.decode || refused):
				t.Errorf("%v: served, but the Checker says:%s", gvk, describe(v.results))
			case creatable && v.custom != "" && !aggregated[gvk]:
				t.Errorf("%v: served, but the Checker does not know it: %s", gvk, v.custom)
			case !creatable && v.decode:
				t.Errorf("%v: served without create (verbs %v), but the Checker decodes it", gvk, r.Verbs)
			}
			if creatable && v.custom == "" && r.Namespaced == clusterScoped[gvk.GroupKind()] {
				t.Errorf("%v: namespaced %v, but the Checker's clusterScoped says %v", gvk, r.Namespaced, clusterScoped[gvk.GroupKind()])
			}
		}
	}
	if len(served) < 50 {
		t.Errorf("discovery lists %d kinds: too few to compare", len(served))
	}
	for gvk := range api().scheme.AllKnownTypes() {
		if gvk.Version == "__internal" || nonResourceKind(gvk) {
			continue
		}
		v := c.judgeKind(gvk)
		// A disabled API is one a default server, as this one is, refuses.
		refused := slices.ContainsFunc(v.results, func(p Problem) bool { return p.Severity == Error || p.Check == CheckDisabled })
		if v.decode && !refused && !served[gvk] {
			t.Errorf("%v: the Checker takes it, the API server does not serve it", gvk)
		}
	}
}
