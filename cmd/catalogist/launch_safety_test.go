//go:build linux

// The launch's safety is tested on Linux, where a FIFO and /dev/zero exist
// and inotify tells whether a file was opened at all.

package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"golang.org/x/sys/unix"
)

// secretsCatalog is a catalog whose chart puts every secret it is given
// into a Secret (data, base64, and stringData), into environment variables
// and into a ConfigMap; strict-app refuses a password given under a key its
// schema types as a string, quoting the value refused.
var secretsCatalog = map[string]string{
	"catalog.yaml":                 "name: secrets\nextensionKey: x-onyxia\n",
	"charts/vault-app/Chart.yaml":  "apiVersion: v2\nname: vault-app\nversion: 1.0.0\ndescription: secrets everywhere\nicon: https://example.org/i.svg\n",
	"charts/vault-app/values.yaml": "auth: {user: admin, password: \"\"}\ngit: {token: \"\"}\ns3: {secretKey: \"\", keyId: \"\"}\nhook: \"\"\nbearer: \"\"\n",
	"charts/vault-app/values.schema.json": `{"type": "object", "properties": {
  "auth": {"type": "object", "properties": {
    "user": {"type": "string", "default": "admin"},
    "password": {"type": "string", "default": ""}}},
  "git": {"type": "object", "properties": {
    "token": {"type": "string", "default": "", "render": "password", "x-onyxia": {"overwriteDefaultWith": "git.token"}}}},
  "s3": {"type": "object", "properties": {
    "secretKey": {"type": "string", "default": "", "x-onyxia": {"overwriteDefaultWith": "s3.AWS_SECRET_ACCESS_KEY"}},
    "keyId": {"type": "string", "default": "", "x-onyxia": {"overwriteDefaultWith": "s3.AWS_ACCESS_KEY_ID"}}}},
  "hook": {"type": "string", "default": "", "x-onyxia": {"overwriteDefaultWith": "{{vault.VAULT_TOKEN}}"}},
  "bearer": {"type": "string", "default": "", "x-onyxia": {"overwriteDefaultWith": "Bearer {{user.accessToken}}"}}
}}`,
	"charts/vault-app/templates/secret.yaml": `apiVersion: v1
kind: Secret
metadata:
  name: {{ .Release.Name }}
data:
  password: {{ .Values.auth.password | b64enc | quote }}
  basic: {{ printf "%s:%s" .Values.auth.user .Values.auth.password | b64enc | quote }}
stringData:
  token: {{ .Values.git.token | quote }}
  s3: {{ .Values.s3.secretKey | quote }}
`,
	"charts/vault-app/templates/config.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}
data:
  app.ini: |
    user={{ .Values.auth.user }}
    password={{ .Values.auth.password }}
    authorization={{ .Values.bearer }}
`,
	"charts/vault-app/templates/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  selector: {matchLabels: {app: vault-app}}
  template:
    metadata: {labels: {app: vault-app}}
    spec:
      containers:
        - name: app
          image: busybox
          env:
            - name: AWS_SECRET_ACCESS_KEY
              value: {{ .Values.s3.secretKey | quote }}
            - name: AWS_ACCESS_KEY_ID
              value: {{ .Values.s3.keyId }}
            - name: HOOK
              value: {{ .Values.hook | quote }}
            - name: GIT_TOKEN
              value: {{ .Values.git.token }}
`,
	"charts/fail-app/Chart.yaml":  "apiVersion: v2\nname: fail-app\nversion: 1.0.0\ndescription: fails\nicon: https://example.org/i.svg\n",
	"charts/fail-app/values.yaml": "auth: {password: \"\"}\nstrict: false\n",
	"charts/fail-app/values.schema.json": `{"type": "object", "properties": {"strict": {"type": "boolean", "default": false},
  "auth": {"type": "object", "properties": {"password": {"type": "string", "default": ""}}}}}`,
	"charts/fail-app/templates/cm.yaml": `{{- if .Values.strict }}{{ fail (printf "the password %s is too weak" .Values.auth.password) }}{{ end }}
apiVersion: v1
kind: ConfigMap
metadata: {name: {{ .Release.Name }}}
`,
	"charts/strict-app/Chart.yaml":         "apiVersion: v2\nname: strict-app\nversion: 1.0.0\ndescription: strict\nicon: https://example.org/i.svg\n",
	"charts/strict-app/values.yaml":        "auth: \"\"\n",
	"charts/strict-app/values.schema.json": `{"type": "object", "properties": {"auth": {"type": "string", "default": ""}}}`,
	"charts/strict-app/templates/cm.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ .Release.Name }}}\ndata: {auth: {{ .Values.auth | quote }}}\n",
}

