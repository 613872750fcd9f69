package secret

import (
	"net/url"
	"regexp"
	"strings"
)

// RedactURL returns a URL without its credentials: no user information,
// and the values of query parameters named like secrets (?token=...)
// masked. Something that does not parse as a URL is redacted as a text.
func RedactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return RedactURLs(u)
	}
	changed := false
	if p.User != nil {
		p.User = nil
		changed = true
	}
	if q := redactQuery(p.RawQuery); q != p.RawQuery {
		p.RawQuery = q
		changed = true
	}
	if changed {
		u = p.String()
	}
	// A URL may carry another, in its path or query (?redirect=...).
	return RedactURLs(u)
}

// userinfo is a URL's user information: everything from the scheme's "//"
// to the authority's last "@", as url.Parse reads it.
var userinfo = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s"'<>]*@`)

// param is a query parameter of a URL in a text.
var param = regexp.MustCompile(`([?&])([^=&#\s"'<>()]+)=([^&#\s"'<>()]*)`)

// RedactURLs returns a text with the credentials of the URLs it holds
// removed, as RedactURL removes them: a message may quote a URL that came
// from a catalogs file, a flag or a server.
func RedactURLs(text string) string {
	if !strings.Contains(text, "://") {
		return text
	}
	text = userinfo.ReplaceAllString(text, "$1")
	return redactParams(text)
}

// redactQuery masks the values of the parameters of a raw query (without
// its "?") named like secrets.
func redactQuery(raw string) string {
	if raw == "" {
		return raw
	}
	return redactParams("?" + raw)[1:]
}

// redactParams masks, in a text, the values of the query parameters named
// like secrets.
func redactParams(text string) string {
	return param.ReplaceAllStringFunc(text, func(m string) string {
		sub := param.FindStringSubmatch(m)
		key, err := url.QueryUnescape(sub[2])
		if err != nil {
			key = sub[2]
		}
		// Punctuation that ends the value ends the sentence quoting the
		// URL ("fetching URL: 404").
		val := strings.TrimRight(sub[3], ".,:;")
		if !Named(key) || val == "" || val == Mask {
			return m
		}
		return sub[1] + sub[2] + "=" + Mask + sub[3][len(val):]
	})
}
