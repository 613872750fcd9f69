package release

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v89/github"
)

// DefaultAPIURL is github.com's REST API.
const DefaultAPIURL = "https://api.github.com/"

// endpoints are the addresses a GitHub instance serves: its REST API,
// asset uploads, and the web pages release assets are downloaded from.
type endpoints struct {
	api, upload, web *url.URL
}

// endpointsOf works out a GitHub instance's addresses from its REST API's:
// github.com's (api.github.com), GitHub Enterprise Cloud with data
// residency's (api.SUBDOMAIN.ghe.com), whose uploads and pages drop the
// "api." host prefix as github.com's do, or GitHub Enterprise Server's
// (https://HOST/api/v3), which serves everything from one host.
func endpointsOf(apiURL string) (endpoints, error) {
	if apiURL == "" {
		apiURL = DefaultAPIURL
	}
	u, err := url.Parse(apiURL)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return endpoints{}, fmt.Errorf("API URL %q is not a URL like https://api.github.com or https://HOST/api/v3", apiURL)
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && loopback(u.Hostname())) {
		return endpoints{}, fmt.Errorf("API URL %q is not https: the token would cross the network in clear (http is taken for a loopback address only)", apiURL)
	}
	root := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}
	if rest, ok := strings.CutPrefix(u.Host, "api."); ok && strings.Trim(u.Path, "/") == "" {
		api := *root
		upload := &url.URL{Scheme: u.Scheme, Host: "uploads." + rest, Path: "/"}
		web := &url.URL{Scheme: u.Scheme, Host: rest, Path: "/"}
		return endpoints{api: &api, upload: upload, web: web}, nil
	}
	api := *root
	api.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/api/v3") + "/api/v3/"
	upload := *root
	upload.Path = strings.TrimSuffix(api.Path, "/api/v3/") + "/api/uploads/"
	web := *root
	web.Path = strings.TrimSuffix(api.Path, "api/v3/")
	return endpoints{api: &api, upload: &upload, web: &web}, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// newClient makes the REST client. The token goes with a request only when
// its origin (scheme, host and port) is the API's or the uploads': the
// client follows redirects, and go-github's own WithAuthToken would add the
// token at every hop, wherever a redirect leads. A redirect to any other
// origin is refused, as go-github refuses a permanent one to another host:
// an API call has no business elsewhere, and a 307 or 308 would carry the
// request's body there too. Downloads, which GitHub does send to a storage
// host, go through the HTTP client as given, without the token.
func newClient(httpClient *http.Client, token string, ep endpoints) (*github.Client, error) {
	api, upload := ep.api.String(), ep.upload.String()
	trusted := ep.trusted()
	c := *httpClient
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = bearer{base: base, header: "Bearer " + token, trusted: trusted}
	next := httpClient.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if to := origin(req.URL); !slices.Contains(trusted, to) {
			return &RedirectError{Method: via[0].Method, From: origin(via[len(via)-1].URL), To: to, Trusted: trusted}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return github.NewClient(
		github.WithHTTPClient(&c),
		github.WithURLs(&api, &upload),
		github.WithUserAgent("catalogist"),
		// Publisher waits and retries itself, with its own clock: the
		// client's own bookkeeping would refuse requests on the wall
		// clock's time instead.
		github.WithDisableRateLimitCheck(),
	)
}

// bearer adds the token to the requests sent to a trusted origin, and
// removes any Authorization from the others.
type bearer struct {
	base    http.RoundTripper
	header  string
	trusted []string
}

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if slices.Contains(b.trusted, origin(req.URL)) {
		req.Header.Set("Authorization", b.header)
	} else {
		req.Header.Del("Authorization")
	}
	return b.base.RoundTrip(req)
}

// trusted are the origins the token goes to: the API's and the uploads'.
func (ep endpoints) trusted() []string {
	return slices.Compact([]string{origin(ep.api), origin(ep.upload)})
}

// origin is a URL's scheme, host and port, the port always written, so
// that https://h and https://h:443 are one origin.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// RedirectError is a redirect of a request to the API or the uploads
// towards another origin, which is not followed.
type RedirectError struct {
	Method, From, To string
	// Trusted are the origins the token goes to.
	Trusted []string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s redirected from %s to %s, not followed: the token and the request go to %s only; check --api-url (GITHUB_API_URL)",
		e.Method, e.From, e.To, strings.Join(e.Trusted, " and "))
}

// defaultHTTPClient bounds a request, an upload included.
func defaultHTTPClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Minute}
}

// redirected returns the redirect to an untrusted origin that err reports,
// if any: one refused by the client, or one it returned as is (a 307 or
// 308 of an upload, whose body cannot be sent again).
func (p *Publisher) redirected(err error) *RedirectError {
	var re *RedirectError
	if errors.As(err, &re) {
		return re
	}
	var rr *github.RedirectionError
	if !errors.As(err, &rr) || rr.Response == nil || rr.Response.Request == nil || rr.Location == nil {
		return nil
	}
	req := rr.Response.Request
	to := origin(req.URL.ResolveReference(rr.Location))
	trusted := p.ep.trusted()
	if slices.Contains(trusted, to) {
		return nil
	}
	return &RedirectError{Method: req.Method, From: origin(req.URL), To: to, Trusted: trusted}
}
