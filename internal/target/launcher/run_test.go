package launcher_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/kube"
	kubefake "helm.sh/helm/v4/pkg/kube/fake"
	release "helm.sh/helm/v4/pkg/release/v1"
	"helm.sh/helm/v4/pkg/storage"
	"helm.sh/helm/v4/pkg/storage/driver"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/target/catalogsfile"
	"github.com/catalogist/catalogist/internal/target/launcher"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

// fakeCluster is a cluster without an API server: Helm keeps its releases
// in memory and its kube client creates nothing, and the namespaces are
// those of a fake clientset.
type fakeCluster struct {
	cfg      *launcher.Configuration
	releases *storage.Storage
	kube     *recordingKube
	clients  *k8sfake.Clientset
	// asked counts the clients the actions asked for.
	asked int
}

// recordingKube is Helm's fake kube client, keeping the manifests Helm
// builds resources from (the chart's, and a namespace's when Helm creates
// it).
type recordingKube struct {
	*kubefake.FailingKubeClient
	mu    sync.Mutex
	built []string
}

func (k *recordingKube) Build(r io.Reader, validate bool) (kube.ResourceList, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	k.built = append(k.built, string(data))
	k.mu.Unlock()
	return k.FailingKubeClient.Build(bytes.NewReader(data), validate)
}

// createdNamespace reports whether Helm was asked to create a namespace.
func (k *recordingKube) createdNamespace(name string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, m := range k.built {
		if strings.Contains(m, "kind: Namespace") && strings.Contains(m, "name: "+name+"\n") {
			return true
		}
	}
	return false
}

// runKey marks the context a launch runs with, to see it reach the
// cluster's clients.
type runKey struct{}

