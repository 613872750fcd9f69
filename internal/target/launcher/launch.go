// Package launcher launches charts from published catalogs into a cluster,
// computing their values as the platform does: the form from the chart's
// schema, the user's profile and the region, checked against the region's
// bounds before anything is installed. Actions follow Helm's pkg/action:
// one struct per user action, made from a shared *Configuration (which says
// how to reach the cluster), set, then Run.
package launcher

import (
	"cmp"
	"context"
	"crypto/rand"
	"fmt"
	"regexp"
	"strings"
	"time"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/kube"
	release "helm.sh/helm/v4/pkg/release/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/model/manifest"
	"github.com/catalogist/catalogist/internal/model/render"
)

// Launch installs one chart of a catalog.
type Launch struct {
	cfg      *Configuration
	Resolver Resolver
	Source   *Source
	// Version is an exact version or a SemVer constraint; empty means the
	// newest release.
	Version string
	// Name is the release name; empty means the chart's name and a short
	// random suffix.
	Name string
	// Namespace empty means the configuration's (the kubeconfig
	// context's); it is created when missing.
	Namespace string
	// Inputs are the form's inputs and the values on top of them. Their
	// ExtensionKey, Platform (when empty), CatalogSliders and
	// CatalogSource are the resolved catalog's.
	Inputs
	// DryRun renders the manifests without a cluster.
	DryRun  bool
	Timeout time.Duration
}

// Result is a launch's outcome; on a refusal for values it carries the
// computed values and the problems.
type Result struct {
	Resolved  *Resolved
	Values    *Values
	Name      string
	Namespace string
	// Manifest is the rendered manifests; Notes the chart's NOTES.txt.
	Manifest, Notes string
	// Status is the release's status after the install ("deployed"), or
	// "dry run".
	Status string
	// Secrets are the launch's secrets, to mask whatever is printed about
	// it: those of its values once computed (Values.Secrets), those of its
	// inputs before.
	Secrets *secret.Set
}

// NewLaunch returns a launch configured for a cluster.
func NewLaunch(cfg *Configuration) *Launch { return &Launch{cfg: cfg} }

// Run resolves the chart, computes and checks its values, and installs it.
// A chart whose form the platform would not open stops the launch with a
// *FormError, and values the region or schema does not allow with a
// *ProblemsError, before anything is created.
func (l *Launch) Run(ctx context.Context) (*Result, error) {
	res := &Result{Secrets: InputSecrets(l.Inputs)}
	rs, err := l.resolve(ctx)
	if err != nil {
		return res, err
	}
	res.Resolved = rs
	vals, err := l.values(rs)
	if err != nil {
		return res, err
	}
	res.Values, res.Secrets = vals, vals.Secrets
	// A refusal names the release too: its values are printed under it.
	res.Name = cmp.Or(l.Name, generatedName(rs.Chart.Name()))
	res.Namespace = cmp.Or(l.Namespace, l.cfg.Namespace)
	if err := refusal(rs, vals); err != nil {
		return res, err
	}
	return res, l.install(ctx, res)
}

// resolve picks the chart's version in its catalog and loads its verified
// package.
func (l *Launch) resolve(ctx context.Context) (*Resolved, error) {
	return l.Resolver.Resolve(ctx, l.Source, l.Version)
}

// values computes the launch's values from its inputs and the catalog's
// settings.
func (l *Launch) values(rs *Resolved) (*Values, error) {
	in := l.Inputs
	in.ExtensionKey, in.Platform = l.Source.Catalog.ExtensionKey, cmp.Or(l.Platform, l.Source.Catalog.Platform)
	in.CatalogSliders, in.CatalogSource = rs.Sliders, rs.IndexURL
	return ComputeValues(rs.Chart, in)
}

// refusal is why the platform would not launch the chart with these
// values, or nil.
func refusal(rs *Resolved, vals *Values) error {
	chartName := fmt.Sprintf("%s %s", rs.Chart.Name(), rs.Version.Version)
	if len(vals.Unopenable) > 0 {
		return &FormError{Chart: chartName, Platform: vals.Schema.Platform.Name, Failures: vals.Unopenable, Problems: vals.Problems}
	}
	if len(vals.Problems) > 0 {
		return &ProblemsError{Chart: chartName, Problems: vals.Problems}
	}
	return nil
}

