package builder_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// iconHost serves icons over TLS on loopback and counts what it is asked.
type iconHost struct {
	*httptest.Server
	// client trusts the server's certificate, as a build's injected client
	// trusts a catalog's CA.
	client *chartrepo.Client
	mu     sync.Mutex
	asked  []string // "METHOD /path"
}

func newIconHost(t *testing.T, timeout time.Duration, routes map[string]http.HandlerFunc) *iconHost {
	t.Helper()
	h := &iconHost{}
	h.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.asked = append(h.asked, r.Method+" "+r.URL.Path)
		h.mu.Unlock()
		if route := routes[r.URL.Path]; route != nil {
			route(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(h.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	writeFile(t, ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: h.Certificate().Raw})))
	client, err := chartrepo.New(chartrepo.Options{CAFile: ca, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	h.client = client
	return h
}

// requests returns what the server was asked, and forgets it.
func (h *iconHost) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	asked := h.asked
	h.asked = nil
	slices.Sort(asked)
	return asked
}

func serve(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Write(body)
	}
}

func redirect(to string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusFound) }
}

// pngIcon is a real PNG image, of a size that sets it apart from others.
func pngIcon(t *testing.T, size int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const svgIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3" fill="teal"/></svg>`

// copyName is the name icon files' copies get: content-hashed.
func copyName(data []byte, ext string) string {
	sum := sha256.Sum256(data)
	return "icons/" + hex.EncodeToString(sum[:])[:16] + ext
}

// iconCatalog writes a catalog whose charts, by name, have those icons in
// Chart.yaml.
func iconCatalog(t *testing.T, icons map[string]string) string {
	t.Helper()
	cat := filepath.Join(t.TempDir(), "catalog")
	writeFile(t, filepath.Join(cat, "catalog.yaml"), "name: icons\nbaseURL: https://example.org/icons\n")
	for name, icon := range icons {
		writeFile(t, filepath.Join(cat, "charts", name, "Chart.yaml"), fmt.Sprintf("apiVersion: v2\nname: %s\nversion: 1.0.0\ndescription: Shows an icon.\nicon: %q\n", name, icon))
		writeFile(t, filepath.Join(cat, "charts", name, "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n")
	}
	settle(t, cat)
	return cat
}

func buildLogged(t *testing.T, opt builder.Options) string {
	t.Helper()
	var log bytes.Buffer
	opt.Log = &log
	if _, err := builder.Build(t.Context(), opt); err != nil {
		t.Fatalf("build: %v\n%s", err, log.String())
	}
	return log.String()
}

// iconCopies lists the icons directory of an output.
func iconCopies(t *testing.T, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(out, "icons"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, "icons/"+e.Name())
	}
	return names
}

// noPageLinksTo checks that no page of the site names a host.
func noPageLinksTo(t *testing.T, out string, hosts ...string) {
	t.Helper()
	pages, _ := filepath.Glob(filepath.Join(out, "charts", "*", "index.html"))
	pages = append(pages, filepath.Join(out, "index.html"))
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hosts {
			if bytes.Contains(data, []byte(h)) {
				t.Errorf("%s names %s", p, h)
			}
		}
	}
}

// iconSrc is how a chart page shows an icon of the site.
func iconSrc(name string) string { return `class="icon" src="../../` + name + `"` }

var defaultIconSrc = iconSrc("assets/default-icon.svg")