// newFakeCluster returns a cluster holding the namespaces, whose
// kubeconfig context's namespace is "home".
func newFakeCluster(t *testing.T, namespaces ...string) *fakeCluster {
	t.Helper()
	var objs []runtime.Object
	for _, ns := range namespaces {
		objs = append(objs, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	}
	mem := driver.NewMemory()
	f := &fakeCluster{
		releases: storage.Init(mem),
		kube:     &recordingKube{FailingKubeClient: &kubefake.FailingKubeClient{PrintingKubeClient: kubefake.PrintingKubeClient{Out: io.Discard}}},
		clients:  k8sfake.NewClientset(objs...),
	}
	f.cfg = &launcher.Configuration{
		Namespace: "home",
		Server:    "https://cluster.test",
		KubeClient: func(ctx context.Context) (kubernetes.Interface, error) {
			if ctx.Value(runKey{}) == nil {
				t.Error("the client is asked for without the launch's context")
			}
			f.asked++
			return f.clients, nil
		},
		HelmConfig: func(namespace string) (*action.Configuration, error) {
			// The memory driver reads one namespace at a time, as Helm's
			// Secret driver does for a configuration made for it.
			mem.SetNamespace(namespace)
			c := action.NewConfiguration()
			c.SetLogger(slog.DiscardHandler)
			c.Releases, c.KubeClient, c.Capabilities = f.releases, f.kube, common.DefaultCapabilities
			return c, nil
		},
	}
	return f
}

// stored returns every release Helm recorded.
func (f *fakeCluster) stored(t *testing.T) []*release.Release {
	t.Helper()
	rs, err := f.releases.ListReleases()
	if err != nil {
		t.Fatal(err)
	}
	var out []*release.Release
	for _, r := range rs {
		rel, ok := r.(*release.Release)
		if !ok {
			t.Fatalf("a release of type %T", r)
		}
		out = append(out, rel)
	}
	return out
}

func runCtx() context.Context { return context.WithValue(context.Background(), runKey{}, "launch") }

// A launch records a release with the values it computed and the labels
// that say where the chart came from, in an existing namespace, which it
// leaves alone; list finds the release and uninstall removes it.
func TestRunRecordsRelease(t *testing.T) {
	f := newFakeCluster(t, "team")
	l := launchWith(t, repotest.Serve(t, built(t)).URL, f.cfg)
	var repos []string
	l.Resolver.Repository = func(cat *catalogsfile.Catalog) (*chartrepo.Client, error) {
		repos = append(repos, cat.ID)
		return chartrepo.New(chartrepo.Options{})
	}
	l.Name, l.Namespace = "code", "team"
	l.Set = []string{"resources.requests.cpu=500m"}
	res, err := l.Run(runCtx())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "deployed" || res.Name != "code" || res.Namespace != "team" || !strings.Contains(res.Manifest, "kind: Deployment") {
		t.Errorf("status %q name %q namespace %q, manifest:\n%s", res.Status, res.Name, res.Namespace, res.Manifest)
	}
	if !reflect.DeepEqual(repos, []string{"ide"}) {
		t.Errorf("repository clients asked for %q, want the catalog ide's once", repos)
	}
	rels := f.stored(t)
	if len(rels) != 1 {
		t.Fatalf("%d releases recorded, want 1", len(rels))
	}
	rel := rels[0]
	if rel.Name != "code" || rel.Namespace != "team" || rel.Version != 1 || !strings.Contains(rel.Info.Description, `launched by catalogist from catalog "ide"`) {
		t.Errorf("release %s/%s revision %d: %q", rel.Namespace, rel.Name, rel.Version, rel.Info.Description)
	}
	if !reflect.DeepEqual(rel.Config, res.Values.Overrides) {
		t.Errorf("the release's values are not the computed ones:\n%v\n%v", rel.Config, res.Values.Overrides)
	}
	resources, _ := rel.Config["resources"].(map[string]any)
	limits, _ := resources["limits"].(map[string]any)
	requests, _ := resources["requests"].(map[string]any)
	if limits["cpu"] != "4000m" || requests["cpu"] != "500m" {
		t.Errorf("resources %v: want the region's cpuLimit 4000m and --set's 500m", resources)
	}
	want := map[string]string{launcher.LabelCatalog: "ide", launcher.LabelChart: "vscode-python", launcher.LabelVersion: res.Resolved.Version.Version}
	for k, v := range want {
		if rel.Labels[k] != v {
			t.Errorf("label %s = %q, want %q (labels %v)", k, rel.Labels[k], v, rel.Labels)
		}
	}
	if f.kube.createdNamespace("team") {
		t.Error("the existing namespace was created again")
	}

	ctx := runCtx()
	list := launcher.NewList(f.cfg)
	got, err := list.Run(ctx)
	if err != nil || len(got) != 1 || got[0].Name != "code" || got[0].Namespace != "team" || got[0].Catalog != "ide" || got[0].Status != "deployed" {
		t.Fatalf("list: %+v %v", got, err)
	}
	un := launcher.NewUninstall(f.cfg)
	un.Namespace, un.Name = "team", "code"
	if err := un.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if rels := f.stored(t); len(rels) != 0 {
		t.Errorf("releases after uninstall: %d", len(rels))
	}
}

// A namespace that does not exist is created with the release; a launch
// that names none goes to the kubeconfig context's.
func TestRunCreatesMissingNamespace(t *testing.T) {
	f := newFakeCluster(t)
	l := launchWith(t, repotest.Serve(t, built(t)).URL, f.cfg)
	res, err := l.Run(runCtx())
	if err != nil {
		t.Fatal(err)
	}
	if res.Namespace != "home" || !strings.HasPrefix(res.Name, "vscode-python-") {
		t.Errorf("namespace %q name %q: want the context's namespace and a generated name", res.Namespace, res.Name)
	}
	if !f.kube.createdNamespace("home") {
		t.Errorf("the missing namespace was not created; Helm built:\n%s", strings.Join(f.kube.built, "---\n"))
	}
	if rels := f.stored(t); len(rels) != 1 || rels[0].Namespace != "home" {
		t.Errorf("releases: %v", rels)
	}
}

func forbidden(resource string) error {
	return apierrors.NewForbidden(corev1.Resource(resource), "team", errors.New(`user "ada" cannot do it`))
}

// A namespace the user may not read is taken to exist, and not created:
// were it missing, the install would say what is forbidden.
func TestRunUnreadableNamespace(t *testing.T) {
	f := newFakeCluster(t)
	f.clients.PrependReactor("get", "namespaces", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, forbidden("namespaces")
	})
	l := launchWith(t, repotest.Serve(t, built(t)).URL, f.cfg)
	l.Name, l.Namespace = "code", "team"
	if _, err := l.Run(runCtx()); err != nil {
		t.Fatal(err)
	}
	if f.kube.createdNamespace("team") {
		t.Error("a namespace that could not be read was created")
	}
}

