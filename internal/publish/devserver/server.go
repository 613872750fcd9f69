// Package devserver is the development server of `catalogist serve`: it
// builds a catalog into a temporary directory, serves the site on loopback,
// rebuilds it when the catalog's files change and has the open pages reload
// and show the lint findings of their chart.
package devserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// DefaultAddr is where the server listens unless told otherwise: loopback,
// since the site being worked on is nobody else's business yet.
const DefaultAddr = "127.0.0.1:8080"

// debounce is how long the catalog must stay quiet before a rebuild: an
// editor's save, a git checkout or a formatter touch many files in a burst.
const debounce = 150 * time.Millisecond

// Options configure a server.
type Options struct {
	// Build configures every build. Its Out is ignored: the server builds
	// into a temporary directory of its own, the same one each time so that
	// builds are incremental, and its Log is replaced by Log.
	Build builder.Options
	// Addr is the address to listen on (default DefaultAddr). Port 0 picks
	// a free port.
	Addr string
	// Log receives each build's progress and lint report and the server's
	// messages (nil: discarded).
	Log io.Writer
	// OnBuild, when set, is called after each build with its result.
	OnBuild func(*builder.Result, error)
}

// Server is a running development server.
type Server struct {
	opt   Options
	build builder.Options
	// catalog is the catalog's absolute directory; tmp the temporary
	// directory holding the output (out) and what builds leave beside it.
	catalog, tmp, out string

	ln       net.Listener
	loopback bool
	http     *http.Server
	watch    *watcher

	// ctx ends when the server stops: on Close, when the context Start was
	// given ends, or when serving fails (err).
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	err    error

	// instance tells this server's builds from a previous server's, which
	// a page left open across a restart was built by.
	instance string

	mu sync.Mutex
	// status is the last build's; built is true once a build succeeded,
	// when out holds a site.
	status Status
	built  bool
	// subs are the event streams open, each told of every build.
	subs map[chan struct{}]struct{}

	closeOnce sync.Once
	closeErr  error
}

// Start builds the catalog and serves it, rebuilding it as its files
// change, until ctx ends or Close is called. A failing build does not stop
// the server: it reports the failure and serves the previous build, if any.
// Close must be called in every case, to remove the temporary directory.
func Start(ctx context.Context, opt Options) (*Server, error) {
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	catalog, err := filepath.Abs(cmp.Or(opt.Build.Catalog, "."))
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", opt.Build.Catalog, err)
	}
	if info, err := os.Stat(catalog); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	} else if !info.IsDir() {
		return nil, fmt.Errorf("catalog %s is not a directory: serve needs a catalog directory (or a chart directory)", opt.Build.Catalog)
	}
	tmp, err := os.MkdirTemp("", "catalogist-serve-")
	if err != nil {
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	s := &Server{
		opt: opt, catalog: catalog, tmp: tmp, out: filepath.Join(tmp, "site"),
		instance: strconv.FormatInt(time.Now().UnixNano(), 36),
		subs:     map[chan struct{}]struct{}{},
	}
	s.build = opt.Build
	s.build.Catalog, s.build.Out, s.build.Log = catalog, s.out, opt.Log
	if s.build.Client == nil {
		// One client for every build, which keeps its connections to
		// remote repositories from one build to the next.
		client, err := chartrepo.New(chartrepo.Options{})
		if err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("chart repository client: %w", err)
		}
		s.build.Client = client
	}
	if err := s.start(ctx); err != nil {
		s.cancelAll()
		os.RemoveAll(tmp)
		return nil, err
	}
	return s, nil
}

func (s *Server) cancelAll() {
	if s.cancel != nil {
		s.cancel()
	}
	if s.watch != nil {
		s.watch.close()
	}
	if s.ln != nil {
		s.ln.Close()
	}
}

func (s *Server) start(ctx context.Context) error {
	addr := cmp.Or(s.opt.Addr, DefaultAddr)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w (pick another address with --addr)", addr, err)
	}
	s.ln = ln
	tcp, _ := ln.Addr().(*net.TCPAddr)
	s.loopback = tcp != nil && tcp.IP.IsLoopback()
	if !s.loopback {
		fmt.Fprintf(s.opt.Log, "warning: %s is not a loopback address (listening on %s): whoever reaches this machine can read the site and its lint findings\n", addr, ln.Addr())
	}
	// The watch starts before the first build, so that an edit made while
	// it runs is not missed.
	s.watch, err = newWatcher(s.roots(), s.ignoredDirs())
	if err != nil {
		return err
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	fmt.Fprintf(s.opt.Log, "building %s into %s\n", s.opt.Build.Catalog, s.out)
	s.rebuild(nil)
	if err := s.ctx.Err(); err != nil {
		return err
	}
	s.http = &http.Server{
		Handler:           s.handler(),
		ReadHeaderTimeout: 10 * time.Second,
		// Event streams end with the server's context: Shutdown does not
		// end requests in progress.
		BaseContext: func(net.Listener) context.Context { return s.ctx },
	}
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.err = fmt.Errorf("serving %s: %w", ln.Addr(), err)
			s.cancel()
		}
	}()
	go func() {
		defer s.wg.Done()
		s.loop()
	}()
	return nil
}

