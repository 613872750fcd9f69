// Package browsertest drives the system's Chromium for tests of the pages
// the site builds: a headless tab per test that records the page's script
// errors, phone and desktop viewports, layout and accessibility (axe-core)
// checks, load and input measurements, and screenshots kept as artifacts.
//
// The browser is $CATALOGIST_CHROMIUM and axe-core's script
// $CATALOGIST_AXE, both installed by `make tools`. A missing one fails the
// test with what to run: tests never skip.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/catalogist/catalogist/internal/testkit/repotest"
	"github.com/catalogist/catalogist/internal/testkit/tooltest"
)

// tab is what New keeps about a tab, in the context it returns.
type tab struct {
	// chromedp is the tab's own context, without the test's deadline:
	// dismissing a dialog must work whatever the caller's context.
	chromedp context.Context

	mu     sync.Mutex
	errors []string
}

type tabKey struct{}

func tabOf(ctx context.Context) *tab {
	tb, _ := ctx.Value(tabKey{}).(*tab)
	return tb
}

// record runs for every event of the tab, in the order the browser sent
// them and before the answer to any later command: after a command returns,
// every error the page had before it is recorded.
func (tb *tab) record(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var args []string
		for _, a := range ev.Args {
			args = append(args, remoteText(a))
		}
		msg = "console." + string(ev.Type) + ": " + strings.Join(args, " ") + stackPlace(ev.StackTrace)
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			// The description is the error and its stack: the first
			// line is enough, the place follows.
			first, _, _ := strings.Cut(d.Exception.Description, "\n")
			msg += " " + first
		}
		msg = "exception: " + msg + fmt.Sprintf(" (%s:%d:%d)", d.URL, d.LineNumber+1, d.ColumnNumber+1)
	case *log.EventEntryAdded:
		// Failed loads and Content-Security-Policy violations reach the
		// browser's log, not the console API.
		if ev.Entry.Level != log.EntryLevelError {
			return
		}
		// The browser asks every site for /favicon.ico by itself; a
		// static site without one is not broken. Nor is a page whose
		// external image (a README's badge) the test's browser does not
		// fetch.
		if u, err := url.Parse(ev.Entry.URL); err == nil && ev.Entry.Source == log.EntrySourceNetwork && (u.Path == "/favicon.ico" || External(ev.Entry.URL)) {
			return
		}
		msg = fmt.Sprintf("%s error: %s", ev.Entry.Source, ev.Entry.Text)
		if ev.Entry.URL != "" {
			msg += " (" + ev.Entry.URL + ")"
		}
	case *page.EventJavascriptDialogOpening:
		msg = fmt.Sprintf("dialog %s: %s", ev.Type, ev.Message)
		// A dialog stops the page until it is answered; the listener runs
		// on the goroutine that reads the browser's answers, so answer
		// from another.
		go chromedp.Call(tb.chromedp, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	default:
		return
	}
	tb.mu.Lock()
	tb.errors = append(tb.errors, msg)
	tb.mu.Unlock()
}

// remoteText is how the console shows one argument.
func remoteText(o *runtime.RemoteObject) string {
	if o.Type == runtime.RemoteObjectTypeString {
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
	}
	switch {
	case o.UnserializableValue != "":
		return string(o.UnserializableValue)
	case o.Description != "":
		return o.Description
	case len(o.Value) > 0:
		return string(o.Value)
	}
	return string(o.Type)
}

func stackPlace(st *runtime.StackTrace) string {
	if st == nil || len(st.CallFrames) == 0 {
		return ""
	}
	f := st.CallFrames[0]
	return fmt.Sprintf(" (%s:%d:%d)", f.URL, f.LineNumber+1, f.ColumnNumber+1)
}

// External reports whether a URL names a host other than the loopback's,
// which the test's browser does not reach (see Allocator): its failure to
// load is the test's doing, not the page's.
func External(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// Allocator starts the system's headless Chromium (CATALOGIST_CHROMIUM)
// with the flags every page test uses, stopped at test cleanup; tests that
// listen to a tab their own way open it on this allocator.
func Allocator(t testing.TB) context.Context {
	t.Helper()
	exe := tooltest.Tool(t, "CATALOGIST_CHROMIUM", "chromium", "chromium-browser")
	// A profile directory of its own: with none, chromedp makes one and,
	// on closing, looks through every /proc/*/cmdline for leftovers, which
	// go test records as inputs of the test that differ on every run, so
	// no test starting a browser would ever be cached. Removed after the
	// browser stops (cleanups run last registered first); a leftover child
	// still writing there only leaves a directory behind.
	profile, err := os.MkdirTemp("", "catalogist-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(profile) })
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.Headless,
		chromedp.NoSandbox, // the tests run as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-sync", true),
		// Pages are tested on their own: a request for any host but the
		// loopback's, such as a README's badge, fails at once, on a
		// machine with a network as on one without.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]"),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancel)
	return alloc
}

// New starts a headless Chromium with one tab, closed when the test ends,
// and returns the tab's context for chromedp actions. The tab records the
// page's errors (see Errors), dismisses dialogs, and never uses its HTTP
// cache, so a page rebuilt and reloaded is fetched afresh and PageWeight
// counts every byte. The context ends shortly before the test's deadline,
// so a wait that never ends fails the test with a message.
func New(t testing.TB) context.Context {
	t.Helper()
	alloc := Allocator(t)
	tb := &tab{}
	tabCtx, cancelTab := chromedp.NewContext(alloc, chromedp.WithListener(tb.record))
	tb.chromedp = tabCtx
	t.Cleanup(cancelTab)
	// The first action starts the browser; it must run on a context
	// without a deadline, which would stop the whole browser.
	if _, err := chromedp.Call(tabCtx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		t.Fatalf("starting Chromium ($CATALOGIST_CHROMIUM): %v", err)
	}
	ctx := context.WithValue(tabCtx, tabKey{}, tb)
	if deadline, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := deadline.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, d.Add(-5*time.Second))
			t.Cleanup(cancel)
		}
	}
	if err := Viewport(ctx, 1280, 900); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// Errors returns what went wrong in the tab's pages since the last call:
