package release

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/google/go-github/v89/github"
)

// secondaryWait is how long GitHub asks to wait after a secondary rate
// limit that says no Retry-After: "at least one minute".
const secondaryWait = time.Minute

// retry runs op until it succeeds, fails in a way another try cannot mend,
// or Attempts are spent. GitHub's server errors (5xx), its rate limits and
// connections that fail are tried again, after the wait GitHub asks for
// (Retry-After, or the primary rate limit's reset), else after 1, 2, 4...
// seconds; no other answer is. A wait longer than MaxWait fails at once.
// before, when set, runs before each new try.
func (p *Publisher) retry(ctx context.Context, what string, op func() error, before func() error) error {
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", what, ctx.Err())
		}
		wait, again := p.backoff(err, attempt)
		switch {
		case !again:
			if re := p.redirected(err); re != nil {
				// Not the URL the redirect named: a server's text.
				return fmt.Errorf("%s: %w", what, re)
			}
			return fmt.Errorf("%s: %w", what, err)
		case attempt >= p.cfg.Attempts:
			return fmt.Errorf("%s: %w (gave up after %d attempts)", what, err, attempt)
		case wait > p.cfg.MaxWait:
			return fmt.Errorf("%s: %w: GitHub asks to wait %s before trying again, more than %s: publish again later", what, err, wait.Round(time.Second), p.cfg.MaxWait)
		}
		fmt.Fprintf(p.cfg.Log, "%s: %s; trying again in %s (attempt %d of %d)\n",
			what, p.serverText(err.Error()), wait.Round(time.Millisecond), attempt+1, p.cfg.Attempts)
		if err := p.cfg.Sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if before != nil {
			if err := before(); err != nil {
				return err
			}
		}
	}
}

// backoff says whether an error is worth another try, and after how long.
func (p *Publisher) backoff(err error, attempt int) (time.Duration, bool) {
	exp := min(time.Second<<min(attempt-1, 16), p.cfg.MaxWait)
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	var er *github.ErrorResponse
	var ue *url.Error
	switch {
	case errors.As(err, new(final)), p.redirected(err) != nil:
		return 0, false
	case errors.As(err, &rl):
		if d, ok := retryAfter(rl.Response, p.cfg.Now()); ok {
			return d, true
		}
		if !rl.Rate.Reset.IsZero() {
			return max(rl.Rate.Reset.Sub(p.cfg.Now()), 0) + time.Second, true
		}
		return secondaryWait, true
	case errors.As(err, &ab):
		if ab.RetryAfter != nil {
			return max(*ab.RetryAfter, 0), true
		}
		return secondaryWait, true
	case errors.As(err, &er):
		if er.Response == nil {
			return 0, false
		}
		code := er.Response.StatusCode
		if code != http.StatusTooManyRequests && code < 500 {
			return 0, false
		}
		if d, ok := retryAfter(er.Response, p.cfg.Now()); ok {
			return d, true
		}
		return exp, true
	case errors.As(err, &ue):
		// The connection failed or dropped: the request may not have
		// reached GitHub, or its answer may have been lost.
		return exp, true
	}
	return 0, false
}

// retryAfter reads a response's Retry-After: seconds, or an HTTP date.
func retryAfter(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp == nil {
		return 0, false
	}
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// final is the error of a step of an operation that retries its own
// requests: tried again already, it is not tried once more with the
// operation.
type final struct{ error }

func (f final) Unwrap() error { return f.error }

// answerLost reports whether a request that failed with err may still
// have been carried out: GitHub failed (5xx) or the connection broke, maybe
// after the request was received. A refusal (4xx, a rate limit) was not.
func (p *Publisher) answerLost(err error) bool {
	var ue *url.Error
	return status(err) >= 500 || (errors.As(err, &ue) && p.redirected(err) == nil)
}

// alreadyExists reports whether err is GitHub's 422 for a release or an
// asset whose tag or name is taken.
func alreadyExists(err error) bool {
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil || er.Response.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	for _, e := range er.Errors {
		if e.Code == "already_exists" {
			return true
		}
	}
	return false
}

// status is the HTTP status of a GitHub error, or 0.
func status(err error) int {
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	var er *github.ErrorResponse
	var resp *http.Response
	switch {
	case errors.As(err, &rl):
		resp = rl.Response
	case errors.As(err, &ab):
		resp = ab.Response
	case errors.As(err, &er):
		resp = er.Response
	}
	if resp == nil {
		return 0
	}
	return resp.StatusCode
}
