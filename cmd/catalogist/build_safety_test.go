package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/catalogist/catalogist/internal/output/repoindex"
	"github.com/catalogist/catalogist/internal/testkit/gencatalog"
)

// checkComplete fails unless out is a whole output of charts charts: every
// relative URL of its index resolves to a file with the index's digest,
// and the pages and assets are there.
func checkComplete(t *testing.T, out string, charts int) {
	t.Helper()
	idx, err := repoindex.Load(filepath.Join(out, "index.yaml"))
	if err != nil {
		t.Fatalf("the output's index: %v", err)
	}
	if len(idx.Entries) != charts {
		t.Errorf("the index lists %d charts, want %d", len(idx.Entries), charts)
	}
	for name, cvs := range idx.Entries {
		for _, cv := range cvs {
			if u, err := url.Parse(cv.URLs[0]); err != nil || u.IsAbs() {
				continue
			}
			data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(path.Clean(cv.URLs[0]))))
			if err != nil {
				t.Errorf("%s %s: %v", name, cv.Version, err)
				continue
			}
			if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != cv.Digest {
				t.Errorf("%s %s: %s does not have the index's digest", name, cv.Version, cv.URLs[0])
			}
		}
		if _, err := os.Stat(filepath.Join(out, "charts", name, "index.html")); err != nil {
			t.Errorf("page of %s: %v", name, err)
		}
	}
	for _, f := range []string{"index.html", "assets/style.css", "assets/catalog.js"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the output lacks %s: %v", f, err)
		}
	}
}

// process is a catalogist process running in the background.
type process struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer
	done     chan struct{}
	code     int
}

func background(t *testing.T, args ...string) *process {
	t.Helper()
	r := &process{cmd: exec.Command(binary, args...), done: make(chan struct{})}
	r.cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=", "CI=")
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.err
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(r.done)
		err := r.cmd.Wait()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			r.code = ee.ExitCode()
		} else if err != nil {
			r.code = -1
		}
	}()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
	})
	return r
}

func (r *process) wait() *process {
	<-r.done
	return r
}

// TestConcurrentBuilds runs two builds of a 100-chart catalog into the same
// output at once, round after round: each must end in a whole output with
// exit status 0, or fail with a message; the output must be whole after
// each round.
func TestConcurrentBuilds(t *testing.T) {
	const charts = 100
	cat := filepath.Join(t.TempDir(), "catalog")
	if err := gencatalog.Write(cat, charts); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	for round := range 4 {
		if round > 0 {
			values := filepath.Join(cat, "charts", gencatalog.ChartName(round), "values.yaml")
			f, err := os.OpenFile(values, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "# round %d\n", round)
			f.Close()
		}
		a := background(t, "build", cat, "--out", out)
		b := background(t, "build", cat, "--out", out)
		for _, r := range []*process{a.wait(), b.wait()} {
			switch {
			case strings.Contains(r.err.String(), "panic"):
				t.Fatalf("round %d: a build panicked:\n%s", round, r.err.String())
			case r.code == 0 && !strings.Contains(r.out.String(), fmt.Sprintf("built %d chart(s)", charts)):
				t.Errorf("round %d: exit 0 without saying what was built:\n%s%s", round, r.out.String(), r.err.String())
			case r.code != 0 && !strings.HasPrefix(r.err.String(), "catalogist: "):
				t.Errorf("round %d: exit %d without a message:\n%s%s", round, r.code, r.out.String(), r.err.String())
			case r.code != 0:
				// The lock makes the second build wait: neither should fail.
				t.Errorf("round %d: exit %d:\n%s", round, r.code, r.err.String())
			}
		}
		checkComplete(t, out, charts)
		if t.Failed() {
			t.FailNow()
		}
	}
	staged, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".catalogist-stage-*"))
	if len(staged) != 0 {
		t.Errorf("staging directories left: %v", staged)
	}
}

// TestBuildLock holds a build in its merge step (the published index's
// server answers only when told), with the output's lock: a build with
// --no-wait fails naming the holder, one without says it waits and builds
// once the first has finished.
func TestBuildLock(t *testing.T) {
	requested, release := make(chan struct{}), make(chan struct{})
	var once, released sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() {
			close(requested)
			<-release
		})
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { released.Do(func() { close(release) }) })

	out := filepath.Join(t.TempDir(), "site")
	lock := filepath.Join(filepath.Dir(out), ".catalogist-lock-site")
	a := background(t, "build", "../../examples/ide", "--out", out, "--merge", srv.URL+"/", "--merge-optional")
	select {
	case <-requested:
	case <-a.done:
		t.Fatalf("the first build ended (exit %d) before fetching the published index:\n%s", a.code, a.err.String())
	}
	holder := "(pid " + strconv.Itoa(a.cmd.Process.Pid) + ")"

	r := catalogist(t, nil, "build", "../../examples/ide", "--out", out, "--no-wait")
	want := "another build into " + out + " is running (pid " + strconv.Itoa(a.cmd.Process.Pid) + ", holding " + lock + ")"
	if r.code != 3 || !strings.Contains(r.stderr, want) {
		t.Errorf("--no-wait beside a running build: exit %d, want 3 and %q:\n%s", r.code, want, r.stderr)
	}

	c := exec.Command(binary, "build", "../../examples/ide", "--out", out)
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var cOut bytes.Buffer
	c.Stdout = &cOut
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill() })
	lines := bufio.NewReader(stderr)
	line, err := lines.ReadString('\n')
	if want := "waiting for the build into " + out + " " + holder + " to finish: it holds " + lock + "\n"; line != want {
		t.Errorf("the waiting build says %q (%v), want %q", line, err, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output exists while the first build holds the lock: %v", err)
	}

	released.Do(func() { close(release) })
	if a.wait(); a.code != 0 || !strings.Contains(a.err.String(), "no published index at "+srv.URL+"/ yet") {
		t.Errorf("the first build: exit %d\n%s%s", a.code, a.out.String(), a.err.String())
	}
	rest, _ := lines.ReadString(0)
	if err := c.Wait(); err != nil || !strings.Contains(cOut.String(), "built 2 chart(s)") {
		t.Errorf("the build that waited: %v\n%s%s", err, cOut.String(), rest)
	}
	checkComplete(t, out, 2)
}

