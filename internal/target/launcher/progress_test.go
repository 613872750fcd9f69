package launcher_test

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"regexp"
	"testing"

	"github.com/catalogist/catalogist/internal/base/progress"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/target/launcher"
	"github.com/catalogist/catalogist/internal/testkit/repotest"
)

// TestDownloadProgress resolves a chart twice with its download shown as
// in a CI log: one line for the package downloaded, none for the package
// the cache holds.
func TestDownloadProgress(t *testing.T) {
	src, _ := ideSource(t, repotest.Serve(t, built(t)).URL, "vscode-python")
	var log bytes.Buffer
	rep := progress.New(&log, progress.Options{Getenv: func(k string) string {
		return map[string]string{"GITHUB_ACTIONS": "true"}[k]
	}})
	var sources []string
	r := launcher.Resolver{CacheDir: t.TempDir(), Progress: func(src string, size int64) chartrepo.Meter {
		sources = append(sources, src)
		return rep.Bytes("download "+path.Base(src), size)
	}}
	res, err := r.Resolve(context.Background(), src, "")
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(fmt.Sprintf(`^download vscode-python-%s\.tgz  \d+\.\d KiB in \d+ ms\n$`, regexp.QuoteMeta(res.Version.Version)))
	if !want.MatchString(log.String()) {
		t.Errorf("got %q, want a line matching %s", log.String(), want)
	}
	if len(sources) != 1 || sources[0] != res.PackageURL {
		t.Errorf("told of %v, want [%s]", sources, res.PackageURL)
	}
	log.Reset()
	if _, err := r.Resolve(context.Background(), src, ""); err != nil {
		t.Fatal(err)
	}
	if log.Len() != 0 || len(sources) != 1 {
		t.Errorf("the cached package was shown as downloaded: %q", log.String())
	}
}
