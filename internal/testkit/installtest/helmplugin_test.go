package installtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// testHelmPlugin: the plugin installs from a checkout, src, into both
// pinned Helm CLIs, as the README shows. The checkout's bin/ holds a
// catalogist built from its revision, which the install hooks find current:
// neither builds. helm catalogist lint then lints the examples, and a
// broken chart fails with its finding and lint's exit status. The script's
// choice of binary, and its build, are checked apart with stand-ins for
// catalogist and go. Last, the plugin installs from the repository's git
// address into both.
func testHelmPlugin(t *testing.T, src, rev string) {
	bin := filepath.Join(src, "bin", "catalogist")
	broken := t.TempDir()
	// The flaw (option-type) is on line 3.
	filetree.Write(t, broken, map[string]string{
		"charts/app/Chart.yaml":         "apiVersion: v2\nname: app\nversion: 1.0.0\ndescription: d\nicon: https://example.org/i.svg\n",
		"charts/app/values.schema.json": "{\"type\": \"object\", \"properties\": {\n  \"name\": {\"title\": \"Name\", \"type\": \"string\", \"default\": \"x\"},\n  \"port\": {\"title\": \"Port\", \"default\": 80}}}\n",
	})
	finding := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(filepath.Join(broken, "charts", "app", "values.schema.json")) + `:3:\d+: error: option "port" .*\[option-type\]$`)

	for _, major := range []int{3, 4} {
		helm := tooltest.NewHelm(t, major)
		begin := time.Now()
		out, errOut, err := helm.Try("plugin", "install", src)
		t.Logf("Helm %d: plugin install: %v", major, time.Since(begin).Round(time.Millisecond))
		if err != nil || !strings.Contains(out, "Installed plugin: catalogist") {
			t.Fatalf("Helm %d: plugin install %s: %v\n%s%s", major, src, err, out, errOut)
		}
		if strings.Contains(errOut, "building catalogist") {
			t.Errorf("Helm %d: the install hook built catalogist, though %s is of revision %s:\n%s%s", major, bin, rev, out, errOut)
		}
		if list := helm.Run(t, "plugin", "list"); !regexp.MustCompile(`(?m)^catalogist\s+0\.1\.0\s`).MatchString(list) {
			t.Errorf("Helm %d: plugin list:\n%s", major, list)
		}

		out, errOut, err = helm.Try("catalogist", "lint", "--region", filepath.Join(src, "examples", "region.yaml"), filepath.Join(src, "examples", "ide"))
		if err != nil || out != "2 charts, 0 errors, 0 warnings\n" {
			t.Errorf("Helm %d: helm catalogist lint of the ide example: %v\n%s%s", major, err, out, errOut)
		}
		out, errOut, err = helm.Try("catalogist", "lint", broken)
		if code := exitCode(err); code != 1 || !finding.MatchString(out) || !strings.HasSuffix(out, "1 chart, 1 error, 0 warnings\n") {
			t.Errorf("Helm %d: helm catalogist lint of a broken chart: exit %d, want 1 with the finding\n%s%s", major, code, out, errOut)
		}
	}
	if v, err := exec.Command(bin, "version").Output(); err != nil || !strings.Contains(string(v), ", revision "+rev+",") {
		t.Errorf("%s version: %v\n%s", bin, err, v)
	}

	script := filepath.Join(src, "scripts", "helm-plugin.sh")
	plugin := func(env []string, args ...string) (string, int) {
		return run(t.TempDir(), append([]string{"HELM_PLUGIN_DIR=" + src}, env...), "sh", append([]string{script}, args...)...)
	}
	t.Run("a catalogist on PATH built from the plugin's revision runs", func(t *testing.T) {
		path := fakeCatalogist(t, "catalogist (devel), revision "+rev+", committed 2026-01-02T03:04:05Z, go1.26.0 linux/amd64")
		if out, code := plugin([]string{"PATH=" + path}, "lint", "x"); code != 0 || out != "fake catalogist lint x\n" {
			t.Errorf("exit %d\n%s", code, out)
		}
	})
	t.Run("one built from another revision does not", func(t *testing.T) {
		path := fakeCatalogist(t, "catalogist (devel), revision 0123456789abcdef0123456789abcdef01234567, go1.26.0 linux/amd64")
		if out, code := plugin([]string{"PATH=" + path}, "version"); code != 0 || !strings.Contains(out, "revision "+rev+",") {
			t.Errorf("exit %d, want the plugin's own catalogist\n%s", code, out)
		}
	})
	t.Run("without go, what to do", func(t *testing.T) {
		// A copy of the plugin outside a checkout, with nothing built.
		dir := pluginCopy(t, src, false)
		env := []string{"HELM_PLUGIN_DIR=" + dir, "PATH=" + toolsOnly(t, "sed", "dirname", "git")}
		want := "no catalogist of version 0.1.0 on PATH, and go is not on PATH to build one into " + filepath.Join(dir, "bin", "catalogist") + ": install Go"
		if out, code := run(t.TempDir(), env, "/bin/sh", filepath.Join(dir, "scripts", "helm-plugin.sh"), "lint"); code != 2 || !strings.Contains(out, want) {
			t.Errorf("running: exit %d, want 2 saying %q\n%s", code, want, out)
		}
		// Installing still succeeds: the first use says what is missing.
		if out, code := run(t.TempDir(), env, "/bin/sh", filepath.Join(dir, "scripts", "helm-plugin.sh"), "--plugin-hook"); code != 0 || !strings.Contains(out, want) {
			t.Errorf("install hook: exit %d, want 0 saying %q\n%s", code, want, out)
		}
	})
	t.Run("built once per revision", func(t *testing.T) {
		dir := pluginCopy(t, src, true)
		log := filepath.Join(t.TempDir(), "go.log")
		env := []string{"HELM_PLUGIN_DIR=" + dir, "GO_LOG=" + log, "PATH=" + fakeGo(t) + string(os.PathListSeparator) + toolsOnly(t, "sed", "dirname", "git", "mkdir", "chmod")}
		script := filepath.Join(dir, "scripts", "helm-plugin.sh")
		ownBin := filepath.Join(dir, "bin", "catalogist")
		wantBuild := dir + " build -buildvcs=auto -o " + ownBin + " ./cmd/catalogist\n"
		for i, want := range []string{wantBuild, wantBuild, wantBuild + wantBuild} {
			if i == 2 {
				mustGit(t, dir, "commit", "-q", "--allow-empty", "-m", "a new revision")
			}
			out, code := run(t.TempDir(), env, "/bin/sh", script, "lint", "x")
			if code != 0 || !strings.HasSuffix(out, "built catalogist lint x\n") {
				t.Errorf("run %d: exit %d\n%s", i+1, code, out)
			}
			if got, _ := os.ReadFile(log); string(got) != want {
				t.Errorf("run %d: go ran as\n%swant\n%s", i+1, got, want)
			}
		}
	})

	// From the repository's address, as users without a checkout install
	// it: Helm 4 asks for --verify=false (a git repository carries no
	// signature), and the clone has no bin/, so the install hook finds the
	// catalogist on PATH built from the same revision.
	t.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, major := range []int{3, 4} {
		helm := tooltest.NewHelm(t, major)
		args := []string{"plugin", "install", "file://" + src}
		if major == 4 {
			if out, errOut, err := helm.Try(args...); err == nil || !strings.Contains(errOut, "Use --verify=false") {
				t.Errorf("Helm 4: plugin install from a git repository without --verify=false: %v, want a refusal naming it\n%s%s", err, out, errOut)
			}
			args = append(args, "--verify=false")
		}
		out, errOut, err := helm.Try(args...)
		if err != nil || !strings.Contains(out, "helm catalogist: runs "+bin+", of revision "+rev+"\n") || !strings.Contains(out, "Installed plugin: catalogist") {
			t.Errorf("Helm %d: plugin install %s: %v\n%s%s", major, strings.Join(args[2:], " "), err, out, errOut)
		}
		out, errOut, err = helm.Try("catalogist", "lint", "--region", filepath.Join(src, "examples", "region.yaml"), filepath.Join(src, "examples", "ide"))
		if err != nil || out != "2 charts, 0 errors, 0 warnings\n" {
			t.Errorf("Helm %d: helm catalogist lint, installed from the repository: %v\n%s%s", major, err, out, errOut)
		}
	}
}

