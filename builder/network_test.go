package builder_test

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// hanging serves requests that never get an answer; the returned channel
// receives once a request has arrived.
func hanging(t *testing.T) (string, <-chan struct{}) {
	t.Helper()
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL, arrived
}

// The caller's context reaches the build's network requests: the published
// index and a dependency's repository stop being fetched once it ends.
func TestBuildFollowsTheContext(t *testing.T) {
	t.Run("merge", func(t *testing.T) {
		url, arrived := hanging(t)
		cat := example(t, "ide")
		out := filepath.Join(t.TempDir(), "out")
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			<-arrived
			cancel()
		}()
		_, err := builder.Build(ctx, builder.Options{Catalog: cat, Out: out, Merge: url, Now: at(t1), Log: &bytes.Buffer{}})
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "merge: published index:") {
			t.Fatalf("want the merge cancelled, got %v", err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("a cancelled build wrote its output: %v", err)
		}
	})
	t.Run("dependency", func(t *testing.T) {
		url, arrived := hanging(t)
		cat := t.TempDir()
		writeFile(t, filepath.Join(cat, "charts", "svc", "Chart.yaml"), "apiVersion: v2\nname: svc\nversion: 1.0.0\ndescription: Depends on a remote chart.\nicon: https://example.org/i.svg\ndependencies:\n  - name: common\n    version: ~2.1.0\n    repository: "+url+"\n")
		writeFile(t, filepath.Join(cat, "charts", "svc", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			<-arrived
			cancel()
		}()
		_, err := builder.Build(ctx, builder.Options{Catalog: cat, Out: filepath.Join(t.TempDir(), "out"), CacheDir: t.TempDir(), Now: at(t1), Log: &bytes.Buffer{}})
		// Lint, which renders with the dependency, and packaging wait for
		// the same fetch.
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "lint: ") || !strings.Contains(err.Error(), "dependency common") {
			t.Fatalf("want the dependency's fetch cancelled, got %v", err)
		}
	})
}

// The build fetches with the client it is given: here one trusting the
// certificate of a published repository served over TLS, which the default
// client refuses.
func TestBuildUsesTheGivenClient(t *testing.T) {
	cat := example(t, "ide")
	published := filepath.Join(t.TempDir(), "published")
	build(t, builder.Options{Catalog: cat, Out: published, Now: at(t1)})
	srv := httptest.NewUnstartedServer(http.FileServer(http.Dir(published)))
	// The refused handshake is expected.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)

	out := filepath.Join(t.TempDir(), "out")
	_, err := builder.Build(t.Context(), builder.Options{Catalog: cat, Out: out, Merge: srv.URL, Now: at(t2), Log: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("want the default client to refuse the certificate, got %v", err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	writeFile(t, ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	client, err := chartrepo.New(chartrepo.Options{CAFile: ca})
	if err != nil {
		t.Fatal(err)
	}
	build(t, builder.Options{Catalog: cat, Out: out, Merge: srv.URL, Now: at(t2), Client: client})
	idx := loadIndex(t, out)
	if got := idx.Entries["vscode-python"][0].Created; !got.Equal(t1) {
		t.Errorf("the merged version's date is %v, want the published %v", got, t1)
	}
}
