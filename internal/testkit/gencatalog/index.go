package gencatalog

import (
	"fmt"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// Index returns a published index of n versions spread over n/30 charts
// (at least one), with absolute package URLs as chart-releaser publishes
// them, and the fields real entries carry. Deterministic like the charts.
func Index(n int) *repo.IndexFile {
	idx := repo.NewIndexFile()
	charts := max(n/30, 1)
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		c, v := i%charts, i/charts
		name := fmt.Sprintf("service-%04d", c)
		version := fmt.Sprintf("%d.%d.%d", v/10, v%10, c%3)
		md := &chart.Metadata{
			APIVersion:  chart.APIVersionV2,
			Name:        name,
			Version:     version,
			AppVersion:  fmt.Sprintf("%d.%d", 1+v/5, v%5),
			Description: fmt.Sprintf("Service %d of the generated catalog: an interactive environment with a homogeneous stack.", c),
			Keywords:    []string{"data-science", "ide", fmt.Sprintf("group-%d", c%7)},
			Home:        "https://example.org/" + name,
			Sources:     []string{"https://github.com/example-org/" + name},
			Icon:        "https://example.org/icons/" + name + ".svg",
			Maintainers: []*chart.Maintainer{{Name: "Catalog team", Email: "team@example.org"}},
			Dependencies: []*chart.Dependency{{
				Name: "library-chart", Version: "1.5.x", Repository: "https://example.org/library", Tags: []string{"base"},
			}},
			Annotations: map[string]string{"artifacthub.io/license": "Apache-2.0"},
			Type:        "application",
		}
		if i%2 == 0 {
			md.Dependencies = append(md.Dependencies, &chart.Dependency{
				Name: "postgresql", Version: "~15.2.0", Repository: "oci://registry.example.org/charts", Condition: "postgresql.enabled",
			})
		}
		digest := fmt.Sprintf("%064x", uint64(i)*0x9e3779b97f4a7c15)
		url := fmt.Sprintf("https://github.com/example-org/catalog/releases/download/%s-%s/%s-%s.tgz", name, version, name, version)
		idx.Entries[name] = append(idx.Entries[name], &repo.ChartVersion{
			Metadata: md, URLs: []string{url}, Digest: digest,
			Created: base.Add(time.Duration(i) * time.Hour),
		})
	}
	idx.SortEntries()
	idx.Generated = base.Add(time.Duration(n) * time.Hour)
	return idx
}
