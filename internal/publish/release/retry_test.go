package release_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/publish/release"
	"github.com/catalogist/catalogist/internal/testkit/githubtest"
)

func TestRetries(t *testing.T) {
	const api, up = "api.github.com/repos/o/r/releases", "uploads.github.com/repos/o/r/releases"
	secondary := `{"message":"You have exceeded a secondary rate limit","documentation_url":"https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`
	for _, tc := range []struct {
		name   string
		faults []githubtest.Fault
		// attempts is Config.Attempts (0: the default).
		attempts int
		waits    []time.Duration
		requests []string
		err      string
	}{{
		name:     "429 with Retry-After",
		faults:   []githubtest.Fault{{Method: "POST", Path: "/repos/o/r/releases", Status: 429, Header: map[string]string{"Retry-After": "7"}, Body: `{"message":"slow down"}`}},
		waits:    []time.Duration{7 * time.Second},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
	}, {
		name: "primary rate limit waits for its reset",
		faults: []githubtest.Fault{{Method: "GET", Path: "/repos/o/r/releases/tags/a-1.0.0", Status: 403, Body: `{"message":"API rate limit exceeded"}`,
			Header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "5000", "X-RateLimit-Reset": strconv.FormatInt(now.Add(30*time.Second).Unix(), 10)}}},
		waits:    []time.Duration{31 * time.Second},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
	}, {
		name:     "secondary rate limit without Retry-After waits a minute",
		faults:   []githubtest.Fault{{Method: "POST", Path: "/repos/o/r/releases", Status: 403, Body: secondary}},
		waits:    []time.Duration{time.Minute},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
	}, {
		name:     "secondary rate limit with Retry-After",
		faults:   []githubtest.Fault{{Method: "POST", Path: "/repos/o/r/releases", Status: 429, Header: map[string]string{"Retry-After": "12"}, Body: secondary}},
		waits:    []time.Duration{12 * time.Second},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
	}, {
		name:     "a wait longer than allowed fails at once",
		faults:   []githubtest.Fault{{Method: "GET", Path: "/repos/o/r/releases/tags/a-1.0.0", Status: 429, Header: map[string]string{"Retry-After": "3600"}, Body: `{"message":"later"}`}},
		requests: []string{"GET " + api + "/tags/a-1.0.0"},
		err:      "GitHub asks to wait 1h0m0s before trying again, more than 2m0s: publish again later",
	}, {
		name: "server errors back off, then give up",
		faults: []githubtest.Fault{
			{Method: "GET", Path: "/repos/o/r/releases/tags/a-1.0.0", Status: 500, Body: `{"message":"a"}`},
			{Method: "GET", Path: "/repos/o/r/releases/tags/a-1.0.0", Status: 503, Body: `{"message":"b"}`},
			{Method: "GET", Path: "/repos/o/r/releases/tags/a-1.0.0", Status: 502, Body: `{"message":"c"}`},
		},
		attempts: 3,
		waits:    []time.Duration{time.Second, 2 * time.Second},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "GET " + api + "/tags/a-1.0.0", "GET " + api + "/tags/a-1.0.0"},
		err:      "gave up after 3 attempts",
	}, {
		name: "a lookup that gave up ends its operation's tries",
		faults: []githubtest.Fault{
			{Method: "POST", Path: "/repos/o/r/releases/1/assets", Status: 502, Body: `{"message":"lost"}`},
			{Method: "GET", Path: "/repos/o/r/releases/1/assets", Status: 500, Body: `{"message":"a"}`},
			{Method: "GET", Path: "/repos/o/r/releases/1/assets", Status: 500, Body: `{"message":"b"}`},
			{Method: "GET", Path: "/repos/o/r/releases/1/assets", Status: 500, Body: `{"message":"c"}`},
		},
		attempts: 3,
		waits:    []time.Duration{time.Second, time.Second, 2 * time.Second},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz",
			"GET " + api + "/1/assets?per_page=100", "GET " + api + "/1/assets?per_page=100", "GET " + api + "/1/assets?per_page=100"},
		err: "listing the assets of a-1.0.0: GET",
	}, {
		name:     "a 404 elsewhere is not retried",
		faults:   []githubtest.Fault{{Method: "POST", Path: "/repos/o/r/releases/1/assets", Status: 404, Body: `{"message":"Not Found"}`}},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
		err:      "the token may lack the permission contents: write on o/r",
	}, {
		name:     "a 422 is not retried",
		faults:   []githubtest.Fault{{Method: "POST", Path: "/repos/o/r/releases", Status: 422, Body: `{"message":"Validation Failed"}`}},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api},
		err:      "/repos/o/r/releases: 422 Validation Failed",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s := githubtest.Serve(t, "o", "r", token)
			for _, f := range tc.faults {
				s.Fail(f)
			}
			p, sl, _ := publisher(t, s, release.Config{Attempts: tc.attempts})
			_, err := p.Run(t.Context(), []release.Chart{chart(t, t.TempDir(), "a", "1.0.0", "a")})
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one saying %q", err, tc.err)
			}
			sameRequests(t, tc.name, s.Requests(), tc.requests)
			if got := sl.got(); !slices.Equal(got, tc.waits) {
				t.Errorf("waits %v, want %v", got, tc.waits)
			}
		})
	}
}

