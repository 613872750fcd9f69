// Package kubetest gives tests a real Kubernetes API server: etcd and a
// kube-apiserver on loopback, started by scripts/kube-up.sh (installed by
// `make tools`), with token authentication and RBAC. Tests never skip: a
// missing tool fails them with what to run.
//
// The kubeconfig has two contexts: Admin (group system:masters, may do
// anything) and Restricted (no group beyond system:authenticated, so RBAC
// forbids it everything until a test binds it to a role). There is no
// controller manager, scheduler or kubelet: the built-in ClusterRoles (admin,
// edit, view, ...) and the default namespaces exist, but no ServiceAccounts
// are created, no pod ever runs, and deleted namespaces stay Terminating, so
// tests use fresh namespaces (NewNamespace) rather than cleaning up.
//
// With CATALOGIST_KUBECONFIG set (e.g. to the kubeconfig `make cluster`
// prints), Start uses that cluster instead of starting one.
package kubetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Contexts of the kubeconfig.
const (
	Admin      = "admin"
	Restricted = "restricted"
)

// KubeconfigEnv names an already running cluster's kubeconfig, used by Start
// instead of starting a cluster.
const KubeconfigEnv = "CATALOGIST_KUBECONFIG"

// upTimeout bounds scripts/kube-up.sh, which itself waits at most
// CATALOGIST_KUBE_UP_TIMEOUT (default 180s) for the server to be ready.
const upTimeout = 5 * time.Minute

// Cluster is a running API server.
type Cluster struct {
	// Kubeconfig is the path of the kubeconfig, with contexts Admin
	// (current) and Restricted.
	Kubeconfig string
	// Dir is the state directory of kube-up.sh (certificates, etcd's data,
	// logs, PID files); empty for an external cluster.
	Dir string
	// External is true for a cluster named by CATALOGIST_KUBECONFIG, which
	// Down leaves running.
	External bool

	root  string // module root, for the scripts
	purge bool   // Down removes Dir
}

// Start returns the cluster named by CATALOGIST_KUBECONFIG, else starts one in
// a temporary directory and stops it when the test and its subtests finish.
// It fails the test if the cluster cannot be had.
func Start(t testing.TB) *Cluster {
	t.Helper()
	if kc := os.Getenv(KubeconfigEnv); kc != "" {
		c, err := Existing(kc)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return Own(t)
}

// Own starts a cluster in a temporary directory, whatever
// CATALOGIST_KUBECONFIG says, and stops it when the test and its subtests
// finish. It fails the test if the cluster does not start.
func Own(t testing.TB) *Cluster {
	t.Helper()
	c, err := Up("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Down(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// Existing returns the running cluster of a kubeconfig with contexts Admin
// and Restricted, such as the one `make cluster` prints.
func Existing(kubeconfig string) (*Cluster, error) {
	cfg, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", KubeconfigEnv, err)
	}
	for _, name := range []string{Admin, Restricted} {
		if _, ok := cfg.Contexts[name]; !ok {
			return nil, fmt.Errorf("%s=%s has no context %q: use the kubeconfig of scripts/kube-up.sh (`make cluster`)", KubeconfigEnv, kubeconfig, name)
		}
	}
	return &Cluster{Kubeconfig: kubeconfig, External: true}, nil
}

// Up starts a cluster with scripts/kube-up.sh, keeping its state in dir;
// with dir empty, in a new temporary directory that is removed when the
// cluster stops. The cluster runs until Down, or until this process exits:
// kube-up.sh watches it, so a test binary killed by its timeout leaves
// nothing running. For use from TestMain; tests call Start.
func Up(dir string) (*Cluster, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	if err := checkTools(root); err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, root: root}
	if dir == "" {
		if c.Dir, err = os.MkdirTemp("", "catalogist-kube-"); err != nil {
			return nil, err
		}
		c.purge = true
	}
	ctx, cancel := context.WithTimeout(context.Background(), upTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "kube-up.sh"), c.Dir)
	cmd.Env = append(os.Environ(), "CATALOGIST_CLUSTER_OWNER_PID="+strconv.Itoa(os.Getpid()))
	if c.purge {
		cmd.Env = append(cmd.Env, "CATALOGIST_CLUSTER_OWNER_PURGE=1")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		// kube-up.sh stops what it started when it fails, but not when it
		// is killed by the timeout.
		derr := c.Down()
		return nil, errors.Join(fmt.Errorf("scripts/kube-up.sh %s: %v\n%s%s", c.Dir, err, stdout.String(), stderr.String()), derr)
	}
	out := strings.TrimSpace(stdout.String())
	c.Kubeconfig = out[strings.LastIndexByte(out, '\n')+1:]
	if _, err := os.Stat(c.Kubeconfig); err != nil {
		derr := c.Down()
		return nil, errors.Join(fmt.Errorf("scripts/kube-up.sh printed no kubeconfig: %v\n%s%s", err, stdout.String(), stderr.String()), derr)
	}
	return c, nil
}

