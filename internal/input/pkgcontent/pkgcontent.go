// Package pkgcontent tells whether two chart packages hold the same chart:
// the same files with the same bytes, whatever tool made them. Helm stamps
// every file of a package with the time it packaged it and re-encodes
// Chart.yaml and Chart.lock, so two packages of the same sources, made by
// `helm package` (which chart-releaser runs) and by catalogist, differ in
// their digests. What is compared is what Helm loads: tar metadata, the
// order of the files and the compression are ignored, the top directory
// is stripped as Helm strips it, and Chart.yaml and Chart.lock, the
// chart's and its subcharts', are compared as the data they decode to.
// A Chart.lock's generated field is a time stamp like the files' and is
// ignored, as is a Chart.lock only one package has: `helm package` after
// `helm dependency build` (chart-releaser's steps) writes one when the
// sources have none, recording the dependencies it resolved, which the
// package holds under charts/ and which are compared there.
//
// A package is read as a stream, hashing each file on the way, so memory
// stays flat whatever it holds; what it unpacks to is capped as Helm caps
// it (MaxSize), headers included, so that neither a gzip bomb nor a flood
// of empty entries costs more.
package pkgcontent

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"helm.sh/helm/v4/pkg/chart/loader/archive"
	"sigs.k8s.io/yaml"
)

// MaxSize bounds what a package may unpack to, tar headers included:
// Helm's own bound on a chart it loads.
var MaxSize = archive.MaxDecompressedChartSize

// maxDecoded bounds a Chart.yaml or Chart.lock decoded to compare:
// Helm's bound on one file of a chart. A larger one is compared by its
// bytes.
const maxDecoded = 5 << 20

// Content is what a package holds, as Helm loads it: a digest of each
// file, by its path inside the chart.
type Content struct {
	files map[string][sha256.Size]byte
}

// Files lists the paths of the files, sorted.
func (c *Content) Files() []string {
	out := make([]string, 0, len(c.files))
	for p := range c.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// ReadFile reads the package at p.
func ReadFile(p string) (*Content, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return c, nil
}

// Read reads a package, a gzip-compressed tar archive.
func Read(r io.Reader) (*Content, error) { return read(r, MaxSize) }

// errTooLarge is a package unpacking to more than its bound.
type errTooLarge int64

func (e errTooLarge) Error() string {
	return fmt.Sprintf("it unpacks to more than %d MiB, more than Helm loads", int64(e)>>20)
}

// capped reads at most n bytes, then fails: a stream cut short by a
// limit must not read as one that ended.
type capped struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, errTooLarge(c.limit)
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	return n, err
}

// drivePath is a path Windows would read as absolute; Helm refuses it.
var drivePath = regexp.MustCompile(`^[a-zA-Z]:/`)

func read(r io.Reader, limit int64) (*Content, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a chart package (gzip): %w", err)
	}
	defer zr.Close()
	tr := tar.NewReader(&capped{r: zr, n: limit, limit: limit})
	c := &Content{files: map[string][sha256.Size]byte{}}
	for {
		hd, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not a chart package (tar): %w", err)
		}
		if hd.FileInfo().IsDir() {
			continue
		}
		switch hd.Typeflag {
		case tar.TypeReg, tar.TypeRegA:
		case tar.TypeXGlobalHeader, tar.TypeXHeader:
			continue
		default:
			// Helm would load a link or a device as an empty file; no
			// tool that packages charts writes one.
			return nil, fmt.Errorf("%q is not a regular file: a chart package holds only files", hd.Name)
		}
		name, err := chartPath(hd.Name)
		if err != nil {
			return nil, err
		}
		if _, dup := c.files[name]; dup {
			return nil, fmt.Errorf("%s is in the package twice", name)
		}
		sum, err := digest(name, tr)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		c.files[name] = sum
	}
	if len(c.files) == 0 {
		return nil, errors.New("no files in the package")
	}
	return c, nil
}