// The token is never in an error nor in the log, even when GitHub's answer
// quotes it.
func TestTokenIsNeverPrinted(t *testing.T) {
	s := githubtest.Serve(t, "o", "r", token)
	s.Fail(githubtest.Fault{Method: "POST", Path: "/repos/o/r/releases", Status: 500, Body: `{"message":"bad token ` + token + `"}`})
	s.Fail(githubtest.Fault{Method: "POST", Path: "/repos/o/r/releases", Status: 403, Body: `{"message":"token ` + token + ` is not allowed"}`})
	p, _, log := publisher(t, s, release.Config{})
	_, err := p.Run(t.Context(), []release.Chart{chart(t, t.TempDir(), "a", "1.0.0", "a")})
	if err == nil {
		t.Fatal("a 403 was not an error")
	}
	for what, text := range map[string]string{"error": err.Error(), "log": log.String()} {
		if strings.Contains(text, token) || strings.Contains(text, token[4:]) {
			t.Errorf("the %s holds the token: %s", what, text)
		}
	}
	if !strings.Contains(log.String(), "bad token ********") || !strings.Contains(err.Error(), "token ******** is not allowed") {
		t.Errorf("the messages lost more than the token:\nlog: %s\nerror: %s", log, err)
	}
}

// GitHub Enterprise Server serves the API under /api/v3, uploads under
// /api/uploads and downloads on its own host.
func TestEnterpriseServer(t *testing.T) {
	s := githubtest.Serve(t, "o", "r", token)
	s.Web = s.URL + "/"
	p, _, _ := publisher(t, s, release.Config{APIURL: s.URL + "/api/v3", HTTPClient: s.Client()})
	outs, err := p.Run(t.Context(), []release.Chart{chart(t, t.TempDir(), "a", "1.0.0", "a")})
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(s.URL, "http://")
	sameRequests(t, "enterprise", s.Requests(), []string{
		"GET " + host + "/api/v3/repos/o/r/releases/tags/a-1.0.0",
		"POST " + host + "/api/v3/repos/o/r/releases",
		"POST " + host + "/api/uploads/repos/o/r/releases/1/assets?name=a-1.0.0.tgz",
	})
	if got := p.AssetURL("a-1.0.0", "a-1.0.0.tgz"); got != outs[0].AssetURL || got != s.URL+"/o/r/releases/download/a-1.0.0/a-1.0.0.tgz" {
		t.Errorf("AssetURL %q, the server lists %q", got, outs[0].AssetURL)
	}
}

func TestAPIURLs(t *testing.T) {
	for _, tc := range []struct{ api, asset, err string }{
		{"", "https://github.com/o/r/releases/download/t/f.tgz", ""},
		{"https://api.github.com", "https://github.com/o/r/releases/download/t/f.tgz", ""},
		{"https://api.acme.ghe.com/", "https://acme.ghe.com/o/r/releases/download/t/f.tgz", ""},
		{"https://ghe.example.com/api/v3", "https://ghe.example.com/o/r/releases/download/t/f.tgz", ""},
		{"https://ghe.example.com/", "https://ghe.example.com/o/r/releases/download/t/f.tgz", ""},
		{"http://ghe.example.com/api/v3", "", "is not https"},
		{"https://user:pw@ghe.example.com/api/v3", "", "is not a URL like"},
		{"ghe.example.com", "", "is not a URL like"},
	} {
		p, err := release.New(release.Config{Owner: "o", Repo: "r", Token: token, APIURL: tc.api})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.api, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.api, err)
			continue
		}
		if got := p.AssetURL("t", "f.tgz"); got != tc.asset {
			t.Errorf("%q: asset URL %q, want %q", tc.api, got, tc.asset)
		}
	}
	if _, err := release.New(release.Config{Owner: "o", Repo: "r"}); err == nil || !strings.Contains(err.Error(), "GITHUB_TOKEN") {
		t.Errorf("no token: %v", err)
	}
}

