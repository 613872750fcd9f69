package migrate_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/syncbuf"

	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/cli"
	"helm.sh/helm/v4/pkg/downloader"
	"helm.sh/helm/v4/pkg/getter"
	repo "helm.sh/helm/v4/pkg/repo/v1"

	"github.com/catalogist/catalogist/internal/target/migrate"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

// served packages charts with the Helm SDK into a directory with its index,
// served on loopback, and returns its URL.
func served(t *testing.T, charts ...*chart.Metadata) string {
	t.Helper()
	dir := t.TempDir()
	for _, md := range charts {
		ch := &chart.Chart{Metadata: md, Templates: []*common.File{{
			Name: "templates/cm.yaml",
			Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-" + md.Name + "\n"),
		}}}
		if _, err := chartutil.Save(ch, dir); err != nil {
			t.Fatal(err)
		}
	}
	srv := repotest.Serve(t, dir)
	idx, err := repo.IndexDirectory(dir, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	idx.SortEntries()
	if err := idx.WriteFile(filepath.Join(dir, "index.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv.URL
}

// The migrated umbrella chart's dependency resolves with Helm's own
// dependency manager against a served index of the new repository: the
// newest release, not the pre-release, is downloaded.
func TestMigratedUmbrellaResolvesWithHelm(t *testing.T) {
	helmHome := t.TempDir()
	for _, k := range []string{"HELM_CONFIG_HOME", "HELM_CACHE_HOME", "HELM_DATA_HOME"} {
		t.Setenv(k, helmHome)
	}
	newRepo := served(t,
		&chart.Metadata{APIVersion: "v2", Name: "onyxia", Version: "4.1.0"},
		&chart.Metadata{APIVersion: "v2", Name: "onyxia", Version: "4.1.4"},
		&chart.Metadata{APIVersion: "v2", Name: "onyxia", Version: "4.2.0-rc.1"},
	)
	codecentric := served(t, &chart.Metadata{APIVersion: "v2", Name: "keycloakx", Version: "2.5.1"})

	chartYAML := fixture(t, "umbrella/Chart.yaml")
	data, err := os.ReadFile(chartYAML)
	if err != nil {
		t.Fatal(err)
	}
	// The other dependency comes from loopback too: no network in tests.
	data = bytes.ReplaceAll(data, []byte("https://codecentric.github.io/helm-charts"), []byte(codecentric))
	if err := os.WriteFile(chartYAML, data, 0o644); err != nil {
		t.Fatal(err)
	}

	res, err := newMigrate(t, migrate.Options{Chart: chartYAML, NewRepoURL: newRepo}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Version != "4.1.4" {
		t.Fatalf("version %s, want 4.1.4", res.Version)
	}
	if err := res.Write(); err != nil {
		t.Fatal(err)
	}

	settings := cli.New()
	out := &syncbuf.Buffer{}
	man := &downloader.Manager{
		Out:              out,
		ChartPath:        filepath.Dir(chartYAML),
		Getters:          getter.All(settings),
		RepositoryConfig: filepath.Join(helmHome, "repositories.yaml"),
		RepositoryCache:  filepath.Join(helmHome, "repository"),
		ContentCache:     filepath.Join(helmHome, "content"),
	}
	if err := man.Update(); err != nil {
		t.Fatalf("helm dependency update of the migrated chart: %v\n%s", err, out.String())
	}
	ch, err := loader.LoadDir(filepath.Dir(chartYAML))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, dep := range ch.Dependencies() {
		got = append(got, dep.Name()+"-"+dep.Metadata.Version)
	}
	if strings.Join(got, ",") != "keycloakx-2.5.1,onyxia-4.1.4" && strings.Join(got, ",") != "onyxia-4.1.4,keycloakx-2.5.1" {
		t.Errorf("resolved dependencies %v, want onyxia-4.1.4 and keycloakx-2.5.1", got)
	}
	if ch.Lock == nil || len(ch.Lock.Dependencies) != 2 || ch.Lock.Dependencies[0].Repository != newRepo {
		t.Errorf("Chart.lock: %+v, want onyxia from %s", ch.Lock, newRepo)
	}
}
