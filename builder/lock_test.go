package builder

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// signalWriter collects what a build logs and tells when it has logged.
type signalWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	logged chan struct{}
	once   sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.logged) })
	return w.buf.Write(p)
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// A build into an output another holds fails with --no-wait, naming the
// holder, and otherwise waits for it, saying so, and then builds.
func TestBuildWaitsForTheLock(t *testing.T) {
	cat := filepath.Join(t.TempDir(), "ide")
	if err := os.CopyFS(cat, os.DirFS(filepath.Join("..", "examples", "ide"))); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	unlock, err := lockOutput(out, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(filepath.Dir(out), ".catalogist-lock-site")

	_, err = Build(t.Context(), Options{Catalog: cat, Out: out, NoWait: true})
	var busy *BusyError
	if !errors.As(err, &busy) || busy.PID != os.Getpid() || busy.Lock != lock {
		t.Fatalf("want a BusyError naming pid %d and %s, got %#v", os.Getpid(), lock, err)
	}
	if want := "another build into " + out + " is running (pid " + strconv.Itoa(os.Getpid()) + ", holding " + lock + ")"; !strings.Contains(err.Error(), want) {
		t.Errorf("error lacks %q: %v", want, err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("the refused build wrote its output: %v", err)
	}

	log := &signalWriter{logged: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := Build(t.Context(), Options{Catalog: cat, Out: out, Log: log})
		done <- err
	}()
	<-log.logged
	want := "waiting for the build into " + out + " (pid " + strconv.Itoa(os.Getpid()) + ") to finish: it holds " + lock + "\n"
	if got := log.String(); got != want {
		t.Errorf("the waiting build says %q, want %q", got, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("the waiting build wrote its output before the lock was released: %v", err)
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatalf("the build that waited: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "index.yaml")); err != nil {
		t.Errorf("the build that waited wrote no index: %v", err)
	}
	// Released, the lock file says no holder.
	if pid := readPID(lock); pid != 0 {
		t.Errorf("the released lock names pid %d", pid)
	}
}

// createLock is the lock of systems without flock; it is tested here too.
func TestCreateLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".catalogist-lock-out")
	a, b := &createLock{path: p}, &createLock{path: p}
	if ok, err := a.try(); !ok || err != nil {
		t.Fatalf("a free lock: %v, %v", ok, err)
	}
	if ok, err := b.try(); ok || err != nil {
		t.Fatalf("a held lock was taken again: %v, %v", ok, err)
	}
	if pid := b.holder(); pid != os.Getpid() {
		t.Errorf("holder %d, want %d", pid, os.Getpid())
	}
	if s := b.stale(); !strings.Contains(s, "delete the file") {
		t.Errorf("nothing says what to do with a lock left behind: %q", s)
	}
	// b waits while a holds the lock, and takes it once a releases it.
	b.poll = time.Millisecond
	waited := make(chan error, 1)
	go func() { waited <- b.wait() }()
	select {
	case err := <-waited:
		t.Fatalf("b took a held lock: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	a.unlock()
	if err := <-waited; err != nil {
		t.Fatalf("waiting for a released lock: %v", err)
	}
	b.unlock()
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("the released lock file is still there: %v", err)
	}
}

// The leftovers of one output are not another's, however alike their
// names: a build into "site" leaves a build into "site-2" alone.
func TestLeftoversOfAnotherOutput(t *testing.T) {
	dir := t.TempDir()
	other := []string{".catalogist-stage-site-2-123", ".catalogist-old-site-2-456", ".catalogist-stage-site-x"}
	mine := []string{".catalogist-stage-site-789", ".catalogist-old-site-12"}
	for _, d := range append(other, mine...) {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := staleDirs(dir, "site")
	want := []string{filepath.Join(dir, mine[1]), filepath.Join(dir, mine[0])}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("leftovers of site: %v, want %v", got, want)
	}
}