// A request GitHub carried out though its answer was lost (a 502, a
// dropped connection) is not made twice: the release is looked up by its
// tag, the asset among the release's assets, before another try.
func TestLostAnswers(t *testing.T) {
	const api, up = "api.github.com/repos/o/r/releases", "uploads.github.com/repos/o/r/releases"
	create, upload := "/repos/o/r/releases", "/repos/o/r/releases/1/assets"
	for _, tc := range []struct {
		name     string
		fault    githubtest.Fault
		noDigest bool
		requests []string
		log      string
	}{{
		name:     "release made, then a 502",
		fault:    githubtest.Fault{Method: "POST", Path: create, After: true, Status: 502, Body: `{"message":"Bad Gateway"}`},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "GET " + api + "/tags/a-1.0.0", "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
		log:      "the release a-1.0.0 is there already, as publish makes it",
	}, {
		name:     "release made, then the connection dropped",
		fault:    githubtest.Fault{Method: "POST", Path: create, After: true, Drop: true},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "GET " + api + "/tags/a-1.0.0", "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
		log:      "the release a-1.0.0 is there already, as publish makes it",
	}, {
		name:     "release not made: a 502, looked up, made again",
		fault:    githubtest.Fault{Method: "POST", Path: create, Status: 502, Body: `{"message":"Bad Gateway"}`},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
	}, {
		name:     "release not made: the connection dropped, looked up, made again",
		fault:    githubtest.Fault{Method: "POST", Path: create, Drop: true},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
	}, {
		name:     "asset uploaded, then a 502",
		fault:    githubtest.Fault{Method: "POST", Path: upload, After: true, Status: 502, Body: `{"message":"Bad Gateway"}`},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz", "GET " + api + "/1/assets?per_page=100"},
		log:      "a-1.0.0.tgz is in the release a-1.0.0 already, whole, with the package's digest: not uploaded again",
	}, {
		name:     "asset uploaded, then the connection dropped; listed without its digest",
		fault:    githubtest.Fault{Method: "POST", Path: upload, After: true, Drop: true},
		noDigest: true,
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz", "GET " + api + "/1/assets?per_page=100",
			"GET " + api + "/assets/2", "GET 127.0.0.1:PORT/storage/2"},
		log: "not uploaded again",
	}, {
		name:     "asset not uploaded: the connection dropped, looked up, uploaded again",
		fault:    githubtest.Fault{Method: "POST", Path: upload, Drop: true},
		requests: []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "POST " + up + "/1/assets?name=a-1.0.0.tgz", "GET " + api + "/1/assets?per_page=100", "POST " + up + "/1/assets?name=a-1.0.0.tgz"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s := githubtest.Serve(t, "o", "r", token)
			s.NoDigest = tc.noDigest
			s.Fail(tc.fault)
			p, sl, log := publisher(t, s, release.Config{})
			a := chart(t, t.TempDir(), "a", "1.0.0", "package a")
			outs, err := p.Run(t.Context(), []release.Chart{a})
			if err != nil {
				t.Fatalf("%v\nlog:\n%s", err, log)
			}
			for i, r := range tc.requests {
				tc.requests[i] = strings.Replace(r, "127.0.0.1:PORT", strings.TrimPrefix(s.URL, "http://"), 1)
			}
			sameRequests(t, tc.name, s.Requests(), tc.requests)
			if got := sl.got(); !slices.Equal(got, []time.Duration{time.Second}) {
				t.Errorf("waits %v, want one of 1s", got)
			}
			rels := s.Releases()
			if len(rels) != 1 || len(rels[0].Assets) != 1 || string(rels[0].Assets[0].Data) != "package a" || rels[0].Assets[0].State != "uploaded" {
				t.Fatalf("the server holds %+v", rels)
			}
			if len(outs) != 1 || outs[0].Status != release.Created || outs[0].AssetURL != "https://github.com/o/r/releases/download/a-1.0.0/a-1.0.0.tgz" ||
				outs[0].ReleaseURL != "https://github.com/o/r/releases/tag/a-1.0.0" {
				t.Errorf("outcomes %+v", outs)
			}
			if !strings.Contains(log.String(), tc.log) {
				t.Errorf("the log does not say %q:\n%s", tc.log, log)
			}
		})
	}
}

// A release found under the tag after a lost answer, but with other
// content, is someone else's: the run stops and says so, and uploads
// nothing to it.
func TestLostAnswerFindsAnotherRelease(t *testing.T) {
	const api = "api.github.com/repos/o/r/releases"
	s := githubtest.Serve(t, "o", "r", token)
	s.Fail(githubtest.Fault{Method: "POST", Path: "/repos/o/r/releases", Status: 502, Body: `{"message":"Bad Gateway"}`})
	p, err := release.New(release.Config{Owner: "o", Repo: "r", Token: token, HTTPClient: s.Client(), Now: func() time.Time { return now },
		// While publish waits to try again, someone else releases the tag.
		Sleep: func(context.Context, time.Duration) error {
			s.AddRelease("a-1.0.0", map[string][]byte{"notes.txt": []byte("theirs")})
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	a := chart(t, t.TempDir(), "a", "1.0.0", "package a")
	_, err = p.Run(t.Context(), []release.Chart{a})
	var fe *release.ForeignReleaseError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v, want a ForeignReleaseError", err)
	}
	for _, want := range []string{filepath.Join(a.Dir, "Chart.yaml") + ": ", "a release tagged a-1.0.0 appeared in o/r", `chart "a" version 1.0.0`, "someone else's", "its notes differ", "delete it (and its tag)", "bump version"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	sameRequests(t, "foreign release", s.Requests(), []string{"GET " + api + "/tags/a-1.0.0", "POST " + api, "GET " + api + "/tags/a-1.0.0"})
	if rels := s.Releases(); len(rels) != 1 || len(rels[0].Assets) != 1 || rels[0].Assets[0].Name != "notes.txt" {
		t.Errorf("the server holds %+v", rels)
	}
}
