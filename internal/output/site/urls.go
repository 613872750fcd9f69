package site

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// webURL reports whether raw is an absolute URL with a host and one of the
// given schemes (lower case), with nothing a browser would read differently
// from Go (control characters, backslashes).
func webURL(raw string, schemes ...string) bool {
	if raw == "" || strings.ContainsAny(raw, "\\") || hasControl(raw) {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil {
		return false
	}
	scheme := strings.ToLower(u.Scheme)
	for _, s := range schemes {
		if scheme == s {
			return true
		}
	}
	return false
}

func isHTTPS(raw string) bool { return webURL(raw, "https") }
func isHTTP(raw string) bool  { return webURL(raw, "http", "https") }

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == ' ' {
			return true
		}
	}
	return false
}

// webLink is a link to an http or https URL, or plain text for anything
// else (javascript:, relative paths, ...).
func webLink(text, raw string) link {
	raw = strings.TrimSpace(raw)
	if text == "" {
		text = raw
	}
	if isHTTP(raw) {
		return link{Text: text, URL: raw, External: true}
	}
	return link{Text: text}
}

// addressSeparators are where an address shown as text may wrap: after
// each of them, never inside a word.
const addressSeparators = "/.-_?&=#"

// addressLinkOf links an http(s) address, shown as its host and path
// (and query): the scheme and a trailing slash say nothing to a reader.
func addressLinkOf(raw string) addressLink {
	l := webLink(raw, raw)
	if l.URL == "" {
		return addressLink{link: l, Parts: []string{l.Text}}
	}
	u, err := url.Parse(l.URL)
	if err != nil {
		return addressLink{link: l, Parts: []string{l.Text}}
	}
	text := strings.ToLower(u.Host) + strings.TrimRight(u.Path, "/")
	if u.RawQuery != "" {
		text += "?" + u.RawQuery
	}
	l.Text = text
	return addressLink{link: l, Parts: addressParts(text)}
}

// addressParts cuts an address after each separator but inside its
// scheme's "://".
func addressParts(s string) []string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return wrapParts(s, addressSeparators)
	}
	parts := wrapParts(rest, addressSeparators)
	parts[0] = scheme + "://" + parts[0]
	return parts
}

// emailRe accepts the common shape of an address: no spaces, quotes,
// angle brackets or parentheses, one @ and a dotted domain.
var emailRe = regexp.MustCompile(`^[A-Za-z0-9.!#$%&'*+/=?^_{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$`)

func isEmail(s string) bool { return len(s) <= 254 && emailRe.MatchString(s) }

// siteURL returns the address, relative to the site root, of a package URL
// written in index.yaml: a relative reference is kept (and later prefixed
// with the page's way back to the root); an absolute one only when it is
// https. Host-relative paths ("/x.tgz") would miss the site's sub-path and
// are not linked.
func siteURL(raw string) (u string, absolute, ok bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.ContainsAny(raw, "\\") || hasControl(raw) {
		return "", false, false
	}
	p, err := url.Parse(raw)
	if err != nil {
		return "", false, false
	}
	if p.Scheme != "" || p.Host != "" || strings.HasPrefix(raw, "//") {
		if isHTTPS(raw) {
			return raw, true, true
		}
		return "", false, false
	}
	if strings.HasPrefix(raw, "/") {
		return "", false, false
	}
	if _, inside := cleanRepoPath(p.Path); !inside {
		return "", false, false // above the site root
	}
	return raw, false, true
}

// fromRoot turns an address relative to the site root into one relative to
// a page whose way back to the root is root ("" or "../../"); absolute URLs
// are returned as they are.
func fromRoot(root, p string) string {
	if isHTTPS(p) {
		return p
	}
	return root + p
}

// repoBase is the web address of the catalog's repository (https only),
// without a trailing slash or .git, or "".
func repoBase(source string) string {
	source = strings.TrimSpace(source)
	if !isHTTPS(source) {
		return ""
	}
	u, err := url.Parse(source)
	if err != nil || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	return strings.TrimSuffix(strings.TrimRight(source, "/"), ".git")
}

// cleanRepoPath cleans a slash path relative to the repository root; ok is
// false when it leaves the repository.
func cleanRepoPath(p string) (string, bool) {
	if p == "" {
		return "", true
	}
	if strings.HasPrefix(p, "/") {
		return "", false
	}
	c := path.Clean(p)
	if c == "." {
		return "", true
	}
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// escapePath escapes each segment of a slash path.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// sourceTree is where a chart's files live in the catalog repository:
// links to the folder (contribute) and to files the README names.
type sourceTree struct {
	repo, branch, dir string
}

func newSourceTree(source, branch, sourcePath string) (sourceTree, bool) {
	repo := repoBase(source)
	if repo == "" {
		return sourceTree{}, false
	}
	if branch = strings.TrimSpace(branch); branch == "" {
		branch = "main"
	}
	dir, ok := cleanRepoPath(sourcePath)
	if !ok {
		dir = ""
	}
	return sourceTree{repo: repo, branch: branch, dir: dir}, true
}

// url returns the web address of a repository path: kind is "tree" for a
// folder, "blob" for a file page and "raw" for a file's bytes (images).
func (t sourceTree) url(kind, p string) string {
	u := t.repo + "/" + kind + "/" + escapePath(t.branch)
	if p != "" {
		u += "/" + escapePath(p)
	}
	return u
}

// shellWord quotes s for a POSIX shell when it holds anything beyond the
// characters of names, versions and URLs.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9@%+=:,./_-]+$`)

func shellWord(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
