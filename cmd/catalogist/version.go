package main

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// addVersion gives the root command a version subcommand and a --version
// flag, which print the same line.
func addVersion(root *cobra.Command) {
	root.Version = version()
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().BoolP("version", "v", false, "print the version and source revision, as catalogist version does")
	root.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print the version and source revision of this catalogist",
		Long: `Version prints what the Go toolchain recorded when it built this binary:
the module version (a tag with go install, "(devel)" when built from a
checkout without one), the source revision, whether the checkout had
uncommitted changes ("modified"), the revision's commit time, and the Go
version and platform. catalogist --version prints the same line.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), root.Version)
			return err
		},
	})
}

// version describes this binary from its build information.
func version() string {
	bi, _ := debug.ReadBuildInfo()
	return versionLine(bi, runtime.GOOS+"/"+runtime.GOARCH)
}

// untagged matches the version the toolchain gives a checkout whose
// history has no tag: v0.0.0, the commit time, the revision's first 12
// digits, and +dirty for uncommitted changes.
var untagged = regexp.MustCompile(`^v0\.0\.0-[0-9]{14}-([0-9a-f]{12})(\+dirty)?$`)

// versionLine describes a build: its module version, what the toolchain
// recorded of the checkout it was built from, if anything, then the Go
// version and platform.
func versionLine(bi *debug.BuildInfo, platform string) string {
	if bi == nil {
		return "catalogist (unknown version: the binary holds no build information), " + platform
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	v, rev := bi.Main.Version, settings["vcs.revision"]
	// Such a version says no more than the revision printed beside it:
	// the build is a development one, as older toolchains put it.
	if m := untagged.FindStringSubmatch(v); v == "" || m != nil && rev != "" && strings.HasPrefix(rev, m[1]) {
		v = "(devel)"
	}
	parts := []string{"catalogist " + v}
	if rev != "" {
		parts = append(parts, "revision "+rev)
		if settings["vcs.modified"] == "true" {
			parts = append(parts, "modified")
		}
		if t := settings["vcs.time"]; t != "" {
			parts = append(parts, "committed "+t)
		}
	}
	return strings.Join(parts, ", ") + ", " + bi.GoVersion + " " + platform
}
