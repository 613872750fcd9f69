package launcher_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	repo "helm.sh/helm/v4/pkg/repo/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/target/catalogsfile"
	"github.com/catalogist/catalogist/internal/target/launcher"
	"github.com/catalogist/catalogist/internal/testkit/kubetest"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

// The tests share one cluster, started on first use and stopped by TestMain,
// and one built catalog (examples/ide) served on loopback.
var (
	clusterOnce sync.Once
	cluster     *kubetest.Cluster
	clusterErr  error

	builtOnce sync.Once
	builtDir  string
	builtErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if cluster != nil && !cluster.External {
		if err := cluster.Down(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the test cluster:", err)
			code = 1
		}
	}
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

func testCluster(t *testing.T) *kubetest.Cluster {
	t.Helper()
	clusterOnce.Do(func() {
		if kc := os.Getenv(kubetest.KubeconfigEnv); kc != "" {
			cluster, clusterErr = kubetest.Existing(kc)
			return
		}
		cluster, clusterErr = kubetest.Up("")
	})
	if clusterErr != nil {
		t.Fatal(clusterErr)
	}
	return cluster
}

// built returns the output of `catalogist build examples/ide`.
func built(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		builtDir, builtErr = os.MkdirTemp("", "launcher-catalog-")
		if builtErr != nil {
			return
		}
		_, builtErr = builder.Build(context.Background(), builder.Options{
			Catalog: "../../../examples/ide", Out: filepath.Join(builtDir, "out"),
			CacheDir: filepath.Join(builtDir, "cache"), Log: &bytes.Buffer{},
		})
	})
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return filepath.Join(builtDir, "out")
}

func examples(t *testing.T) (map[string]any, *region.Region) {
	t.Helper()
	profile, err := launcher.LoadProfile("../../../examples/profile.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := region.Load("../../../examples/region.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	return profile, reg
}

// newLaunch prepares a launch of ide/vscode-python from the served catalog,
// with the example profile and region, into the cluster of $KUBECONFIG.
func newLaunch(t *testing.T, url string) *launcher.Launch {
	t.Helper()
	return launchWith(t, url, launcher.NewConfiguration(launcher.Kube{}))
}

// ideSource is the chart of catalog ide, served at url, as a catalogs file
// naming that catalog gives it; the file is returned too.
func ideSource(t *testing.T, url, chart string) (*launcher.Source, *catalogsfile.File) {
	t.Helper()
	file, err := catalogsfile.Parse([]byte(fmt.Sprintf("- {id: ide, location: %q}\n", url)))
	if err != nil {
		t.Fatal(err)
	}
	src, err := launcher.ParseRef("ide/"+chart, "", file)
	if err != nil {
		t.Fatal(err)
	}
	return src, file
}

// launchWith prepares the launch of newLaunch with a configuration.
func launchWith(t *testing.T, url string, cfg *launcher.Configuration) *launcher.Launch {
	t.Helper()
	src, _ := ideSource(t, url, "vscode-python")
	profile, reg := examples(t)
	l := launcher.NewLaunch(cfg)
	l.Source, l.Profile, l.Region = src, profile, reg
	l.Resolver = launcher.Resolver{CacheDir: t.TempDir()}
	l.Timeout = time.Minute
	return l
}

// clusterLaunch prepares a launch into the test cluster as admin, in a new
// namespace named after prefix that does not exist yet, and returns the
// configuration and an admin client to read back what it creates.
func clusterLaunch(t *testing.T, prefix string) (*launcher.Launch, *launcher.Configuration, kubernetes.Interface) {
	t.Helper()
	c := testCluster(t)
	cfg := launcher.NewConfiguration(launcher.Kube{Kubeconfig: c.Kubeconfig, Context: kubetest.Admin})
	l := launchWith(t, repotest.Serve(t, built(t)).URL, cfg)
	l.Namespace = fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano()%1e9)
	return l, cfg, c.Client(t, kubetest.Admin)
}

func TestDryRunNeedsNoCluster(t *testing.T) {
	url := repotest.Serve(t, built(t)).URL
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	l := newLaunch(t, url)
	l.DryRun = true
	l.Name = "vscode"
	res, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"kind: Deployment",
		`cpu: "4000m"`, // region.resources.cpuLimit
		"name: GIT_USER_NAME\n              value: \"Ada Lovelace\"", // profile git.name
	} {
		if !strings.Contains(res.Manifest, want) {
			t.Errorf("manifest lacks %q", want)
		}
	}
	if res.Namespace != "default" || res.Status != "dry run" {
		t.Errorf("namespace %q status %q", res.Namespace, res.Status)
	}
	masked := res.Values.Masked()
	sec := masked["security"].(map[string]any)
	git := masked["git"].(map[string]any)
	if sec["password"] != "********" || git["name"] != "Ada Lovelace" {
		t.Errorf("masked values: security %v git %v", sec, git)
	}
	if res.Values.Overrides["security"].(map[string]any)["password"] != "Tr0ub4dor-3x" {
		t.Error("masking changed the values sent")
	}
}

