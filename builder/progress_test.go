package builder_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/base/progress"
)

// events gathers what a build tells Options.Progress, and shows it as the
// build command does.
type events struct {
	mu   sync.Mutex
	all  []builder.Event
	log  bytes.Buffer
	show *progress.Steps
}

func newEvents() *events {
	e := &events{}
	e.show = progress.New(&e.log, progress.Options{Getenv: func(k string) string { return map[string]string{"CI": "true"}[k] }}).Steps()
	return e
}

func (e *events) hook(ev builder.Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
	status := ""
	if ev.Reused {
		status = "reused"
	}
	e.show.Done(ev.Step, ev.Total, ev.Chart, ev.Took, status)
}

// of returns, for a step, the charts told of as done anew and as reused.
func (e *events) of(t *testing.T, step string, charts int) (fresh, reused []string) {
	t.Helper()
	for _, ev := range e.all {
		if ev.Step != step {
			continue
		}
		if ev.Total != charts {
			t.Errorf("%s %s: total %d, want %d", step, ev.Chart, ev.Total, charts)
		}
		if ev.Reused {
			reused = append(reused, ev.Chart)
			continue
		}
		if ev.Took <= 0 {
			t.Errorf("%s %s: took %v", step, ev.Chart, ev.Took)
		}
		fresh = append(fresh, ev.Chart)
	}
	if all := slices.Concat(fresh, reused); len(all) != charts || len(slices.Compact(slices.Sorted(slices.Values(all)))) != charts {
		t.Errorf("%s: told of %v, want each of the %d charts once", step, all, charts)
	}
	slices.Sort(fresh)
	return fresh, reused
}

func TestProgress(t *testing.T) {
	cat := example(t, "automation")
	out := filepath.Join(t.TempDir(), "out")
	cold := newEvents()
	res := build(t, builder.Options{Catalog: cat, Out: out, Now: at(t1), Progress: cold.hook})
	cold.show.Finish()
	if res.Charts < 2 {
		t.Fatalf("%d charts", res.Charts)
	}
	for _, step := range []string{"lint", "package", "page"} {
		if fresh, _ := cold.of(t, step, res.Charts); len(fresh) != res.Charts {
			t.Errorf("cold build: %s anew for %v only", step, fresh)
		}
		// Every step's summary, with its time.
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^%s  %d done in \d`, step, res.Charts)).MatchString(cold.log.String()) {
			t.Errorf("no summary of %s:\n%s", step, cold.log.String())
		}
	}
	if n := strings.Count(cold.log.String(), "\n"); n != 3*res.Charts+3 {
		t.Errorf("%d lines, want a line per chart and step and a summary per step:\n%s", n, cold.log.String())
	}

	replaceIn(t, filepath.Join(cat, "charts", "mlflow", "Chart.yaml"), "version: ", "version: 9")
	warm := newEvents()
	res = build(t, builder.Options{Catalog: cat, Out: out, Now: at(t2), Progress: warm.hook})
	warm.show.Finish()
	for _, step := range []string{"lint", "package", "page"} {
		if fresh, _ := warm.of(t, step, res.Charts); !slices.Equal(fresh, []string{"mlflow"}) {
			t.Errorf("after changing mlflow: %s anew for %v", step, fresh)
		}
	}
	if !strings.Contains(warm.log.String(), "lint  1/2  airflow  reused\n") {
		t.Errorf("no line of airflow reused:\n%s", warm.log.String())
	}
}
