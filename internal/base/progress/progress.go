// Package progress shows how far a long command has got: a bar on a
// terminal, one line per item in a CI log, nothing in a pipe or a file
// outside CI, nor when the output is meant for programs. Every task ends with a summary line that
// gives its timings: how long it took and its slowest items.
//
// Progress goes to the writer a Reporter is made with, which is standard
// error: standard output may be piped JSON or SARIF.
package progress

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Mode is how a Reporter shows progress.
type Mode int

const (
	// Quiet shows nothing.
	Quiet Mode = iota
	// Lines writes one line per item and per summary, and never a carriage
	// return nor an escape sequence: a CI log keeps every line as written.
	Lines
	// Bar draws a bar that redraws itself in place, on a terminal.
	Bar
)

func (m Mode) String() string {
	switch m {
	case Lines:
		return "lines"
	case Bar:
		return "bar"
	}
	return "quiet"
}

// Options configure a Reporter.
type Options struct {
	// Quiet shows nothing, for a command whose output is for programs
	// (--format json or sarif).
	Quiet bool
	// Getenv reads the environment (CI, GITHUB_ACTIONS, TERM); nil means
	// os.Getenv.
	Getenv func(string) string
	// Now is the clock tasks and transfers are timed with; nil means
	// time.Now.
	Now func() time.Time
}

// Reporter shows the progress of a command's tasks on one writer. It is
// safe for concurrent use, and a nil Reporter shows nothing.
type Reporter struct {
	w    io.Writer
	mode Mode
	now  func() time.Time

	// mu orders everything written to w: lines never interleave, and a
	// line is never written through the bar.
	mu sync.Mutex
	// bar is the bar drawn in Bar mode, nil when none is. The tasks that
	// run at once share it (a build lints, packages and renders pages
	// alongside): its total is the sum of theirs, and done counts their
	// items. A transfer draws a bar of its bytes instead, when no other
	// bar is drawn; transfer is then that transfer.
	bar      *progressbar.ProgressBar
	transfer *Transfer
	// drawn is when the tasks' bar was last drawn.
	drawn       time.Time
	running     int
	done, total int64
}

// New returns a Reporter writing to w: lines when the environment says the
// command runs in CI (GITHUB_ACTIONS or CI set to true), a bar when w is a
// terminal (lines on one that cannot redraw a line, TERM=dumb), and
// nothing otherwise (a pipe or a file outside CI: a script reading the
// command's output has no use for progress), or when opt.Quiet or w is nil.
func New(w io.Writer, opt Options) *Reporter {
	getenv := opt.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	return &Reporter{w: w, mode: detect(w, opt.Quiet, getenv), now: now}
}

func detect(w io.Writer, quiet bool, getenv func(string) string) Mode {
	if quiet || w == nil {
		return Quiet
	}
	// A CI runner may give the job a pseudo-terminal, whose log would keep
	// every redrawing of the bar.
	if isSet(getenv("GITHUB_ACTIONS")) || isSet(getenv("CI")) {
		return Lines
	}
	if f, ok := w.(interface{ Fd() uintptr }); ok && term.IsTerminal(int(f.Fd())) {
		if getenv("TERM") == "dumb" {
			return Lines
		}
		return Bar
	}
	return Quiet
}

// isSet reads a CI flag: CI=true, CI=1 and CI=yes are all in use.
func isSet(v string) bool {
	return v != "" && v != "0" && !strings.EqualFold(v, "false") && !strings.EqualFold(v, "no")
}

// Mode returns how r shows progress.
func (r *Reporter) Mode() Mode {
	if r == nil {
		return Quiet
	}
	return r.mode
}

// Writer returns a writer for the command's other messages to the same
// stream, which a bar would otherwise draw over: in Bar mode each write
// first clears the bar, which the next item draws again. Write whole lines
// to it. A nil Reporter's Writer discards what it is given.
func (r *Reporter) Writer() io.Writer {
	if r == nil || r.w == nil {
		return io.Discard
	}
	if r.mode != Bar {
		return r.w
	}
	return aboveBar{r}
}

type aboveBar struct{ r *Reporter }

func (a aboveBar) Write(p []byte) (int, error) {
	a.r.mu.Lock()
	defer a.r.mu.Unlock()
	a.r.clearBar()
	return a.r.w.Write(p)
}

// Task is a run of items, such as the charts of a lint. A nil Task, which
// a quiet Reporter starts, shows nothing.
type Task struct {
	r     *Reporter
	label string
	total int
	begin time.Time
	// Under r.mu: done counts the items, slowest holds the slowest ones
	// (at most maxSlowest, slowest first) and ended is set by Finish.
	done    int
	slowest []item
	ended   bool
	// byItems is set for a task Steps started: its items may have
	// started before the first ended, and its time runs from the
	// earliest.
	byItems bool
}

