package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/catalogist/catalogist/templates"
)

// Pages are the templates executed to produce pages; every other *.html file
// is a partial available to both (layout.html, the shared frame).
const (
	indexPage = "index.html"
	chartPage = "chart.html"
)

// defaultIcon is the asset shown for a chart without a usable icon.
const defaultIcon = "default-icon.svg"

// assetExts are the static files copied to assets/: from the embedded
// defaults and from an override directory. Other files of an override
// directory (a README, say) are ignored.
var assetExts = map[string]bool{
	".css": true, ".js": true, ".svg": true, ".png": true, ".jpg": true,
	".jpeg": true, ".gif": true, ".webp": true, ".ico": true, ".woff2": true,
}

// templateSet holds the parsed pages and the static assets of a site.
type templateSet struct {
	// sum hashes every file of the set.
	sum   string
	pages map[string]*parsedPage
	// assets are the files copied to assets/, by name.
	assets map[string][]byte
}

type parsedPage struct {
	tmpl *template.Template
	// origin names the file the page came from, for errors.
	origin string
}

type sourceFile struct {
	origin string
	data   []byte
}

// templateFiles are the embedded templates and assets, with the files of
// dir, when set, in place of those of the same name.
func templateFiles(dir string) (map[string]sourceFile, error) {
	files := map[string]sourceFile{}
	entries, err := fs.ReadDir(templates.FS, ".")
	if err != nil {
		return nil, fmt.Errorf("embedded templates: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(templates.FS, e.Name())
		if err != nil {
			return nil, fmt.Errorf("embedded template %s: %w", e.Name(), err)
		}
		files[e.Name()] = sourceFile{origin: "templates/" + e.Name() + " (embedded)", data: data}
	}
	if dir != "" {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("templates directory: %w", err)
		}
		for _, e := range entries {
			name := e.Name()
			ext := strings.ToLower(filepath.Ext(name))
			if ext != ".html" && !assetExts[ext] {
				continue
			}
			p := filepath.Join(dir, name)
			info, err := os.Stat(p) // follows symbolic links
			if err != nil {
				return nil, fmt.Errorf("template %s: %w", p, err)
			}
			if !info.Mode().IsRegular() {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("template %s: %w", p, err)
			}
			files[name] = sourceFile{origin: p, data: data}
		}
	}
	return files, nil
}

// loadTemplates reads the embedded templates and assets and, when dir is
// set, the files of dir that replace them (same name) or add to them.
func loadTemplates(dir string) (*templateSet, error) {
	files, err := templateFiles(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)

	ts := &templateSet{pages: map[string]*parsedPage{}, assets: map[string][]byte{}}
	sum := sha256.New()
	base := template.New("")
	for _, name := range names {
		f := files[name]
		fmt.Fprintf(sum, "%s\x00%d\x00", name, len(f.data))
		sum.Write(f.data)
		switch {
		case name == indexPage || name == chartPage:
		case strings.EqualFold(filepath.Ext(name), ".html"):
			if _, err := base.New(name).Parse(string(f.data)); err != nil {
				return nil, fmt.Errorf("template %s: %w", f.origin, err)
			}
		default:
			ts.assets[name] = f.data
		}
	}
	for _, name := range []string{indexPage, chartPage} {
		f, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("template %s is missing", name)
		}
		t, err := base.Clone()
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", f.origin, err)
		}
		if _, err := t.New(name).Parse(string(f.data)); err != nil {
			return nil, fmt.Errorf("template %s: %w", f.origin, err)
		}
		ts.pages[name] = &parsedPage{tmpl: t, origin: f.origin}
	}
	ts.sum = hex.EncodeToString(sum.Sum(nil))
	if len(ts.assets[defaultIcon]) == 0 {
		return nil, fmt.Errorf("template %s is empty", files[defaultIcon].origin)
	}
	return ts, nil
}
