package builder

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

// runSchedule runs steps as Build runs the pipeline, without a build.
func runSchedule(t *testing.T, ctx context.Context, steps []step) (*schedule, error) {
	t.Helper()
	s, err := newSchedule(steps)
	if err != nil {
		t.Fatal(err)
	}
	g, gctx := errgroup.WithContext(ctx)
	s.start(gctx, g, nil)
	g.Wait()
	return s, s.result(ctx)
}

// ran lists the names of the steps that ran.
func ran(s *schedule) []string {
	var names []string
	for _, st := range s.times() {
		names = append(names, st.Name)
	}
	return names
}

// within fails the test unless ch is closed within a few seconds: the steps
// that would close it do not run at the same time.
func within(ctx context.Context, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Second):
		return errors.New("the other step did not run meanwhile")
	}
}

func TestPipelineNeedsOnlyEarlierSteps(t *testing.T) {
	if _, err := newSchedule(pipeline); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		steps []step
		want  string
	}{
		{[]step{{name: "a", needs: []string{"b"}}, {name: "b"}}, `build step "a" needs "b", which is not an earlier step`},
		{[]step{{name: "a", needs: []string{"nowhere"}}}, `build step "a" needs "nowhere"`},
		{[]step{{name: "a", needs: []string{"a"}}}, `build step "a" needs "a"`},
		{[]step{{name: "a"}, {name: "a"}}, `two build steps are named "a"`},
	} {
		if _, err := newSchedule(tc.steps); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error saying %q, got %v", tc.want, err)
		}
	}
}

// Steps that need nothing of each other run at the same time; a step
// starts once its needs have ended.
func TestScheduleRunsIndependentStepsTogether(t *testing.T) {
	aStarted, bStarted := make(chan struct{}), make(chan struct{})
	var after atomic.Int32
	s, err := runSchedule(t, t.Context(), []step{
		{name: "a", run: func(ctx context.Context, _ *build) error {
			close(aStarted)
			return within(ctx, bStarted)
		}},
		{name: "b", run: func(ctx context.Context, _ *build) error {
			close(bStarted)
			return within(ctx, aStarted)
		}},
		{name: "c", needs: []string{"a", "b"}, run: func(context.Context, *build) error {
			after.Add(1)
			return nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if after.Load() != 1 || !slices.Equal(ran(s), []string{"a", "b", "c"}) {
		t.Errorf("ran %v, c %d times", ran(s), after.Load())
	}
}

// When steps fail, the error is the earliest one's in the table, as if the
// steps had run one after the other, even when a later one failed first;
// the steps needing a failed one do not run.
func TestScheduleReportsTheEarliestFailure(t *testing.T) {
	bFailed := make(chan struct{})
	s, err := runSchedule(t, t.Context(), []step{
		{name: "a", run: func(context.Context, *build) error {
			<-bFailed
			return errors.New("a broke")
		}},
		{name: "b", run: func(context.Context, *build) error {
			defer close(bFailed)
			return errors.New("b broke")
		}},
		{name: "c", needs: []string{"b"}, run: func(context.Context, *build) error {
			t.Error("c ran though b failed")
			return nil
		}},
	})
	if err == nil || err.Error() != "a: a broke" {
		t.Errorf("want a's error, got %v", err)
	}
	if !slices.Equal(ran(s), []string{"a", "b"}) {
		t.Errorf("ran %v", ran(s))
	}
}

// A step does not start once an earlier step has failed, for it would not
// have run after it.
func TestScheduleStartsNothingAfterAnEarlierFailure(t *testing.T) {
	var s *schedule
	steps := []step{
		{name: "a", run: func(context.Context, *build) error { return errors.New("a broke") }},
		{name: "gate", run: func(context.Context, *build) error {
			// Ends once a has.
			s.ended[0].wait()
			return nil
		}},
		{name: "later", needs: []string{"gate"}, run: func(context.Context, *build) error {
			t.Error("a step started after an earlier one failed")
			return nil
		}},
	}
	s, err := newSchedule(steps)
	if err != nil {
		t.Fatal(err)
	}
	g, gctx := errgroup.WithContext(t.Context())
	s.start(gctx, g, nil)
	g.Wait()
	if err := s.result(t.Context()); err == nil || err.Error() != "a: a broke" {
		t.Errorf("want a's error, got %v", err)
	}
}

// A failure cancels the work of the steps running meanwhile; the error they
// end with is not the one reported.
func TestScheduleCancelsOnFailure(t *testing.T) {
	aWaits := make(chan struct{})
	_, err := runSchedule(t, t.Context(), []step{
		{name: "a", run: func(ctx context.Context, _ *build) error {
			close(aWaits)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Second):
				return errors.New("not cancelled")
			}
		}},
		{name: "b", run: func(context.Context, *build) error {
			<-aWaits
			return errors.New("b broke")
		}},
	})
	if err == nil || err.Error() != "b: b broke" {
		t.Errorf("want b's error, got %v", err)
	}
	// The caller's context ending is reported.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = runSchedule(t, ctx, []step{{name: "a", run: func(context.Context, *build) error { return nil }}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("want the cancellation, got %v", err)
	}
}

// A skipped step ends once its own needs have, so that the steps needing it
// still come after those.
func TestScheduleSkippedStepKeepsTheOrder(t *testing.T) {
	var slowDone atomic.Bool
	s, err := runSchedule(t, t.Context(), []step{
		{name: "slow", run: func(context.Context, *build) error {
			time.Sleep(50 * time.Millisecond)
			slowDone.Store(true)
			return nil
		}},
		{name: "skipped", needs: []string{"slow"}, skip: func(*build) bool { return true }, run: func(context.Context, *build) error {
			t.Error("a skipped step ran")
			return nil
		}},
		{name: "after", needs: []string{"skipped"}, run: func(context.Context, *build) error {
			if !slowDone.Load() {
				t.Error("a step needing a skipped one started before that one's needs ended")
			}
			return nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ran(s), []string{"slow", "after"}) {
		t.Errorf("ran %v", ran(s))
	}
}

// A future runs once, however many start it, and whoever awaits it gets its
// result, or the end of their context.
func TestFuture(t *testing.T) {
	var g errgroup.Group
	f := newFuture[int]()
	var runs atomic.Int32
	for range 3 {
		f.start(&g, func() (int, error) {
			runs.Add(1)
			return 7, errors.New("seven")
		})
	}
	f.set(8, nil)
	if v, err := f.await(t.Context()); v != 7 || err == nil || err.Error() != "seven" {
		t.Errorf("await: %d, %v", v, err)
	}
	g.Wait()
	if runs.Load() != 1 {
		t.Errorf("ran %d times", runs.Load())
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := newFuture[int]().await(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("awaiting a future that never ends: %v", err)
	}
}
