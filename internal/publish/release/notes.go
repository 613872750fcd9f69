package release

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogist/catalogist/internal/output/changelog"
)

// maxBody is the longest release body GitHub takes, in characters.
const maxBody = 125000

// maxChangelog caps the CHANGELOG.md read for one version's section.
const maxChangelog = 4 << 20

// Notes is a chart version's release body: its artifacthub.io/changes
// annotation as a Markdown list, else its CHANGELOG.md's section for the
// version, else its description. An annotation that does not parse is
// passed over (lint reports it): the release still says something.
func Notes(c Chart) string {
	if changes, err := changelog.ParseAnnotation(c.Annotations[changelog.Annotation]); err == nil && len(changes) > 0 {
		return cut(changelog.Markdown(changes))
	}
	if md, ok := readChangelog(c.Dir); ok {
		if s, ok := changelog.Section(md, c.Version); ok {
			return cut(s)
		}
	}
	return cut(strings.TrimSpace(c.Description))
}

// readChangelog reads a chart directory's CHANGELOG.md, whatever its case.
func readChangelog(dir string) ([]byte, bool) {
	if dir == "" {
		return nil, false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		if !strings.EqualFold(e.Name(), "CHANGELOG.md") || !e.Type().IsRegular() {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, false
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, maxChangelog))
		return data, err == nil
	}
	return nil, false
}

// cut keeps a body within GitHub's limit, at a line's end.
func cut(s string) string {
	r := []rune(s)
	if len(r) <= maxBody {
		return s
	}
	const more = "\n\n(cut: see the chart's changelog)\n"
	s = string(r[:maxBody-len(more)])
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	return s + more
}
