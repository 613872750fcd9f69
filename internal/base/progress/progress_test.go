package progress_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogist/catalogist/internal/base/progress"
)

// clock is a clock the tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is an environment holding vars alone.
// env is an environment holding vars; CI=true unless vars set CI, so that
// a buffer gets lines.
func env(vars ...string) func(string) string {
	m := map[string]string{"CI": "true"}
	for i := 0; i+1 < len(vars); i += 2 {
		m[vars[i]] = vars[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestLines(t *testing.T) {
	var buf bytes.Buffer
	clk := newClock()
	r := progress.New(&buf, progress.Options{Getenv: env(), Now: clk.now})
	if r.Mode() != progress.Lines {
		t.Fatalf("mode %v on a buffer, want lines", r.Mode())
	}
	task := r.Start("lint", 12)
	task.Done("jupyter-python", 38*time.Millisecond, "")
	task.Done("rstudio", 1240*time.Millisecond, "2 errors")
	task.Done("vscode", 450*time.Millisecond, "reused")
	// As slow as jupyter-python, which ended first and stays ahead.
	task.Done("a\rb", 38*time.Millisecond, "")
	clk.advance(2345 * time.Millisecond)
	task.Finish()
	task.Finish()
	task.Done("late", time.Second, "")

	other := r.Start("package", 0)
	other.Done("x", 3*time.Minute+4600*time.Millisecond, "")
	clk.advance(5 * time.Minute)
	other.Finish()

	want := "" +
		"lint   1/12  jupyter-python  38 ms\n" +
		"lint   2/12  rstudio  1.2 s  2 errors\n" +
		"lint   3/12  vscode  450 ms  reused\n" +
		"lint   4/12  a b  38 ms\n" +
		"lint  4 of 12 done in 2.3 s; slowest: rstudio 1.2 s, vscode 450 ms, jupyter-python 38 ms\n" +
		"package  1  x  3m05s\n" +
		"package  1 done in 5m00s; slowest: x 3m05s\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestSlowestKeepsThree(t *testing.T) {
	var buf bytes.Buffer
	clk := newClock()
	r := progress.New(&buf, progress.Options{Getenv: env(), Now: clk.now})
	task := r.Start("build", 5)
	for i, ms := range []int{5, 50, 1, 20, 50} {
		task.Done(fmt.Sprintf("c%d", i), time.Duration(ms)*time.Millisecond, "")
	}
	clk.advance(80 * time.Millisecond)
	task.Finish()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := "build  5 done in 80 ms; slowest: c1 50 ms, c4 50 ms, c3 20 ms"
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

func TestSteps(t *testing.T) {
	var buf bytes.Buffer
	clk := newClock()
	r := progress.New(&buf, progress.Options{Getenv: env(), Now: clk.now})
	steps := r.Steps()
	clk.advance(100 * time.Millisecond)
	// The step started when its first item did: 30 ms before it ended.
	steps.Done("package", 2, "a", 30*time.Millisecond, "")
	steps.Done("page", 3, "a", 10*time.Millisecond, "")
	// Reused: no time, and not among the slowest.
	steps.Done("page", 3, "b", 0, "reused")
	clk.advance(50 * time.Millisecond)
	// Started 60 ms after the clock's start, before a: the step's time
	// runs from then.
	steps.Done("package", 2, "b", 90*time.Millisecond, "")
	// Finished with its last item: the next ones are not counted.
	steps.Done("package", 2, "c", 40*time.Millisecond, "")
	clk.advance(time.Second)
	steps.Finish()
	steps.Finish()
	want := "" +
		"package  1/2  a  30 ms\n" +
		"page  1/3  a  10 ms\n" +
		"page  2/3  b  reused\n" +
		"package  2/2  b  90 ms\n" +
		"package  2 done in 90 ms; slowest: b 90 ms, a 30 ms\n" +
		"page  2 of 3 done in 1.1 s; slowest: a 10 ms\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestTransferLines(t *testing.T) {
	var buf bytes.Buffer
	clk := newClock()
	r := progress.New(&buf, progress.Options{Getenv: env(), Now: clk.now})
	tr := r.Bytes("download a-1.0.0.tgz", 3<<20)
	// Nothing until it ends: a CI log has no use for a line per chunk.
	for range 3 {
		io.Copy(tr, bytes.NewReader(make([]byte, 1<<20)))
	}
	if buf.Len() != 0 {
		t.Fatalf("wrote %q before the end", buf.String())
	}
	clk.advance(340 * time.Millisecond)
	tr.End(nil)
	tr.End(errors.New("ignored"))
	tr.Write([]byte("after the end"))

	failed := r.Bytes("download b-2.0.0.tgz", -1)
	failed.Write(make([]byte, 12<<10))
	clk.advance(1200 * time.Millisecond)
	failed.End(errors.New("connection reset"))
	want := "" +
		"download a-1.0.0.tgz  3.0 MiB in 340 ms\n" +
		"download b-2.0.0.tgz  failed after 12.0 KiB in 1.2 s\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestQuiet checks that a quiet reporter, and a nil one, write nothing at
// all, whatever they are asked.
func TestQuiet(t *testing.T) {
	var buf bytes.Buffer
	quiet := progress.New(&buf, progress.Options{Quiet: true, Getenv: env()})
	for _, r := range []*progress.Reporter{quiet, nil, progress.New(nil, progress.Options{Getenv: env()})} {
		if r.Mode() != progress.Quiet {
			t.Errorf("mode %v, want quiet", r.Mode())
		}
		task := r.Start("lint", 3)
		task.Done("a", time.Millisecond, "2 errors")
		task.Finish()
		steps := r.Steps()
		steps.Done("package", 1, "a", time.Millisecond, "")
		steps.Finish()
		tr := r.Bytes("download", 10)
		if n, err := tr.Write([]byte("0123456789")); n != 10 || err != nil {
			t.Errorf("Write: %d, %v", n, err)
		}
		tr.End(nil)
	}
	if buf.Len() != 0 {
		t.Errorf("quiet mode wrote %q", buf.String())
	}
	if w := (*progress.Reporter)(nil).Writer(); w != io.Discard {
		t.Errorf("a nil reporter's writer is %T", w)
	}
}

// noRedraw matches what only a bar writes: a carriage return, an escape
// sequence, a bar's frame.
var noRedraw = regexp.MustCompile("[\r\x1b|█]")

// TestNoBarOffTerminal checks that a bar is never drawn on a writer that is
// not a terminal: a pipe (an *os.File) or a buffer.
func TestNoBarOffTerminal(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	read := make(chan []byte)
	go func() {
		data, _ := io.ReadAll(pr)
		read <- data
	}()
	var buf bytes.Buffer
	for _, w := range []io.Writer{pw, &buf} {
		r := progress.New(w, progress.Options{Getenv: env("TERM", "xterm-256color")})
		if r.Mode() != progress.Lines {
			t.Errorf("%T in CI: mode %v, want lines", w, r.Mode())
		}
		if m := progress.New(w, progress.Options{Getenv: env("CI", "", "TERM", "xterm-256color")}).Mode(); m != progress.Quiet {
			t.Errorf("%T outside CI: mode %v, want quiet", w, m)
		}
		exercise(r, 40)
	}
	pw.Close()
	for name, out := range map[string][]byte{"pipe": <-read, "buffer": buf.Bytes()} {
		if len(out) == 0 {
			t.Errorf("%s: nothing written", name)
		}
		if loc := noRedraw.FindIndex(out); loc != nil {
			t.Errorf("%s: a redrawing character at %d in %q", name, loc[0], out)
		}
		// One line per item, one per summary, one per transfer.
		if n := bytes.Count(out, []byte("\n")); n != 40+1+1 {
			t.Errorf("%s: %d lines, want 42:\n%s", name, n, out)
		}
	}
}

// exercise runs a task of n items and a transfer on r.
func exercise(r *progress.Reporter, n int) {
	task := r.Start("lint", n)
	for i := range n {
		task.Done(fmt.Sprintf("chart-%02d", i), time.Duration(i)*time.Millisecond, "")
	}
	task.Finish()
	tr := r.Bytes("download c-1.0.0.tgz", 1<<16)
	for range 16 {
		tr.Write(make([]byte, 1<<12))
	}
	tr.End(nil)
}

var lineRe = regexp.MustCompile(`^(lint  +\d+/\d+  w\d-\d+  \d+ ms|lint  \d+ done in .*|page  +\d+/\d+  w\d-\d+  \d+ ms  reused|page  \d+ done in .*|download [a-z0-9-]+\.tgz  .* in .*)$`)

// TestConcurrentLines checks that items ended on several goroutines at
// once give whole lines, each counted once. Run with -race.
func TestConcurrentLines(t *testing.T) {
	var buf bytes.Buffer
	r := progress.New(&buf, progress.Options{Getenv: env()})
	const workers, each = 8, 50
	task := r.Start("lint", workers*each)
	steps := r.Steps()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			tr := r.Bytes(fmt.Sprintf("download w%d.tgz", w), -1)
			for i := range each {
				task.Done(fmt.Sprintf("w%d-%d", w, i), time.Duration(i)*time.Millisecond, "")
				steps.Done("page", workers*each, fmt.Sprintf("w%d-%d", w, i), time.Millisecond, "reused")
				tr.Write([]byte("chunk"))
			}
			tr.End(nil)
		})
	}
	wg.Wait()
	task.Finish()
	steps.Finish()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2*workers*each+2+workers {
		t.Fatalf("%d lines, want %d", len(lines), 2*workers*each+2+workers)
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if !lineRe.MatchString(l) {
			t.Errorf("mangled line %q", l)
		}
		seen[l] = true
	}
	for _, want := range []string{"lint  400/400  ", "page  400/400  "} {
		found := false
		for l := range seen {
			found = found || strings.HasPrefix(l, want)
		}
		if !found {
			t.Errorf("no line starts with %q: counts lost", want)
		}
	}
	for w := range workers {
		if want := fmt.Sprintf("\ndownload w%d.tgz  250 B in ", w); !strings.Contains("\n"+buf.String(), want) {
			t.Errorf("no line %q: the transfer's bytes are counted wrong", want[1:])
		}
	}
}

// TestEnvironmentForcesLines checks that CI and GitHub Actions get lines
// even on a file, and that an explicit "false" does not count, nor a dumb
// terminal off a terminal.
func TestEnvironmentForcesLines(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, e := range [][]string{{"CI", "", "GITHUB_ACTIONS", "true"}, {"CI", "true"}, {"CI", "1"}} {
		if m := progress.New(f, progress.Options{Getenv: env(e...)}).Mode(); m != progress.Lines {
			t.Errorf("%v: mode %v, want lines", e, m)
		}
	}
	for _, e := range [][]string{{"CI", "false"}, {"CI", "", "TERM", "dumb"}} {
		if m := progress.New(f, progress.Options{Getenv: env(e...)}).Mode(); m != progress.Quiet {
			t.Errorf("%v: mode %v, want quiet", e, m)
		}
	}
}

func TestFormats(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                         "0 ms",
		400 * time.Microsecond:    "0 ms",
		38 * time.Millisecond:     "38 ms",
		999 * time.Millisecond:    "999 ms",
		999600 * time.Microsecond: "1.0 s",
		time.Second:               "1.0 s",
		59940 * time.Millisecond:  "59.9 s",
		time.Minute:               "1m00s",
		65 * time.Minute:          "65m00s",
	} {
		if got := progress.Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int64]string{
		0:       "0 B",
		1023:    "1023 B",
		1024:    "1.0 KiB",
		1536:    "1.5 KiB",
		5 << 20: "5.0 MiB",
		3 << 30: "3.0 GiB",
		1 << 50: "1024.0 TiB",
	} {
		if got := progress.Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
