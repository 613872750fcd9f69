package catalog

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// IconExtensions are the image types a catalog's icons directory may hold.
var IconExtensions = []string{".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp"}

// IconProblem says why a chart's icon cannot be shown.
type IconProblem int

const (
	IconOK IconProblem = iota
	// IconMissing: Chart.yaml names no icon and none is named after the chart.
	IconMissing
	// IconHTTP: an http URL, blocked as mixed content on https pages.
	IconHTTP
	// IconNoFile: a relative path that is no file of the catalog.
	IconNoFile
	// IconNotHTTPS: any other scheme.
	IconNotHTTPS
	// IconOutside: a file (or the path to it) leads outside the catalog
	// repository; Escape says how.
	IconOutside
)

// Icon is where a chart's icon comes from: a file of the catalog or an https
// URL. Both empty means the default icon, for the reason in Problem.
type Icon struct {
	File, URL string
	Problem   IconProblem
	// Escape is why the icon is refused, with IconOutside.
	Escape *EscapeError
}

// ResolveIcon finds the icon of a chart from Chart.yaml's icon value: an
// https URL, a path relative to the catalog or its icons directory, or, when
// empty, a file of the icons directory named after the chart. Lint and the
// site both resolve icons here so that what lint accepts is what pages show.
func (c *Catalog) ResolveIcon(chartName, icon string) Icon {
	icons := c.IconsDir()
	if icon == "" {
		var paths []string
		for _, ext := range IconExtensions {
			paths = append(paths, filepath.Join(icons, chartName+ext))
		}
		return c.iconFile(paths, IconMissing)
	}
	u, err := url.Parse(icon)
	switch {
	case err == nil && u.Scheme == "https" && u.Host != "":
		return Icon{URL: icon}
	case err == nil && u.Scheme == "http":
		return Icon{Problem: IconHTTP}
	case err == nil && u.Scheme == "" && u.Host == "" && !strings.HasPrefix(icon, "/"):
		rel := filepath.FromSlash(icon)
		return c.iconFile([]string{filepath.Join(c.Dir, rel), filepath.Join(icons, rel)}, IconNoFile)
	}
	return Icon{Problem: IconNotHTTPS}
}

// iconFile returns the first of paths that is a file inside the catalog
// repository. None is a problem: IconOutside when one of them leads
// outside it (never read, so that no page shows a file from elsewhere),
// else missing.
func (c *Catalog) iconFile(paths []string, missing IconProblem) Icon {
	var escape *EscapeError
	for _, p := range paths {
		resolved, err := c.Contain(p)
		if err == nil && isFile(resolved) {
			return Icon{File: p}
		}
		var esc *EscapeError
		if escape == nil && errors.As(err, &esc) {
			escape = esc
		}
	}
	if escape != nil {
		return Icon{Problem: IconOutside, Escape: escape}
	}
	return Icon{Problem: missing}
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.IsDir()
}
