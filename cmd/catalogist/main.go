// Command catalogist lints, builds and launches catalogs of Helm charts for
// a Kubernetes data-science platform.
package main

import (
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/base/printable"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/publish/workflow"
)

func main() {
	// A lint run allocates a few hundred megabytes of short-lived schema
	// trees; collecting half as often saves a tenth of its CPU time for a
	// modestly larger peak. GOGC still wins when set.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	// That headroom is three times the live heap: on a catalog of
	// thousands of charts it would be gigabytes. A soft limit makes the
	// collector work harder as the heap nears it, so that a build of
	// 10,000 charts stays under a gigabyte; GOMEMLIMIT still wins when set.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(768 << 20)
	}
	// Helm's SDK logs its progress through slog's default logger (a line
	// for each in-catalog symbolic link it packages, for instance); what
	// catalogist reports is its own, so only Helm's warnings are shown.
	slog.SetLogLoggerLevel(slog.LevelWarn)
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	var stdout, stderr io.Writer = os.Stdout, os.Stderr
	if os.Getenv("GITHUB_ACTIONS") == "true" {
		// The runner reads both streams for workflow commands, and what
		// is printed quotes catalogs and servers: only catalogist's own
		// commands may be read as such.
		steps := workflow.NewLog()
		out, errs := steps.Stream(os.Stdout), steps.Stream(os.Stderr)
		defer out.Flush()
		defer errs.Flush()
		stdout, stderr = out, errs
		// Helm's warnings, through slog's default logger.
		log.SetOutput(errs)
	}
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	// A URL in a message may come with the credentials of a catalogs
	// file, a flag or a server; none is printed. Nor is a control
	// character a catalog or a server put in it.
	if err != nil && err.Error() != "" {
		fmt.Fprintln(stderr, "catalogist:", printable.Lines(secret.RedactURLs(err.Error())))
	}
	return action.ExitCode(err)
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "catalogist",
		Short:         "Lint, build and launch catalogs of Helm charts for a data-science platform",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return action.Usage(fmt.Errorf("%w (see %s --help)", err, c.CommandPath()))
	})
	root.AddCommand(newLintCmd(), newBuildCmd(), newLaunchCmd(), newListCmd(), newUninstallCmd(), newCatalogsCmd(), newMigrateCmd(), newFormCmd(), newServeCmd(), newActionCmd(), newPublishCmd(), newNewCmd(), newDocsCmd())
	addVersion(root)
	return root
}