// TestMergePublishedIndex merges published indexes a loopback server
// serves: a bad one, a failing server, none yet.
func TestMergePublishedIndex(t *testing.T) {
	const dup = `apiVersion: v1
entries:
  old-chart:
  - name: old-chart
    version: 1.0.0
    digest: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
    urls: [https://example.org/old-chart-1.0.0.tgz]
  - name: old-chart
    version: 1.0.0
    digest: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
    urls: [https://example.org/old-chart-1.0.0.tgz]
`
	mux := http.NewServeMux()
	mux.HandleFunc("/dup/index.yaml", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(dup)) })
	mux.HandleFunc("/fail/index.yaml", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusInternalServerError) })
	mux.HandleFunc("/gone/index.yaml", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "gone", http.StatusGone) })
	mux.HandleFunc("/closed/index.yaml", func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	withCredentials := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1)

	local := t.TempDir()
	notDir := filepath.Join(local, "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		merge string
		args  []string
		code  int
		want  []string
	}{
		{"listed twice", srv.URL + "/dup/", nil, 1, []string{
			srv.URL + "/dup/index.yaml:4 and line 8", `chart "old-chart" version 1.0.0 is listed twice`,
			"sha256:aaaaaaaa", "sha256:bbbbbbbb"}},
		{"server error", srv.URL + "/fail/", nil, 3, []string{srv.URL + "/fail/index.yaml", "500 Internal Server Error", "does not go on without it"}},
		{"server error, optional", srv.URL + "/fail/", []string{"--merge-optional"}, 3, []string{"500 Internal Server Error"}},
		{"closed connection", srv.URL + "/closed/", []string{"--merge-optional"}, 3, []string{srv.URL + "/closed/index.yaml"}},
		{"not found", srv.URL + "/missing/", nil, 2, []string{"404 Not Found", "add --merge-optional"}},
		{"not found, optional", srv.URL + "/missing/", []string{"--merge-optional"}, 0, []string{"no published index at " + srv.URL + "/missing/ yet"}},
		{"gone, optional", srv.URL + "/gone/", []string{"--merge-optional"}, 0, []string{"no published index at " + srv.URL + "/gone/ yet"}},
		{"credentials", withCredentials + "/fail/", nil, 3, []string{"/fail/index.yaml", "500"}},
		{"no such file, optional", filepath.Join(local, "none", "index.yaml"), []string{"--merge-optional"}, 0, []string{"no published index at"}},
		{"not a directory, optional", filepath.Join(notDir, "index.yaml"), []string{"--merge-optional"}, 2, []string{"not a directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "site")
			r := catalogist(t, nil, append([]string{"build", "../../examples/ide", "--out", out, "--merge", tc.merge}, tc.args...)...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d:\n%s%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if strings.Contains(r.stdout+r.stderr, "s3cret") {
				t.Errorf("the password is printed:\n%s%s", r.stdout, r.stderr)
			}
			if tc.code == 0 {
				checkComplete(t, out, 2)
			} else if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused build wrote its output: %v", err)
			}
		})
	}
	r := catalogist(t, nil, "build", "../../examples/ide", "--out", filepath.Join(t.TempDir(), "site"), "--merge-optional")
	if r.code != 2 || !strings.Contains(r.stderr, "--merge-optional needs --merge") {
		t.Errorf("--merge-optional alone: exit %d\n%s", r.code, r.stderr)
	}
}

// A published index that cannot be read for lack of permission is not a
// missing one.
func TestMergeOptionalRefusesUnreadable(t *testing.T) {
	top := t.TempDir()
	run := unprivileged(t, top)
	cat := filepath.Join(top, "catalog")
	if err := os.CopyFS(cat, os.DirFS("../../examples/ide")); err != nil {
		t.Fatal(err)
	}
	if err := filepath.WalkDir(cat, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	}); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(top, "index.yaml")
	if err := os.WriteFile(index, []byte("apiVersion: v1\nentries: {}\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	r := run("build", cat, "--out", filepath.Join(top, "site"), "--merge", index, "--merge-optional")
	if r.code != 2 || !strings.Contains(r.stderr, "permission denied") {
		t.Errorf("an unreadable published index: exit %d\n%s", r.code, r.stderr)
	}
}
