// Package repotest serves a chart repository on loopback for tests: a
// directory of packages and index.yaml, as GitHub Pages or any static host
// serves one.
package repotest

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// Server is a chart repository served on loopback.
type Server struct {
	// URL is the repository's address, without a trailing slash.
	URL string
	srv *httptest.Server
	mu  sync.Mutex
	got []string
}

// Serve serves dir until the test ends. Only GET and HEAD are answered, as
// a static host does; any other request fails the test.
func Serve(t testing.TB, dir string) *Server {
	t.Helper()
	s := &Server{}
	files := http.FileServer(http.Dir(dir))
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			t.Errorf("the chart repository was sent %s %s; a static host answers GET and HEAD only", r.Method, r.URL.Path)
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		s.mu.Lock()
		s.got = append(s.got, r.URL.Path)
		s.mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Close stops serving before the test ends: the repository is down.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the paths asked for so far, in order.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.got)
}
