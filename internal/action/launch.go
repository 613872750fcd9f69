package action

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/url"
	"path"
	"slices"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/catalogist/catalogist/internal/base/progress"
	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/target/catalogsfile"
	"github.com/catalogist/catalogist/internal/target/launcher"
)

// Launch launches a chart of a published catalog into a cluster, with the
// values the platform would compute.
type Launch struct {
	// Launch is the launcher's action, configured with the release's
	// settings and the values on top; Run fills its source, platform,
	// profile and region from the fields below.
	Launch *launcher.Launch
	// Ref is CATALOG/CHART, or CHART with RepoURL.
	Ref, RepoURL string
	// CatalogsFile is the catalogs file, empty for the default one.
	CatalogsFile string
	// RegionFile and RegionID name the region; ProfileFile the launch
	// context.
	RegionFile, RegionID, ProfileFile string
	// Platform and Registries say how the schema is read.
	Platform   string
	Registries []string
	// ShowValues prints the computed values, secrets masked.
	ShowValues bool

	Stdout, Stderr io.Writer
}

// Run launches.
func (a *Launch) Run(ctx context.Context) error {
	if err := a.configure(); err != nil {
		return Usage(err)
	}
	a.Launch.Resolver.Progress = downloadMeter(progress.New(a.Stderr, progress.Options{}))
	// Helm logs its warnings with the standard logger, quoting values;
	// they are printed once the launch's secrets are known.
	var helmLog bytes.Buffer
	orig := log.Writer()
	log.SetOutput(&helmLog)
	res, err := a.Launch.Run(ctx)
	log.SetOutput(orig)
	fmt.Fprint(a.Stderr, res.Secrets.Scrub(helmLog.String()))
	if rs := res.Resolved; rs != nil {
		fmt.Fprintf(a.Stderr, "%s %s from %s (sha256:%s verified)\n", rs.Chart.Name(), rs.Version.Version, rs.PackageURL, strings.TrimPrefix(rs.Version.Digest, "sha256:"))
		if rs.Stale != nil {
			fmt.Fprintf(a.Stderr, "warning: using the cached index of %s: %s\n", rs.IndexURL, secret.RedactURLs(rs.Stale.Error()))
		}
	}
	if v := res.Values; v != nil {
		for _, w := range v.Warnings {
			fmt.Fprintln(a.Stderr, "warning:", secret.RedactURLs(w))
		}
		if a.ShowValues {
			out, yerr := yaml.Marshal(v.Masked())
			if yerr != nil {
				return Usage(yerr)
			}
			fmt.Fprintf(a.Stdout, "# values of %s\n%s", res.Name, res.Secrets.Scrub(string(out)))
		}
	}
	if err != nil {
		return RefusedOrFailed(err)
	}
	// Templates put values anywhere: a Secret's data, an environment
	// variable, a NOTES.txt line.
	sec := res.Secrets
	if a.Launch.DryRun {
		fmt.Fprint(a.Stdout, sec.Manifest(res.Manifest))
		fmt.Fprintf(a.Stderr, "dry run: %s would be installed as %s in namespace %s\n", res.Resolved.Chart.Name(), res.Name, res.Namespace)
		return nil
	}
	fmt.Fprintf(a.Stdout, "launched %s (%s %s) in namespace %s: %s\n", res.Name, res.Resolved.Chart.Name(), res.Resolved.Version.Version, res.Namespace, res.Status)
	if res.Notes != "" {
		fmt.Fprintf(a.Stdout, "\n%s\n", sec.Scrub(strings.TrimSpace(res.Notes)))
	}
	return nil
}

// configure reads the catalogs file, the profile and the region, and
// resolves the reference.
func (a *Launch) configure() error {
	l := a.Launch
	file, err := catalogsfile.Load(a.CatalogsFile)
	if err != nil {
		return err
	}
	if l.Source, err = launcher.ParseRef(a.Ref, a.RepoURL, file); err != nil {
		return err
	}
	ov, err := SchemaOverrides("", a.Platform, a.Registries)
	if err != nil {
		return err
	}
	l.Platform, l.Registry = ov.Platform, ov.Registry
	if a.ProfileFile != "" {
		if l.Profile, err = launcher.LoadProfile(a.ProfileFile); err != nil {
			return err
		}
	}
	if a.RegionFile != "" {
		if l.Region, err = region.Load(a.RegionFile, a.RegionID); err != nil {
			return err
		}
	}
	return nil
}

// RefusedOrFailed is the exit of an operation on a cluster or a remote
// catalog that did not succeed: failed when the network or a server did
// not answer, refused otherwise (values the form does not allow, a chart
// that does not verify, an install the cluster refuses).
func RefusedOrFailed(err error) error {
	var ae *Error
	if errors.As(err, &ae) {
		return err
	}
	if remote(err) {
		return Failed(err)
	}
	return Refused(err)
}

// downloadMeter shows each package download on rep under the package's
// file name: the URL may be long, and its query may hold a token.
func downloadMeter(rep *progress.Reporter) func(src string, size int64) chartrepo.Meter {
	return func(src string, size int64) chartrepo.Meter {
		name := src
		if u, err := url.Parse(src); err == nil && u.Path != "" {
			name = path.Base(u.Path)
		}
		return rep.Bytes("download "+name, size)
	}
}

// Catalogs lists the catalogs of a catalogs file and their charts.
type Catalogs struct {
	// File is the catalogs file, empty for the default one; CacheDir the
	// cache of indexes.
	File, CacheDir string

	Stdout, Stderr io.Writer
}

// Run lists the catalogs. A catalog that cannot be read is said so in the
// list; it fails only when none can be.
func (c *Catalogs) Run(ctx context.Context) error {
	file, err := catalogsfile.Load(c.File)
	if err != nil {
		return Usage(err)
	}
	if file.Path == "" {
		fmt.Fprintln(c.Stderr, "no catalogs file: showing the platform's default catalogs")
	}
	r := launcher.Resolver{CacheDir: c.CacheDir}
	failed := 0
	var last error
	for _, cf := range file.Catalogs {
		fmt.Fprintf(c.Stdout, "%s\t%s (%s, %s)\n", cf.ID, cf.Name, secret.RedactURL(cf.Location), cf.Status)
		charts, err := r.Charts(ctx, cf)
		if err != nil {
			failed++
			last = err
			fmt.Fprintf(c.Stdout, "  (unavailable: %s)\n", secret.RedactURLs(err.Error()))
			continue
		}
		sort.SliceStable(charts, func(i, j int) bool {
			return slices.Contains(cf.HighlightedCharts, charts[i].Name) && !slices.Contains(cf.HighlightedCharts, charts[j].Name)
		})
		for _, ch := range charts {
			star := " "
			if slices.Contains(cf.HighlightedCharts, ch.Name) {
				star = "*"
			}
			fmt.Fprintf(c.Stdout, "  %s %-32s %-10s %s\n", star, ch.Name, ch.Version, ch.Description)
		}
	}
	if failed == len(file.Catalogs) && failed > 0 {
		// Each reason is in the list already.
		if remote(last) {
			return Failed(errors.New("no catalog could be read"))
		}
		return Refused(errors.New("no catalog could be read"))
	}
	return nil
}
