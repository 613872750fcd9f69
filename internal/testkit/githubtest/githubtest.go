// Package githubtest serves on loopback, for tests, the part of GitHub's
// REST API that publishing releases uses: a release by tag, creating a
// release, uploading, listing, deleting and downloading its assets, and the
// assets' download URLs, which a public repository serves without a token
// (/OWNER/REPO/releases/download/TAG/NAME under its URL). It keeps
// the releases and assets it is sent, computes their digests as GitHub
// does, records every request, and fails the test on any request outside
// those endpoints or without the token. Faults stand for GitHub's failures:
// an error answer or a dropped connection, before the request is carried
// out or after it (the answer lost).
package githubtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Server is a GitHub REST API on loopback, for one repository.
type Server struct {
	// URL is the server's root, without a trailing slash: the API is
	// served under it as github.com serves it (/repos/...) and as GitHub
	// Enterprise Server does (/api/v3/repos/..., /api/uploads/repos/...).
	URL         string
	Owner, Repo string
	// Token is what every API request must be authenticated with.
	Token string
	// Web is where release pages and downloads are, with a trailing slash
	// (default https://github.com/).
	Web string
	// NoDigest lists assets without their digest, as GitHub lists those
	// uploaded before it computed digests.
	NoDigest bool

	t      testing.TB
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []string
	rels   []*Release
	nextID int64
	faults []Fault
}

// Release is a release the server holds.
type Release struct {
	ID                                  int64
	Tag, Name, Body, Target, MakeLatest string
	Prerelease, Draft                   bool
	Assets                              []*Asset
}

// Asset is a release asset the server holds. State is "uploaded", or
// "starter" for one whose upload failed midway.
type Asset struct {
	ID                       int64
	Name, ContentType, State string
	Data                     []byte
}

// Digest is the asset's digest as GitHub gives it.
func (a *Asset) Digest() string {
	sum := sha256.Sum256(a.Data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Fault is an answer given once, in place of the normal one, to the next
// request with Method and Path (without the /api/v3 or /api/uploads prefix
// nor the query).
type Fault struct {
	Method, Path string
	Status       int
	Header       map[string]string
	Body         string
	// Partial, for an upload, leaves a half-uploaded asset behind, as a
	// connection dropped midway does.
	Partial bool
	// After carries the request out first (makes the release, keeps the
	// asset), then gives the fault's answer: GitHub did the work, and its
	// answer was lost.
	After bool
	// Drop closes the connection instead of answering.
	Drop bool
}

// Serve serves the API until the test ends.
func Serve(t testing.TB, owner, repo, token string) *Server {
	t.Helper()
	s := &Server{Owner: owner, Repo: repo, Token: token, Web: "https://github.com/", t: t}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Client returns an HTTP client that sends every request, whatever its
// host (api.github.com, uploads.github.com), to the server, which records
// the host it was meant for.
func (s *Server) Client() *http.Client {
	return &http.Client{Transport: redirect{s}}
}

type redirect struct{ s *Server }

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("X-Meant-For", req.URL.Host)
	req.URL.Scheme, req.URL.Host = "http", strings.TrimPrefix(r.s.URL, "http://")
	req.Host = req.URL.Host
	return http.DefaultTransport.RoundTrip(req)
}

// Fail answers the next matching request with f.
func (s *Server) Fail(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f)
}

// Requests returns the requests received since the last call, in order,
// as "METHOD [HOST]PATH[?QUERY]" (HOST for a request sent through
// Client), and forgets them.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.reqs
	s.reqs = nil
	return out
}

// Releases returns copies of the releases, in the order made.
func (s *Server) Releases() []Release {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Release, len(s.rels))
	for i, r := range s.rels {
		out[i] = *r
		out[i].Assets = nil
		for _, a := range r.Assets {
			c := *a
			out[i].Assets = append(out[i].Assets, &c)
		}
	}
	return out
}

// AddRelease adds a release, with its assets (name to content).
func (s *Server) AddRelease(tag string, assets map[string][]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &Release{ID: s.id(), Tag: tag, Name: tag}
	for _, name := range slices.Sorted(maps.Keys(assets)) {
		r.Assets = append(r.Assets, &Asset{ID: s.id(), Name: name, ContentType: "application/gzip", State: "uploaded", Data: assets[name]})
	}
	s.rels = append(s.rels, r)
}

// AddPartial adds to the release tagged tag an asset whose upload failed
// midway.
func (s *Server) AddPartial(tag, name string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.byTag(tag)
	r.Assets = append(r.Assets, &Asset{ID: s.id(), Name: name, State: "starter", Data: data})
}