// The cluster's refusal says which cluster refused, and in which namespace
// rights are missing.
func TestRunForbidden(t *testing.T) {
	f := newFakeCluster(t)
	f.kube.CreateError = forbidden("namespaces")
	l := launchWith(t, repotest.Serve(t, built(t)).URL, f.cfg)
	l.Name, l.Namespace = "code", "team"
	_, err := l.Run(runCtx())
	if !launcher.IsForbidden(err) || !strings.Contains(err.Error(), `the cluster at https://cluster.test refused`) || !strings.Contains(err.Error(), `rights in namespace "team"`) {
		t.Fatalf("want a refusal naming the cluster and the namespace, got %v", err)
	}
	if rels := f.stored(t); len(rels) != 0 {
		t.Errorf("%d releases recorded", len(rels))
	}
}

// A namespace that cannot be looked up stops the launch before Helm runs.
func TestRunNamespaceLookupFails(t *testing.T) {
	f := newFakeCluster(t)
	f.clients.PrependReactor("get", "namespaces", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewInternalError(errors.New("etcd is down"))
	})
	l := launchWith(t, repotest.Serve(t, built(t)).URL, f.cfg)
	l.Namespace = "team"
	_, err := l.Run(runCtx())
	if err == nil || !strings.Contains(err.Error(), "looking up namespace team") || !strings.Contains(err.Error(), "etcd is down") {
		t.Fatalf("got %v", err)
	}
	if rels := f.stored(t); len(rels) != 0 || len(f.kube.built) != 0 {
		t.Errorf("%d releases recorded, %d manifests built", len(rels), len(f.kube.built))
	}
}

// The name of a release that exists is refused, with what to do, and the
// release is left as it was.
func TestRunRefusesTakenName(t *testing.T) {
	f := newFakeCluster(t, "team")
	url := repotest.Serve(t, built(t)).URL
	first := launchWith(t, url, f.cfg)
	first.Name, first.Namespace = "code", "team"
	if _, err := first.Run(runCtx()); err != nil {
		t.Fatal(err)
	}
	again := launchWith(t, url, f.cfg)
	again.Name, again.Namespace = "code", "team"
	again.Set = []string{"resources.requests.cpu=700m"}
	_, err := again.Run(runCtx())
	want := "a release named \"code\" already exists in namespace \"team\": pick another --name, or remove it with `catalogist uninstall code --namespace team`"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	rels := f.stored(t)
	if len(rels) != 1 || rels[0].Version != 1 {
		t.Fatalf("releases after the refusal: %v", rels)
	}
	if requests := rels[0].Config["resources"].(map[string]any)["requests"].(map[string]any); requests["cpu"] == "700m" {
		t.Errorf("the refused launch changed the release's values: %v", requests)
	}
}

