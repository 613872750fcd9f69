package release

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
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

// newClient makes the REST client: the token on every request to the API
// and the uploads, and on nothing else.
func newClient(httpClient *http.Client, token string, ep endpoints) (*github.Client, error) {
	api, upload := ep.api.String(), ep.upload.String()
	return github.NewClient(
		github.WithHTTPClient(httpClient),
		github.WithAuthToken(token),
		github.WithURLs(&api, &upload),
		github.WithUserAgent("catalogist"),
		// Publisher waits and retries itself, with its own clock: the
		// client's own bookkeeping would refuse requests on the wall
		// clock's time instead.
		github.WithDisableRateLimitCheck(),
	)
}

// defaultHTTPClient bounds a request, an upload included.
func defaultHTTPClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Minute}
}
