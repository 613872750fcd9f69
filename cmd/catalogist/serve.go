package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/builder"
	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/publish/devserver"
)

func newServeCmd() *cobra.Command {
	var opt builder.Options
	var verbose bool
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [CATALOG] [--addr 127.0.0.1:8080]",
		Short: "Build a catalog's site, serve it on loopback and rebuild it as files change",
		Long: `Serve builds the catalog as build does, with the same flags, into a
temporary directory, and serves it over HTTP, on 127.0.0.1:8080 unless
--addr says otherwise (an address other than loopback is reachable by
others: a warning says so).

It watches the catalog (and the --templates, --region and --schema-registry
it is given): a change rebuilds the site incrementally, and the pages open
in a browser reload. Each build prints its lint report here, and the page of
a chart with findings shows them in a banner, with their file and line. A
build that fails (lint errors, a file that does not parse) is reported here
and on every page, and the previous build is still served.

Serving stops on Ctrl-C, which removes the temporary directory. The files
served are those build writes; only the pages, as they are served, get the
script that reloads them and shows the banners.

Exit status (docs/exit-codes.md): 0 when stopped, 2 for usage errors, an
address in use included.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Catalog = "."
			if len(args) == 1 {
				opt.Catalog = args[0]
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			// A second Ctrl-C ends at once, cleanup or not: the handler
			// goes as soon as the first one has stopped the server.
			context.AfterFunc(ctx, stop)
			a := &action.Serve{Options: opt, Addr: addr, Verbose: verbose, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()}
			return a.Run(ctx)
		},
	}
	fl := cmd.Flags()
	addBuildFlags(fl, &opt, &verbose)
	fl.StringVar(&addr, "addr", devserver.DefaultAddr, "address to listen on (host:port, port 0 for any free one); other than loopback, whoever reaches it reads the site")
	return cmd
}
