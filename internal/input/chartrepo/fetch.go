package chartrepo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Fetch reads a small file over https whole, within limit bytes: a chart's
// icon, say, which the site copies and serves as its own. Unlike an index
// or a package it is never read over http nor from a file, and a redirect
// is followed only to another https address: a plain-http hop would let
// whoever is on the path replace what the site serves. An answer other than
// 200 is a *StatusError; a body larger than limit a *TooLargeError.
func (c *Client) Fetch(ctx context.Context, src string, limit int64) ([]byte, error) {
	if u, err := url.Parse(src); err != nil || u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("fetching %s: only https URLs are fetched", Redact(src))
	}
	hc := *c.http
	hc.CheckRedirect = httpsRedirect
	strict := &Client{http: &hc}
	resp, err := strict.get(ctx, src, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// 304, to a request without validators.
		return nil, &StatusError{URL: Redact(src), Code: resp.StatusCode, Status: resp.Status}
	}
	if resp.ContentLength > limit {
		return nil, &TooLargeError{URL: Redact(src), Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", Redact(src), err)
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{URL: Redact(src), Limit: limit}
	}
	return data, nil
}

// httpsRedirect follows a redirect only to https, and not for ever.
func httpsRedirect(req *http.Request, via []*http.Request) error {
	if req.URL.Scheme != "https" {
		return fmt.Errorf("redirected to %s, which is not https", Redact(req.URL.String()))
	}
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return nil
}

// TooLargeError is a body larger than the caller allows.
type TooLargeError struct {
	// URL is the address asked, redacted.
	URL   string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("fetching %s: larger than the %d KiB allowed", e.URL, e.Limit>>10)
}