// roots are what the builds read: the catalog, and the templates, region
// file and schema registries the options name, wherever they are.
func (s *Server) roots() []string {
	roots := []string{s.catalog}
	for _, p := range append([]string{s.build.Templates, s.build.RegionFile}, s.build.SchemaRegistry...) {
		if p != "" {
			if abs, err := filepath.Abs(p); err == nil {
				roots = append(roots, abs)
			}
		}
	}
	return roots
}

// ignoredDirs are the directories builds write into, which must not
// trigger a rebuild even when they lie inside the catalog: the output (in
// tmp) and the dependency cache.
func (s *Server) ignoredDirs() []string {
	dirs := []string{s.tmp}
	if s.build.CacheDir != "" {
		if abs, err := filepath.Abs(s.build.CacheDir); err == nil {
			dirs = append(dirs, abs)
		}
	}
	return dirs
}

// URL is the address to open in a browser.
func (s *Server) URL() string {
	addr := s.ln.Addr().String()
	if tcp, ok := s.ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		addr = net.JoinHostPort("localhost", strconv.Itoa(tcp.Port))
	}
	return "http://" + addr + "/"
}

// Done is closed when the server stops: the context Start was given
// ended, or serving failed. Close tells why.
func (s *Server) Done() <-chan struct{} { return s.ctx.Done() }

// Close stops watching and serving, waits for a build in progress to stop
// and removes the temporary directory. It returns why serving failed, if it
// did.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.cancel()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.http.Shutdown(shut)
		s.watch.close()
		s.wg.Wait()
		rmErr := os.RemoveAll(s.tmp)
		if rmErr != nil {
			rmErr = fmt.Errorf("removing the temporary directory: %w", rmErr)
		}
		s.closeErr = cmp.Or(s.err, rmErr)
	})
	return s.closeErr
}

// loop waits for the catalog to change and stay quiet for a moment, then
// rebuilds. Changes made while a build runs wait in the watcher's queue
// and make the next one.
func (s *Server) loop() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var fire <-chan time.Time
	changed := map[string]bool{}
	for {
		select {
		case <-s.ctx.Done():
			return
		case p, ok := <-s.watch.changes:
			if !ok {
				return
			}
			changed[p] = true
			timer.Reset(debounce)
			fire = timer.C
		case err, ok := <-s.watch.errors:
			if !ok {
				return
			}
			fmt.Fprintf(s.opt.Log, "warning: watching the catalog: %v\n", err)
		case <-fire:
			fire = nil
			files := make([]string, 0, len(changed))
			for p := range changed {
				files = append(files, s.rel(p))
			}
			clear(changed)
			s.rebuild(files)
		}
	}
}

// rebuild builds into the same output as every build before, records the
// outcome and tells the pages.
func (s *Server) rebuild(changed []string) {
	slices.Sort(changed)
	if len(changed) > 0 {
		fmt.Fprintf(s.opt.Log, "%s changed: rebuilding\n", describe(changed))
	}
	start := time.Now()
	res, err := builder.Build(s.ctx, s.build)
	if s.ctx.Err() != nil {
		// Stopping: a build cut short is no failure to report.
		return
	}
	took := time.Since(start)
	st := s.record(res, err, changed, took)
	if err != nil {
		what := "still serving the previous build"
		if !st.Serving {
			what = "nothing to serve yet"
		}
		fmt.Fprintf(s.opt.Log, "build failed (%s; the next change rebuilds): %s\n", what, st.Error)
	} else {
		errs, warns := 0, 0
		if res.Lint != nil {
			errs, warns = res.Lint.Count()
		}
		fmt.Fprintf(s.opt.Log, "built %d chart(s) in %s: %d packaged, %d unchanged, %d lint error(s), %d warning(s)\n",
			res.Charts, took.Round(time.Millisecond), res.Packaged, res.Reused, errs, warns)
	}
	if s.opt.OnBuild != nil {
		s.opt.OnBuild(res, err)
	}
	s.broadcast()
}

// record makes the status of a build the current one.
func (s *Server) record(res *builder.Result, err error, changed []string, took time.Duration) Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.built = true
	}
	gen := s.status.Generation + 1
	st := Status{
		Build:      s.instance + "-" + strconv.Itoa(gen),
		Generation: gen,
		OK:         err == nil,
		Serving:    s.built,
		Changed:    changed,
		TookMS:     took.Milliseconds(),
		Charts:     map[string][]Finding{},
	}
	if err != nil {
		// The catalogs' URLs (--base-url, --merge) may carry credentials.
		st.Error = secret.RedactURLs(err.Error())
	}
	if res != nil && res.Lint != nil {
		st.addFindings(res.Lint.Findings, s.catalog)
	}
	s.status = st
	return st
}

// current returns the last build's status.
func (s *Server) current() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// subscribe registers an event stream; each build sends on the channel,
// whose one-slot buffer keeps a slow reader from holding the others up
// (it only needs to know that something happened).
func (s *Server) subscribe() (chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}
}

func (s *Server) broadcast() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// rel names a changed file relative to the catalog when it is inside it.
func (s *Server) rel(p string) string { return relTo(s.catalog, p) }

// describe names a few changed files.
func describe(files []string) string {
	const shown = 3
	if len(files) <= shown {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:shown], ", "), len(files)-shown)
}
