// Command catalogist lints, builds and launches catalogs of Helm charts for
// a Kubernetes data-science platform.
package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/base/secret"
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
	root := newRoot()
	root.SetArgs(args)
	err := root.Execute()
	// A URL in a message may come with the credentials of a catalogs
	// file, a flag or a server; none is printed.
	if err != nil && err.Error() != "" {
		fmt.Fprintln(os.Stderr, "catalogist:", secret.RedactURLs(err.Error()))
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
