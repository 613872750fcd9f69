// Package render renders a chart as `helm template` does: Helm's install
// action, client only, with the capabilities of a target Kubernetes
// version, a release name and a namespace. It returns the documents Helm
// would send to the API server, each with the template Helm made it from,
// and reads Helm's render errors back into the template, line and message
// they name.
package render

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	release "helm.sh/helm/v4/pkg/release/v1"
)

// Options are what a render is for.
type Options struct {
	// ReleaseName and Namespace are the release's, as the platform names
	// them.
	ReleaseName, Namespace string
	// KubeVersion is the target Kubernetes version ("1.37"), which
	// .Capabilities.KubeVersion reports and Chart.yaml's kubeVersion is
	// checked against.
	KubeVersion string
	// APIVersions are served besides the built-in ones, as helm template
	// --api-versions adds them (a cluster's own, when one is known).
	APIVersions []string
}

// Doc is one rendered document.
type Doc struct {
	// Template is the template Helm names as the document's source
	// ("web/templates/deployment.yaml").
	Template string
	// Hook lists the hook's events ("pre-install"), "" for a manifest.
	Hook string
	// Test is true for a test hook, which only `helm test` creates.
	Test bool
	Data string
}

// Result is a chart rendered.
type Result struct {
	Docs []Doc
	// Notes is the chart's NOTES.txt rendered.
	Notes string
}

// Render renders a chart with values given over its values.yaml, as
// `helm template --kube-version` does. The chart is not changed: Helm's
// install action changes the chart it is given (disabled dependencies,
// aliases, imported values), so it renders a copy. The schema is not
// checked here: lint reports what values the schema refuses on its own.
func Render(ctx context.Context, hc *chart.Chart, vals map[string]any, opt Options) (*Result, error) {
	kv, err := common.ParseKubeVersion(opt.KubeVersion)
	if err != nil {
		return nil, fmt.Errorf("kube version %q: %w", opt.KubeVersion, err)
	}
	cfg := action.NewConfiguration()
	// Helm logs each failure as it returns it; the caller reports it.
	cfg.SetLogger(slog.DiscardHandler)
	in := action.NewInstall(cfg)
	in.DryRunStrategy = action.DryRunClient
	in.Replace = true
	in.ReleaseName = opt.ReleaseName
	in.Namespace = opt.Namespace
	in.KubeVersion = kv
	in.APIVersions = opt.APIVersions
	in.SkipSchemaValidation = true
	r, err := in.RunWithContext(ctx, Copy(hc), deepCopy(vals))
	if err != nil {
		return nil, err
	}
	rel, ok := r.(*release.Release)
	if !ok {
		return nil, fmt.Errorf("rendering: Helm returned a release of type %T", r)
	}
	res := &Result{Docs: Split(rel.Manifest), Notes: rel.Info.Notes}
	for _, h := range rel.Hooks {
		events := make([]string, len(h.Events))
		for i, e := range h.Events {
			events[i] = string(e)
		}
		res.Docs = append(res.Docs, Doc{
			Template: h.Path, Hook: strings.Join(events, ","), Data: h.Manifest,
			Test: slices.Contains(h.Events, release.HookTest),
		})
	}
	return res, nil
}

const sourceMark = "# Source: "

// Split reads a release manifest back into its documents: Helm writes each
// as "---\n# Source: TEMPLATE\nCONTENT\n".
func Split(manifest string) []Doc {
	var out []Doc
	for _, part := range strings.Split("\n"+manifest, "\n---\n") {
		head, body, _ := strings.Cut(part, "\n")
		name, ok := strings.CutPrefix(head, sourceMark)
		if !ok {
			continue
		}
		out = append(out, Doc{Template: name, Data: body})
	}
	return out
}

// Copy copies a chart as deep as Helm's install action writes into it:
// the metadata and its dependency list, the values, and the dependencies
// themselves. Files are shared: nothing writes to them.
func Copy(c *chart.Chart) *chart.Chart {
	if c == nil {
		return nil
	}
	cp := *c
	if c.Metadata != nil {
		md := *c.Metadata
		md.Dependencies = make([]*chart.Dependency, len(c.Metadata.Dependencies))
		for i, d := range c.Metadata.Dependencies {
			if d != nil {
				dc := *d
				dc.Tags = slices.Clone(d.Tags)
				dc.ImportValues = slices.Clone(d.ImportValues)
				md.Dependencies[i] = &dc
			}
		}
		if c.Metadata.Dependencies == nil {
			md.Dependencies = nil
		}
		cp.Metadata = &md
	}
	cp.Values = deepCopy(c.Values)
	deps := make([]*chart.Chart, 0, len(c.Dependencies()))
	for _, d := range c.Dependencies() {
		deps = append(deps, Copy(d))
	}
	cp.SetDependencies(deps...)
	return &cp
}

// deepCopy copies values as YAML and JSON readers make them: maps, lists
// and scalars.
func deepCopy(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	out := make(map[string]any, len(v))
	for k, x := range v {
		out[k] = copyValue(x)
	}
	return out
}

func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return deepCopy(x)
	case common.Values:
		return common.Values(deepCopy(x))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyValue(e)
		}
		return out
	}
	return v
}