type item struct {
	name string
	took time.Duration
}

// maxSlowest is how many of its slowest items a task's summary names.
const maxSlowest = 3

// Start starts a task of total items (0 or less when not known), shown
// under label ("lint", "package").
func (r *Reporter) Start(label string, total int) *Task {
	if r == nil {
		return nil
	}
	return r.start(label, total, r.now(), false)
}

func (r *Reporter) start(label string, total int, begin time.Time, byItems bool) *Task {
	if r.mode == Quiet {
		return nil
	}
	t := &Task{r: r, label: label, total: total, begin: begin, byItems: byItems}
	if r.mode == Bar {
		r.mu.Lock()
		r.running++
		r.total += int64(max(total, 0))
		r.mu.Unlock()
	}
	return t
}

// Done records an item ended: its name, how long it took and, optionally,
// a status ("reused", "2 errors"). In Lines mode it writes a line:
//
//	lint  12/40  jupyter-python  38 ms  2 errors
//
// In Bar mode the bar advances, showing the item. Done may be called from
// several goroutines at once.
func (t *Task) Done(name string, took time.Duration, status string) {
	t.record(name, took, status)
}

// record is Done, returning the number of items ended so far (0 once the
// task is finished).
func (t *Task) record(name string, took time.Duration, status string) int {
	if t == nil {
		return 0
	}
	r := t.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if t.ended {
		return 0
	}
	t.done++
	if t.byItems {
		if b := r.now().Add(-took); b.Before(t.begin) {
			t.begin = b
		}
	}
	t.rank(item{name, took})
	switch r.mode {
	case Lines:
		var b strings.Builder
		fmt.Fprintf(&b, "%s  %s  %s", t.label, t.count(), clean(name))
		// What took nothing, such as a package reused, has a status
		// and no time.
		if took > 0 || status == "" {
			b.WriteString("  " + Duration(took))
		}
		if status != "" {
			b.WriteString("  " + clean(status))
		}
		b.WriteByte('\n')
		io.WriteString(r.w, b.String())
	case Bar:
		// A task whose total is unknown makes room for each item.
		if t.total <= 0 || t.done > t.total {
			r.total++
		}
		r.done++
		r.drawCounts(t.label + "  " + name)
	}
	return t.done
}

// count is "12/40", the number padded to the total's width so that the
// names line up, or "12" when the total is unknown.
func (t *Task) count() string {
	if t.total <= 0 {
		return fmt.Sprint(t.done)
	}
	w := len(fmt.Sprint(t.total))
	return fmt.Sprintf("%*d/%d", w, t.done, t.total)
}

// rank keeps it among the slowest items when it is one; of items that
// took as long, the first ended stays first. An item that took no time is
// not one.
func (t *Task) rank(it item) {
	if it.took <= 0 {
		return
	}
	i, _ := slices.BinarySearchFunc(t.slowest, it, func(a, b item) int {
		if a.took >= b.took {
			return -1
		}
		return 1
	})
	if i >= maxSlowest {
		return
	}
	t.slowest = slices.Insert(t.slowest, i, it)
	if len(t.slowest) > maxSlowest {
		t.slowest = t.slowest[:maxSlowest]
	}
}

// Finish ends the task and writes its summary: how many items ended, in
// how long since Start, and the slowest ones.
//
//	lint  40 done in 2.3 s; slowest: jupyter-python 380 ms, rstudio 210 ms, vscode 150 ms
//
// A task finished before its total is reached says "12 of 40 done". Only
// the first call counts.
func (t *Task) Finish() {
	if t == nil {
		return
	}
	r := t.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if t.ended {
		return
	}
	t.ended = true
	line := t.summary(r.now().Sub(t.begin))
	if r.mode != Bar {
		io.WriteString(r.w, line+"\n")
		return
	}
	// The items it will not end are no longer awaited.
	if t.total > t.done {
		r.total -= int64(t.total - t.done)
	}
	r.running--
	r.clearBar()
	io.WriteString(r.w, line+"\n")
	if r.running == 0 && r.transfer == nil {
		r.dropBar()
		r.done, r.total = 0, 0
	}
}