// install installs the chart with its values as the release res names, or
// renders it without a cluster on a dry run, and records the outcome in
// res. The templates are rendered first, as lint renders them, so that a
// chart that does not render is refused with lint's message before
// anything (its crds/ first) reaches the cluster.
func (l *Launch) install(ctx context.Context, res *Result) error {
	var cs kubernetes.Interface
	if !l.DryRun {
		var err error
		if cs, err = l.cfg.KubeClient(ctx); err != nil {
			return err
		}
	}
	if err := l.prerender(ctx, res, cs); err != nil {
		return err
	}
	in, err := l.newInstall(ctx, res, cs)
	if err != nil {
		return err
	}
	r, err := in.RunWithContext(ctx, res.Resolved.Chart, res.Values.Overrides)
	if err != nil {
		// Helm's errors may quote rendered values: a template's fail
		// message, a manifest line that does not parse.
		return res.Secrets.Err(explain(fmt.Errorf("installing %s: %w", res.Name, err), res.Name, res.Namespace, l.cfg.Server))
	}
	rel, ok := r.(*release.Release)
	if !ok {
		return fmt.Errorf("installing %s: Helm returned a release of type %T", res.Name, r)
	}
	res.Manifest, res.Notes = rel.Manifest, rel.Info.Notes
	res.Status = rel.Info.Status.String()
	if l.DryRun {
		res.Status = "dry run"
	}
	return nil
}

// prerender renders the chart client-side with the launch's values, for
// the cluster's Kubernetes version and API versions (on a dry run, the
// version lint assumes by default).
func (l *Launch) prerender(ctx context.Context, res *Result, cs kubernetes.Interface) error {
	opt := render.Options{ReleaseName: res.Name, Namespace: res.Namespace, KubeVersion: manifest.Default.String()}
	if cs != nil {
		if v, err := cs.Discovery().ServerVersion(); err == nil {
			if _, err := common.ParseKubeVersion(v.GitVersion); err == nil {
				opt.KubeVersion = v.GitVersion
			}
		}
		if vs, err := action.GetVersionSet(cs.Discovery()); err == nil {
			opt.APIVersions = vs
		}
	}
	_, err := render.Render(ctx, res.Resolved.Chart, res.Values.Overrides, opt)
	if err == nil {
		return nil
	}
	return res.Secrets.Err(&RenderError{Chart: fmt.Sprintf("%s %s", res.Resolved.Chart.Name(), res.Resolved.Version.Version), Failure: render.ParseFailure(err)})
}

// RenderError is a launch refused because the chart's templates do not
// render with its values: Helm would refuse it as well.
type RenderError struct {
	Chart   string
	Failure *render.Failure
}

func (e *RenderError) Error() string {
	where := e.Failure.At().String()
	if where != "" {
		where += ": "
	}
	return fmt.Sprintf("%s: %sdoes not render with the values of this launch: %s; nothing was installed", e.Chart, where, e.Failure.Detail())
}

// newInstall configures Helm's install: on a dry run with no cluster at
// all, else for the cluster, creating the namespace when it is missing.
func (l *Launch) newInstall(ctx context.Context, res *Result, cs kubernetes.Interface) (*action.Install, error) {
	if l.DryRun {
		in := l.configure(action.NewInstall(action.NewConfiguration()), res)
		in.DryRunStrategy = action.DryRunClient
		return in, nil
	}
	exists, err := namespaceExists(ctx, cs, res.Namespace)
	if err != nil {
		return nil, explain(err, res.Name, res.Namespace, l.cfg.Server)
	}
	cfg, err := l.cfg.HelmConfig(res.Namespace)
	if err != nil {
		return nil, err
	}
	in := l.configure(action.NewInstall(cfg), res)
	in.CreateNamespace = !exists
	return in, nil
}

// configure sets what every install of a launch has: its release, labels
// and timeout.
func (l *Launch) configure(in *action.Install, res *Result) *action.Install {
	in.ReleaseName, in.Namespace = res.Name, res.Namespace
	in.WaitStrategy = kube.HookOnlyStrategy
	in.Timeout = l.Timeout
	if in.Timeout == 0 {
		in.Timeout = 5 * time.Minute
	}
	in.Labels = releaseLabels(l.Source, res.Resolved)
	in.Description = fmt.Sprintf("launched by catalogist from %s", where(l.Source))
	return in
}

// releaseLabels records where a release comes from.
func releaseLabels(src *Source, rs *Resolved) map[string]string {
	cat := src.Catalog.ID
	if cat == "" {
		cat = "url"
	}
	return map[string]string{
		LabelCatalog: labelValue(cat),
		LabelChart:   labelValue(rs.Chart.Name()),
		LabelVersion: labelValue(rs.Version.Version),
	}
}

var notLabel = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// labelValue makes s a valid label value: SemVer build metadata ("+") and
// other characters become "_", and it is cut to 63 characters.
func labelValue(s string) string {
	s = notLabel.ReplaceAllString(s, "_")
	if len(s) > 63 {
		s = s[:63]
	}
	return strings.Trim(s, "._-")
}

// generatedName is the chart's name and a random suffix, within Helm's 53
// characters.
func generatedName(chart string) string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	base := strings.ToLower(notLabel.ReplaceAllString(chart, "-"))
	if len(base) > 47 {
		base = base[:47]
	}
	return strings.Trim(base, "-._") + "-" + string(b)
}