// An https icon is fetched once per build however many charts show it, put
// in the site under a content-hashed name as icon files are, and shown from
// there: no page links to the icons' host. The next build asks nothing while
// the copies are in the output; a copy deleted from the output, or a state
// from before remote icons were recorded, has the icon fetched again.
func TestRemoteIconsAreCopied(t *testing.T) {
	pngData := pngIcon(t, 2)
	host := newIconHost(t, 0, map[string]http.HandlerFunc{
		"/img/logo.png": serve("image/png", pngData),
		// The type is read from the bytes, not the name nor the header.
		"/img/logo-svg.png": serve("application/octet-stream", []byte(svgIcon)),
		"/moved":            redirect("/img/moved.png"),
		"/img/moved.png":    serve("image/png", pngData),
	})
	cat := iconCatalog(t, map[string]string{
		"png-one": host.URL + "/img/logo.png",
		"png-two": host.URL + "/img/logo.png",
		"svg-one": host.URL + "/img/logo-svg.png",
		"svg-two": host.URL + "/img/logo-svg.png",
		"moved":   host.URL + "/moved",
	})
	out := filepath.Join(t.TempDir(), "site")
	opt := builder.Options{Catalog: cat, Out: out, Now: at(t1), Client: host.client}

	log := buildLogged(t, opt)
	if strings.Contains(log, "warning: chart") {
		t.Errorf("warnings for icons that are fine:\n%s", log)
	}
	want := []string{"GET /img/logo-svg.png", "GET /img/logo.png", "GET /img/moved.png", "GET /moved"}
	if got := host.requests(); !slices.Equal(got, want) {
		t.Errorf("first build asked %v, want each icon once: %v", got, want)
	}
	pngName, svgName := copyName(pngData, ".png"), copyName([]byte(svgIcon), ".svg")
	if got := iconCopies(t, out); !slices.Equal(got, []string{pngName, svgName}) && !slices.Equal(got, []string{svgName, pngName}) {
		t.Fatalf("icon copies %v, want %s and %s", got, pngName, svgName)
	}
	for name, data := range map[string][]byte{pngName: pngData, svgName: []byte(svgIcon)} {
		if got, err := os.ReadFile(filepath.Join(out, name)); err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s does not hold the served icon (%v)", name, err)
		}
	}
	for chart, name := range map[string]string{"png-one": pngName, "png-two": pngName, "moved": pngName, "svg-one": svgName, "svg-two": svgName} {
		pageHas(t, chart, readPage(t, out, chart), []string{iconSrc(name)}, []string{defaultIconSrc})
	}
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	pageHas(t, "index", string(index), []string{`class="icon" src="` + pngName + `"`, `class="icon" src="` + svgName + `"`}, []string{`class="icon" src="assets/default-icon.svg"`})
	noPageLinksTo(t, out, strings.TrimPrefix(host.URL, "https://"))
	before := snapshot(t, out)

	buildLogged(t, opt)
	if got := host.requests(); len(got) != 0 {
		t.Errorf("the incremental build fetched icons again: %v", got)
	}
	sameTrees(t, before, snapshot(t, out))

	// A copy deleted from the output is fetched again; the other is not.
	if err := os.Remove(filepath.Join(out, svgName)); err != nil {
		t.Fatal(err)
	}
	buildLogged(t, opt)
	if got := host.requests(); !slices.Equal(got, []string{"GET /img/logo-svg.png"}) {
		t.Errorf("after the SVG's copy was deleted the build asked %v, want the SVG alone", got)
	}
	sameTrees(t, before, snapshot(t, out))

	// A state written before remote icons were recorded still loads: the
	// icons are fetched again, and the output is the same.
	stateFile := filepath.Join(filepath.Dir(out), ".catalogist-state-site.json")
	data, err := os.ReadFile(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	icons, _ := st["icons"].(map[string]any)
	if _, ok := icons[host.URL+"/img/logo.png"]; !ok {
		t.Errorf("the state does not record the fetched icon by URL: %v", icons)
	}
	delete(st, "icons")
	data, err = json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, stateFile, string(data))
	buildLogged(t, opt)
	if got := host.requests(); !slices.Equal(got, want) {
		t.Errorf("with a state without icons the build asked %v, want %v", got, want)
	}
	sameTrees(t, before, snapshot(t, out))
}

