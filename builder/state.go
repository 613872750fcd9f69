package builder

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	// The state holds a record of every file of every chart, which the
	// v2 engine decodes in half the time encoding/json takes, with the same
	// semantics.
	json "github.com/go-json-experiment/json/v1"
	chart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/catalogist/catalogist/internal/input/chartrepo"
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

// racyWindow is how close to the recording of the state a file may have
// been changed and still be vouched for by its stat data. The state is
// written after the files were read, but a file changed again within the
// same tick of its file system's clock (a second or two on some, and the
// kernel's coarse clock lags the one the state's time is read from) keeps
// its time: as git's index does with such "racily clean" files, it is read
// again until it is older than that.
const racyWindow = 2 * time.Second

// fileRecord is what a chart's file was when its content was last hashed:
// the stat data that vouch for the content while they stay the same (as
// git's index keeps them), and the content's hash.
type fileRecord struct {
	// Path is the file's slash path in the chart.
	Path string `json:"path"`
	fileStat
	// Hash is the sha256 of the content.
	Hash string `json:"hash"`
	// file is the file to read: the target of the links leading to it.
	file string
}

// fileStat is what a file's content is presumed unchanged by: its size,
// modification and change times (Unix nanoseconds) and inode, and the
// latest modification time of the symbolic links leading to it (0 when
// none), which changes when a link is pointed elsewhere where the target's
// own stat data could stay the same. CTime and Inode are 0 where the system
// does not give them cheaply.
type fileStat struct {
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
	CTime int64  `json:"ctime,omitempty"`
	Inode uint64 `json:"inode,omitempty"`
	Link  int64  `json:"link,omitempty"`
}

// unchanged reports whether a file whose stat data are now is unchanged
// since this state recorded them as was: the same, and not changed so close
// to the recording that a later change could have kept them.
func (s *state) unchanged(was, now fileStat) bool {
	return was == now && max(now.MTime, now.CTime, now.Link)+int64(racyWindow) < s.Written
}

type chartState struct {
	// Dir is the chart's source directory; Files are its files when last
	// built, OwnHash their hash and Meta what Chart.yaml said.
	Dir     string          `json:"dir"`
	Files   []fileRecord    `json:"files"`
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

// record is the state this build records, filled by several steps at
// once: each sets fields of its own.
type record struct {
	mu   sync.Mutex
	next *state
	// data is the state encoded, once publish has added the output's
	// files.
	data []byte
}

// state returns what this build records; the caller holds r.mu.
func (r *record) state() *state {
	if r.next == nil {
		r.next = &state{Charts: map[string]*chartState{}}
	}
	return r.next
}

// update changes what this build records.
func (r *record) update(f func(*state)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(r.state())
}

// chart is what this build records of a chart. Steps that run at the same
// time set different fields.
func (r *record) chart(name string) *chartState {
	r.mu.Lock()
	defer r.mu.Unlock()
	next := r.state()
	cs := next.Charts[name]
	if cs == nil {
		cs = &chartState{}
		next.Charts[name] = cs
	}
	return cs
}

// recordState gathers the state; publish adds the output's files, and
// verifyPublished writes it once it has checked the output in place.
func recordState(_ context.Context, b *build) error {
	for _, ch := range b.in.charts {
		cs := b.out.record.chart(ch.Meta.Name)
		cs.Hash, cs.File, cs.Digest = ch.Hash, ch.File, ch.Digest
		cs.Dir, cs.Files, cs.OwnHash, cs.Meta = ch.Src.Dir, ch.files, ch.ownHash, ch.Meta
		cs.Created = time.Time{}
		for _, cv := range b.out.index.Entries[ch.Meta.Name] {
			if cv.Version == ch.Meta.Version && chartrepo.SameDigest(cv.Digest, ch.Digest) {
				cs.Created = cv.Created
			}
		}
	}
	b.out.record.update(func(next *state) {
		next.Written = time.Now().UnixNano()
		// The staging directory becomes the output.
		next.Output = dirID(b.stage.dir)
	})
	return nil
}

// encodeState records the staging directory's files, which are the
// output's once it is exchanged with it, and encodes the state.
func (b *build) encodeState() error {
	files := b.stage.tree.fileList()
	stamps := make([]outputFile, len(files))
	errs := make([]error, len(files))
	parallel(len(files), func(i int) {
		info, err := os.Lstat(filepath.Join(b.stage.dir, filepath.FromSlash(files[i])))
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
	r := &b.out.record
	r.mu.Lock()
	defer r.mu.Unlock()
	next := r.state()
	next.Files = make(map[string]outputFile, len(files))
	for i, rel := range files {
		next.Files[rel] = stamps[i]
	}
	data, err := json.Marshal(next)
	if err != nil {
		return fmt.Errorf("encoding build state: %w", err)
	}
	r.data = data
	return nil
}

// writeState replaces the state file. Losing it only costs a cold build,
// so failures are not errors.
func (b *build) writeState() {
	p := statePath(b.in.Out)
	tmp, err := os.CreateTemp(filepath.Dir(p), ".catalogist-state-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b.out.record.data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}
