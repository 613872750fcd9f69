package release_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/publish/release"
	"github.com/catalogist/catalogist/internal/testkit/githubtest"
)

const token = "ghs_0123456789abcdefTOKEN"

// sleeps records the waits a Publisher asks for instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.d)
}

var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// publisher makes a Publisher for the server's repository, with github.com's
// addresses, reached through the server's client.
func publisher(t *testing.T, s *githubtest.Server, cfg release.Config) (*release.Publisher, *sleeps, *bytes.Buffer) {
	t.Helper()
	sl := &sleeps{}
	var log bytes.Buffer
	cfg.Owner, cfg.Repo, cfg.Token = s.Owner, s.Repo, token
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = s.Client()
	}
	cfg.Sleep, cfg.Log = sl.sleep, &log
	cfg.Now = func() time.Time { return now }
	p, err := release.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, sl, &log
}

// chart writes a package and returns the chart version releasing it.
func chart(t *testing.T, dir, name, version, content string) release.Chart {
	t.Helper()
	chartDir := filepath.Join(dir, name)
	if err := os.MkdirAll(chartDir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name+"-"+version+".tgz")
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return release.Chart{Name: name, Version: version, File: file, Digest: chartrepo.FileDigest(file), Dir: chartDir,
		Description: "The " + name + " chart."}
}