// chartPath is where Helm puts a file of a package inside the chart: the
// name without its top directory, checked as Helm checks it.
func chartPath(name string) (string, error) {
	sep := "/"
	if strings.ContainsRune(name, '\\') {
		sep = `\`
	}
	parts := strings.Split(name, sep)
	n := strings.ReplaceAll(strings.Join(parts[1:], sep), sep, "/")
	if path.IsAbs(n) {
		return "", fmt.Errorf("%q is an absolute path", name)
	}
	n = path.Clean(n)
	switch {
	case n == ".":
		return "", fmt.Errorf("%q is outside the chart's directory", name)
	case n == ".." || strings.HasPrefix(n, "../"):
		return "", fmt.Errorf("%q leaves the chart's directory", name)
	case drivePath.MatchString(n):
		return "", fmt.Errorf("%q names a drive", name)
	case parts[0] == "Chart.yaml":
		return "", errors.New("Chart.yaml is not in the chart's directory")
	}
	return n, nil
}

// digest hashes a file: its bytes, or for a Chart.yaml or Chart.lock the
// data it decodes to.
func digest(name string, r io.Reader) ([sha256.Size]byte, error) {
	if !decoded(name) {
		h := sha256.New()
		if _, err := io.Copy(h, r); err != nil {
			return [sha256.Size]byte{}, err
		}
		return [sha256.Size]byte(h.Sum(nil)), nil
	}
	data, err := io.ReadAll(io.LimitReader(r, maxDecoded+1))
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	if len(data) <= maxDecoded {
		if norm, ok := normalize(data, path.Base(name) == "Chart.lock"); ok {
			return sha256.Sum256(append([]byte("decoded\x00"), norm...)), nil
		}
	}
	// Not data: its bytes then, which differ from any decoded file's.
	h := sha256.New()
	h.Write([]byte("bytes\x00"))
	h.Write(data)
	if _, err := io.Copy(h, r); err != nil {
		return [sha256.Size]byte{}, err
	}
	return [sha256.Size]byte(h.Sum(nil)), nil
}

// decoded reports whether a chart's file is one Helm re-encodes when it
// packages a chart: Chart.yaml and Chart.lock, of the chart and of the
// subcharts under charts/.
func decoded(name string) bool {
	parts := strings.Split(name, "/")
	last := parts[len(parts)-1]
	if last != "Chart.yaml" && last != "Chart.lock" {
		return false
	}
	parts = parts[:len(parts)-1]
	for len(parts) >= 2 && parts[0] == "charts" {
		parts = parts[2:]
	}
	return len(parts) == 0
}

// normalize decodes a YAML document, as Helm reads Chart.yaml, and encodes
// it again in one canonical form: keys sorted, and no empty value, since
// Helm's encoding leaves out the fields a chart leaves empty. A lock's
// time is left out.
func normalize(data []byte, lock bool) ([]byte, bool) {
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if m, ok := v.(map[string]any); ok && lock {
		delete(m, "generated")
	}
	out, err := json.Marshal(prune(v))
	if err != nil {
		return nil, false
	}
	return out, true
}

// prune drops the empty values of maps: null, "", false, 0, [] and {}.
func prune(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			e = prune(e)
			if empty(e) {
				delete(v, k)
			} else {
				v[k] = e
			}
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = prune(e)
		}
		return v
	}
	return v
}

func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case json.Number:
		return v == "0"
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}

// Diff returns the first file, in path order, that is in one package and
// not the other or differs between them; "" when the packages hold the
// same chart.
func Diff(a, b *Content) string {
	paths := a.Files()
	for p := range b.files {
		if _, ok := a.files[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		x, inA := a.files[p]
		y, inB := b.files[p]
		if inA != inB && path.Base(p) == "Chart.lock" && decoded(p) {
			continue
		}
		if !inA || !inB || x != y {
			return p
		}
	}
	return ""
}

// Compare reads two package files and returns the first file they differ
// by, "" when they hold the same chart.
func Compare(a, b string) (string, error) {
	ca, err := ReadFile(a)
	if err != nil {
		return "", err
	}
	cb, err := ReadFile(b)
	if err != nil {
		return "", err
	}
	return Diff(ca, cb), nil
}