// console.error and failed console.assert calls, uncaught exceptions and
// rejections, errors of the browser's log (failed loads, blocked by the
// Content-Security-Policy) and dialogs. A page that renders without a
// script error gives none. The request the browser makes for /favicon.ico
// on its own is not counted when it fails, nor are the external requests
// the test's browser blocks.
func Errors(ctx context.Context) []string {
	tb := tabOf(ctx)
	if tb == nil {
		return []string{"browsertest.Errors: the context does not come from browsertest.New"}
	}
	// Events come before the answer to any later command: one round trip
	// makes sure every error so far is recorded.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`0`)); err != nil {
		return []string{fmt.Sprintf("browsertest.Errors: the tab does not answer: %v", err)}
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	errs := tb.errors
	tb.errors = nil
	return errs
}

// phoneWidth is the widest viewport Viewport emulates as a phone.
const phoneWidth = 600

// Viewport sizes the tab's viewport in CSS pixels. Up to 600 px wide it
// emulates a phone held upright: mobile layout (the page's viewport meta
// applies) and touch.
func Viewport(ctx context.Context, width, height int) error {
	var opts []chromedp.EmulateViewportOption
	if width <= phoneWidth {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height), opts...)); err != nil {
		return fmt.Errorf("setting the viewport to %dx%d: %w", width, height, err)
	}
	return nil
}

// HorizontalOverflow returns the width of the page's content and of its
// viewport: a page that fits has scrollWidth <= clientWidth, and a reader
// never scrolls sideways.
func HorizontalOverflow(ctx context.Context) (scrollWidth, clientWidth int, err error) {
	w, err := chromedp.Run(ctx, chromedp.Evaluate[[2]int](
		`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`))
	if err != nil {
		return 0, 0, fmt.Errorf("measuring the page's width: %w", err)
	}
	return w[0], w[1], nil
}

// wideElements finds the outermost elements that reach past the viewport's
// right edge outside any box that scrolls or clips them.
const wideElements = `(() => {
  const width = document.documentElement.clientWidth;
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    Array.from(el.classList).map((c) => '.' + c).join('');
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right <= width + 0.5 || r.width === 0 || clipped(el)) continue;
    if (out.some((o) => o.el.contains(el))) continue;
    out.push({el, text: name(el) + ' (' + Math.round(r.left) + ' to ' + Math.round(r.right) + ' px)'});
  }
  return out.slice(0, 10).map((o) => o.text);
})()`

// WideElements names the elements (at most 10, outermost first) that make
// the page wider than its viewport: what a test reports when
// HorizontalOverflow finds the page too wide. Elements inside a box that
// scrolls or clips sideways are not counted.
func WideElements(ctx context.Context) ([]string, error) {
	names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](wideElements))
	if err != nil {
		return nil, fmt.Errorf("finding the elements wider than the viewport: %w", err)
	}
	return names, nil
}

// Serve serves dir on loopback until the test ends, as a static host
// does, and returns its address without a trailing slash.
func Serve(t testing.TB, dir string) string {
	t.Helper()
	return repotest.Serve(t, dir).URL
}

// ArtifactsDir is where tests leave files for people to look at
// (screenshots, measured budgets): $CATALOGIST_ARTIFACTS, else
// catalogist-artifacts in the user's cache directory. Not in the
// repository: go test never caches a test that opened a file under the
// module changed less than two seconds before, so artifacts written there
// would make the page tests run again on every `make test`.
func ArtifactsDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("CATALOGIST_ARTIFACTS")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Fatalf("no cache directory (%v): set CATALOGIST_ARTIFACTS to a directory for screenshots", err)
		}
		dir = filepath.Join(cache, "catalogist-artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifacts directory: %v", err)
	}
	return dir
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Screenshot saves the whole page, not only the viewport, as
// <ArtifactsDir>/<name>.png and returns the file's path. Characters other
// than letters, digits, '.', '_' and '-' in name become '-'.
func Screenshot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	name = unsafeName.ReplaceAllString(strings.TrimSuffix(name, ".png"), "-") + ".png"
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(ArtifactsDir(t), name)
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return path
}
