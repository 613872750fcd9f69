// Package scaffold writes a new catalog, or a new chart into a catalog: files
// that lint clean, build and install as they are, for a newcomer to make
// their own. The files are templates embedded in the binary; they use [[ ]]
// as delimiters, so that the Helm templates among them keep their {{ }}.
package scaffold

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
)

//go:embed all:files
var files embed.FS

// Options say which platform the catalog or chart is written for. Empty
// fields take what lint would take: for a chart, the catalog's settings;
// then the platform's extension key, and the catalogist platform (see
// schema.EnvFor).
type Options struct {
	Platform     string
	ExtensionKey string
}

// Result is what a call wrote.
type Result struct {
	// Dir is the new catalog's or chart's directory, as the caller named
	// it (for a chart, joined to the catalog directory given).
	Dir string
	// Files are the files written, relative to Dir, sorted.
	Files []string
	// Icon is the chart's icon file written, "" when the catalog already
	// had one named after the chart (which is then kept).
	Icon string
	// Platform and ExtensionKey are those the files are written for.
	Platform     string
	ExtensionKey string
}

// stagePattern names the directory files are written into before they are
// moved into place, so that a failure leaves nothing half-written.
const stagePattern = ".catalogist-new-*"

// checkOptions refuses what catalog.yaml would refuse, before anything is
// written.
func checkOptions(opt Options) error {
	if opt.ExtensionKey != "" && !strings.HasPrefix(opt.ExtensionKey, "x-") {
		return fmt.Errorf("extension key %q must start with x- (for example x-onyxia)", opt.ExtensionKey)
	}
	if opt.Platform != "" {
		if _, err := schema.PlatformNamed(opt.Platform); err != nil {
			return err
		}
	}
	return nil
}

// env is the extension key and platform the files are written for, as lint
// resolves them for the catalog (nil for a new one).
func env(opt Options, cat *catalog.Catalog) (schema.Env, error) {
	e, err := schema.EnvFor(schema.Overrides{ExtensionKey: opt.ExtensionKey, Platform: opt.Platform}, cat, nil, nil)
	if err != nil {
		return e, fmt.Errorf("reading the catalog's settings: %w", err)
	}
	return e, nil
}

// render executes the embedded template file name with data.
func render(name string, data any) ([]byte, error) {
	src, err := files.ReadFile(path.Join("files", name))
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	t, err := template.New(name).Delims("[[", "]]").Option("missingkey=error").Funcs(template.FuncMap{"quote": quote}).Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// quote writes s as a double-quoted scalar, which JSON and YAML read alike.
func quote(s string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// tree is a set of files to write, by slash path relative to its root.
type tree map[string][]byte

// add renders the template name into the file at rel.
func (t tree) add(rel, name string, data any) error {
	b, err := render(name, data)
	if err != nil {
		return err
	}
	t[rel] = b
	return nil
}

// write writes the files under dir, making directories as needed.
func (t tree) write(dir string) error {
	for rel, data := range t {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// names lists the files' paths, sorted.
func (t tree) names() []string {
	out := make([]string, 0, len(t))
	for rel := range t {
		out = append(out, rel)
	}
	slices.Sort(out)
	return out
}

// title makes a name readable: "jupyter-python" gives "Jupyter python".
func title(name string) string {
	t := strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == '.' }), " ")
	r, n := utf8.DecodeRuneInString(t)
	if n == 0 {
		return name
	}
	return string(unicode.ToUpper(r)) + t[n:]
}

// iconColors are backgrounds white text reads well on.
var iconColors = []string{"#1f6feb", "#8250df", "#bf3989", "#cf222e", "#bc4c00", "#1a7f37", "#0969da", "#6e7781"}

// icon is the SVG of a chart without one of its own: its initial on a
// colour that its name picks, so that the charts of a catalog differ.
func icon(name string) ([]byte, error) {
	h := fnv.New32a()
	h.Write([]byte(name))
	return render("icon.svg.tmpl", map[string]string{
		"Title":   title(name),
		"Color":   iconColors[h.Sum32()%uint32(len(iconColors))],
		"Initial": strings.ToUpper(name[:1]),
	})
}

// isEmptyDir tells whether dir exists and holds nothing; a missing dir is
// not an error.
func isEmptyDir(dir string) (exists, empty bool, err error) {
	entries, err := os.ReadDir(dir)
	switch {
	case err == nil:
		return true, len(entries) == 0, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, false, nil
	}
	if info, serr := os.Stat(dir); serr == nil && !info.IsDir() {
		return true, false, fmt.Errorf("%s is a file, not a directory: name a new directory, or an empty one", dir)
	}
	return false, false, fmt.Errorf("reading %s: %w", dir, err)
}
