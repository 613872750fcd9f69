package repoindex

import (
	"fmt"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// genIndex returns a deterministic index of n versions over about n/30
// charts, each entry carrying the fields real repositories publish, so that
// benchmarks measure realistic parsing work.
func genIndex(n int) *repo.IndexFile {
	idx := &repo.IndexFile{APIVersion: repo.APIVersionV1, Entries: map[string]repo.ChartVersions{}}
	charts := max(n/30, 1)
	base := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	for i := range n {
		c, v := i%charts, i/charts
		name := fmt.Sprintf("chart-%03d", c)
		version := fmt.Sprintf("%d.%d.%d", v/10, v%10, c%4)
		md := &chart.Metadata{
			APIVersion:  chart.APIVersionV2,
			Name:        name,
			Version:     version,
			AppVersion:  fmt.Sprintf("%d.%d.0", 1+v/5, v%5),
			Description: fmt.Sprintf("A Helm chart for %s, deploying the service with sensible defaults (%d).", name, v),
			Keywords:    []string{"service", "web", fmt.Sprintf("team-%d", c%9)},
			Maintainers: []*chart.Maintainer{{Name: "Platform team", Email: "platform@example.com", URL: "https://example.com/team"}},
			Home:        "https://example.com/charts/" + name,
			Sources:     []string{"https://github.com/example/charts/tree/main/" + name},
			Icon:        "https://example.com/icons/" + name + ".png",
			Dependencies: []*chart.Dependency{
				{Name: "common", Version: "2.x.x", Repository: "https://charts.example.com/library", Tags: []string{"base"}},
			},
			Annotations: map[string]string{"artifacthub.io/license": "Apache-2.0"},
			Type:        "application",
		}
		if i%2 == 0 {
			md.Dependencies = append(md.Dependencies, &chart.Dependency{
				Name: "postgresql", Version: "~15.2.0", Repository: "oci://registry.example.com/charts", Condition: "postgresql.enabled",
			})
		}
		idx.Entries[name] = append(idx.Entries[name], &repo.ChartVersion{
			Metadata: md,
			URLs:     []string{fmt.Sprintf("https://example.com/charts/%s-%s.tgz", name, version)},
			Created:  base.Add(time.Duration(i) * time.Minute),
			Digest:   fmt.Sprintf("%064x", uint64(i+1)*0x9e3779b97f4a7c15),
		})
	}
	idx.SortEntries()
	idx.Generated = base.Add(time.Duration(n) * time.Minute)
	return idx
}
