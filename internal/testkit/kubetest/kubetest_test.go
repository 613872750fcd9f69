package kubetest

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	authnv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestCluster starts a cluster of its own (whatever CATALOGIST_KUBECONFIG
// says), checks authentication and RBAC on it, and stops it.
func TestCluster(t *testing.T) {
	c := Own(t)
	procs := readProcs(t, c.Dir)
	for _, name := range []string{"etcd", "kube-apiserver", "watcher"} {
		if _, ok := procs[name]; !ok {
			t.Fatalf("no %s.pid in %s", name, c.Dir)
		}
	}
	ctx := context.Background()

	t.Run("identities", func(t *testing.T) {
		for _, tc := range []struct {
			context, user string
			groups        []string
		}{
			{Admin, "admin", []string{"system:masters", "system:authenticated"}},
			{Restricted, "restricted", []string{"system:authenticated"}},
		} {
			r, err := c.Client(t, tc.context).AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("%s: self subject review: %v", tc.context, err)
			}
			u := r.Status.UserInfo
			groups := slices.Sorted(slices.Values(u.Groups))
			want := slices.Sorted(slices.Values(tc.groups))
			if u.Username != tc.user || !slices.Equal(groups, want) {
				t.Errorf("%s: user %q groups %q, want %q %q", tc.context, u.Username, groups, tc.user, want)
			}
		}
	})

	t.Run("rbac", func(t *testing.T) {
		admin := c.Client(t, Admin)
		restricted := c.Client(t, Restricted)
		ns := c.NewNamespace(t)
		other := c.NewNamespace(t)

		if _, err := admin.CoreV1().ConfigMaps(ns).Create(ctx, configMap("by-admin"), metav1.CreateOptions{}); err != nil {
			t.Fatalf("admin: create configmap: %v", err)
		}

		// Unbound, restricted may do nothing.
		_, err := restricted.CoreV1().ConfigMaps(ns).Get(ctx, "by-admin", metav1.GetOptions{})
		wantForbidden(t, "restricted: get configmap before binding", err)
		_, err = restricted.CoreV1().ConfigMaps(ns).Create(ctx, configMap("by-restricted"), metav1.CreateOptions{})
		wantForbidden(t, "restricted: create configmap before binding", err)
		_, err = restricted.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		wantForbidden(t, "restricted: list namespaces", err)

		// The built-in ClusterRole "edit", bound in ns only.
		rb := &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "restricted-edit"},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "edit"},
			Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: "restricted"}},
		}
		if _, err := admin.RbacV1().RoleBindings(ns).Create(ctx, rb, metav1.CreateOptions{}); err != nil {
			t.Fatalf("admin: create rolebinding: %v", err)
		}
		// The authorizer reads bindings from an informer: allow it a moment.
		deadline := time.Now().Add(30 * time.Second)
		for {
			_, err = restricted.CoreV1().ConfigMaps(ns).Create(ctx, configMap("by-restricted"), metav1.CreateOptions{})
			if err == nil || !apierrors.IsForbidden(err) || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("restricted: create configmap in %s after binding: %v", ns, err)
		}
		if _, err := restricted.CoreV1().ConfigMaps(ns).Get(ctx, "by-admin", metav1.GetOptions{}); err != nil {
			t.Errorf("restricted: get configmap in %s after binding: %v", ns, err)
		}

		// Elsewhere, still nothing.
		_, err = restricted.CoreV1().ConfigMaps(other).Create(ctx, configMap("by-restricted"), metav1.CreateOptions{})
		wantForbidden(t, "restricted: create configmap in "+other, err)
		_, err = restricted.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{})
		wantForbidden(t, "restricted: list configmaps in default", err)
		// edit does not include RBAC itself.
		_, err = restricted.RbacV1().RoleBindings(ns).Create(ctx, &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "escalate"},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"},
			Subjects:   rb.Subjects,
		}, metav1.CreateOptions{})
		wantForbidden(t, "restricted: create rolebinding", err)
	})

	t.Run("kube-up again", func(t *testing.T) {
		// A second kube-up.sh on the running cluster only prints its
		// kubeconfig.
		out, err := exec.Command("bash", filepath.Join(c.root, "scripts", "kube-up.sh"), c.Dir).Output()
		if err != nil {
			t.Fatalf("kube-up.sh again: %v", err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if got := lines[len(lines)-1]; got != c.Kubeconfig {
			t.Errorf("kube-up.sh again printed %q, want %q", got, c.Kubeconfig)
		}
		if again := readProcs(t, c.Dir); !maps.Equal(again, procs) {
			t.Errorf("kube-up.sh again changed the processes: %v, was %v", again, procs)
		}
	})

	t.Run("start uses CATALOGIST_KUBECONFIG", func(t *testing.T) {
		t.Setenv(KubeconfigEnv, c.Kubeconfig)
		s := Start(t)
		if !s.External || s.Kubeconfig != c.Kubeconfig {
			t.Fatalf("Start = %+v, want the external cluster %s", s, c.Kubeconfig)
		}
		if _, err := s.Client(t, Admin).CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err != nil {
			t.Fatal(err)
		}
	})

	if err := c.Down(); err != nil {
		t.Fatal(err)
	}
	for name, p := range procs {
		if p.running() {
			t.Errorf("%s (pid %d) still runs after Down", name, p.pid)
		}
	}
	if _, err := os.Stat(c.Dir); !os.IsNotExist(err) {
		t.Errorf("state directory %s not removed: %v", c.Dir, err)
	}
	if err := c.Down(); err != nil {
		t.Errorf("second Down: %v", err)
	}
}

func configMap(name string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Data:       map[string]string{"key": "value"},
	}
}

// wantForbidden checks that err is RBAC's 403.
func wantForbidden(t *testing.T, what string, err error) {
	t.Helper()
	var status apierrors.APIStatus
	switch {
	case err == nil:
		t.Errorf("%s: allowed, want forbidden", what)
	case !apierrors.IsForbidden(err):
		t.Errorf("%s: %v, want forbidden", what, err)
	default:
		if s, ok := err.(apierrors.APIStatus); ok {
			status = s
		}
		if status == nil || status.Status().Code != 403 || !strings.Contains(status.Status().Message, `User "restricted" cannot`) {
			t.Errorf("%s: %v, want RBAC's 403 for user restricted", what, err)
		}
	}
}

// proc is a process recorded by kube-up.sh: "PID STARTTIME NAME".
type proc struct {
	pid   int
	start string
}

func readProcs(t *testing.T, dir string) map[string]proc {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.pid"))
	if err != nil {
		t.Fatal(err)
	}
	procs := map[string]proc{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p proc
		var name string
		if _, err := fmt.Sscan(string(b), &p.pid, &p.start, &name); err != nil {
			t.Fatalf("%s: %q: %v", f, b, err)
		}
		procs[name] = p
		if !p.running() {
			t.Errorf("%s (pid %d) is not running", name, p.pid)
		}
	}
	return procs
}

// running reports whether the process still runs (not a zombie) with the
// recorded start time.
func (p proc) running() bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p.pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 19 && f[0] != "Z" && f[19] == p.start
}
