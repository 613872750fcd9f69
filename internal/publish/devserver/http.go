package devserver

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"strings"
	"time"
)

// The server's own paths are under prefix, which no built site uses.
const prefix = "/__catalogist/"

var (
	//go:embed live.js
	liveJS []byte
	//go:embed live.css
	liveCSS []byte
)

func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+prefix+"events", s.serveEvents)
	mux.HandleFunc("GET "+prefix+"status", s.serveStatus)
	mux.HandleFunc("GET "+prefix+"live.js", serveAsset("text/javascript; charset=utf-8", liveJS))
	mux.HandleFunc("GET "+prefix+"live.css", serveAsset("text/css; charset=utf-8", liveCSS))
	mux.HandleFunc("GET /", s.serveSite)
	return s.checkHost(mux)
}

// checkHost refuses, on a loopback server, requests for a host name that
// is not a loopback one: a web page elsewhere could otherwise point a name
// of its own at 127.0.0.1 (DNS rebinding) and read the server's answers.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.loopback && !loopbackHost(r.Host) {
			http.Error(w, fmt.Sprintf("this server answers only to loopback names: open %s", s.URL()), http.StatusMisdirectedRequest)
			return
		}
		// Everything may change with the next build.
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func serveAsset(contentType string, data []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	}
}

// serveSite serves the last good build's files, its pages with the live
// script. The output is opened by path for each request: a build swaps a
// new output in at that path, while a directory handle would keep the old
// one, which the next build then recycles as its staging directory.
func (s *Server) serveSite(w http.ResponseWriter, r *http.Request) {
	st := s.current()
	site := os.DirFS(s.out)
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "."
	}
	info, err := fs.Stat(site, name)
	switch {
	case err == nil && info.IsDir() && strings.HasSuffix(r.URL.Path, "/"):
		name = path.Join(name, "index.html")
		info, err = fs.Stat(site, name)
	case err == nil && info.IsDir():
		// The file server redirects to the slash-ended path, which
		// relative links need.
		http.FileServerFS(site).ServeHTTP(w, r)
		return
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			http.Error(w, "reading the site: "+err.Error(), http.StatusInternalServerError)
			return
		}
		s.serveMissing(w, r, st)
		return
	}
	if !info.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	if !strings.HasSuffix(name, ".html") {
		http.FileServerFS(site).ServeHTTP(w, r)
		return
	}
	page, err := fs.ReadFile(site, name)
	if err != nil {
		http.Error(w, "reading the site: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(inject(page, st.Build)))
}

// serveMissing answers for a file the site does not have. A page gets a
// page with the live script, which reloads it once a build makes it: the
// site is not built yet, or a chart is being renamed.
func (s *Server) serveMissing(w http.ResponseWriter, r *http.Request, st Status) {
	p := r.URL.Path
	if !strings.HasSuffix(p, "/") && !strings.HasSuffix(p, ".html") {
		http.NotFound(w, r)
		return
	}
	title, text := "Not found", "The last build made no page at "+p+"."
	code := http.StatusNotFound
	if !st.Serving {
		title, text = "Not built yet", "No build has succeeded yet: the terminal running catalogist serve says why, and the page reloads once a build succeeds."
		code = http.StatusServiceUnavailable
	}
	page := `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'">
<title>` + title + `</title>
</head>
<body>
<main>
<h1>` + title + `</h1>
<p>` + html.EscapeString(text) + `</p>
</main>
</body>
</html>
`
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(inject([]byte(page), st.Build))
}

func (s *Server) serveStatus(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	st := s.current()
	json.NewEncoder(w).Encode(st)
}

// buildEvent is what an event stream sends at its start and after each
// build: enough for a page to decide between reloading (a new good build)
// and fetching the status (a failure to show).
type buildEvent struct {
	Build string `json:"build"`
	OK    bool   `json:"ok"`
}

// serveEvents streams Server-Sent Events: a "build" event at once, then
// one after each build, until the page or the server goes away.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	ch, unsubscribe := s.subscribe()
	defer unsubscribe()
	// A comment now and then, so that a connection that died is noticed
	// and closed by the next write.
	keepalive := time.NewTicker(30 * time.Second)
	defer keepalive.Stop()
	send := func() error {
		st := s.current()
		data, err := json.Marshal(buildEvent{Build: st.Build, OK: st.OK})
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "event: build\ndata: %s\n\n", data); err != nil {
			return err
		}
		return rc.Flush()
	}
	if _, err := fmt.Fprint(w, "retry: 1000\n\n"); err != nil {
		return
	}
	if send() != nil {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ch:
			if send() != nil {
				return
			}
		case <-keepalive.C:
			if _, err := fmt.Fprint(w, ": keepalive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}