func sameRequests(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: requests\n  %s\nwant\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestPublishCreatesThenSkips(t *testing.T) {
	s := githubtest.Serve(t, "example-org", "catalog", token)
	dir := t.TempDir()
	jupyter := chart(t, dir, "jupyter", "1.0.0", "jupyter package")
	jupyter.Annotations = map[string]string{"artifacthub.io/changes": "- kind: added\n  description: GPU selection\n  links:\n    - name: PR 12\n      url: https://github.com/example-org/catalog/pull/12\n- kind: fixed\n  description: Ingress path\n"}
	vscode := chart(t, dir, "vscode", "2.0.0-rc.1", "vscode package")
	os.WriteFile(filepath.Join(vscode.Dir, "CHANGELOG.md"), []byte("# Changelog\n\n## [2.0.0-rc.1] - 2026-04-30\n\n### Changed\n\n- code-server 5\n\n## [1.9.0]\n\n- older\n"), 0o644)
	// A malformed annotation is passed over for the next source.
	vscode.Annotations = map[string]string{"artifacthub.io/changes": "kind: added"}
	redis := chart(t, dir, "redis", "0.1.0", "redis package")
	charts := []release.Chart{jupyter, vscode, redis}

	p, sl, _ := publisher(t, s, release.Config{Target: "0123abc"})
	outs, err := p.Run(t.Context(), charts)
	if err != nil {
		t.Fatal(err)
	}
	api, up := "api.github.com/repos/example-org/catalog/releases", "uploads.github.com/repos/example-org/catalog/releases"
	sameRequests(t, "first run", s.Requests(), []string{
		"GET " + api + "/tags/jupyter-1.0.0",
		"GET " + api + "/tags/vscode-2.0.0-rc.1",
		"GET " + api + "/tags/redis-0.1.0",
		"POST " + api,
		"POST " + up + "/1/assets?name=jupyter-1.0.0.tgz",
		"POST " + api,
		"POST " + up + "/3/assets?name=vscode-2.0.0-rc.1.tgz",
		"POST " + api,
		"POST " + up + "/5/assets?name=redis-0.1.0.tgz",
	})
	if len(sl.got()) != 0 {
		t.Errorf("waited %v without a reason", sl.got())
	}
	rels := s.Releases()
	if len(rels) != 3 {
		t.Fatalf("%d releases made, want 3", len(rels))
	}
	wantBodies := []string{
		"- **Added**: GPU selection ([PR 12](<https://github.com/example-org/catalog/pull/12>))\n- **Fixed**: Ingress path\n",
		"### Changed\n\n- code-server 5\n",
		"The redis chart.",
	}
	for i, r := range rels {
		c := charts[i]
		if r.Tag != c.Name+"-"+c.Version || r.Name != r.Tag {
			t.Errorf("release %d: tag %q, name %q", i, r.Tag, r.Name)
		}
		if r.Body != wantBodies[i] {
			t.Errorf("%s: body %q, want %q", r.Tag, r.Body, wantBodies[i])
		}
		if r.Prerelease != (c.Name == "vscode") || r.MakeLatest != "false" || r.Target != "0123abc" || r.Draft {
			t.Errorf("%s: prerelease %v, make_latest %q, target %q, draft %v", r.Tag, r.Prerelease, r.MakeLatest, r.Target, r.Draft)
		}
		want, _ := os.ReadFile(c.File)
		if len(r.Assets) != 1 || r.Assets[0].Name != filepath.Base(c.File) || !bytes.Equal(r.Assets[0].Data, want) || r.Assets[0].ContentType != "application/gzip" {
			t.Errorf("%s: assets %+v", r.Tag, r.Assets)
		}
		o := outs[i]
		wantAsset := "https://github.com/example-org/catalog/releases/download/" + r.Tag + "/" + filepath.Base(c.File)
		if o.Status != release.Created || o.Tag != r.Tag || o.AssetURL != wantAsset || o.ReleaseURL != "https://github.com/example-org/catalog/releases/tag/"+r.Tag {
			t.Errorf("outcome %+v", o)
		}
		if got := p.AssetURL(r.Tag, filepath.Base(c.File)); got != wantAsset {
			t.Errorf("AssetURL %q, GitHub serves it at %q", got, wantAsset)
		}
	}

	// Everything is released: a second run only reads.
	outs, err = p.Run(t.Context(), charts)
	if err != nil {
		t.Fatal(err)
	}
	sameRequests(t, "second run", s.Requests(), []string{
		"GET " + api + "/tags/jupyter-1.0.0",
		"GET " + api + "/tags/vscode-2.0.0-rc.1",
		"GET " + api + "/tags/redis-0.1.0",
	})
	for _, o := range outs {
		if o.Status != release.Skipped || o.AssetURL == "" || o.ReleaseURL == "" {
			t.Errorf("second run: %+v", o)
		}
	}

	// --make-latest marks the new release only.
	p, _, _ = publisher(t, s, release.Config{MakeLatest: true})
	mlflow := chart(t, dir, "mlflow", "3.1.0", "mlflow package")
	if _, err := p.Run(t.Context(), append(charts, mlflow)); err != nil {
		t.Fatal(err)
	}
	s.Requests()
	rels = s.Releases()
	if last := rels[len(rels)-1]; last.Tag != "mlflow-3.1.0" || last.MakeLatest != "true" || last.Target != "" {
		t.Errorf("with MakeLatest: %s make_latest %q target %q", last.Tag, last.MakeLatest, last.Target)
	}
}

func TestChangedPackageIsRefused(t *testing.T) {
	for _, noDigest := range []bool{false, true} {
		t.Run(map[bool]string{false: "digest listed", true: "digest downloaded"}[noDigest], func(t *testing.T) {
			s := githubtest.Serve(t, "o", "r", token)
			s.NoDigest = noDigest
			dir := t.TempDir()
			s.AddRelease("redis-1.0.0", map[string][]byte{"redis-1.0.0.tgz": []byte("the released package")})
			s.AddRelease("kafka-2.0.0", map[string][]byte{"kafka-2.0.0.tgz": []byte("kafka")})
			redis := chart(t, dir, "redis", "1.0.0", "another package, same version")
			kafka := chart(t, dir, "kafka", "2.0.0", "kafka")
			fresh := chart(t, dir, "fresh", "0.1.0", "a new chart")
			p, _, _ := publisher(t, s, release.Config{})
			outs, err := p.Run(t.Context(), []release.Chart{fresh, redis, kafka})
			var ce *release.ConflictError
			if !errors.As(err, &ce) || len(outs) != 0 {
				t.Fatalf("want a conflict and nothing done, got %v, %+v", err, outs)
			}
			msg := err.Error()
			for _, want := range []string{filepath.Join(redis.Dir, "Chart.yaml") + ": ", `"redis"`, "1.0.0", "redis-1.0.0", "sha256:" + chartrepo.FileDigest(redis.File), ce.Released, "bump version in this Chart.yaml"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the refusal %q does not say %q", msg, want)
				}
			}
			api := "api.github.com/repos/o/r/releases"
			want := []string{"GET " + api + "/tags/fresh-0.1.0", "GET " + api + "/tags/redis-1.0.0"}
			if noDigest {
				want = append(want, "GET "+api+"/assets/2", "GET 127.0.0.1"+strings.TrimPrefix(s.URL, "http://127.0.0.1")+"/storage/2")
			}
			want = append(want, "GET "+api+"/tags/kafka-2.0.0")
			if noDigest {
				want = append(want, "GET "+api+"/assets/4", "GET 127.0.0.1"+strings.TrimPrefix(s.URL, "http://127.0.0.1")+"/storage/4")
			}
			sameRequests(t, "refused run", s.Requests(), want)
			if len(s.Releases()) != 2 {
				t.Errorf("a refused run made a release")
			}
		})
	}
}

