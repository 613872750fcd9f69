package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/catalogist/catalogist/internal/model/schema"
	"github.com/catalogist/catalogist/internal/target/launcher"
)

// clusterFlags are the flags every command that talks to a cluster has.
type clusterFlags struct {
	kube      launcher.Kube
	namespace string
	// cfg is the actions' configuration, filled by configure once the
	// flags are parsed, as Helm's commands fill theirs.
	cfg launcher.Configuration
}

// configure fills the actions' configuration from the kubeconfig flags.
func (c *clusterFlags) configure() { c.cfg = *launcher.NewConfiguration(c.kube) }

func (c *clusterFlags) add(cmd *cobra.Command, nsHelp string) {
	fl := cmd.Flags()
	fl.StringVar(&c.kube.Kubeconfig, "kubeconfig", "", "kubeconfig file (default $KUBECONFIG, else ~/.kube/config)")
	fl.StringVar(&c.kube.Context, "kube-context", "", "kubeconfig context (default the current one)")
	fl.StringVarP(&c.namespace, "namespace", "n", "", nsHelp)
}

func newLaunchCmd() *cobra.Command {
	var (
		cl                    clusterFlags
		l                     = launcher.NewLaunch(&cl.cfg)
		repoURL, catalogsFile string
		regionFile, regionID  string
		profileFile           string
		platform              string
		registries            []string
		showValues            bool
	)
	cmd := &cobra.Command{
		Use:   "launch CATALOG/CHART | CHART --repo URL",
		Short: "Launch a chart from a published catalog into a cluster, with the values the platform would compute",
		Long: `Launch resolves a chart in a published catalog (a catalog id of the catalogs
file, see "catalogist catalogs", or a repository URL with --repo), downloads
its package and verifies it against the index's digest, computes its values
as the platform does (the chart's schema as the platform's API serves it,
your launch context, the region's resources and slider bounds, the chart's
values.yaml), puts -f files, --set-json, --set and --set-string on top in
Helm's order, and installs it with Helm into the cluster of KUBECONFIG.

Every value the schema or the region does not allow is reported, and then
nothing is installed. A chart whose form the platform would not open is
refused the same way, with each reason at its file:line:col: the platform
would not let a user launch it either. --dry-run renders the manifests
without a cluster.

Exit status (docs/exit-codes.md): 0 on success; 1 when values or the
chart's form are refused, the chart does not verify, or the cluster refuses
the install; 2 for usage errors and unreadable files (catalogs, profile,
region, schema registry); 3 when the catalog or the cluster cannot be
reached.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cl.configure()
			l.Namespace = cl.namespace
			a := &action.Launch{
				Launch: l, Ref: args[0], RepoURL: repoURL, CatalogsFile: catalogsFile,
				RegionFile: regionFile, RegionID: regionID, ProfileFile: profileFile,
				Platform: platform, Registries: registries, ShowValues: showValues,
				Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr(),
			}
			return a.Run(cmd.Context())
		},
	}
	cl.add(cmd, "namespace to install into, created when missing (default the kubeconfig context's)")
	fl := cmd.Flags()
	fl.StringVar(&repoURL, "repo", "", "chart repository URL, instead of a catalog id")
	fl.StringVar(&catalogsFile, "catalogs", "", "catalogs file (default catalogs.yaml in the user's configuration directory, else the platform's default catalogs)")
	fl.StringVar(&l.Version, "version", "", `exact version or SemVer constraint such as "^2.1" (default the newest non-prerelease)`)
	fl.StringVar(&l.Name, "name", "", "release name (default the chart's name and a random suffix)")
	fl.StringVar(&regionFile, "region", "", "region file: resources pre-filled and slider bounds enforced")
	fl.StringVar(&regionID, "region-id", "", "region to pick from a regions.json with several regions")
	fl.StringVar(&profileFile, "profile", "", "launch context file (YAML or JSON: user, project, git, vault, s3, s3_array, region, k8s, ...); the region file's values are merged under region")
	addSchemaFlags(fl, &platform, &registries)
	// The shared help names catalog.yaml, which a launch does not read.
	fl.Lookup("platform").Usage = fmt.Sprintf("platform whose form the launch reproduces: %s (default: platform of the catalogs entry, else onyxia for the x-onyxia extension key, catalogist otherwise)", strings.Join(schema.PlatformNames(), " or "))
	fl.Lookup("schema-registry").Usage = "directory of the platform API's schema registry, whose schemas replace properties with overwriteSchemaWith and resolve $ref (repeatable; a later directory wins)"
	fl.StringArrayVarP(&l.ValueFiles, "values", "f", nil, "values file on top of the computed values (repeatable)")
	fl.StringArrayVar(&l.SetJSON, "set-json", nil, "JSON value on top of the computed values and files, as helm --set-json: KEY=JSON or a JSON object (repeatable)")
	fl.StringArrayVar(&l.Set, "set", nil, "value on top of the computed values, files and --set-json, as helm --set (repeatable)")
	fl.StringArrayVar(&l.SetString, "set-string", nil, "string value on top of everything else, as helm --set-string: 9 stays the string \"9\" (repeatable)")
	fl.BoolVar(&l.DryRun, "dry-run", false, "render the manifests and print them; needs no cluster")
	fl.BoolVar(&showValues, "show-values", false, "print the computed values, secrets masked")
	fl.StringVar(&l.Resolver.CacheDir, "cache-dir", "", "cache of indexes and packages (default the user's cache directory)")
	fl.DurationVar(&l.Timeout, "timeout", 5*time.Minute, "time allowed for the install")
	return cmd
}

func newListCmd() *cobra.Command {
	var cl clusterFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the releases catalogist launched, with chart, version, catalog and status",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cl.configure()
			ls := launcher.NewList(&cl.cfg)
			ls.Namespace = cl.namespace
			rs, err := ls.Run(cmd.Context())
			if err != nil {
				return action.RefusedOrFailed(err)
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tNAMESPACE\tCATALOG\tCHART\tVERSION\tSTATUS\tUPDATED")
			for _, r := range rs {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Namespace, r.Catalog, r.Chart, r.Version, r.Status, r.Updated.UTC().Format(time.DateTime))
			}
			return w.Flush()
		},
	}
	cl.add(cmd, "namespace to list (default every namespace)")
	return cmd
}

func newUninstallCmd() *cobra.Command {
	var cl clusterFlags
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "uninstall NAME",
		Short: "Remove a release catalogist launched",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cl.configure()
			u := launcher.NewUninstall(&cl.cfg)
			u.Namespace, u.Name, u.Timeout = cl.namespace, args[0], timeout
			if err := u.Run(cmd.Context()); err != nil {
				return action.RefusedOrFailed(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "uninstalled %s\n", args[0])
			return nil
		},
	}
	cl.add(cmd, "namespace of the release (default the kubeconfig context's)")
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Minute, "time allowed for the removal")
	return cmd
}

func newCatalogsCmd() *cobra.Command {
	var catalogsFile, cacheDir string
	cmd := &cobra.Command{
		Use:   "catalogs",
		Short: "List the catalogs you launch from, with their charts",
		Long: `Catalogs lists the catalogs of the catalogs file (catalogs.yaml in the user's
configuration directory, or --catalogs), or the platform's three default
catalogs when there is none, and the charts each one publishes.

A catalogs file is a list of entries:

  catalogs:
    - id: ide
      name: Interactive services
      location: https://example.org/catalog-ide   # the chart repository
      extensionKey: x-onyxia                      # default: the one the schema uses
      platform: onyxia                            # or catalogist; default: onyxia for x-onyxia
      status: PROD                                # or TEST
      highlightedCharts: [jupyter-python]
      excludedCharts: [old-chart]
      skipTLSVerify: false
      caFile: ca.pem                              # relative to this file`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c := &action.Catalogs{File: catalogsFile, CacheDir: cacheDir, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()}
			return c.Run(cmd.Context())
		},
	}
	cmd.Flags().StringVar(&catalogsFile, "catalogs", "", "catalogs file (default catalogs.yaml in the user's configuration directory)")
	cmd.Flags().StringVar(&cacheDir, "cache-dir", "", "cache of indexes (default the user's cache directory)")
	return cmd
}
