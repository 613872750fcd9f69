package action

import (
	"context"
	"fmt"
	"io"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/publish/devserver"
)

// Serve builds a catalog and serves its site while its sources change,
// until ctx ends.
type Serve struct {
	Options builder.Options
	// Addr is the address to listen on.
	Addr string
	// Verbose prints how long each step of each build took.
	Verbose bool

	Stdout, Stderr io.Writer
}

// Run serves until ctx ends, then removes what it built.
func (a *Serve) Run(ctx context.Context) error {
	if err := CheckBuildOptions(a.Options); err != nil {
		return Usage(err)
	}
	sopt := devserver.Options{Build: a.Options, Addr: a.Addr, Log: a.Stderr}
	if a.Verbose {
		sopt.OnBuild = func(res *builder.Result, _ error) {
			if res != nil {
				WriteSteps(a.Stderr, res.Steps)
			}
		}
	}
	s, err := devserver.Start(ctx, sopt)
	if err != nil {
		return Usage(err)
	}
	fmt.Fprintf(a.Stdout, "serving %s at %s (Ctrl-C to stop)\n", a.Options.Catalog, s.URL())
	<-s.Done()
	fmt.Fprintln(a.Stderr, "stopping: removing the temporary directory")
	return s.Close()
}