// pluginCopy copies the plugin's manifest and script, alone, to a directory
// named catalogist; inGit makes it a git checkout with one commit.
func pluginCopy(t *testing.T, src string, inGit bool) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "catalogist")
	filetree.Copy(t, filepath.Join(src, "plugin.yaml"), filepath.Join(dir, "plugin.yaml"))
	filetree.Copy(t, filepath.Join(src, "scripts", "helm-plugin.sh"), filepath.Join(dir, "scripts", "helm-plugin.sh"))
	if inGit {
		mustGit(t, dir, "init", "-q")
		mustGit(t, dir, "add", "-A")
		mustGit(t, dir, "commit", "-q", "-m", "the plugin")
	}
	return dir
}

// fakeGo returns a directory whose go logs how it ran to $GO_LOG and, for
// -o FILE, writes a catalogist of the current directory's git revision.
func fakeGo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
echo "$PWD $*" >> "$GO_LOG"
out=
while [ $# -gt 0 ]; do
	[ "$1" = -o ] && out=$2
	shift
done
mkdir -p "$(dirname "$out")"
printf '#!/bin/sh\nif [ "$1" = version ]; then echo "catalogist (devel), revision %s, go1.26.0 linux/amd64"; else echo built catalogist "$@"; fi\n' "$(git rev-parse HEAD)" > "$out"
chmod +x "$out"
`
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fakeCatalogist returns a PATH whose catalogist prints line for version
// and its arguments otherwise, followed by the system's directories.
func fakeCatalogist(t *testing.T, line string) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\nif [ \"$1\" = version ]; then echo '" + line + "'; else echo fake catalogist \"$@\"; fi\n"
	if err := os.WriteFile(filepath.Join(dir, "catalogist"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// toolsOnly returns a PATH of one directory holding links to the named
// programs alone (no go).
func toolsOnly(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		p, err := exec.LookPath(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(p, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// exitCode is a command's exit status: 0 without error, -1 when it did
// not run.
func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
