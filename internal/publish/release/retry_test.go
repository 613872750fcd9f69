package release_test

import (
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
