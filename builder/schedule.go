package builder

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// step is one named stage of a build. It starts once the steps it needs
// have ended, so that steps needing nothing of each other run at the same
// time.
type step struct {
	name string
	// needs names the steps whose work this one reads; each is earlier in
	// the pipeline.
	needs []string
	run   func(context.Context, *build) error
	// skip, when set and true, leaves the step out; it is asked once the
	// needs have ended, and the steps needing a skipped one start then.
	skip func(*build) bool
}

// pipeline is the build's schedule. Staging, which only depends on the
// output, runs alongside discovery, which starts packaging the changed
// charts that have no dependencies (see startEarly); lint, which only has to
// pass before anything is recorded and published, runs alongside packaging,
// the index and the site; reading what the changed charts' pages show
// (README, schema and form), from the charts as lint analysed them,
// alongside packaging and the index.
//
// The table's order is the order the steps would run in one after the
// other: when several fail, the error reported is the earliest one's, as
// it would be then.
var pipeline = []step{
	{name: "stage", run: stage},
	{name: "discover", run: discover},
	{name: "lint", run: lintCatalog, needs: []string{"discover"}},
	{name: "read pages", run: readPages, needs: []string{"lint"}},
	{name: "package", run: packageCharts, needs: []string{"stage", "discover"}},
	{name: "index", run: buildIndex, needs: []string{"package"}},
	{name: "merge", run: mergePublished, needs: []string{"index"}, skip: func(b *build) bool { return b.in.Merge == "" }},
	{name: "write index", run: writeIndex, needs: []string{"merge"}},
	{name: "artifact hub", run: writeArtifactHub, needs: []string{"stage", "discover"}, skip: noArtifactHub},
	{name: "site", run: renderSite, needs: []string{"write index", "read pages"}},
	{name: "editor schemas", run: writeEditorSchemas, needs: []string{"stage", "discover"}},
	{name: "record", run: recordState, needs: []string{"site", "lint", "artifact hub", "editor schemas"}},
	{name: "publish", run: publish, needs: []string{"record"}},
	{name: "verify", run: verifyPublished, needs: []string{"publish"}},
}

// errNotRun ends a step that did not start: one of its needs failed or did
// not run, or an earlier step of the pipeline failed.
var errNotRun = errors.New("not run")

// schedule runs the steps of one build on its work group.
type schedule struct {
	steps []step
	// ended ends, by step, once the step has, with its error (errNotRun
	// when it did not start).
	ended  []*future[struct{}]
	byName map[string]int

	mu sync.Mutex
	// failed is the index of the earliest step that failed so far, or
	// len(steps).
	failed int
	took   []*StepTime
}

// newSchedule checks that every step's needs name earlier steps, which
// rules out cycles and makes the table's order one the steps may run in.
func newSchedule(steps []step) (*schedule, error) {
	s := &schedule{steps: steps, byName: map[string]int{}, failed: len(steps), took: make([]*StepTime, len(steps))}
	for i, st := range steps {
		for _, n := range st.needs {
			if j, ok := s.byName[n]; !ok || j >= i {
				return nil, fmt.Errorf("build step %q needs %q, which is not an earlier step", st.name, n)
			}
		}
		if _, dup := s.byName[st.name]; dup {
			return nil, fmt.Errorf("two build steps are named %q", st.name)
		}
		s.byName[st.name] = i
		s.ended = append(s.ended, newFuture[struct{}]())
	}
	return s, nil
}

// start starts every step on g, each waiting for its needs. The first
// failure cancels ctx (the group's), so that work under way stops early.
func (s *schedule) start(ctx context.Context, g *errgroup.Group, b *build) {
	for i := range s.steps {
		g.Go(func() error {
			err := s.runStep(ctx, b, i)
			s.ended[i].set(struct{}{}, err)
			if err != nil && !errors.Is(err, errNotRun) {
				return err
			}
			return nil
		})
	}
}

func (s *schedule) runStep(ctx context.Context, b *build, i int) error {
	st := s.steps[i]
	for _, n := range st.needs {
		if _, err := s.ended[s.byName[n]].wait(); err != nil {
			return errNotRun
		}
	}
	// A step runs after a later one failed, for it would have run before
	// it, but not after an earlier one did.
	s.mu.Lock()
	failed := s.failed
	s.mu.Unlock()
	switch {
	case failed < i:
		return errNotRun
	case failed == len(s.steps) && ctx.Err() != nil:
		// No step failed: the caller's context ended.
		return ctx.Err()
	}
	if st.skip != nil && st.skip(b) {
		return nil
	}
	begin := time.Now()
	err := st.run(ctx, b)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.took[i] = &StepTime{st.name, time.Since(begin)}
	if err != nil {
		s.failed = min(s.failed, i)
		return fmt.Errorf("%s: %w", st.name, err)
	}
	return nil
}

// await waits for the step named name to end, and returns errNotRun unless
// it ended without error.
func (s *schedule) await(ctx context.Context, name string) error {
	if _, err := s.ended[s.byName[name]].await(ctx); err != nil {
		return errNotRun
	}
	return nil
}

// result returns, once every step has ended, the error of the earliest step
// that failed, as if the steps had run one after the other. A step that
// failed because the failure of another cancelled its work is not counted,
// unless parent, the caller's context, ended too.
func (s *schedule) result(parent context.Context) error {
	var first error
	for _, f := range s.ended {
		_, err := f.wait()
		if err == nil || errors.Is(err, errNotRun) {
			continue
		}
		if parent.Err() == nil && errors.Is(err, context.Canceled) {
			if first == nil {
				first = err
			}
			continue
		}
		return err
	}
	return first
}

// times lists the steps that ran, in pipeline order.
func (s *schedule) times() []StepTime {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []StepTime
	for _, t := range s.took {
		if t != nil {
			out = append(out, *t)
		}
	}
	return out
}

// future is a result computed once, on a goroutine of the build's work
// group, and awaited by whoever needs it.
type future[T any] struct {
	once sync.Once
	done chan struct{}
	val  T
	err  error
}

func newFuture[T any]() *future[T] { return &future[T]{done: make(chan struct{})} }

// start computes the result with fn on g, unless it is started or set
// already. fn's error is the future's, not the group's: it is reported by
// those who await it.
func (f *future[T]) start(g *errgroup.Group, fn func() (T, error)) {
	f.once.Do(func() {
		g.Go(func() error {
			defer close(f.done)
			f.val, f.err = fn()
			return nil
		})
	})
}

// set gives the result, unless the future is started or set already.
func (f *future[T]) set(v T, err error) {
	f.once.Do(func() {
		f.val, f.err = v, err
		close(f.done)
	})
}

// await waits for the result, or for ctx to end.
func (f *future[T]) await(ctx context.Context) (T, error) {
	select {
	case <-f.done:
		return f.val, f.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// wait waits for the result, which must have been started or set.
func (f *future[T]) wait() (T, error) {
	<-f.done
	return f.val, f.err
}