func (s *Server) id() int64 {
	s.nextID++
	return s.nextID
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rec := r.Method + " " + r.Header.Get("X-Meant-For") + r.URL.Path
	if r.URL.RawQuery != "" {
		rec += "?" + r.URL.RawQuery
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, rec)
	s.mu.Unlock()

	if id, ok := strings.CutPrefix(r.URL.Path, "/storage/"); ok && r.Method == http.MethodGet {
		s.storage(w, r, id)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.Path, "/"+s.Owner+"/"+s.Repo+"/releases/download/"); ok && r.Method == http.MethodGet {
		s.download(w, r, rest)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+s.Token {
		s.t.Errorf("%s: authorization %q, want the token", rec, got)
		s.answer(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
		return
	}
	path := r.URL.Path
	for _, prefix := range []string{"/api/v3", "/api/uploads"} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			path = rest
		}
	}
	base := "/repos/" + s.Owner + "/" + s.Repo + "/releases"
	rest, ok := strings.CutPrefix(path, base)
	if !ok {
		s.unexpected(w, rec)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("%s: reading the body: %v", rec, err)
		return
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.fault(r.Method, path, r, body)
	if !ok {
		s.handle(w, r, rec, rest, body)
		return
	}
	if f.After {
		s.handle(httptest.NewRecorder(), r, rec, rest, body)
	}
	if f.Drop {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			s.t.Errorf("%s: dropping the connection: %v", rec, err)
			return
		}
		conn.Close()
		return
	}
	for k, v := range f.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Status)
	io.WriteString(w, f.Body)
}

