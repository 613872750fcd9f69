package progress_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/catalogist/catalogist/internal/base/progress"
)

// terminal opens a pseudo-terminal and returns its terminal side, which
// progress writes to, and a function that closes it and returns all that
// was written.
func terminal(t *testing.T) (*os.File, func() []byte) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("numbering the pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Raw, the terminal passes bytes as written: no "\r" added before
	// each "\n".
	if _, err := term.MakeRaw(int(tty.Fd())); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Read until the terminal side closes (EIO).
		io.Copy(&out, ptmx)
	}()
	return tty, func() []byte {
		tty.Close()
		<-done
		return out.Bytes()
	}
}

func TestBarOnTerminal(t *testing.T) {
	tty, written := terminal(t)
	r := progress.New(tty, progress.Options{Getenv: env("CI", "", "TERM", "xterm-256color")})
	if r.Mode() != progress.Bar {
		t.Fatalf("mode %v on a terminal, want bar", r.Mode())
	}
	task := r.Start("lint", 3)
	for _, name := range []string{"jupyter-python", "rstudio", "vscode"} {
		task.Done(name, 20*time.Millisecond, "")
		// Past the redrawing throttle, so that each item is drawn.
		time.Sleep(80 * time.Millisecond)
	}
	fmt.Fprintln(r.Writer(), "warning: a message above the bar")
	task.Finish()
	tr := r.Bytes("download a-1.0.0.tgz", 4<<10)
	tr.Write(make([]byte, 2<<10))
	time.Sleep(80 * time.Millisecond)
	tr.Write(make([]byte, 2<<10))
	tr.End(nil)
	out := string(written())

	// Each item is drawn with its own count.
	for _, want := range []string{
		`\rlint  jupyter-python +33% \|█+ +\| \(1/3\)`,
		`\rlint  rstudio +66% \|█+ +\| \(2/3\)`,
		`\rdownload a-1.0.0.tgz +50% \|█+ +\| \(2.0/4.0 KiB`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no %s in what the terminal got:\n%q", want, out)
		}
	}
	// Lines are written where the bar was, once it is cleared (after the
	// carriage return that ends the clearing), or after another line.
	for _, line := range []string{
		"warning: a message above the bar\n",
		"lint  3 done in ",
		"download a-1.0.0.tgz  4.0 KiB in ",
	} {
		i := strings.Index(out, line)
		if i <= 0 || (out[i-1] != '\r' && out[i-1] != '\n') {
			t.Errorf("%q is not written on a cleared line:\n%q", line, out)
		}
	}
	// Nothing is drawn after the last line.
	if !strings.HasSuffix(out, "\n") || strings.Contains(out[strings.LastIndex(out, "download a-1.0.0.tgz  4.0 KiB"):], "\r") {
		t.Errorf("the terminal does not end with the transfer's line:\n%q", out)
	}
}

// TestBarConcurrent shares one bar among tasks ended on several goroutines,
// with messages written above it. Run with -race.
func TestBarConcurrent(t *testing.T) {
	tty, written := terminal(t)
	r := progress.New(tty, progress.Options{Getenv: env("CI", "")})
	if r.Mode() != progress.Bar {
		t.Fatalf("mode %v on a terminal, want bar", r.Mode())
	}
	steps := r.Steps()
	lint := r.Start("lint", 100)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			tr := r.Bytes(fmt.Sprintf("download w%d", w), -1)
			for i := range 25 {
				lint.Done(fmt.Sprintf("c%d-%d", w, i), time.Millisecond, "")
				steps.Done("package", 100, fmt.Sprintf("c%d-%d", w, i), time.Millisecond, "")
				tr.Write([]byte("x"))
				if i%10 == 0 {
					fmt.Fprintf(r.Writer(), "note %d-%d\n", w, i)
				}
			}
			tr.End(nil)
		})
	}
	wg.Wait()
	lint.Finish()
	steps.Finish()
	out := string(written())
	for _, want := range []string{"lint  100 done in ", "package  100 done in ", "download w0  25 B in ", "note 3-20\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in what the terminal got:\n%q", want, out)
		}
	}
}