// An https icon that cannot be shown leaves the default icon and a warning
// naming the chart, the URL without its credentials, and why; the build
// succeeds. Icons that are not https URLs are never fetched nor read.
func TestRemoteIconProblems(t *testing.T) {
	plainAsked := make(chan string, 10)
	plainData := pngIcon(t, 3)
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainAsked <- r.URL.Path
		w.Write(plainData)
	}))
	t.Cleanup(plain.Close)
	hang := make(chan struct{})
	bigHead := pngIcon(t, 2)
	host := newIconHost(t, 2*time.Second, map[string]http.HandlerFunc{
		"/page.png": serve("text/html; charset=utf-8", []byte("<!doctype html><html><body><p>Moved to our new site.</p></body></html>")),
		"/big.png": func(w http.ResponseWriter, _ *http.Request) {
			// Streamed, without a length to refuse it by.
			w.Header().Set("Content-Type", "image/png")
			w.(http.Flusher).Flush()
			w.Write(bigHead)
			w.Write(make([]byte, 1<<20))
		},
		"/hostile.svg": serve("image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/steal?c="+document.cookie)</script></svg>`)),
		"/icon.ico":    serve("image/x-icon", []byte("\x00\x00\x01\x00\x01\x00\x10\x10\x00\x00\x01\x00\x20\x00\x68\x04\x00\x00\x16\x00\x00\x00")),
		"/downgrade":   redirect(plain.URL + "/downgraded.png"),
		"/slow.png": func(_ http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-hang:
			}
		},
	})
	t.Cleanup(func() { close(hang) })
	local := filepath.Join(t.TempDir(), "local.png")
	localData := pngIcon(t, 4)
	writeFile(t, local, string(localData))
	secretURL := strings.Replace(host.URL, "https://", "https://deploy:s3cret@", 1) + "/missing.png?token=t0ken"
	cat := iconCatalog(t, map[string]string{
		"missing":    secretURL,
		"html":       host.URL + "/page.png",
		"oversized":  host.URL + "/big.png",
		"hostile":    host.URL + "/hostile.svg",
		"favicon":    host.URL + "/icon.ico",
		"downgrade":  host.URL + "/downgrade",
		"slow":       host.URL + "/slow.png",
		"plain-http": plain.URL + "/plain.png",
		"local-file": "file://" + filepath.ToSlash(local),
	})
	out := filepath.Join(t.TempDir(), "site")
	opt := builder.Options{Catalog: cat, Out: out, Now: at(t1), Client: host.client}
	log := buildLogged(t, opt)

	want := []string{"GET /big.png", "GET /downgrade", "GET /hostile.svg", "GET /icon.ico", "GET /missing.png", "GET /page.png", "GET /slow.png"}
	if got := host.requests(); !slices.Equal(got, want) {
		t.Errorf("asked %v, want %v", got, want)
	}
	select {
	case p := <-plainAsked:
		t.Errorf("%s was fetched over plain http", p)
	default:
	}
	redacted := secret.RedactURL(secretURL)
	for chart, why := range map[string][]string{
		"missing":   {"icon " + redacted + ":", "the server answered 404 Not Found"},
		"html":      {"icon " + host.URL + "/page.png:", "the server sent text/html, not an image"},
		"oversized": {"larger than the 1024 KiB an icon may weigh"},
		"hostile":   {"nor an SVG the site shows (line 1: <script> element)"},
		"favicon":   {"image of type image/x-icon, which the site does not show"},
		"downgrade": {"redirected to " + plain.URL + "/downgraded.png, which is not https"},
		"slow":      {"did not answer in time"},
	} {
		line := ""
		for l := range strings.Lines(log) {
			if strings.HasPrefix(l, "warning: chart "+chart+" (") {
				line = l
			}
		}
		if line == "" {
			t.Errorf("no warning for chart %s:\n%s", chart, log)
			continue
		}
		for _, w := range append(why, filepath.Join(cat, "charts", chart, "Chart.yaml"), "the site shows the default icon instead") {
			if !strings.Contains(line, w) {
				t.Errorf("the warning for %s lacks %q: %s", chart, w, line)
			}
		}
		pageHas(t, chart, readPage(t, out, chart), []string{defaultIconSrc}, nil)
	}
	for _, leak := range []string{"s3cret", "t0ken", "deploy"} {
		if strings.Contains(log, leak) {
			t.Errorf("the log shows the icon URL's credentials (%s):\n%s", leak, log)
		}
	}
	for _, chart := range []string{"plain-http", "local-file"} {
		pageHas(t, chart, readPage(t, out, chart), []string{defaultIconSrc}, nil)
	}
	if got := iconCopies(t, out); len(got) != 0 {
		t.Errorf("icons copied from failed or refused URLs: %v", got)
	}
	noPageLinksTo(t, out, strings.TrimPrefix(host.URL, "https://"), strings.TrimPrefix(plain.URL, "http://"), local)
}

// An icon whose host did not answer is fetched again by the next build,
// which shows it; its page, kept from the build before, is rendered again by
// the build after, which asks nothing.
func TestRemoteIconFetchedAgainAfterAFailure(t *testing.T) {
	pngData := pngIcon(t, 5)
	var mu sync.Mutex
	down := true
	host := newIconHost(t, 0, map[string]http.HandlerFunc{
		"/logo.png": func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			if down {
				http.Error(w, "maintenance", http.StatusServiceUnavailable)
				return
			}
			w.Write(pngData)
		},
	})
	cat := iconCatalog(t, map[string]string{"app": host.URL + "/logo.png"})
	out := filepath.Join(t.TempDir(), "site")
	opt := builder.Options{Catalog: cat, Out: out, Now: at(t1), Client: host.client}
	if log := buildLogged(t, opt); !strings.Contains(log, "503 Service Unavailable") {
		t.Errorf("no warning for the unavailable icon:\n%s", log)
	}
	pageHas(t, "while the host is down", readPage(t, out, "app"), []string{defaultIconSrc}, nil)

	mu.Lock()
	down = false
	mu.Unlock()
	name := copyName(pngData, ".png")
	buildLogged(t, opt)
	index, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	pageHas(t, "index once the host answers", string(index), []string{`class="icon" src="` + name + `"`}, []string{`class="icon" src="assets/default-icon.svg"`})

	buildLogged(t, opt)
	pageHas(t, "the build after", readPage(t, out, "app"), []string{iconSrc(name)}, []string{defaultIconSrc})
	if got := host.requests(); !slices.Equal(got, []string{"GET /logo.png", "GET /logo.png"}) {
		t.Errorf("asked %v, want the icon once per build until it was fetched", got)
	}
}