// Down stops the cluster with scripts/kube-down.sh, and removes its state
// directory if Up made it. It does nothing to an external cluster.
func (c *Cluster) Down() error {
	if c.External || c.Dir == "" {
		return nil
	}
	args := []string{filepath.Join(c.root, "scripts", "kube-down.sh")}
	if c.purge {
		args = append(args, "--purge")
	}
	args = append(args, c.Dir)
	out, err := exec.Command("bash", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("scripts/kube-down.sh %s: %v\n%s", c.Dir, err, out)
	}
	return nil
}

// RESTConfig returns the client configuration of a context of the
// kubeconfig (Admin or Restricted).
func (c *Cluster) RESTConfig(context string) (*rest.Config, error) {
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: c.Kubeconfig},
		&clientcmd.ConfigOverrides{CurrentContext: context},
	).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("%s, context %s: %w", c.Kubeconfig, context, err)
	}
	// Tests create many objects quickly; the default limit (5 per second)
	// would only slow them down.
	cfg.QPS, cfg.Burst = 100, 200
	return cfg, nil
}

// Config is RESTConfig failing the test on error.
func (c *Cluster) Config(t testing.TB, context string) *rest.Config {
	t.Helper()
	cfg, err := c.RESTConfig(context)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Client returns a clientset acting as a context of the kubeconfig (Admin or
// Restricted), failing the test on error.
func (c *Cluster) Client(t testing.TB, context string) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(c.Config(t, context))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

var nonDNS = regexp.MustCompile(`[^a-z0-9]+`)

// NewNamespace creates, as Admin, a namespace named after the test with a
// random suffix, and returns its name. It is not deleted afterwards (without
// a controller manager it would stay Terminating anyway).
func (c *Cluster) NewNamespace(t testing.TB) string {
	t.Helper()
	base := strings.Trim(nonDNS.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
	if len(base) > 40 {
		base = strings.TrimRight(base[:40], "-")
	}
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	name := "t-" + base + "-" + hex.EncodeToString(b[:])
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := c.Client(t, Admin).CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
	return name
}

// ModuleRoot returns the directory of the main module's go.mod, found by
// walking up from the working directory (a test's is its package directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "scripts", "kube-up.sh")); err != nil {
				return "", fmt.Errorf("module root %s has no scripts/kube-up.sh", dir)
			}
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// checkTools fails when etcd or kube-apiserver is missing, saying what to run.
// The Makefile exports their paths; else they are where `make tools` puts
// them.
func checkTools(root string) error {
	for _, tool := range []struct{ env, name string }{
		{"CATALOGIST_ETCD", "etcd"},
		{"CATALOGIST_KUBE_APISERVER", "kube-apiserver"},
	} {
		path := os.Getenv(tool.env)
		if path == "" {
			out, err := exec.Command("bash", filepath.Join(root, "scripts", "install-tools.sh"), "--print", tool.name).Output()
			if err != nil {
				return fmt.Errorf("scripts/install-tools.sh --print %s: %v", tool.name, err)
			}
			path = strings.TrimSpace(string(out))
		}
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("%s is not installed (%v): run `make tools` then `make test` (or set %s)", tool.name, err, tool.env)
		}
	}
	return nil
}
