package devserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/testkit/syncbuf"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// wait bounds every wait on the server: a rebuild of the small catalog
// takes milliseconds, but the race detector and a busy machine slow it.
const wait = 60 * time.Second

const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#369"/></svg>`

// chartFiles are a launchable chart that lints clean, with schema as its
// values.schema.json.
func chartFiles(name, schema string) map[string]string {
	return map[string]string{
		"charts/" + name + "/Chart.yaml":         "apiVersion: v2\nname: " + name + "\ndescription: The " + name + " chart.\nversion: 0.1.0\ntype: application\n",
		"charts/" + name + "/values.yaml":        "replicas: 1\n",
		"charts/" + name + "/values.schema.json": schema,
		"charts/" + name + "/templates/cm.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  replicas: {{ .Values.replicas | quote }}\n",
		"icons/" + name + ".svg":                 icon,
	}
}

const cleanSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "replicas": {
      "type": "integer",
      "description": "Number of replicas",
      "default": 1
    }
  }
}
`

// workersSchema adds an option whose hidden condition names no option: a
// warning (hidden-path), which the build lets through.
const workersSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "replicas": {
      "type": "integer",
      "description": "Number of replicas",
      "default": 1
    },
    "workers": {
      "type": "integer",
      "description": "Worker processes",
      "default": 2,
      "hidden": {"path": "nothere", "value": true}
    }
  }
}
`

