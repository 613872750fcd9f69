package progress

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Transfer shows the bytes of one download. Write it what is received
// (through io.TeeReader or io.MultiWriter), then End it. A nil Transfer,
// which a quiet Reporter starts, shows nothing.
type Transfer struct {
	r     *Reporter
	label string
	size  int64
	begin time.Time
	// Under r.mu.
	n     int64
	ended bool
}

// Bytes starts a transfer of size bytes (-1 when the server does not
// say), shown under label ("download vscode-python-2.3.1.tgz"). In Bar
// mode it draws a bar of its bytes unless another bar is drawn; in every
// mode but Quiet, End writes a line with its size and time.
func (r *Reporter) Bytes(label string, size int64) *Transfer {
	if r == nil || r.mode == Quiet {
		return nil
	}
	t := &Transfer{r: r, label: label, size: size, begin: r.now()}
	if r.mode == Bar {
		r.mu.Lock()
		if r.bar == nil {
			if size <= 0 {
				// The library's spinner, for a size not known.
				size = -1
			}
			r.bar = progressbar.NewOptions64(size, barOptions(r.w, shorten(label),
				progressbar.OptionShowBytes(true),
				progressbar.OptionShowCount(),
				progressbar.OptionUseIECUnits(true),
				progressbar.OptionSetWidth(20),
				progressbar.OptionThrottle(redraw),
			)...)
			r.transfer = t
		}
		r.mu.Unlock()
	}
	return t
}

// Write counts p as received. It never fails.
func (t *Transfer) Write(p []byte) (int, error) {
	if t == nil {
		return len(p), nil
	}
	r := t.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if t.ended {
		return len(p), nil
	}
	t.n += int64(len(p))
	if r.transfer == t {
		r.bar.Add64(int64(len(p)))
	}
	return len(p), nil
}

// End ends the transfer, with its error (nil when it succeeded), and
// writes its line:
//
//	download vscode-python-2.3.1.tgz  1.2 MiB in 340 ms
//	download vscode-python-2.3.1.tgz  failed after 12.0 KiB in 1.2 s
//
// Only the first call counts.
func (t *Transfer) End(err error) {
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
	took := r.now().Sub(t.begin)
	line := fmt.Sprintf("%s  %s in %s", clean(t.label), Bytes(t.n), Duration(took))
	if err != nil {
		line = fmt.Sprintf("%s  failed after %s in %s", clean(t.label), Bytes(t.n), Duration(took))
	}
	if r.transfer == t {
		r.dropBar()
		r.transfer = nil
		if r.running == 0 {
			r.done, r.total = 0, 0
		}
	}
	r.clearBar()
	io.WriteString(r.w, line+"\n")
}