func TestLaunchListUninstall(t *testing.T) {
	l, cfg, cs := clusterLaunch(t, "launch") // its namespace does not exist: the launch creates it
	url, ns := l.Source.Catalog.Location, l.Namespace
	l.Set = []string{"resources.requests.cpu=500m"}
	res, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "deployed" || !strings.HasPrefix(res.Name, "vscode-python-") {
		t.Fatalf("status %q name %q", res.Status, res.Name)
	}
	ctx := context.Background()
	deps, err := cs.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
	if err != nil || len(deps.Items) != 1 {
		t.Fatalf("deployments: %v %v", deps, err)
	}
	ctr := deps.Items[0].Spec.Template.Spec.Containers[0]
	lim, req := ctr.Resources.Limits, ctr.Resources.Requests
	if lim.Cpu().Cmp(resource.MustParse("4000m")) != 0 || lim.Memory().Cmp(resource.MustParse("8Gi")) != 0 {
		t.Errorf("limits %v: want the region's cpuLimit 4000m and memoryLimit 8Gi", lim)
	}
	if req.Cpu().Cmp(resource.MustParse("500m")) != 0 {
		t.Errorf("requests %v: want --set's 500m", req)
	}
	env := map[string]string{}
	for _, e := range ctr.Env {
		env[e.Name] = e.Value
	}
	if env["GIT_USER_NAME"] != "Ada Lovelace" || env["GIT_USER_MAIL"] != "ada@example.org" {
		t.Errorf("git env from the profile: %v", env)
	}
	secrets, err := cs.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{LabelSelector: "owner=helm," + launcher.LabelCatalog + "=ide," + launcher.LabelChart + "=vscode-python"})
	if err != nil || len(secrets.Items) != 1 {
		t.Fatalf("release secret with catalogist labels: %v %v", secrets, err)
	}
	if v := secrets.Items[0].Labels[launcher.LabelVersion]; v == "" {
		t.Error("no chart version label")
	}

	// The same name again is refused clearly.
	again := launchWith(t, url, cfg)
	again.Namespace, again.Name = ns, res.Name
	if _, err := again.Run(ctx); err == nil || !strings.Contains(err.Error(), "already exists in namespace") {
		t.Errorf("second launch under the same name: %v", err)
	}

	list := launcher.NewList(cfg)
	list.Namespace = ns
	rels, err := list.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 1 || rels[0].Name != res.Name || rels[0].Catalog != "ide" || rels[0].Chart != "vscode-python" || rels[0].Status != "deployed" || rels[0].Version != res.Resolved.Version.Version {
		t.Fatalf("list: %+v", rels)
	}
	all, err := launcher.NewList(cfg).Run(ctx)
	if err != nil || !containsRelease(all, res.Name, ns) {
		t.Fatalf("list in every namespace: %+v %v", all, err)
	}

	un := launcher.NewUninstall(cfg)
	un.Namespace, un.Name = ns, res.Name
	if err := un.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.AppsV1().Deployments(ns).Get(ctx, deps.Items[0].Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("deployment after uninstall: %v", err)
	}
	if rels, err := list.Run(ctx); err != nil || len(rels) != 0 {
		t.Errorf("list after uninstall: %+v %v", rels, err)
	}
}

func containsRelease(rs []launcher.Release, name, ns string) bool {
	for _, r := range rs {
		if r.Name == name && r.Namespace == ns {
			return true
		}
	}
	return false
}

func TestOutOfBoundsRefusedNothingCreated(t *testing.T) {
	l, _, cs := clusterLaunch(t, "refused")
	ns := l.Namespace
	l.Set = []string{"resources.limits.cpu=20000m", "resources.limits.memory=4G"}
	_, err := l.Run(context.Background())
	var pe *launcher.ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("want a refusal for values, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{
		`resources.limits.cpu: "20000m": "20000m" is outside the slider range 100m to 8000m (allowed 100m to 8000m in steps of 100m, region bound "cpu" from ../../../examples/region.yaml)`,
		`resources.limits.memory: "4G": `,
		"nothing was installed",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal lacks %q:\n%s", want, msg)
		}
	}
	if _, err := cs.CoreV1().Namespaces().Get(context.Background(), ns, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the refused launch created its namespace: %v", err)
	}
}

