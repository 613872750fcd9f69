package action

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// docs/exit-codes.md's table lists exactly the codes commands return.
func TestExitCodesDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/exit-codes.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []int
	for _, m := range regexp.MustCompile(`(?m)^\| ([0-9]+) \|`).FindAllStringSubmatch(string(data), -1) {
		n, _ := strconv.Atoi(m[1])
		documented = append(documented, n)
	}
	if want := []int{ExitOK, ExitRefused, ExitUsage, ExitFailed}; !slices.Equal(documented, want) {
		t.Errorf("docs/exit-codes.md lists the codes %v; the commands return %v", documented, want)
	}
}

func TestExitCode(t *testing.T) {
	plain := errors.New("unknown command")
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{Refused(nil), ExitRefused},
		{fmt.Errorf("wrapped: %w", Refused(plain)), ExitRefused},
		{Usage(plain), ExitUsage},
		// cobra's own errors.
		{plain, ExitUsage},
		{Failed(plain), ExitFailed},
		{inputOrRemote(&os.PathError{Op: "open", Path: "x", Err: os.ErrNotExist}), ExitUsage},
		{inputOrRemote(fmt.Errorf("fetching: %w", &url.Error{Op: "Get", URL: "https://example.org/index.yaml", Err: errors.New("connection refused")})), ExitFailed},
		{RefusedOrFailed(errors.New("values refused")), ExitRefused},
		{RefusedOrFailed(Usage(plain)), ExitUsage},
	} {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}
