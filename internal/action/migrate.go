package action

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/catalogist/catalogist/internal/target/migrate"
)

// Migrate moves a deployment of the platform from its old chart repository
// to the new one.
type Migrate struct {
	Options migrate.Options
	// Write writes the changes; otherwise only the diff is printed.
	Write bool

	Stdout, Stderr io.Writer
}

// Run prints the diff, the changes and the commands to run next, and
// writes the files with Write.
func (a *Migrate) Run(ctx context.Context) error {
	o := a.Options
	if o.Values == "" && o.Chart == "" && o.App == "" && o.IdpValues == "" {
		return Usage(fmt.Errorf("nothing to migrate: give --values, --chart, --app or --idp-values"))
	}
	for _, p := range []string{o.Values, o.Chart, o.App, o.IdpValues} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return Usage(err)
		}
	}
	m, err := migrate.New(o)
	if err != nil {
		return Usage(err)
	}
	res, err := m.Run(ctx)
	if ie := (*migrate.InputError)(nil); errors.As(err, &ie) {
		return Usage(err)
	}
	if err != nil {
		return RefusedOrFailed(err)
	}
	fmt.Fprint(a.Stdout, res.Diff())
	changed := 0
	for _, f := range res.Files {
		if f.Changed() {
			changed++
		}
		for _, c := range f.Changes {
			fmt.Fprintf(a.Stderr, "%s: %s\n", f.Path, c)
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(a.Stderr, "note: %s\n", n)
	}
	switch {
	case changed == 0:
		fmt.Fprintf(a.Stderr, "nothing to change: already on %s %s\n", res.Chart, res.Version)
	case a.Write:
		if err := res.Write(); err != nil {
			return Usage(err)
		}
		fmt.Fprintf(a.Stderr, "wrote %d file(s) for %s %s\n", changed, res.Chart, res.Version)
	default:
		fmt.Fprintf(a.Stderr, "%d file(s) would change for %s %s: run again with --write to apply\n", changed, res.Chart, res.Version)
	}
	fmt.Fprintln(a.Stderr, "then:")
	for _, c := range res.Commands {
		fmt.Fprintf(a.Stderr, "  %s\n", c)
	}
	return nil
}