// manyWarningsSchema has n options whose hidden condition names no option:
// n warnings.
func manyWarningsSchema(n int) string {
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"w%d": {"type": "integer", "default": %d, "hidden": {"path": "nothere", "value": true}}`, i, i))
	}
	return `{"type": "object", "properties": {` + strings.Join(props, ", ") + "}}\n"
}

// brokenSchema gives an option a type the form does not know: an error,
// which fails the build.
var brokenSchema = strings.Replace(cleanSchema, `"type": "integer"`, `"type": "integr"`, 1)

// lineOf is the line of the first occurrence of s in text.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	i := strings.Index(text, s)
	if i < 0 {
		t.Fatalf("%q not in the text", s)
	}
	return strings.Count(text[:i], "\n") + 1
}

// serve starts a server on the catalog and stops it when the test ends,
// checking that it removes its temporary directory.
func serve(t *testing.T, catalog string, opt Options) (*Server, *syncbuf.Buffer) {
	t.Helper()
	log := &syncbuf.Buffer{}
	opt.Build.Catalog = catalog
	opt.Log = log
	if opt.Addr == "" {
		opt.Addr = "127.0.0.1:0"
	}
	s, err := Start(t.Context(), opt)
	if err != nil {
		t.Fatalf("start: %v\n%s", err, log)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if _, err := os.Stat(s.tmp); !os.IsNotExist(err) {
			t.Errorf("the temporary directory %s is still there after Close: %v", s.tmp, err)
		}
		if t.Failed() {
			t.Logf("server log:\n%s", log)
		}
	})
	return s, log
}

// events reads the server's event stream; each build event arrives on the
// channel.
func events(t *testing.T, s *Server) <-chan buildEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", s.URL()+"__catalogist/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("event stream: %s, %s", resp.Status, ct)
	}
	ch := make(chan buildEvent, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && event == "build":
				var ev buildEvent
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev); err != nil {
					t.Errorf("event data %q: %v", line, err)
					return
				}
				ch <- ev
			case line == "":
				event = ""
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
		<-done
	})
	return ch
}

// next waits for the next build event.
func next(t *testing.T, ch <-chan buildEvent) buildEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return ev
	case <-time.After(wait):
		t.Fatalf("no build event within %s", wait)
	}
	return buildEvent{}
}

// get fetches a path of the server.
func get(t *testing.T, s *Server, path string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(s.URL() + strings.TrimPrefix(path, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func status(t *testing.T, s *Server) Status {
	t.Helper()
	resp, body := get(t, s, "/__catalogist/status")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	var st Status
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("status %s: %v", body, err)
	}
	return st
}

// write writes a file of the catalog.
func write(t *testing.T, catalog, name, content string) {
	t.Helper()
	filetree.Write(t, catalog, map[string]string{name: content})
}

func newCatalog(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "catalog")
	filetree.Write(t, dir, chartFiles("demo", cleanSchema))
	return dir
}

const scriptStart = `<script src="/__catalogist/live.js" data-build="`

// The pages are served with the live script and a policy that lets it
// connect; the files are what build wrote; the rest is served as is.
func TestServesPagesWithLiveScript(t *testing.T) {
	s, _ := serve(t, newCatalog(t), Options{})
	st := status(t, s)
	if !st.OK || !st.Serving || st.Generation != 1 || len(st.Charts) != 0 {
		t.Fatalf("after the first build: %+v", st)
	}
	if u, _ := url.Parse(s.URL()); u.Hostname() != "127.0.0.1" {
		t.Errorf("URL %s", s.URL())
	}
	for _, p := range []string{"/", "/index.html", "/charts/demo/", "/charts/demo/index.html", "/charts/demo"} {
		resp, body := get(t, s, p)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s: %s %s", p, resp.Status, resp.Header.Get("Content-Type"))
			continue
		}
		tag := scriptStart + st.Build + `" defer></script></head>`
		if strings.Count(body, scriptStart) != 1 || !strings.Contains(body, tag) {
			t.Errorf("%s: the page lacks %s once before </head>:\n%s", p, tag, body)
		}
		if !strings.Contains(body, `connect-src 'self'`) || !strings.Contains(body, `script-src 'self'`) {
			t.Errorf("%s: the page's policy does not let the script connect:\n%s", p, body)
		}
		if resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q", p, resp.Header.Get("Cache-Control"))
		}
		file := filepath.Join(s.out, "index.html")
		if strings.HasPrefix(p, "/charts/") {
			file = filepath.Join(s.out, "charts", "demo", "index.html")
		}
		disk, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(disk, []byte("__catalogist")) {
			t.Errorf("%s: the built file holds the live script", file)
		}
		if want := string(inject(disk, st.Build)); body != want {
			t.Errorf("%s: served page is not the built file with the script", p)
		}
	}
	if resp, _ := get(t, s, "/charts/demo"); resp.Request.URL.Path != "/charts/demo/" {
		t.Errorf("/charts/demo was not redirected to /charts/demo/ (relative links need it): %s", resp.Request.URL)
	}
	for _, p := range []string{"/index.yaml", "/demo-0.1.0.tgz"} {
		resp, body := get(t, s, p)
		disk, err := os.ReadFile(filepath.Join(s.out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || body != string(disk) {
			t.Errorf("%s: %s, served %d bytes, built %d", p, resp.Status, len(body), len(disk))
		}
	}
	for p, want := range map[string]struct {
		ct   string
		body []byte
	}{
		"/__catalogist/live.js":  {"text/javascript; charset=utf-8", liveJS},
		"/__catalogist/live.css": {"text/css; charset=utf-8", liveCSS},
	} {
		resp, body := get(t, s, p)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != want.ct || body != string(want.body) {
			t.Errorf("%s: %s %s, %d bytes", p, resp.Status, resp.Header.Get("Content-Type"), len(body))
		}
	}
	resp, body := get(t, s, "/charts/gone/")
	if resp.StatusCode != 404 || !strings.Contains(body, scriptStart) {
		t.Errorf("a missing page: %s, without the script that reloads it once built:\n%s", resp.Status, body)
	}
	if resp, _ := get(t, s, "/missing.tgz"); resp.StatusCode != 404 {
		t.Errorf("a missing file: %s", resp.Status)
	}

	// DNS rebinding: a name that is not loopback's is refused.
	req, err := http.NewRequest("GET", s.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "attacker.example:80"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a request for another host name: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	req.Host = "localhost"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("a request for localhost: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// A lint finding made by an edit reaches the status, on its chart, with its
// file and line, and the page changes; fixing it clears it. A lint error
// fails the build: the previous site is still served.
func TestRebuildsOnChangeAndReportsFindings(t *testing.T) {
	cat := newCatalog(t)
	s, log := serve(t, cat, Options{})
	evs := events(t, s)
	first := next(t, evs)
	if !first.OK || first.Build != status(t, s).Build {
		t.Fatalf("first event %+v", first)
	}
	_, page := get(t, s, "/charts/demo/")
	if strings.Contains(page, "workers") {
		t.Fatal("the page shows an option the schema does not have yet")
	}

	// A warning: the build goes through, the page shows the new option.
	write(t, cat, "charts/demo/values.schema.json", workersSchema)
	ev := next(t, evs)
	if !ev.OK || ev.Build == first.Build {
		t.Fatalf("after adding a warning: event %+v", ev)
	}
	st := status(t, s)
	if st.Build != ev.Build || st.Generation != 2 || !slices.Equal(st.Changed, []string{"charts/demo/values.schema.json"}) {
		t.Errorf("status after the edit: %+v", st)
	}
	want := Finding{File: "charts/demo/values.schema.json", Line: lineOf(t, workersSchema, `"nothere"`), Severity: "warning", Rule: "hidden-path", Option: "workers"}
	if got := st.Charts["demo"]; len(got) != 1 || got[0].File != want.File || got[0].Line != want.Line || got[0].Severity != want.Severity || got[0].Rule != want.Rule || got[0].Option != want.Option || !strings.Contains(got[0].Message, "nothere") {
		t.Errorf("findings of demo: %+v, want one like %+v", got, want)
	}
	if _, page := get(t, s, "/charts/demo/"); !strings.Contains(page, "workers") || !strings.Contains(page, scriptStart+ev.Build+`"`) {
		t.Error("the chart page did not change with its schema")
	}
	if !strings.Contains(log.String(), fmt.Sprintf("values.schema.json:%d:", want.Line)) || !strings.Contains(log.String(), "[hidden-path]") {
		t.Errorf("the lint report is not printed:\n%s", log)
	}

	// Fixed: the finding goes.
	write(t, cat, "charts/demo/values.schema.json", strings.Replace(workersSchema, `"hidden": {"path": "nothere", "value": true}`, `"hidden": {"path": "replicas", "value": 0}`, 1))
	ev = next(t, evs)
	if st := status(t, s); !ev.OK || !st.OK || len(st.Charts["demo"]) != 0 {
		t.Errorf("after the fix: event %+v, status %+v", ev, st)
	}

	// An error: the build fails, the last good site stays.
	write(t, cat, "charts/demo/values.schema.json", brokenSchema)
	ev = next(t, evs)
	st = status(t, s)
	if ev.OK || st.OK || !st.Serving || !strings.Contains(st.Error, "lint found") {
		t.Errorf("after an error: event %+v, status %+v", ev, st)
	}
	line := lineOf(t, brokenSchema, `"integr"`)
	found := false
	for _, f := range st.Charts["demo"] {
		found = found || (f.Severity == "error" && f.File == "charts/demo/values.schema.json" && f.Line == line)
	}
	if !found {
		t.Errorf("no error at charts/demo/values.schema.json:%d in %+v", line, st.Charts["demo"])
	}
	if resp, page := get(t, s, "/charts/demo/"); resp.StatusCode != 200 || !strings.Contains(page, "workers") || !strings.Contains(page, scriptStart+ev.Build+`"`) {
		t.Errorf("the last good page is not served after a failed build: %s", resp.Status)
	}
	if !strings.Contains(log.String(), "build failed (still serving the previous build") {
		t.Errorf("the failure is not printed:\n%s", log)
	}

	write(t, cat, "charts/demo/values.schema.json", cleanSchema)
	ev = next(t, evs)
	if st := status(t, s); !ev.OK || !st.OK || len(st.Charts) != 0 {
		t.Errorf("after fixing the error: event %+v, status %+v", ev, st)
	}
	if _, page := get(t, s, "/charts/demo/"); strings.Contains(page, "workers") {
		t.Error("the page still shows the removed option")
	}
}

// Editors' swap files and .git are not changes; a directory created after
// the start is watched with what it holds.
func TestWatchesNewDirectoriesAndIgnoresEditorFiles(t *testing.T) {
	cat := newCatalog(t)
	s, _ := serve(t, cat, Options{})
	evs := events(t, s)
	first := next(t, evs)

	filetree.Write(t, cat, map[string]string{
		"charts/demo/.values.schema.json.swp": "swap",
		"charts/demo/.values.schema.json.swx": "swap",
		"charts/demo/4913":                    "",
		"charts/demo/values.yaml~":            "backup",
		"charts/demo/.#values.yaml":           "lock",
		"charts/demo/#values.yaml#":           "autosave",
		".git/index":                          "git",
	})
	filetree.Write(t, cat, chartFiles("second", cleanSchema))
	ev := next(t, evs)
	st := status(t, s)
	if !ev.OK || st.Generation != 2 {
		t.Fatalf("after adding a chart: event %+v, generation %d (%+v)", ev, st.Generation, st)
	}
	for _, c := range st.Changed {
		if !strings.HasPrefix(c, "charts/second") && c != "icons/second.svg" {
			t.Errorf("%s started a build", c)
		}
	}
	if resp, _ := get(t, s, "/charts/second/"); resp.StatusCode != 200 {
		t.Errorf("the new chart's page: %s", resp.Status)
	}
	if ev.Build == first.Build {
		t.Error("the build did not change")
	}

	// The new chart's directories are watched.
	write(t, cat, "charts/second/values.schema.json", workersSchema)
	next(t, evs)
	st = status(t, s)
	if st.Generation != 3 || !slices.Equal(st.Changed, []string{"charts/second/values.schema.json"}) || len(st.Charts["second"]) != 1 {
		t.Errorf("after editing the new chart: %+v", st)
	}
}

// A build that writes inside the catalog does not start another: the
// output (in the temporary directory, here inside the catalog) is ignored.
func TestIgnoresItsOutputInsideTheCatalog(t *testing.T) {
	cat := newCatalog(t)
	tmp := filepath.Join(cat, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	s, _ := serve(t, cat, Options{})
	if !within(cat, s.out) {
		t.Fatalf("the output %s is not inside the catalog", s.out)
	}
	evs := events(t, s)
	next(t, evs)
	for i, schema := range []string{workersSchema, cleanSchema} {
		write(t, cat, "charts/demo/values.schema.json", schema)
		next(t, evs)
		st := status(t, s)
		if st.Generation != i+2 || !slices.Equal(st.Changed, []string{"charts/demo/values.schema.json"}) {
			t.Fatalf("edit %d: %+v", i+1, st)
		}
	}
}

// A catalog that does not build at the start is served all the same: a page
// that says so, which reloads once it builds.
func TestServesBeforeTheFirstGoodBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "catalog")
	filetree.Write(t, dir, chartFiles("demo", brokenSchema))
	s, log := serve(t, dir, Options{})
	st := status(t, s)
	if st.OK || st.Serving || len(st.Charts["demo"]) == 0 {
		t.Fatalf("status after a failed first build: %+v", st)
	}
	if !strings.Contains(log.String(), "build failed (nothing to serve yet") {
		t.Errorf("log:\n%s", log)
	}
	resp, body := get(t, s, "/")
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, scriptStart+st.Build+`"`) || !strings.Contains(body, "connect-src 'self'") {
		t.Errorf("before any good build: %s\n%s", resp.Status, body)
	}
	evs := events(t, s)
	next(t, evs)
	write(t, dir, "charts/demo/values.schema.json", cleanSchema)
	if ev := next(t, evs); !ev.OK {
		t.Fatalf("after the fix: %+v", ev)
	}
	if resp, _ := get(t, s, "/"); resp.StatusCode != 200 {
		t.Errorf("after the fix: %s", resp.Status)
	}
}

// The server listens where it is told; other than loopback, it says so.
func TestAddresses(t *testing.T) {
	host, _, err := net.SplitHostPort(DefaultAddr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		t.Errorf("the default address %s is not loopback", DefaultAddr)
	}
	s, log := serve(t, newCatalog(t), Options{Addr: "localhost:0"})
	if tcp := s.ln.Addr().(*net.TCPAddr); !tcp.IP.IsLoopback() || strings.Contains(log.String(), "warning:") {
		t.Errorf("localhost:0 listens on %s:\n%s", tcp, log)
	}
	s, log = serve(t, newCatalog(t), Options{Addr: "0.0.0.0:0"})
	if !strings.Contains(log.String(), "warning: 0.0.0.0:0 is not a loopback address") {
		t.Errorf("no warning for all interfaces:\n%s", log)
	}
	if u, _ := url.Parse(s.URL()); u.Hostname() != "localhost" {
		t.Errorf("URL %s", s.URL())
	}
	if resp, _ := get(t, s, "/"); resp.StatusCode != 200 {
		t.Errorf("on all interfaces: %s", resp.Status)
	}

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, err = Start(t.Context(), Options{Build: builder.Options{Catalog: newCatalog(t)}, Addr: busy.Addr().String()})
	if err == nil || !strings.Contains(err.Error(), "listening on "+busy.Addr().String()) || !strings.Contains(err.Error(), "--addr") {
		t.Errorf("an address in use: %v", err)
	}
	_, err = Start(t.Context(), Options{Build: builder.Options{Catalog: filepath.Join(t.TempDir(), "none")}, Addr: "127.0.0.1:0"})
	if err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("a missing catalog: %v", err)
	}
}

// Stopping the context stops the server, which Close then cleans up.
func TestStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	s, err := Start(ctx, Options{Build: builder.Options{Catalog: newCatalog(t)}, Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	evs := events(t, s)
	next(t, evs)
	cancel()
	select {
	case <-s.Done():
	case <-time.After(wait):
		t.Fatal("Done is not closed once the context ends")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.tmp); !os.IsNotExist(err) {
		t.Errorf("the temporary directory is left: %v", err)
	}
	if _, err := http.Get(s.URL()); err == nil {
		t.Error("still serving after Close")
	}
}

// The catalog directory removed, then made again, and replaced by another
// moved into its place: each is a change, the build that follows says what
// happened, and edits of the new directory rebuild, not those of the one
// moved away.
func TestFollowsTheCatalogDirectoryReplaced(t *testing.T) {
	cat := newCatalog(t)
	s, _ := serve(t, cat, Options{})
	evs := events(t, s)
	next(t, evs)
	// served waits for builds until the chart's page is served: the
	// directory may be seen before its files are.
	served := func(chart string) {
		t.Helper()
		for range 5 {
			if resp, _ := get(t, s, "/charts/"+chart+"/"); resp.StatusCode == 200 {
				return
			}
			next(t, evs)
		}
		t.Fatalf("%s is not served: %+v", chart, status(t, s))
	}

	if err := os.RemoveAll(cat); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, evs); ev.OK {
		t.Fatalf("the build after the catalog was removed succeeded: %+v", ev)
	}
	if st := status(t, s); st.OK || !st.Serving || !strings.Contains(st.Error, "no such file or directory") {
		t.Errorf("status after the catalog was removed: %+v", st)
	}

	filetree.Write(t, cat, chartFiles("again", cleanSchema))
	served("again")
	write(t, cat, "charts/again/values.schema.json", workersSchema)
	next(t, evs)
	if st := status(t, s); !st.OK || !slices.Equal(st.Changed, []string{"charts/again/values.schema.json"}) {
		t.Fatalf("an edit of the catalog made again: %+v", st)
	}

	// Replaced by a rename, as a checkout tool or a sync does.
	other := filepath.Join(filepath.Dir(cat), "incoming")
	filetree.Write(t, other, chartFiles("moved", cleanSchema))
	old := filepath.Join(filepath.Dir(cat), "old")
	if err := os.Rename(cat, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, cat); err != nil {
		t.Fatal(err)
	}
	served("moved")
	gen := status(t, s).Generation
	// The directory moved away is no longer the catalog.
	write(t, old, "charts/again/values.yaml", "x: 1\n")
	write(t, cat, "charts/moved/values.yaml", "y: 2\n")
	next(t, evs)
	if st := status(t, s); st.Generation != gen+1 || !slices.Equal(st.Changed, []string{"charts/moved/values.yaml"}) {
		t.Errorf("after editing the old and the new directory: %+v (generation before %d)", st, gen)
	}
}
