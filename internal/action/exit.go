// Package action holds what catalogist's commands do, one struct per user
// action in the manner of Helm's pkg/action: the command line (or the
// GitHub Action's inputs, or a test) fills it, and Run does the work with
// a context and the writers it is given. Every error Run returns carries
// the exit code of docs/exit-codes.md.
package action

import (
	"errors"
	"net"
	"net/http"
	"net/url"

	"github.com/google/go-github/v89/github"

	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// The exit codes of every command (docs/exit-codes.md).
const (
	// ExitOK: the command did what it was asked, and found nothing wrong.
	ExitOK = 0
	// ExitRefused: findings (lint errors, or warnings with --strict), or an
	// operation refused on its merits (a published version whose package
	// changed, values the form does not allow, a form that does not open).
	ExitRefused = 1
	// ExitUsage: bad flags or arguments, or a file that cannot be read or
	// written (missing or malformed, no chart where one was named).
	ExitUsage = 2
	// ExitFailed: the operation failed on the way, for a reason outside
	// the input: the network, a server (GitHub, a chart repository, the
	// cluster), git, or another build holding the output.
	ExitFailed = 3
)

// Error is an error with the exit code it ends the process with.
type Error struct {
	Code int
	// Err is nil when the output already said everything (findings).
	Err error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Usage marks bad flags, arguments or unreadable input.
func Usage(err error) error { return &Error{Code: ExitUsage, Err: err} }

// Refused marks findings, or an operation refused on its merits; err may
// be nil when the output said why.
func Refused(err error) error { return &Error{Code: ExitRefused, Err: err} }

// Failed marks an operation that failed for a reason outside the input.
func Failed(err error) error { return &Error{Code: ExitFailed, Err: err} }

// ExitCode is the exit code an error ends the process with: its own when
// it has one, else ExitUsage, which cobra's own errors (an unknown
// command, a missing argument) are.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ExitUsage
}

// inputOrRemote marks err as a failure when something remote caused it
// (the network, a server's answer), else as unreadable input.
func inputOrRemote(err error) error {
	if remote(err) {
		return Failed(err)
	}
	return Usage(err)
}

// remote says whether err comes from the network or a failing server: no
// answer, a 5xx or a 429 from a chart repository, or any error of GitHub's
// API. A repository's other answers (404, 401) say something of the input:
// the address or the credentials.
func remote(err error) bool {
	// Not net.Error: syscall.Errno implements it, a file's permission
	// error included.
	var (
		ue  *url.Error
		ne  *net.OpError
		se  *chartrepo.StatusError
		nwe *chartrepo.NetworkError
		ghe *github.ErrorResponse
		rle *github.RateLimitError
		are *github.AbuseRateLimitError
	)
	if errors.As(err, &se) {
		return se.Code >= 500 || se.Code == http.StatusTooManyRequests
	}
	return errors.As(err, &nwe) || errors.As(err, &ue) || errors.As(err, &ne) || errors.As(err, &ghe) || errors.As(err, &rle) || errors.As(err, &are)
}
