package migrate_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/target/migrate"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

// New fills what the options leave empty, and Run leaves the migration as
// it found it: a second run of the same migration gives the same result.
func TestNewSetsDefaults(t *testing.T) {
	values := fixture(t, "values/values.yaml")
	m := newMigrate(t, migrate.Options{Values: values, RepoIndex: index})
	first, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if first.Chart != migrate.DefaultChart || first.Version != "4.1.4" {
		t.Errorf("chart %q version %q, want %s 4.1.4", first.Chart, first.Version, migrate.DefaultChart)
	}
	cmds := strings.Join(first.Commands, "\n")
	if want := "helm repo add " + migrate.DefaultNewRepoName + " " + migrate.DefaultNewRepoURL; !strings.Contains(cmds, want) {
		t.Errorf("commands lack %q:\n%s", want, cmds)
	}
	second, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if first.Diff() != second.Diff() || strings.Join(second.Commands, "\n") != cmds || strings.Join(first.Notes, "\n") != strings.Join(second.Notes, "\n") {
		t.Errorf("a second run differs:\n%s\n%v\nthen\n%s\n%v", first.Diff(), first.Commands, second.Diff(), second.Commands)
	}

	renamed := newMigrate(t, migrate.Options{Values: values, RepoIndex: index, NewChart: "platform", NewRepoName: "ours"})
	if _, err := renamed.Run(context.Background()); err == nil || !strings.Contains(err.Error(), `"platform"`) {
		t.Errorf("a chart the index lacks: %v", err)
	}
}

// The repository client given in the options reads the index: its cache
// answers once the repository is down, where a client without one fails.
func TestInjectedClient(t *testing.T) {
	srv := repotest.Serve(t, "testdata/repo")
	values := fixture(t, "values/values.yaml")
	client, err := chartrepo.New(chartrepo.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	cached := newMigrate(t, migrate.Options{Values: values, RepoIndex: srv.URL, Client: client})
	uncached := newMigrate(t, migrate.Options{Values: values, RepoIndex: srv.URL})
	for _, m := range []*migrate.Migrate{cached, uncached} {
		if res, err := m.Run(context.Background()); err != nil || res.Version != "4.1.4" {
			t.Fatalf("repository up: %v", err)
		}
	}
	srv.Close()
	res, err := cached.Run(context.Background())
	if err != nil || res.Version != "4.1.4" {
		t.Errorf("repository down, with the client's cache: %v", err)
	}
	if _, err := uncached.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "--repo-index") {
		t.Errorf("repository down, without a cache: %v", err)
	}
}

// The run's context reaches the request for the index: a cancelled run
// stops instead of waiting for a server that does not answer.
func TestRunContextReachesTheRepository(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := newMigrate(t, migrate.Options{Values: fixture(t, "values/values.yaml"), RepoIndex: srv.URL})
	_, err := m.Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want the cancellation, got %v", err)
	}
}