func TestHalfUploadedAssets(t *testing.T) {
	s := githubtest.Serve(t, "o", "r", token)
	dir := t.TempDir()
	api, up := "api.github.com/repos/o/r/releases", "uploads.github.com/repos/o/r/releases"

	// The upload fails midway with a 502, leaving a partial asset: it is
	// deleted before the upload is tried again, after Retry-After.
	s.Fail(githubtest.Fault{Method: "POST", Path: "/repos/o/r/releases/1/assets", Status: 502, Header: map[string]string{"Retry-After": "3"}, Body: `{"message":"Bad Gateway"}`, Partial: true})
	a := chart(t, dir, "a", "1.0.0", "package a, whole")
	p, sl, log := publisher(t, s, release.Config{})
	outs, err := p.Run(t.Context(), []release.Chart{a})
	if err != nil {
		t.Fatal(err)
	}
	sameRequests(t, "upload retried", s.Requests(), []string{
		"GET " + api + "/tags/a-1.0.0",
		"POST " + api,
		"POST " + up + "/1/assets?name=a-1.0.0.tgz",
		"GET " + api + "/1/assets?per_page=100",
		"DELETE " + api + "/assets/2",
		"POST " + up + "/1/assets?name=a-1.0.0.tgz",
	})
	if got := sl.got(); !slices.Equal(got, []time.Duration{3 * time.Second}) {
		t.Errorf("waits %v, want the 3 s of Retry-After", got)
	}
	rel := s.Releases()[0]
	if len(rel.Assets) != 1 || string(rel.Assets[0].Data) != "package a, whole" || outs[0].Status != release.Created {
		t.Errorf("after the retry: %+v, outcome %+v", rel.Assets, outs[0])
	}
	if !strings.Contains(log.String(), "502") || !strings.Contains(log.String(), "deleting the half-uploaded a-1.0.0.tgz") {
		t.Errorf("the log does not say what happened:\n%s", log)
	}

	// A run that stopped midway left a release without its asset, or
	// with a partial one: the asset is added, the partial one deleted
	// first.
	s.AddRelease("b-1.0.0", nil)
	s.AddRelease("c-1.0.0", nil)
	s.AddPartial("c-1.0.0", "c-1.0.0.tgz", []byte("c, the beginn"))
	outs, err = p.Run(t.Context(), []release.Chart{chart(t, dir, "b", "1.0.0", "b"), chart(t, dir, "c", "1.0.0", "c, the beginning and the end")})
	if err != nil {
		t.Fatal(err)
	}
	sameRequests(t, "completing releases", s.Requests(), []string{
		"GET " + api + "/tags/b-1.0.0",
		"GET " + api + "/tags/c-1.0.0",
		"POST " + up + "/4/assets?name=b-1.0.0.tgz",
		"DELETE " + api + "/assets/6",
		"POST " + up + "/5/assets?name=c-1.0.0.tgz",
	})
	for _, o := range outs {
		if o.Status != release.Uploaded || o.AssetURL == "" {
			t.Errorf("completed release: %+v", o)
		}
	}
	for _, r := range s.Releases()[1:] {
		if len(r.Assets) != 1 || r.Assets[0].State != "uploaded" || !strings.HasPrefix(string(r.Assets[0].Data), r.Tag[:1]) {
			t.Errorf("%s holds %+v", r.Tag, r.Assets)
		}
	}
}

func TestNotes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "changelog.md"), []byte("## 1.0.0\n\n- first\n"), 0o644)
	for _, tc := range []struct {
		name string
		c    release.Chart
		want string
	}{
		{"changes first", release.Chart{Version: "1.0.0", Dir: dir, Description: "d", Annotations: map[string]string{"artifacthub.io/changes": "- one\n"}}, "- one\n"},
		{"then the changelog, whatever its case", release.Chart{Version: "1.0.0", Dir: dir, Description: "d"}, "- first\n"},
		{"then the description", release.Chart{Version: "2.0.0", Dir: dir, Description: "  d  "}, "d"},
		{"empty changes", release.Chart{Version: "9", Description: "d", Annotations: map[string]string{"artifacthub.io/changes": "[]"}}, "d"},
	} {
		if got := release.Notes(tc.c); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// GitHub takes 125,000 characters at most: a longer body is cut at a
	// line's end, and says so.
	long := strings.Repeat("é line of the changelog\n", 10000)
	got := release.Notes(release.Chart{Version: "1", Description: long})
	if n := len([]rune(got)); n > 125000 || n < 120000 || !strings.HasSuffix(got, "line of the changelog\n\n(cut: see the chart's changelog)\n") {
		t.Errorf("a long body became %d characters ending %q", n, got[len(got)-60:])
	}
}