func TestForbiddenNamespace(t *testing.T) {
	c := testCluster(t)
	url := repotest.Serve(t, built(t)).URL
	ns := c.NewNamespace(t)
	l := launchWith(t, url, launcher.NewConfiguration(launcher.Kube{Kubeconfig: c.Kubeconfig, Context: kubetest.Restricted}))
	l.Namespace = ns
	_, err := l.Run(context.Background())
	if !launcher.IsForbidden(err) || !strings.Contains(err.Error(), fmt.Sprintf("rights in namespace %q", ns)) {
		t.Fatalf("want a clear refusal naming the namespace, got %v", err)
	}
	deps, err := c.Client(t, kubetest.Admin).AppsV1().Deployments(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil || len(deps.Items) != 0 {
		t.Fatalf("deployments after a forbidden launch: %v %v", deps, err)
	}
}

func TestUnreachableCluster(t *testing.T) {
	url := repotest.Serve(t, built(t)).URL
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kc, []byte(`apiVersion: v1
kind: Config
clusters: [{name: gone, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: gone, context: {cluster: gone, user: u}}]
current-context: gone
`), 0o600); err != nil {
		t.Fatal(err)
	}
	l := launchWith(t, url, launcher.NewConfiguration(launcher.Kube{Kubeconfig: kc}))
	_, err := l.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "cannot reach the cluster at https://127.0.0.1:1") {
		t.Fatalf("got %v", err)
	}
}

func TestTamperedPackageRefused(t *testing.T) {
	out := built(t)
	dir := t.TempDir()
	idxData, err := os.ReadFile(filepath.Join(out, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.yaml"), idxData, 0o644); err != nil {
		t.Fatal(err)
	}
	idx, err := repo.LoadIndexFile(filepath.Join(dir, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cv := idx.Entries["vscode-python"][0]
	if err := os.WriteFile(filepath.Join(dir, cv.URLs[0]), []byte("not the published package"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := newLaunch(t, repotest.Serve(t, dir).URL)
	l.DryRun = true
	_, err = l.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "does not match the index's sha256:"+strings.TrimPrefix(cv.Digest, "sha256:")) {
		t.Fatalf("got %v", err)
	}
}

// A catalog's own slider bounds travel in its published index: without a
// region they bound the launch (narrower than the chart's own slider), and
// a region's bounds of the same name replace them, as on the platform.
func TestCatalogBoundsAtLaunch(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "ide")
	if err := os.CopyFS(cat, os.DirFS("../../../examples/ide")); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(cat, "catalog.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString("sliders:\n  cpu: {sliderMin: 100, sliderMax: 4000, sliderStep: 100, sliderUnit: m}\n")
	if err := errors.Join(err, f.Close()); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := builder.Build(context.Background(), builder.Options{Catalog: cat, Out: out, CacheDir: t.TempDir(), Log: &bytes.Buffer{}}); err != nil {
		t.Fatal(err)
	}
	url := repotest.Serve(t, out).URL
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))

	l := newLaunch(t, url)
	l.DryRun, l.Name, l.Region = true, "vscode", nil
	l.Set = []string{"resources.limits.cpu=6000m"}
	_, err = l.Run(context.Background())
	var pe *launcher.ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("6000m under a catalog bound of 4000m: want a refusal, got %v", err)
	}
	want := fmt.Sprintf(`resources.limits.cpu: "6000m": "6000m" is outside the slider range 100m to 4000m (allowed 100m to 4000m in steps of 100m, catalog bound "cpu" from %s/index.yaml)`, url)
	if !strings.Contains(err.Error(), want) {
		t.Errorf("refusal lacks %q:\n%s", want, err)
	}

	l.Set = []string{"resources.limits.cpu=3000m"}
	if _, err := l.Run(context.Background()); err != nil {
		t.Errorf("3000m is within the catalog's bounds: %v", err)
	}

	_, l.Region = examples(t) // the region allows up to 8000m
	l.Set = []string{"resources.limits.cpu=6000m"}
	res, err := l.Run(context.Background())
	if err != nil {
		t.Fatalf("the region's bound replaces the catalog's: %v", err)
	}
	if !strings.Contains(res.Manifest, `cpu: "6000m"`) {
		t.Errorf("manifest lacks the cpu limit asked for:\n%s", res.Manifest)
	}
}

func TestVersionsAndUnknownChart(t *testing.T) {
	src, file := ideSource(t, repotest.Serve(t, built(t)).URL, "vscode-pyton")
	r := launcher.Resolver{CacheDir: t.TempDir()}
	if _, err := r.Resolve(context.Background(), src, ""); err == nil || !strings.Contains(err.Error(), `did you mean "vscode-python"`) {
		t.Fatalf("unknown chart: %v", err)
	}
	src.Chart = "vscode-python"
	if _, err := r.Resolve(context.Background(), src, ">= 99"); err == nil || !strings.Contains(err.Error(), `no version matches ">= 99"`) {
		t.Fatalf("unmatched constraint: %v", err)
	}
	if _, err := launcher.ParseRef("nope/x", "", file); err == nil || !strings.Contains(err.Error(), `no catalog "nope"`) {
		t.Fatalf("unknown catalog: %v", err)
	}
}
