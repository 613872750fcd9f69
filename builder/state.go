package builder

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/catalogist/catalogist/lint"
	chart "helm.sh/helm/v4/pkg/chart/v2"
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
	byDir   map[string]*chartState
}

// trusts reports whether files are unchanged since the state was recorded,
// judging by size and time. A file modified within a second of the
// recording could have changed again unseen, so it is not trusted.
func (s *state) trusts(recorded, now []fileStamp) bool {
	if len(recorded) != len(now) {
		return false
	}
	for i, r := range recorded {
		if r != now[i] || now[i].MTime+int64(time.Second) >= s.Written {
			return false
		}
	}
	return true
}

type chartState struct {
	// Dir is the chart's source directory; Files its files when last
	// built, with their own hash and Chart.yaml.
	Dir     string          `json:"dir"`
	Files   []fileStamp     `json:"files"`
	OwnHash string          `json:"ownHash"`
	Meta    *chart.Metadata `json:"meta"`
	Hash    string          `json:"hash"`
	File    string          `json:"file"`
	Digest  string          `json:"digest"`
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
	st.byDir = map[string]*chartState{}
	for _, cs := range st.Charts {
		st.byDir[cs.Dir] = cs
	}
	return st
}

func (c *Context) chartState(name string) *chartState {
	if c.next == nil {
		c.next = &state{Charts: map[string]*chartState{}}
	}
	cs := c.next.Charts[name]
	if cs == nil {
		cs = &chartState{}
		c.next.Charts[name] = cs
	}
	return cs
}

// recordState encodes the state; publish writes it once the output is in
// place.
func recordState(c *Context) error {
	for _, ch := range c.Charts {
		cs := c.chartState(ch.Meta.Name)
		cs.Hash, cs.File, cs.Digest = ch.Hash, ch.File, ch.Digest
		cs.Dir, cs.Files, cs.OwnHash, cs.Meta = ch.Src.Dir, ch.stamps, ch.ownHash, ch.Meta
	}
	c.next.Written = time.Now().UnixNano()
	data, err := json.Marshal(c.next)
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