// handle answers a request to the releases of the repository; rest is its
// path under them.
func (s *Server) handle(w http.ResponseWriter, r *http.Request, rec, rest string, body []byte) {
	parts := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	switch {
	case r.Method == http.MethodGet && len(parts) == 2 && parts[0] == "tags":
		if rel := s.byTag(parts[1]); rel != nil {
			s.answer(w, http.StatusOK, s.releaseJSON(rel))
			return
		}
		s.answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	case r.Method == http.MethodGet && rest == "":
		// One page, newest first, as GitHub lists them.
		list := []any{}
		for i := len(s.rels) - 1; i >= 0; i-- {
			list = append(list, s.releaseJSON(s.rels[i]))
		}
		s.answer(w, http.StatusOK, list)
	case r.Method == http.MethodPost && rest == "":
		s.create(w, body)
	case r.Method == http.MethodPost && len(parts) == 2 && parts[1] == "assets":
		s.upload(w, r, parts[0], body)
	case r.Method == http.MethodGet && len(parts) == 2 && parts[1] == "assets":
		rel := s.byID(parts[0])
		if rel == nil {
			s.answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		list := []any{}
		for _, a := range rel.Assets {
			list = append(list, s.assetJSON(rel, a))
		}
		s.answer(w, http.StatusOK, list)
	case r.Method == http.MethodDelete && len(parts) == 2 && parts[0] == "assets":
		for _, rel := range s.rels {
			for i, a := range rel.Assets {
				if strconv.FormatInt(a.ID, 10) == parts[1] {
					rel.Assets = slices.Delete(rel.Assets, i, i+1)
					w.WriteHeader(http.StatusNoContent)
					return
				}
			}
		}
		s.answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	case r.Method == http.MethodGet && len(parts) == 2 && parts[0] == "assets":
		if r.Header.Get("Accept") != "application/octet-stream" {
			s.t.Errorf("%s: Accept %q; a download asks for application/octet-stream", rec, r.Header.Get("Accept"))
		}
		// GitHub sends downloads to its storage host, with a signed URL.
		http.Redirect(w, r, s.URL+"/storage/"+parts[1], http.StatusFound)
	default:
		s.unexpected(w, rec)
	}
}

func (s *Server) unexpected(w http.ResponseWriter, rec string) {
	s.t.Errorf("unexpected request %s", rec)
	s.answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
}

// fault takes the first fault matching the request, if any, and leaves
// the half-uploaded asset of a Partial one.
func (s *Server) fault(method, path string, r *http.Request, body []byte) (Fault, bool) {
	for i, f := range s.faults {
		if f.Method != method || f.Path != path {
			continue
		}
		s.faults = slices.Delete(s.faults, i, i+1)
		if f.Partial {
			parts := strings.Split(strings.TrimPrefix(path, "/repos/"+s.Owner+"/"+s.Repo+"/releases/"), "/")
			if rel := s.byID(parts[0]); rel != nil {
				rel.Assets = append(rel.Assets, &Asset{ID: s.id(), Name: r.URL.Query().Get("name"), State: "starter", Data: body[:len(body)/2]})
			}
		}
		return f, true
	}
	return Fault{}, false
}

func (s *Server) create(w http.ResponseWriter, body []byte) {
	var req struct {
		TagName         string `json:"tag_name"`
		TargetCommitish string `json:"target_commitish"`
		Name            string `json:"name"`
		Body            string `json:"body"`
		Draft           bool   `json:"draft"`
		Prerelease      bool   `json:"prerelease"`
		MakeLatest      string `json:"make_latest"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.TagName == "" {
		s.answer(w, http.StatusUnprocessableEntity, map[string]string{"message": fmt.Sprintf("Validation Failed: %v", err)})
		return
	}
	if s.byTag(req.TagName) != nil {
		s.answer(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed",
			"errors": []map[string]string{{"resource": "Release", "code": "already_exists", "field": "tag_name"}}})
		return
	}
	rel := &Release{ID: s.id(), Tag: req.TagName, Name: req.Name, Body: req.Body, Target: req.TargetCommitish,
		MakeLatest: req.MakeLatest, Prerelease: req.Prerelease, Draft: req.Draft}
	s.rels = append(s.rels, rel)
	s.answer(w, http.StatusCreated, s.releaseJSON(rel))
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request, id string, body []byte) {
	rel := s.byID(id)
	if rel == nil {
		s.answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	name := r.URL.Query().Get("name")
	for _, a := range rel.Assets {
		if a.Name == name {
			s.answer(w, http.StatusUnprocessableEntity, map[string]any{"message": "Validation Failed",
				"errors": []map[string]string{{"resource": "ReleaseAsset", "code": "already_exists", "field": "name"}}})
			return
		}
	}
	if int64(len(body)) != r.ContentLength {
		s.t.Errorf("upload of %s: %d bytes received, Content-Length %d", name, len(body), r.ContentLength)
	}
	a := &Asset{ID: s.id(), Name: name, ContentType: r.Header.Get("Content-Type"), State: "uploaded", Data: body}
	rel.Assets = append(rel.Assets, a)
	s.answer(w, http.StatusCreated, s.assetJSON(rel, a))
}

func (s *Server) storage(w http.ResponseWriter, r *http.Request, id string) {
	if r.Header.Get("Authorization") != "" {
		s.t.Errorf("the token was sent to the storage host, which needs none")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, rel := range s.rels {
		for _, a := range rel.Assets {
			if strconv.FormatInt(a.ID, 10) == id {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Write(a.Data)
				return
			}
		}
	}
	http.NotFound(w, r)
}

// download serves an asset at its browser download URL, as github.com
// serves a public repository's, without a token: the one an index lists.
func (s *Server) download(w http.ResponseWriter, r *http.Request, rest string) {
	if r.Header.Get("Authorization") != "" {
		s.t.Errorf("the token was sent with the download of %s, which needs none", rest)
	}
	tag, name, _ := strings.Cut(rest, "/")
	s.mu.Lock()
	defer s.mu.Unlock()
	if rel := s.byTag(tag); rel != nil {
		for _, a := range rel.Assets {
			if a.Name == name && a.State == "uploaded" {
				w.Header().Set("Content-Type", "application/octet-stream")
				w.Write(a.Data)
				return
			}
		}
	}
	http.NotFound(w, r)
}

func (s *Server) byTag(tag string) *Release {
	for _, r := range s.rels {
		if r.Tag == tag && !r.Draft {
			return r
		}
	}
	return nil
}

func (s *Server) byID(id string) *Release {
	for _, r := range s.rels {
		if strconv.FormatInt(r.ID, 10) == id {
			return r
		}
	}
	return nil
}

func (s *Server) releaseJSON(r *Release) map[string]any {
	assets := []any{}
	for _, a := range r.Assets {
		assets = append(assets, s.assetJSON(r, a))
	}
	return map[string]any{
		"id": r.ID, "tag_name": r.Tag, "name": r.Name, "body": r.Body, "draft": r.Draft, "prerelease": r.Prerelease,
		"target_commitish": r.Target,
		"html_url":         s.Web + s.Owner + "/" + s.Repo + "/releases/tag/" + r.Tag,
		"upload_url":       s.URL + "/api/uploads/repos/" + s.Owner + "/" + s.Repo + "/releases/" + strconv.FormatInt(r.ID, 10) + "/assets{?name,label}",
		"assets":           assets,
	}
}

func (s *Server) assetJSON(r *Release, a *Asset) map[string]any {
	m := map[string]any{
		"id": a.ID, "name": a.Name, "state": a.State, "content_type": a.ContentType, "size": len(a.Data),
		"url":                  s.URL + "/repos/" + s.Owner + "/" + s.Repo + "/releases/assets/" + strconv.FormatInt(a.ID, 10),
		"browser_download_url": s.Web + s.Owner + "/" + s.Repo + "/releases/download/" + r.Tag + "/" + a.Name,
	}
	if !s.NoDigest && a.State == "uploaded" {
		m["digest"] = a.Digest()
	}
	return m
}

func (s *Server) answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		s.t.Errorf("encoding an answer: %v", err)
	}
}
