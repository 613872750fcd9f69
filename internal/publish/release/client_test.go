package release_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/catalogist/catalogist/internal/publish/release"
	"github.com/catalogist/catalogist/internal/testkit/githubtest"
)

// elsewhere is a second loopback server, another origin than the API's: it
// records the Authorization of each request, and serves what it is asked
// for as a storage host would.
type elsewhere struct {
	*httptest.Server
	mu   sync.Mutex
	auth []string
}

func serveElsewhere(t *testing.T) *elsewhere {
	e := &elsewhere{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.auth = append(e.auth, r.Header.Get("Authorization"))
		e.mu.Unlock()
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte("package a"))
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *elsewhere) authorizations() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.auth...)
}

// The token goes to the API's and the uploads' origins only: a redirect of
// an API call or an upload to another origin is not followed, whatever its
// status, and says why; one within the API's origin is; a download goes to
// the storage host it is redirected to, without the token.
func TestTokenStaysOnItsOrigins(t *testing.T) {
	for _, code := range []int{301, 302, 303, 307, 308} {
		for _, tc := range []struct{ what, method, path string }{
			{"API call", "GET", "/repos/o/r/releases/tags/a-1.0.0"},
			{"release creation", "POST", "/repos/o/r/releases"},
			{"upload", "POST", "/repos/o/r/releases/1/assets"},
		} {
			t.Run(strconv.Itoa(code)+" "+tc.what, func(t *testing.T) {
				gh := githubtest.Serve(t, "o", "r", token)
				other := serveElsewhere(t)
				prefix := "/api/v3"
				if tc.what == "upload" {
					prefix = "/api/uploads"
				}
				gh.Fail(githubtest.Fault{Method: tc.method, Path: tc.path, Status: code,
					Header: map[string]string{"Location": other.URL + prefix + tc.path + "?x=" + token}})
				// The HTTP client is a plain one: each server is its own
				// origin, 127.0.0.1 with its own port.
				p, _, log := publisher(t, gh, release.Config{APIURL: gh.URL + "/api/v3", HTTPClient: &http.Client{}})
				_, err := p.Run(t.Context(), []release.Chart{chart(t, t.TempDir(), "a", "1.0.0", "package a")})
				for _, a := range other.authorizations() {
					if a != "" {
						t.Errorf("the other origin got Authorization %q", a)
					}
				}
				if n := len(other.authorizations()); n != 0 {
					t.Errorf("the other origin got %d request(s), want none", n)
				}
				var re *release.RedirectError
				if !errors.As(err, &re) {
					t.Fatalf("error %v, want a RedirectError", err)
				}
				for _, want := range []string{tc.method + " redirected from " + gh.URL + " to " + other.URL + ", not followed", "the token and the request go to " + gh.URL + " only"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("the error %q does not say %q", err, want)
					}
				}
				if strings.Contains(err.Error()+log.String(), token) {
					t.Errorf("the token was printed: %v\n%s", err, log)
				}
				if strings.Contains(log.String(), "trying again") {
					t.Errorf("a refused redirect was tried again:\n%s", log)
				}
			})
		}
		t.Run(strconv.Itoa(code)+" within the API's origin", func(t *testing.T) {
			// githubtest fails the test on a request without the token.
			gh := githubtest.Serve(t, "o", "r", token)
			gh.Fail(githubtest.Fault{Method: "GET", Path: "/repos/o/r/releases/tags/a-1.0.0", Status: code,
				Header: map[string]string{"Location": gh.URL + "/api/v3/repos/o/r/releases/tags/a-1.0.0"}})
			p, _, _ := publisher(t, gh, release.Config{APIURL: gh.URL + "/api/v3", HTTPClient: &http.Client{}})
			if _, err := p.Run(t.Context(), []release.Chart{chart(t, t.TempDir(), "a", "1.0.0", "package a")}); err != nil {
				t.Fatal(err)
			}
			if got := gh.Requests(); len(got) != 4 || got[0] != got[1] {
				t.Errorf("requests %q", got)
			}
		})
	}

	t.Run("download from the storage host", func(t *testing.T) {
		gh := githubtest.Serve(t, "o", "r", token)
		gh.NoDigest = true
		gh.AddRelease("a-1.0.0", map[string][]byte{"a-1.0.0.tgz": []byte("package a")})
		other := serveElsewhere(t)
		gh.Fail(githubtest.Fault{Method: "GET", Path: "/repos/o/r/releases/assets/2", Status: http.StatusFound,
			Header: map[string]string{"Location": other.URL + "/storage/2?signature=abc"}})
		p, _, _ := publisher(t, gh, release.Config{APIURL: gh.URL + "/api/v3", HTTPClient: &http.Client{}})
		outs, err := p.Run(t.Context(), []release.Chart{chart(t, t.TempDir(), "a", "1.0.0", "package a")})
		if err != nil {
			t.Fatal(err)
		}
		if got := other.authorizations(); len(got) != 1 || got[0] != "" {
			t.Errorf("the storage host got Authorization %q, want one request without", got)
		}
		if len(outs) != 1 || outs[0].Status != release.Skipped {
			t.Errorf("outcomes %+v: the downloaded package is the one built", outs)
		}
	})
}