// buildSite builds a catalog into a repository directory.
func buildSite(t *testing.T, files map[string]string) string {
	t.Helper()
	src := t.TempDir()
	filetree.Write(t, src, files)
	out := filepath.Join(t.TempDir(), "site")
	if r := catalogist(t, nil, "build", src, "--out", out); r.code != 0 {
		t.Fatalf("build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	return out
}

// leaks returns the secrets, in clear or base64-encoded, that out holds.
func leaks(out string, secrets ...string) []string {
	var found []string
	for _, s := range secrets {
		for _, form := range []string{s, base64.StdEncoding.EncodeToString([]byte(s)), base64.RawStdEncoding.EncodeToString([]byte(s))} {
			if strings.Contains(out, form) {
				found = append(found, form)
			}
		}
	}
	return found
}

// No secret of the launch reaches standard output or error, in clear or in
// base64, wherever a template puts it: a Secret's data and stringData,
// environment values, a ConfigMap's file, the values printed, a refusal.
func TestLaunchDryRunMasksSecrets(t *testing.T) {
	site := buildSite(t, secretsCatalog)
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile.yaml")
	filetree.Write(t, dir, map[string]string{"profile.yaml": `git: {name: Ada, email: ada@example.org, token: ghp_GitTokenValue42}
s3: {AWS_ACCESS_KEY_ID: AKIAKEYID0042, AWS_SECRET_ACCESS_KEY: S3SecretValue42xyz, AWS_SESSION_TOKEN: sessTok42}
vault: {VAULT_TOKEN: hvs.VaultTok42}
user: {idep: ada, accessToken: eyJAccessTok42}
project: {id: u-ada, password: ProjPass42}
`})
	secrets := []string{"Hunter2", "admin:Hunter2", "ghp_GitTokenValue42", "AKIAKEYID0042", "S3SecretValue42xyz", "sessTok42", "hvs.VaultTok42", "eyJAccessTok42", "ProjPass42"}
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "KUBECONFIG=" + filepath.Join(dir, "none")}
	common := []string{"--repo", site, "--profile", profile, "--dry-run", "--show-values"}

	r := catalogist(t, env, append([]string{"launch", "vault-app", "--set", "auth.password=Hunter2", "--name", "v"}, common...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "kind: Secret") || !strings.Contains(r.stdout, "kind: Deployment") {
		t.Fatalf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if l := leaks(r.stdout+r.stderr, secrets...); len(l) > 0 {
		t.Errorf("secrets printed: %q\n%s%s", l, r.stdout, r.stderr)
	}
	// What is not secret is still shown.
	for _, kept := range []string{"user: admin", "user=admin", "name: AWS_SECRET_ACCESS_KEY", "# Source: vault-app/templates/secret.yaml", "password: '********'"} {
		if !strings.Contains(r.stdout, kept) {
			t.Errorf("%q is not printed:\n%s", kept, r.stdout)
		}
	}

	// Helm's error quotes what the template's fail message holds.
	r = catalogist(t, env, append([]string{"launch", "fail-app", "--set", "strict=true", "--set", "auth.password=Hunter2"}, common...)...)
	if r.code != 1 || !strings.Contains(r.stderr, "the password ******** is too weak") {
		t.Errorf("failing template: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if l := leaks(r.stdout+r.stderr, secrets...); len(l) > 0 {
		t.Errorf("failing template: secrets printed: %q\n%s%s", l, r.stdout, r.stderr)
	}

	// A refusal quotes the group the password was given under.
	for _, flag := range []string{"--set", "--set-string", "--set-json"} {
		val := "auth.password=Hunter2"
		if flag == "--set-json" {
			val = `auth.password="Hunter2"`
		}
		r = catalogist(t, env, append([]string{"launch", "strict-app", flag, val}, common...)...)
		if r.code != 1 || !strings.Contains(r.stderr, `auth: {"password":"********"}: got object, want string`) {
			t.Errorf("%s refusal: exit %d\n%s%s", flag, r.code, r.stdout, r.stderr)
		}
		if l := leaks(r.stdout+r.stderr, secrets...); len(l) > 0 {
			t.Errorf("%s: secrets printed: %q\n%s%s", flag, l, r.stdout, r.stderr)
		}
	}
}

// watchOpens reports, once called back, whether any process opened or read
// path since the watch began.
func watchOpens(t *testing.T, path string) func() bool {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Fatalf("inotify: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if _, err := unix.InotifyAddWatch(fd, path, unix.IN_OPEN|unix.IN_ACCESS); err != nil {
		t.Fatal(err)
	}
	return func() bool {
		buf := make([]byte, 4096)
		n, err := unix.Read(fd, buf)
		if err == unix.EAGAIN {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
}

// An index served over http that names a file of the user's (file://) is
// refused: the file is never opened, its content and digest are not
// printed, nothing is cached.
func TestLaunchRemoteIndexCannotReadLocalFiles(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "home", ".netrc")
	filetree.Write(t, dir, map[string]string{"home/.netrc": "machine example.org login ada password PrivateContent42\n"})
	content, err := os.ReadFile(private)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	realDigest := hex.EncodeToString(sum[:])
	index := fmt.Sprintf(`apiVersion: v1
entries:
  app:
    - {apiVersion: v2, name: app, version: 1.0.0, urls: ["file://%[1]s"], digest: %[2]s}
    - {apiVersion: v2, name: app, version: 2.0.0, urls: ["file://%[1]s"], digest: %[3]s}
    - {apiVersion: v2, name: app, version: 3.0.0, urls: ["%[1]s"], digest: %[3]s}
`, private, realDigest, strings.Repeat("ab", 32))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/index.yaml" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(index))
	}))
	defer srv.Close()
	opened := watchOpens(t, private)
	cache := filepath.Join(dir, "cache")
	for _, version := range []string{"1.0.0", "2.0.0", "3.0.0"} {
		r := catalogist(t, []string{"KUBECONFIG=" + filepath.Join(dir, "none")}, "launch", "app", "--repo", srv.URL, "--version", version, "--dry-run", "--cache-dir", cache)
		out := r.stdout + r.stderr
		want := fmt.Sprintf("%s/index.yaml: app %s: ", srv.URL, version)
		if version == "3.0.0" {
			// A plain path in a remote index is a path on its server.
			want = "404 Not Found"
		} else {
			want += "the package URL file://" + private + " is not http or https"
		}
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("version %s: exit %d, want a refusal holding %q:\n%s", version, r.code, want, out)
		}
		// Version 1.0.0's index publishes the file's digest itself.
		if (version != "1.0.0" && strings.Contains(out, realDigest)) || strings.Contains(out, "PrivateContent42") {
			t.Errorf("version %s: the file's digest or content was printed:\n%s", version, out)
		}
	}
	if opened() {
		t.Error("the private file was opened")
	}
	if entries, _ := os.ReadDir(filepath.Join(cache, "packages")); len(entries) > 0 {
		t.Errorf("files were cached: %v", entries)
	}
}

// A repository on disk that the user names may name its packages by
// relative paths or file:// URLs; what is not a regular file (a FIFO, a
// device) is refused at once instead of hanging or reading without end.
func TestLaunchLocalIndex(t *testing.T) {
	site := buildSite(t, secretsCatalog)
	dir := t.TempDir()
	pkgs := filepath.Join(dir, "pkgs")
	repo := filepath.Join(dir, "repo")
	for _, d := range []string{pkgs, repo} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(filepath.Join(site, "strict-app-1.0.0.tgz"), filepath.Join(pkgs, "strict-app-1.0.0.tgz")); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(site, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	index := strings.Replace(string(data), "strict-app-1.0.0.tgz", "../pkgs/strict-app-1.0.0.tgz", 1)
	if index == string(data) {
		t.Fatalf("the index names no strict-app-1.0.0.tgz:\n%s", data)
	}
	index = strings.Replace(index, "vault-app-1.0.0.tgz", "file:///dev/zero", 1)
	filetree.Write(t, repo, map[string]string{"index.yaml": index})
	env := []string{"KUBECONFIG=" + filepath.Join(dir, "none"), "XDG_CACHE_HOME=" + filepath.Join(dir, "cache")}

	r := catalogist(t, env, "launch", "strict-app", "--repo", repo, "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "kind: ConfigMap") {
		t.Errorf("relative path: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = catalogist(t, env, "launch", "vault-app", "--repo", repo, "--dry-run")
	if r.code != 1 || !strings.Contains(r.stderr, "/dev/zero is a character device, not a regular file") {
		t.Errorf("/dev/zero: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	fifoRepo := filepath.Join(dir, "fifo-repo")
	filetree.Write(t, fifoRepo, map[string]string{"index.yaml": strings.Replace(string(data), "vault-app-1.0.0.tgz", "pipe.tgz", 1)})
	if err := syscall.Mkfifo(filepath.Join(fifoRepo, "pipe.tgz"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = catalogist(t, env, "launch", "vault-app", "--repo", fifoRepo, "--dry-run")
	if r.code != 1 || !strings.Contains(r.stderr, "pipe.tgz is a named pipe (FIFO), not a regular file") {
		t.Errorf("FIFO: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The index itself, named as a file.
	r = catalogist(t, env, "launch", "vault-app", "--repo", "/dev/zero", "--dry-run")
	if r.code != 1 || !strings.Contains(r.stderr, "not a regular file") {
		t.Errorf("index /dev/zero: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// The credentials written in a catalog's location are used, and never
// printed: in the listing, in a failure, in a launch, in a parse error.
func TestCatalogsRedactCredentials(t *testing.T) {
	site := buildSite(t, secretsCatalog)
	files := http.FileServer(http.Dir(site))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "alice" || p != "s3cret-pw" {
			w.Header().Set("WWW-Authenticate", `Basic realm="charts"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	env := []string{"KUBECONFIG=" + filepath.Join(dir, "none"), "XDG_CACHE_HOME=" + filepath.Join(dir, "cache")}
	good := strings.Replace(srv.URL, "http://", "http://alice:s3cret-pw@", 1) + "/?token=tok-4242"
	bad := strings.Replace(srv.URL, "http://", "http://alice:wrong-pw@", 1)
	filetree.Write(t, dir, map[string]string{
		"catalogs.yaml":     fmt.Sprintf("catalogs:\n  - {id: sec, name: Secrets, location: %q}\n  - {id: locked, name: Locked, location: %q}\n", good, bad),
		"bad-catalogs.yaml": fmt.Sprintf("catalogs:\n  - {id: sec, location: %q, status: %q}\n", good, good),
	})
	creds := []string{"s3cret-pw", "wrong-pw", "tok-4242", "alice:"}

	r := catalogist(t, env, "catalogs", "--catalogs", filepath.Join(dir, "catalogs.yaml"))
	if r.code != 0 || !strings.Contains(r.stdout, "vault-app") || !strings.Contains(r.stdout, "(unavailable: fetching "+srv.URL+"/index.yaml: 401 Unauthorized)") {
		t.Errorf("catalogs: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if l := leaks(r.stdout+r.stderr, creds...); len(l) > 0 {
		t.Errorf("catalogs printed credentials %q:\n%s%s", l, r.stdout, r.stderr)
	}
	r = catalogist(t, env, "launch", "sec/vault-app", "--catalogs", filepath.Join(dir, "catalogs.yaml"), "--dry-run")
	if r.code != 0 || !strings.Contains(r.stderr, "vault-app 1.0.0 from "+srv.URL+"/vault-app-1.0.0.tgz") {
		t.Errorf("launch: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r2 := catalogist(t, env, "launch", "locked/vault-app", "--catalogs", filepath.Join(dir, "catalogs.yaml"), "--dry-run")
	r3 := catalogist(t, env, "catalogs", "--catalogs", filepath.Join(dir, "bad-catalogs.yaml"))
	if r2.code != 1 || r3.code != 2 || !strings.Contains(r3.stderr, "write PROD or TEST") {
		t.Errorf("failures: exit %d and %d\n%s%s", r2.code, r3.code, r2.stderr, r3.stderr)
	}
	for _, r := range []result{r, r2, r3} {
		if l := leaks(r.stdout+r.stderr, creds...); len(l) > 0 {
			t.Errorf("credentials printed %q:\n%s%s", l, r.stdout, r.stderr)
		}
	}
}