// Values out of the region's bounds are refused before the cluster is
// asked anything: no release, no namespace, no client.
func TestRunOutOfRangeInstallsNothing(t *testing.T) {
	f := newFakeCluster(t)
	l := launchWith(t, repotest.Serve(t, built(t)).URL, f.cfg)
	l.Name, l.Namespace = "code", "team"
	l.Set = []string{"resources.limits.cpu=20000m"}
	res, err := l.Run(runCtx())
	var pe *launcher.ProblemsError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), `resources.limits.cpu: "20000m": "20000m" is outside the slider range 100m to 8000m`) {
		t.Fatalf("want a refusal for values, got %v", err)
	}
	// The refusal still says which release it was, for the values printed.
	if res.Name != "code" || res.Namespace != "team" || res.Values == nil {
		t.Errorf("result of the refusal: name %q namespace %q values %v", res.Name, res.Namespace, res.Values != nil)
	}
	if rels := f.stored(t); len(rels) != 0 || len(f.kube.built) != 0 || f.asked != 0 {
		t.Errorf("%d releases recorded, %d manifests built, %d clients asked for", len(rels), len(f.kube.built), f.asked)
	}
}

// A cancelled launch stops at its first request.
func TestRunCancelled(t *testing.T) {
	f := newFakeCluster(t)
	l := launchWith(t, repotest.Serve(t, built(t)).URL, f.cfg)
	ctx, cancel := context.WithCancel(runCtx())
	cancel()
	if _, err := l.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("want the cancellation, got %v", err)
	}
	if f.asked != 0 {
		t.Error("a cancelled launch asked for a cluster client")
	}
}

// A chart whose templates fail with the launch's values is refused with
// lint's message, before the cluster is asked anything beyond its version:
// no release, no manifest built, not even its CRDs installed.
func TestRunRefusesWhatDoesNotRender(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"charts/strict/Chart.yaml":  "apiVersion: v2\nname: strict\nversion: 1.0.0\ndescription: Fails on demand.\nicon: https://example.org/strict.svg\n",
		"charts/strict/values.yaml": "tls: {enabled: false, secret: \"\"}\n",
		"charts/strict/values.schema.json": `{"type": "object", "properties": {"tls": {"type": "object", "properties": {
			"enabled": {"type": "boolean", "default": false}, "secret": {"type": "string", "default": ""}}}}}`,
		"charts/strict/crds/thing.yaml":       "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: things.example.org}\nspec:\n  group: example.org\n  scope: Namespaced\n  names: {kind: Thing, plural: things}\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n",
		"charts/strict/templates/secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}\n{{- if .Values.tls.enabled }}\nstringData:\n  name: {{ required \"tls.secret is required when tls.enabled is true\" .Values.tls.secret }}\n{{- end }}\n",
	})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := builder.Build(t.Context(), builder.Options{Catalog: dir, Out: out, CacheDir: t.TempDir(), Log: io.Discard}); err != nil {
		t.Fatal(err)
	}
	f := newFakeCluster(t, "team")
	src, _ := ideSource(t, repotest.Serve(t, out).URL, "strict")
	l := launcher.NewLaunch(f.cfg)
	l.Source, l.Resolver, l.Timeout = src, launcher.Resolver{CacheDir: t.TempDir()}, time.Minute
	l.Name, l.Namespace = "strict-1", "team"
	l.Set = []string{"tls.enabled=true"}
	_, err := l.Run(runCtx())
	var re *launcher.RenderError
	want := "strict 1.0.0: strict/templates/secret.yaml:7:12: does not render with the values of this launch: tls.secret is required when tls.enabled is true; nothing was installed"
	if !errors.As(err, &re) || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if rels := f.stored(t); len(rels) != 0 || len(f.kube.built) != 0 {
		t.Errorf("%d releases recorded, %d manifests built", len(rels), len(f.kube.built))
	}
	// The same values render once they are complete (a dry run: the
	// fake cluster cannot install CRDs).
	l.Set, l.DryRun = append(l.Set, "tls.secret=strict-tls"), true
	if _, err := l.Run(runCtx()); err != nil {
		t.Fatal(err)
	}
}