func (t *Task) summary(took time.Duration) string {
	var b strings.Builder
	b.WriteString(t.label + "  ")
	if t.total > 0 && t.done < t.total {
		fmt.Fprintf(&b, "%d of %d", t.done, t.total)
	} else {
		fmt.Fprint(&b, t.done)
	}
	b.WriteString(" done in " + Duration(took))
	for i, it := range t.slowest {
		if i == 0 {
			b.WriteString("; slowest: ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(clean(it.name) + " " + Duration(it.took))
	}
	return b.String()
}

// drawCounts draws the tasks' shared bar, showing desc. Called with r.mu
// held.
func (r *Reporter) drawCounts(desc string) {
	if r.transfer != nil {
		// The transfer keeps the bar until it ends.
		return
	}
	r.total = max(r.total, r.done)
	desc = shorten(desc)
	now := r.now()
	// A finished bar draws nothing more: a task started since needs a new
	// one.
	if r.bar == nil || (r.bar.IsFinished() && r.done < r.total) {
		r.dropBar()
		r.bar = progressbar.NewOptions64(r.total, barOptions(r.w, desc,
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
		)...)
		r.bar.Set64(r.done)
		r.drawn = now
		return
	}
	// Throttled here rather than by the library, which would draw the
	// new item's name with the count before it, or the other way round:
	// setting each draws the bar.
	if now.Sub(r.drawn) < redraw && r.done < r.total {
		return
	}
	r.drawn = now
	if r.bar.GetMax64() != r.total {
		r.bar.ChangeMax64(r.total)
	}
	r.bar.Describe(desc + " ")
	r.bar.Set64(r.done)
}

// redraw is the least time between two drawings of a bar: a terminal is
// slower than a lint of small charts.
const redraw = 65 * time.Millisecond

// barOptions are the options every bar is drawn with.
func barOptions(w io.Writer, desc string, more ...progressbar.Option) []progressbar.Option {
	return append([]progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc + " "),
		// The summary line takes its place.
		progressbar.OptionClearOnFinish(),
		// The spinner of an unknown total turns with each write, not on
		// a timer: a timer's goroutine would draw over the lines written
		// above the bar.
		progressbar.OptionSetSpinnerChangeInterval(0),
	}, more...)
}

// clearBar erases the bar from the terminal, so that a line can be
// written in its place; the next item draws it again. Called with r.mu
// held.
func (r *Reporter) clearBar() {
	// A finished bar has cleared its line already.
	if r.bar != nil && !r.bar.IsFinished() {
		r.bar.Clear()
	}
}

// dropBar erases the bar and forgets it. Called with r.mu held.
func (r *Reporter) dropBar() {
	if r.bar == nil {
		return
	}
	// Finish marks it finished, which a cleared-on-finish bar answers by
	// clearing its line and drawing nothing more.
	r.bar.Finish()
	r.bar = nil
}

// Steps are tasks started by their first item, one per step name, and
// finished when their last item ends: a build tells of the items of its
// steps through one hook, and knows how many charts each step has only
// once its discovery is over. It is safe for concurrent use; a nil
// Reporter's Steps show nothing.
type Steps struct {
	r     *Reporter
	mu    sync.Mutex
	tasks map[string]*Task
	order []string
}

// Steps returns an empty set of steps reporting to r.
func (r *Reporter) Steps() *Steps { return &Steps{r: r, tasks: map[string]*Task{}} }

// Done records an item of a step ended, as Task.Done does, starting the
// step's task of total items on its first item. A step's time runs from
// the start of its earliest item, as the items' times tell, to the end of
// its last.
func (s *Steps) Done(step string, total int, name string, took time.Duration, status string) {
	if s.r == nil || s.r.mode == Quiet {
		return
	}
	s.mu.Lock()
	t, ok := s.tasks[step]
	if !ok {
		t = s.r.start(step, total, s.r.now().Add(-took), true)
		s.tasks[step] = t
		s.order = append(s.order, step)
	}
	s.mu.Unlock()
	if n := t.record(name, took, status); total > 0 && n == total {
		t.Finish()
	}
}

// Finish finishes the steps that have not ended all their items (a build
// that failed), in the order they started.
func (s *Steps) Finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, step := range s.order {
		s.tasks[step].Finish()
	}
}

// Duration formats a duration for a progress line: "38 ms" under a
// second, "2.3 s" under a minute, "4m05s" beyond.
func Duration(d time.Duration) string {
	switch {
	case d.Round(time.Millisecond) < time.Second:
		return fmt.Sprintf("%d ms", d.Round(time.Millisecond).Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// Bytes formats a size: "512 B", "12.0 KiB", "1.2 MiB".
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n)/unit, 0
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGT"[i])
}

// clean replaces control characters, which would move the cursor or end
// the line in a log, with spaces.
func clean(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsControl(c) {
			return ' '
		}
		return c
	}, s)
}

// maxDesc bounds a bar's description, so that the bar fits on the line of
// a narrow terminal: a wrapped bar is drawn again on a new line each time.
const maxDesc = 40

func shorten(s string) string {
	s = clean(s)
	if r := []rune(s); len(r) > maxDesc {
		return string(r[:maxDesc-1]) + "…"
	}
	return s
}
