package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/testkit/syncbuf"
)

// serveProcess is `catalogist serve` running.
type serveProcess struct {
	cmd    *exec.Cmd
	url    string
	stderr *syncbuf.Buffer
	done   chan struct{}
	err    error
}

var servingLine = regexp.MustCompile(`^serving .* at (http://\S+) \(Ctrl-C to stop\)$`)

// startServe runs catalogist serve and waits for the address it serves
// at.
func startServe(t *testing.T, args ...string) *serveProcess {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=", "CI=")
	p := &serveProcess{cmd: cmd, stderr: &syncbuf.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		io.Copy(io.Discard, stdout)
		p.err = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	select {
	case p.url = <-urls:
	case <-p.done:
		t.Fatalf("serve ended before serving (%v):\n%s", p.err, p.stderr)
	case <-time.After(2 * time.Minute):
		t.Fatalf("serve is not serving after 2 minutes:\n%s", p.stderr)
	}
	return p
}

// interrupt sends Ctrl-C's signal and waits for the process to end.
func (p *serveProcess) interrupt(t *testing.T) int {
	t.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		t.Fatalf("serve did not stop on interrupt:\n%s", p.stderr)
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	if p.err != nil {
		t.Fatal(p.err)
	}
	return 0
}

// tempDir is the directory serve says it builds into.
func (p *serveProcess) tempDir(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^building .* into (\S+)$`).FindStringSubmatch(p.stderr.String())
	if m == nil {
		t.Fatalf("serve does not say where it builds:\n%s", p.stderr)
	}
	return filepath.Dir(m[1])
}

func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func copyExample(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// serve takes build's flags but --out and --no-wait, and listens on
// loopback unless told otherwise.
func TestServeFlags(t *testing.T) {
	r := catalogist(t, nil, "serve", "--help")
	if r.code != 0 {
		t.Fatalf("serve --help: exit %d\n%s", r.code, r.stderr)
	}
	if !regexp.MustCompile(`--addr string +.*\(default "127\.0\.0\.1:8080"\)`).MatchString(r.stdout) {
		t.Errorf("--addr does not default to 127.0.0.1:8080:\n%s", r.stdout)
	}
	for _, flag := range []string{"--base-url", "--merge", "--merge-optional", "--prune", "--region", "--region-id", "--templates", "--index-format", "--extension-key", "--platform", "--schema-registry", "--cache-dir", "--format", "--verbose"} {
		if !strings.Contains(r.stdout, flag+" ") {
			t.Errorf("serve lacks build's %s:\n%s", flag, r.stdout)
		}
	}
	for _, flag := range []string{"--out", "--no-wait"} {
		if strings.Contains(r.stdout, flag+" ") {
			t.Errorf("serve has %s, which only build needs", flag)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--prune"}, "--prune needs --merge"},
		{[]string{"--format", "xml"}, `unknown format "xml"`},
		{[]string{"--region-id", "x"}, "--region-id needs --region"},
		{[]string{filepath.Join(t.TempDir(), "none")}, "none"},
	} {
		r := catalogist(t, nil, append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("serve %q: exit %d, want 2 and %q:\n%s", tc.args, r.code, tc.want, r.stderr)
		}
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	r = catalogist(t, nil, "serve", "../../examples/ide", "--addr", busy.Addr().String())
	if r.code != 2 || !strings.Contains(r.stderr, "listening on "+busy.Addr().String()) {
		t.Errorf("an address in use: exit %d:\n%s", r.code, r.stderr)
	}
}

// serve serves the built site on loopback with the live script, and Ctrl-C
// stops it and removes what it built.
func TestServeUntilInterrupted(t *testing.T) {
	p := startServe(t, copyExample(t, "ide"), "--addr", "127.0.0.1:0", "-v")
	if !strings.HasPrefix(p.url, "http://127.0.0.1:") {
		t.Errorf("serving at %s", p.url)
	}
	tmp := p.tempDir(t)
	if _, err := os.Stat(filepath.Join(tmp, "site", "index.yaml")); err != nil {
		t.Errorf("the site is not built in %s: %v", tmp, err)
	}
	for _, page := range []string{"", "charts/vscode-python/", "charts/jupyter-pytorch-gpu/"} {
		code, body := fetch(t, p.url+page)
		if code != 200 || !strings.Contains(body, `<script src="/__catalogist/live.js"`) {
			t.Errorf("/%s: %d, with the live script: %v", page, code, strings.Contains(body, "live.js"))
		}
	}
	code, body := fetch(t, p.url+"__catalogist/status")
	var st struct {
		OK     bool                       `json:"ok"`
		Charts map[string]json.RawMessage `json:"charts"`
	}
	if err := json.Unmarshal([]byte(body), &st); code != 200 || err != nil || !st.OK {
		t.Errorf("status: %d %v %s", code, err, body)
	}
	if !strings.Contains(p.stderr.String(), "built 2 chart(s)") || !strings.Contains(p.stderr.String(), " ms\n") {
		t.Errorf("the build and its steps (-v) are not printed:\n%s", p.stderr)
	}
	if code := p.interrupt(t); code != 0 {
		t.Errorf("exit %d after Ctrl-C:\n%s", code, p.stderr)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the temporary directory %s is left after Ctrl-C: %v", tmp, err)
	}
	if strings.Contains(p.stderr.String(), "panic") {
		t.Errorf("serve panicked:\n%s", p.stderr)
	}
}

// Credentials in an address (--base-url, --merge) are never printed, nor
// served in the status.
func TestServeHidesCredentials(t *testing.T) {
	srv := http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	merge := "http://alice:s3cret@" + ln.Addr().String() + "/fail/"
	p := startServe(t, copyExample(t, "ide"), "--addr", "127.0.0.1:0", "--base-url", "https://bob:t0ken@example.org/ide", "--merge", merge)
	code, body := fetch(t, p.url+"__catalogist/status")
	if code != 200 || !strings.Contains(body, `"ok":false`) || !strings.Contains(body, "/fail/index.yaml") {
		t.Errorf("status with an unreachable published index: %d %s", code, body)
	}
	if !strings.Contains(p.stderr.String(), "build failed") {
		t.Errorf("the failure is not printed:\n%s", p.stderr)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-p.done
	if p.err != nil {
		t.Errorf("after SIGTERM: %v\n%s", p.err, p.stderr)
	}
	for _, secret := range []string{"s3cret", "t0ken"} {
		if strings.Contains(p.stderr.String()+body, secret) {
			t.Errorf("%s is printed or served:\n%s\n%s", secret, p.stderr, body)
		}
	}
}
