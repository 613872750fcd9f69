package release

import (
	"errors"
	"net/url"
	"strings"

	"github.com/google/go-github/v89/github"

	"github.com/catalogist/catalogist/internal/base/printable"
	"github.com/catalogist/catalogist/internal/base/secret"
)

// What GitHub answers (release pages, asset names, error messages) is
// printed into a terminal, a job's log and its summary. A server may put
// anything there: the token it was sent, a line break followed by a
// workflow command, escape sequences. So what a Publisher returns of an
// answer is scrubbed of the token and of URL credentials, and holds no
// control character; the places it is printed escape it further.

// serverText is a text of an answer as a Publisher returns it: scrubbed
// and on one line.
func (p *Publisher) serverText(s string) string {
	return printable.Line(p.secrets.Scrub(s))
}

// serverErr returns err, an error of a request, scrubbed of the token;
// one that quotes GitHub's answer or its connection (the texts of
// go-github's errors, the URL and the cause of a failed request) is also
// written on one line, without control characters, as serverText writes
// it. Such a message is one line by construction, so nothing of ours is
// lost. errors.As and errors.Is still see every error of the chain.
func (p *Publisher) serverErr(err error) error {
	if err == nil {
		return nil
	}
	if !fromServer(err) {
		return p.secrets.Err(err)
	}
	return &serverError{msg: p.serverText(err.Error()), err: err}
}

// fromServer reports whether err quotes an answer or a connection.
func fromServer(err error) bool {
	var (
		er *github.ErrorResponse
		rl *github.RateLimitError
		ab *github.AbuseRateLimitError
		ac *github.AcceptedError
		rd *github.RedirectionError
		ue *url.Error
	)
	return errors.As(err, &er) || errors.As(err, &rl) || errors.As(err, &ab) || errors.As(err, &ac) ||
		errors.As(err, &rd) || errors.As(err, &ue)
}

type serverError struct {
	msg string
	err error
}

func (e *serverError) Error() string { return e.msg }
func (e *serverError) Unwrap() error { return e.err }

// pageURL returns the address GitHub gave for a release's page or an
// asset's download, scrubbed, when it is an http(s) address on the
// instance's web host, under its web path, with nothing a browser or a
// Markdown reader would take otherwise (no credentials, no control
// character, space or backslash); else ours, the address the page or the
// download has on GitHub, which the answer cannot change.
func (p *Publisher) pageURL(given, ours string) string {
	if given == "" || strings.ContainsAny(given, " \\") || printable.Line(given) != given {
		return ours
	}
	u, err := url.Parse(given)
	if err != nil || u.User != nil || u.Opaque != "" || !strings.EqualFold(u.Scheme, p.ep.web.Scheme) ||
		!strings.EqualFold(u.Host, p.ep.web.Host) || !strings.HasPrefix(u.EscapedPath(), p.ep.web.EscapedPath()) {
		return ours
	}
	return secret.RedactURL(p.secrets.Scrub(given))
}

// releasePage is the address of the page of the release tagged tag.
func (p *Publisher) releasePage(tag string) string {
	u := *p.ep.web
	u.Path += p.cfg.Owner + "/" + p.cfg.Repo + "/releases/tag/" + tag
	return u.String()
}

// cleanOutcome makes the addresses of an outcome ones pageURL accepts;
// asset is the name of the release's package.
func (p *Publisher) cleanOutcome(o *Outcome, asset string) {
	o.ReleaseURL = p.pageURL(o.ReleaseURL, p.releasePage(o.Tag))
	o.AssetURL = p.pageURL(o.AssetURL, p.AssetURL(o.Tag, asset))
}
