package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/action"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
)

// Labels catalogist puts on the releases it launches (Helm stores them on
// the release's Secret), so that list finds them.
const (
	LabelCatalog = "catalogist.dev/catalog"
	LabelChart   = "catalogist.dev/chart"
	LabelVersion = "catalogist.dev/chart-version"
)

// Configuration is what the actions need of the cluster. It is built
// once, by NewConfiguration from a kubeconfig or by a test from fakes, and
// injected into each action, as Helm's action.Configuration is.
type Configuration struct {
	// Namespace is the namespace of an action that names none.
	Namespace string
	// Server names the cluster's API server in messages.
	Server string
	// KubeClient returns a Kubernetes client, failing clearly when the
	// cluster cannot be reached.
	KubeClient func(ctx context.Context) (kubernetes.Interface, error)
	// HelmConfig returns Helm's action configuration for a namespace; empty
	// means every namespace.
	HelmConfig func(namespace string) (*action.Configuration, error)
}

// Kube says which cluster to talk to.
type Kube struct {
	// Kubeconfig is a path; empty means $KUBECONFIG or ~/.kube/config.
	Kubeconfig string
	// Context is a kubeconfig context; empty means the current one.
	Context string
}

// NewConfiguration configures the actions for the cluster of a
// kubeconfig. Nothing is asked of the cluster until an action runs, so a
// dry run needs none.
func NewConfiguration(k Kube) *Configuration {
	return &Configuration{Namespace: k.namespace(), Server: k.server(), KubeClient: k.clientset, HelmConfig: k.helmConfig}
}

func (k Kube) flags(namespace string) *genericclioptions.ConfigFlags {
	f := genericclioptions.NewConfigFlags(true)
	f.KubeConfig = &k.Kubeconfig
	f.Context = &k.Context
	if namespace != "" {
		f.Namespace = &namespace
	}
	return f
}

// namespace is the namespace of the kubeconfig's context, or "default".
func (k Kube) namespace() string {
	ns, _, err := k.flags("").ToRawKubeConfigLoader().Namespace()
	if err != nil || ns == "" {
		return "default"
	}
	return ns
}

// server is the API server address of the kubeconfig, for messages.
func (k Kube) server() string {
	cfg, err := k.flags("").ToRESTConfig()
	if err != nil {
		return "(no cluster configured)"
	}
	return cfg.Host
}

// clientset returns a Kubernetes client, failing clearly when the cluster
// cannot be reached.
func (k Kube) clientset(ctx context.Context) (kubernetes.Interface, error) {
	loader := k.flags("").ToRawKubeConfigLoader()
	// Without a kubeconfig, client-go falls back to localhost:8080 (kubectl's
	// default), which is never what a user of the launcher means.
	if raw, err := loader.RawConfig(); err == nil && len(raw.Clusters) == 0 && os.Getenv("KUBERNETES_SERVICE_HOST") == "" {
		return nil, errors.New("no cluster to launch into: no kubeconfig found; set KUBECONFIG or pass --kubeconfig (or use --dry-run, which needs no cluster)")
	}
	cfg, err := loader.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("no cluster to launch into: %w; set KUBECONFIG or pass --kubeconfig (or use --dry-run, which needs no cluster)", err)
	}
	cfg.Timeout = 15 * time.Second
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %w", cfg.Host, err)
	}
	if _, err := cs.DiscoveryClient.ServerVersionWithContext(ctx); err != nil {
		return nil, fmt.Errorf("cannot reach the cluster at %s: %w; check that it is running and that KUBECONFIG (or --kubeconfig) points at it", cfg.Host, err)
	}
	return cs, nil
}

// helmConfig returns Helm's action configuration for a namespace (empty for
// every namespace), with Helm's logging silenced.
func (k Kube) helmConfig(namespace string) (*action.Configuration, error) {
	cfg := action.NewConfiguration()
	cfg.SetLogger(slog.NewTextHandler(io.Discard, nil))
	if err := cfg.Init(k.flags(namespace), namespace, "secret"); err != nil {
		return nil, fmt.Errorf("configuring Helm for the cluster: %w", err)
	}
	return cfg, nil
}

// namespaceExists reports whether a namespace exists. A user who may not
// read namespaces is told it exists: the install then says what is
// forbidden.
func namespaceExists(ctx context.Context, cs kubernetes.Interface, ns string) (bool, error) {
	_, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	switch {
	case err == nil, apierrors.IsForbidden(err):
		return true, nil
	case apierrors.IsNotFound(err):
		return false, nil
	}
	return false, fmt.Errorf("looking up namespace %s: %w", ns, err)
}

// explain rewrites cluster errors into what the user can do.
func explain(err error, name, ns, server string) error {
	if err == nil {
		return nil
	}
	var status apierrors.APIStatus
	switch {
	case apierrors.IsForbidden(err):
		msg := err.Error()
		if errors.As(err, &status) {
			msg = status.Status().Message
		}
		return fmt.Errorf("the cluster at %s refused: %s; ask an administrator for the rights in namespace %q (for example a RoleBinding to the edit role) or launch into one you own with --namespace: %w", server, msg, ns, errForbidden)
	case strings.Contains(err.Error(), "cannot reuse a name that is still in use"):
		return fmt.Errorf("a release named %q already exists in namespace %q: pick another --name, or remove it with `catalogist uninstall %s --namespace %s`", name, ns, name, ns)
	case apierrors.IsUnauthorized(err):
		return fmt.Errorf("the cluster at %s does not accept your credentials: %w; renew the token in your kubeconfig", server, err)
	}
	return err
}

// errForbidden marks refusals by the cluster's authorization.
var errForbidden = errors.New("forbidden")

// IsForbidden reports whether err is a refusal by the cluster's
// authorization.
func IsForbidden(err error) bool { return errors.Is(err, errForbidden) }
