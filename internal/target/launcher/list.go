package launcher

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"time"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/kube"
	release "helm.sh/helm/v4/pkg/release/v1"
)

// Release is one release launched by catalogist.
type Release struct {
	Name, Namespace string
	Catalog, Chart  string
	Version, Status string
	Revision        int
	Updated         time.Time
}

// List lists the releases catalogist launched.
type List struct {
	cfg *Configuration
	// Namespace empty means every namespace.
	Namespace string
}

// NewList returns a listing configured for a cluster.
func NewList(cfg *Configuration) *List { return &List{cfg: cfg} }

// Run returns the releases, sorted by namespace and name.
func (l *List) Run(ctx context.Context) ([]Release, error) {
	server := l.cfg.Server
	if _, err := l.cfg.KubeClient(ctx); err != nil {
		return nil, err
	}
	cfg, err := l.cfg.HelmConfig(l.Namespace)
	if err != nil {
		return nil, err
	}
	ls := action.NewList(cfg)
	ls.AllNamespaces = l.Namespace == ""
	ls.All = true
	ls.Selector = LabelCatalog
	rs, err := ls.Run()
	if err != nil {
		return nil, explain(fmt.Errorf("listing releases: %w", err), "", l.Namespace, server)
	}
	var out []Release
	for _, r := range rs {
		rel, ok := r.(*release.Release)
		if !ok || rel.Info == nil {
			continue
		}
		x := Release{Name: rel.Name, Namespace: rel.Namespace, Catalog: rel.Labels[LabelCatalog], Revision: rel.Version, Status: rel.Info.Status.String(), Updated: rel.Info.LastDeployed}
		if rel.Chart != nil && rel.Chart.Metadata != nil {
			x.Chart, x.Version = rel.Chart.Metadata.Name, rel.Chart.Metadata.Version
		}
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// Uninstall removes a release catalogist launched.
type Uninstall struct {
	cfg *Configuration
	// Namespace empty means the configuration's.
	Namespace string
	Name      string
	Timeout   time.Duration
}

// NewUninstall returns a removal configured for a cluster.
func NewUninstall(cfg *Configuration) *Uninstall { return &Uninstall{cfg: cfg} }

// Run uninstalls the release. A release that catalogist did not launch is
// left alone: Helm removes those.
func (u *Uninstall) Run(ctx context.Context) error {
	server := u.cfg.Server
	ns := cmp.Or(u.Namespace, u.cfg.Namespace)
	if _, err := u.cfg.KubeClient(ctx); err != nil {
		return err
	}
	cfg, err := u.cfg.HelmConfig(ns)
	if err != nil {
		return err
	}
	r, err := action.NewGet(cfg).Run(u.Name)
	if err != nil {
		return explain(fmt.Errorf("no release %q in namespace %q: %w", u.Name, ns, err), u.Name, ns, server)
	}
	if rel, ok := r.(*release.Release); ok && rel.Labels[LabelCatalog] == "" {
		return fmt.Errorf("release %q in namespace %q was not launched by catalogist; remove it with `helm uninstall %s --namespace %s`", u.Name, ns, u.Name, ns)
	}
	un := action.NewUninstall(cfg)
	un.WaitStrategy = kube.HookOnlyStrategy
	un.Timeout = u.Timeout
	if un.Timeout == 0 {
		un.Timeout = 5 * time.Minute
	}
	if _, err := un.Run(u.Name); err != nil {
		return explain(fmt.Errorf("uninstalling %s: %w", u.Name, err), u.Name, ns, server)
	}
	return nil
}
