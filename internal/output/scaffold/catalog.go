package scaffold

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/catalogist/catalogist/examples"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// catalogData is what the catalog's templates are rendered with.
type catalogData struct {
	Name, Title, Description string
	Platform                 string
	// ExtensionKey is "" when it is the platform's own, which catalog.yaml
	// then need not say.
	ExtensionKey string
}

// NewCatalog writes a new catalog into dir, which must not exist or be
// empty: catalog.yaml, empty charts/ and icons/ directories, a README, the
// example GitHub workflows, the editor schemas with VS Code's settings, and
// a .gitignore for the build's output. The
// files are written into a directory beside (or, when dir exists, inside)
// dir and moved into place once all are written.
func NewCatalog(dir string, opt Options) (*Result, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	exists, empty, err := isEmptyDir(dir)
	if err != nil {
		return nil, err
	}
	if exists && !empty {
		return nil, fmt.Errorf("%s already exists and is not empty: name a new directory, which new catalog creates, or an empty one", dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", dir, err)
	}
	e, err := env(opt, nil)
	if err != nil {
		return nil, err
	}
	name := catalogName(filepath.Base(abs))
	data := catalogData{
		Name:        name,
		Title:       title(name),
		Description: fmt.Sprintf("The services of %s: say here what they launch.", name),
		Platform:    e.Platform.Name,
	}
	if e.ExtKey != schema.PlatformKey(e.Platform.Name) {
		data.ExtensionKey = e.ExtKey
	}
	t := tree{}
	for rel, tmpl := range map[string]string{
		catalog.ConfigFile: "catalog/catalog.yaml.tmpl",
		"README.md":        "catalog/README.md.tmpl",
		".gitignore":       "catalog/gitignore.tmpl",
	} {
		if err := t.add(rel, tmpl, data); err != nil {
			return nil, err
		}
	}
	if err := addWorkflows(t); err != nil {
		return nil, err
	}
	if err := addEditorSettings(t, e); err != nil {
		return nil, err
	}
	// What the templates write must be what catalogist reads back.
	if _, err := catalog.ParseConfig(t[catalog.ConfigFile]); err != nil {
		return nil, fmt.Errorf("the new %s does not read back (%w): this is a bug of catalogist", catalog.ConfigFile, err)
	}
	res := &Result{Dir: dir, Files: t.names(), Platform: e.Platform.Name, ExtensionKey: e.ExtKey}
	write := func(root string) error {
		for _, d := range []string{"charts", "icons"} {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				return err
			}
		}
		return t.write(root)
	}
	if exists {
		return res, fillEmptyDir(dir, write)
	}
	return res, createDir(abs, write)
}

// addWorkflows adds the example workflows the binary carries.
func addWorkflows(t tree) error {
	names, err := fs.Glob(examples.Workflows, "workflows/*.yml")
	if err != nil || len(names) == 0 {
		return fmt.Errorf("the example workflows are missing from catalogist (%v): this is a bug of catalogist", err)
	}
	for _, n := range names {
		b, err := examples.Workflows.ReadFile(n)
		if err != nil {
			return fmt.Errorf("example workflow %s: %w", n, err)
		}
		t[".github/workflows/"+path.Base(n)] = b
	}
	return nil
}

// createDir makes dir, which does not exist, with what write writes into a
// directory beside it, renamed to dir once complete.
func createDir(dir string, write func(string) error) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", parent, err)
	}
	stage, err := os.MkdirTemp(parent, stagePattern)
	if err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	defer os.RemoveAll(stage)
	if err := write(stage); err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	// MkdirTemp makes a private directory; a catalog is shared.
	if err := os.Chmod(stage, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	if err := os.Rename(stage, dir); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	return nil
}

// fillEmptyDir writes into dir, an existing empty directory, with what
// write writes into a directory inside it, whose entries are then moved up.
// dir itself is kept: it may be the user's working directory.
func fillEmptyDir(dir string, write func(string) error) (err error) {
	stage, err := os.MkdirTemp(dir, stagePattern)
	if err != nil {
		return fmt.Errorf("writing into %s: %w", dir, err)
	}
	defer os.RemoveAll(stage)
	if err := write(stage); err != nil {
		return fmt.Errorf("writing into %s: %w", dir, err)
	}
	entries, err := os.ReadDir(stage)
	if err != nil {
		return fmt.Errorf("writing into %s: %w", dir, err)
	}
	var moved []string
	defer func() {
		if err != nil {
			for _, m := range moved {
				os.RemoveAll(m)
			}
		}
	}()
	for _, e := range entries {
		dst := filepath.Join(dir, e.Name())
		if err := os.Rename(filepath.Join(stage, e.Name()), dst); err != nil {
			return fmt.Errorf("writing into %s: %w", dir, err)
		}
		moved = append(moved, dst)
	}
	return nil
}

// catalogName makes a directory's name a catalog name: lowercase letters,
// digits and dashes, as helm repo add and the catalogs file take it.
func catalogName(base string) string {
	return cmp.Or(dnsLabel(base), "catalog")
}

// dnsLabel makes s a DNS label, as Kubernetes names and Helm chart names
// are: its letters and digits, lowercase, with a dash for each run of
// anything else between them, and at most 63 characters; "" when it has no
// letter nor digit.
func dnsLabel(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	name := b.String()
	if len(name) > 63 {
		name = strings.TrimRight(name[:63], "-")
	}
	return name
}
