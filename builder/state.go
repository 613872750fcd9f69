package builder

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	chart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/catalogist/catalogist/chartrepo"
	"github.com/catalogist/catalogist/lint"
)

// statePath is where the build state of an output is kept: beside it, not
// in it, so that the published files are only the repository and the site
// and rebuilding unchanged sources gives identical bytes. The state records
// what each chart's package, page and lint findings were made from, so that
// the next build into the same output reuses them when the chart's content
// is unchanged.
func statePath(out string) string {
	abs, err := filepath.Abs(out)
	if err != nil {
		abs = out
	}
	return filepath.Join(filepath.Dir(abs), ".catalogist-state-"+filepath.Base(abs)+".json")
}

type state struct {
	// Written is when the state was recorded (Unix nanoseconds).
	Written int64                  `json:"written"`
	Charts  map[string]*chartState `json:"charts"`
	// Output identifies the output directory the state describes: a build
	// killed between publishing and recording leaves the state of the
	// output before, whose packages, pages and dates must not be taken for
	// the current output's.
	Output string `json:"output,omitempty"`
	// Icons are what the site made of the icon files, by path.
	Icons map[string]iconState `json:"icons,omitempty"`
	// IndexPage is the key of the site's index page.
	IndexPage string `json:"indexPage,omitempty"`
	// SiteKey hashes what every page depends on besides its chart.
	SiteKey string `json:"siteKey,omitempty"`
	// Files are the output's files, by slash path, with their sizes and
	// times once in place: a file reused from the output must still have
	// them, else it was deleted or altered since and is made again.
	Files map[string]outputFile `json:"files,omitempty"`
	byDir map[string]*chartState
}

// outputFile is what a file of the output is recognised by.
type outputFile struct {
	Size  int64 `json:"size"`
	MTime int64 `json:"mtime"`
}

// intact reports whether the output's file rel is as the last build left
// it.
func (s *state) intact(out, rel string) bool {
	want, ok := s.Files[rel]
	if !ok {
		return false
	}
	info, err := os.Lstat(filepath.Join(out, filepath.FromSlash(rel)))
	return err == nil && info.Mode().IsRegular() && info.Size() == want.Size && info.ModTime().UnixNano() == want.MTime
}

// trusts reports whether files are unchanged since the state was recorded,
// judging by their names, sizes and times. A file modified within a second
// of the recording could have changed again unseen, so it is not trusted.
func (s *state) trusts(recorded string, now []fileStamp, nowSum string) bool {
	for _, st := range now {
		if st.MTime+int64(time.Second) >= s.Written {
			return false
		}
	}
	return recorded != "" && recorded == nowSum
}

// stampsSum hashes file stamps: the state records the hash rather than the
// stamps, which would make most of what every build decodes.
func stampsSum(stamps []fileStamp) string {
	h := sha256.New()
	for _, st := range stamps {
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00", st.Path, st.Size, st.MTime)
	}
	return hex.EncodeToString(h.Sum(nil))
}

type chartState struct {
	// Dir is the chart's source directory; Stamps hashes its files' stamps
	// when last built, with their own hash and Chart.yaml.
	Dir     string          `json:"dir"`
	Stamps  string          `json:"stamps"`
	OwnHash string          `json:"ownHash"`
	Meta    *chart.Metadata `json:"meta"`
	Hash    string          `json:"hash"`
	File    string          `json:"file"`
	Digest  string          `json:"digest"`
	// Created is the date the index gave the package.
	Created time.Time `json:"created,omitzero"`
	// LintKey is what the findings depend on besides the chart: the lint
	// options and the catalog's settings.
	LintKey string `json:"lintKey"`
	// PageKey hashes everything the chart's page shows.
	PageKey  string         `json:"pageKey"`
	Findings []savedFinding `json:"findings"`
}

// savedFinding is a lint.Finding with its severity, which lint's JSON form
// writes as text.
type savedFinding struct {
	lint.Finding
	Sev lint.Severity `json:"sev"`
}

// loadState reads the state of the last build into out. A missing or
// unreadable state only means a cold build.
func loadState(out string) *state {
	st := &state{Charts: map[string]*chartState{}, byDir: map[string]*chartState{}}
	data, err := os.ReadFile(statePath(out))
	if err != nil {
		return st
	}
	if json.Unmarshal(data, st) != nil || st.Charts == nil {
		st = &state{Charts: map[string]*chartState{}}
	}
	if st.Output != dirID(out) {
		// Another output: what the state says of the sources holds, what
		// it says of the output does not.
		st.IndexPage, st.Files = "", nil
		for _, cs := range st.Charts {
			cs.File, cs.Digest, cs.PageKey, cs.Created = "", "", "", time.Time{}
		}
	}
	st.byDir = map[string]*chartState{}
	for _, cs := range st.Charts {
		st.byDir[cs.Dir] = cs
	}
	return st
}

// nextState is what this build records.
func (c *Context) nextState() *state {
	c.nextMu.Lock()
	defer c.nextMu.Unlock()
	if c.next == nil {
		c.next = &state{Charts: map[string]*chartState{}}
	}
	return c.next
}

// chartState is what this build records of a chart. Steps that run at the
// same time set different fields.
func (c *Context) chartState(name string) *chartState {
	next := c.nextState()
	c.nextMu.Lock()
	defer c.nextMu.Unlock()
	cs := next.Charts[name]
	if cs == nil {
		cs = &chartState{}
		next.Charts[name] = cs
	}
	return cs
}

// recordState gathers the state; publish adds the output's files, and
// verifyPublished writes it once it has checked the output in place.
func recordState(c *Context) error {
	for _, ch := range c.Charts {
		cs := c.chartState(ch.Meta.Name)
		cs.Hash, cs.File, cs.Digest = ch.Hash, ch.File, ch.Digest
		cs.Dir, cs.Stamps, cs.OwnHash, cs.Meta = ch.Src.Dir, ch.stampsSum, ch.ownHash, ch.Meta
		cs.Created = time.Time{}
		for _, cv := range c.Index.Entries[ch.Meta.Name] {
			if cv.Version == ch.Meta.Version && chartrepo.SameDigest(cv.Digest, ch.Digest) {
				cs.Created = cv.Created
			}
		}
	}
	c.nextState().Written = time.Now().UnixNano()
	// The staging directory becomes the output.
	c.next.Output = dirID(c.Stage)
	return nil
}

// encodeState records the staging directory's files, which are the
// output's once it is exchanged with it, and encodes the state.
func (c *Context) encodeState() error {
	files := c.tree.fileList()
	stamps := make([]outputFile, len(files))
	errs := make([]error, len(files))
	parallel(len(files), func(i int) {
		info, err := os.Lstat(filepath.Join(c.Stage, filepath.FromSlash(files[i])))
		switch {
		case err != nil:
			errs[i] = err
		case !info.Mode().IsRegular():
			errs[i] = fmt.Errorf("%s is not a regular file", files[i])
		default:
			stamps[i] = outputFile{Size: info.Size(), MTime: info.ModTime().UnixNano()}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("staging directory: %w", err)
	}
	next := c.nextState()
	next.Files = make(map[string]outputFile, len(files))
	for i, rel := range files {
		next.Files[rel] = stamps[i]
	}
	data, err := json.Marshal(next)
	if err != nil {
		return fmt.Errorf("encoding build state: %w", err)
	}
	c.stateData = data
	return nil
}

// writeState replaces the state file. Losing it only costs a cold build,
// so failures are not errors.
func (c *Context) writeState() {
	p := statePath(c.Out)
	tmp, err := os.CreateTemp(filepath.Dir(p), ".catalogist-state-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(c.stateData)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}
