package release_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-github/v89/github"

	"github.com/catalogist/catalogist/internal/publish/release"
	"github.com/catalogist/catalogist/internal/testkit/githubtest"
)

// hostile is a text a server could answer with: a line break then a
// workflow command, a legacy command, Markdown, HTML, an escape sequence.
const hostile = "https://x/\n::error::forged ##[add-mask]tok [link](javascript:alert(1)) <img src=x>\x1b[31m"

// A release page or a download address that is not on the instance's web
// host is replaced by the address GitHub gives it; one that is, holding a
// secret, comes back scrubbed.
func TestServerAddresses(t *testing.T) {
	for _, tc := range []struct {
		name, web           string
		wantPage, wantAsset string
	}{
		{"hostile", hostile + "/",
			"https://github.com/o/r/releases/tag/a-1.0.0", "https://github.com/o/r/releases/download/a-1.0.0/a-1.0.0.tgz"},
		{"another host", "https://github.com.evil.example/",
			"https://github.com/o/r/releases/tag/a-1.0.0", "https://github.com/o/r/releases/download/a-1.0.0/a-1.0.0.tgz"},
		{"javascript", "javascript:alert(1)//github.com/",
			"https://github.com/o/r/releases/tag/a-1.0.0", "https://github.com/o/r/releases/download/a-1.0.0/a-1.0.0.tgz"},
		{"the token in the path", "https://github.com/" + token + "/",
			"https://github.com/********/o/r/releases/tag/a-1.0.0", "https://github.com/********/o/r/releases/download/a-1.0.0/a-1.0.0.tgz"},
		{"a secret parameter", "https://github.com/?access_token=s3cr3t-value&x=",
			"https://github.com/?access_token=********&x=o/r/releases/tag/a-1.0.0", "https://github.com/?access_token=********&x=o/r/releases/download/a-1.0.0/a-1.0.0.tgz"},
		{"credentials", "https://user:pa55word@github.com/",
			"https://github.com/o/r/releases/tag/a-1.0.0", "https://github.com/o/r/releases/download/a-1.0.0/a-1.0.0.tgz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := githubtest.Serve(t, "o", "r", token)
			s.Web = tc.web
			p, _, _ := publisher(t, s, release.Config{})
			c := chart(t, t.TempDir(), "a", "1.0.0", "a")
			for _, run := range []string{"created", "skipped"} {
				outs, err := p.Run(t.Context(), []release.Chart{c})
				if err != nil {
					t.Fatal(err)
				}
				if o := outs[0]; string(o.Status) != run || o.ReleaseURL != tc.wantPage || o.AssetURL != tc.wantAsset {
					t.Errorf("%s: %s and %s\nwant %s and %s", o.Status, o.ReleaseURL, o.AssetURL, tc.wantPage, tc.wantAsset)
				}
			}
		})
	}
}

// GitHub's messages, in an error or in the log of a retry, come scrubbed of
// the token and on one line, without control characters; the error is
// still GitHub's to errors.As.
func TestServerMessages(t *testing.T) {
	body, _ := json.Marshal(map[string]any{
		"message": hostile + " " + token,
		"errors":  []map[string]string{{"resource": "Release", "field": "tag\nname", "code": "custom", "message": "x\x1b]8;;javascript:alert(1)\ay " + token}},
	})
	s := githubtest.Serve(t, "o", "r", token)
	s.Fail(githubtest.Fault{Method: "POST", Path: "/repos/o/r/releases", Status: 502, Body: string(body)})
	s.Fail(githubtest.Fault{Method: "POST", Path: "/repos/o/r/releases", Status: 422, Body: string(body)})
	s.Fail(githubtest.Fault{Method: "GET", Path: "/repos/o/r/releases", Status: 403, Body: string(body)})
	p, _, log := publisher(t, s, release.Config{})
	_, err := p.Run(t.Context(), []release.Chart{chart(t, t.TempDir(), "a", "1.0.0", "a")})
	var ge *github.ErrorResponse
	if err == nil || !errors.As(err, &ge) || ge.Response.StatusCode != 422 {
		t.Fatalf("error %v, want GitHub's 422", err)
	}
	_, lerr := p.ChartRelease(t.Context(), []string{"a"})
	if lerr == nil || !errors.As(lerr, &ge) || ge.Response.StatusCode != 403 {
		t.Fatalf("listing: error %v, want GitHub's 403", lerr)
	}
	for what, text := range map[string]string{"error": err.Error(), "listing's error": lerr.Error(), "log": strings.TrimSuffix(log.String(), "\n")} {
		if strings.Contains(text, token) || strings.ContainsAny(text, "\n\r\x1b\a") {
			t.Errorf("the %s holds the token or a control character: %q", what, text)
		}
		for _, want := range []string{`https://x/\n::error::forged ##[add-mask]tok [link](javascript:alert(1)) <img src=x>\x1b[31m ********`, `x\x1b]8;;javascript:alert(1)\x07y ********`, `tag\nname`} {
			if !strings.Contains(text, want) {
				t.Errorf("the %s lacks %q, GitHub's text escaped:\n%s", what, want, text)
			}
		}
	}
}
