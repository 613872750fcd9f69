package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// closedURL is an address nothing answers on: a port just released.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}

// Every command ends with a code of docs/exit-codes.md's table, and says
// so in its help.
func TestExitCodes(t *testing.T) {
	work := t.TempDir()
	flawed := filepath.Join(work, "flawed")
	filetree.Write(t, flawed, map[string]string{
		"catalog.yaml":                  "name: c\n",
		"charts/app/Chart.yaml":         "apiVersion: v2\nname: app\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
		"charts/app/values.schema.json": `{"type": "object", "properties": {"port": {"title": "Port", "default": 80}}}`,
		"charts/app/values.yaml":        "port: 80\n",
		"charts/app/README.md":          "# app\n\n<!-- catalogist:options:begin -->\n<!-- catalogist:options:end -->\n",
	})
	// A form vector whose form crashes.
	unopened := "../../testdata/form/crash-min-items/values.schema.json"
	down := closedURL(t)
	catalogs := filepath.Join(work, "catalogs.yaml")
	os.WriteFile(catalogs, []byte("catalogs:\n  - {id: gone, name: Gone, location: "+down+"}\n"), 0o644)
	ide := "../../examples/ide"
	// A GitHub API that refuses every request at once: an unreachable one
	// would be retried for seconds.
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		w.Write([]byte(`{"message": "Validation Failed"}`))
	}))
	t.Cleanup(refusing.Close)

	for _, c := range []struct {
		name string
		args []string
		want int
	}{
		{"lint, clean", []string{"lint", ide}, action.ExitOK},
		{"lint, findings", []string{"lint", flawed}, action.ExitRefused},
		{"lint, an unknown flag", []string{"lint", "--nope", ide}, action.ExitUsage},
		{"lint, nothing there", []string{"lint", filepath.Join(work, "none")}, action.ExitUsage},
		{"lint, the published index unreachable", []string{"lint", "--published", down, ide}, action.ExitFailed},
		{"build, refused by lint", []string{"build", "--out", filepath.Join(work, "o1"), flawed}, action.ExitRefused},
		{"build, without --out", []string{"build", ide}, action.ExitUsage},
		{"build, the published index unreachable", []string{"build", "--out", filepath.Join(work, "o2"), "--merge", down, ide}, action.ExitFailed},
		{"publish, no repository", []string{"publish", "--out", filepath.Join(work, "o3"), "--repo", "o", ide}, action.ExitUsage},
		{"publish, GitHub refusing", []string{"publish", "--out", filepath.Join(work, "o4"), "--repo", "o/r", "--api-url", refusing.URL,
			"--merge", filepath.Join(work, "index.yaml"), "--merge-optional", ide}, action.ExitFailed},
		{"form, opens", []string{"form", ide + "/charts/vscode-python"}, action.ExitOK},
		{"form, does not open", []string{"form", unopened}, action.ExitRefused},
		{"form, no chart", []string{"form", filepath.Join(work, "none")}, action.ExitUsage},
		{"docs, out of date", []string{"docs", "--check", flawed}, action.ExitRefused},
		{"docs, an unknown platform", []string{"docs", "--check", "--platform", "kubeflow", flawed}, action.ExitUsage},
		{"launch, no chart named", []string{"launch"}, action.ExitUsage},
		{"launch, the repository unreachable", []string{"launch", "--dry-run", "--repo", down, "app"}, action.ExitFailed},
		{"catalogs, none reachable", []string{"catalogs", "--catalogs", catalogs, "--cache-dir", filepath.Join(work, "cache")}, action.ExitFailed},
		{"migrate, nothing to migrate", []string{"migrate"}, action.ExitUsage},
		{"an unknown command", []string{"deploy"}, action.ExitUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := []string{"GITHUB_TOKEN=ghs_exitTESTtoken", "XDG_CACHE_HOME=" + filepath.Join(work, "xdg")}
			if r := catalogist(t, env, c.args...); r.code != c.want {
				t.Errorf("catalogist %s: exit %d, want %d\n%s%s", strings.Join(c.args, " "), r.code, c.want, r.stdout, r.stderr)
			}
		})
	}

	for _, cmd := range []string{"lint", "build", "publish", "form", "docs", "launch", "migrate", "new", "serve"} {
		if r := catalogist(t, nil, cmd, "--help"); !strings.Contains(r.stdout, "Exit status (docs/exit-codes.md):") {
			t.Errorf("catalogist %s --help does not point to docs/exit-codes.md:\n%s", cmd, r.stdout)
		}
	}
}
