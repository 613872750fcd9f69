package repoindex

import (
	"errors"
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// PickVersion chooses among versions sorted newest first: an exact version,
// the newest matching a SemVer constraint, or with want empty the newest
// that is not a pre-release.
func PickVersion(versions []*repo.ChartVersion, want string) (*repo.ChartVersion, error) {
	if len(versions) == 0 {
		return nil, errors.New("no versions")
	}
	if want == "" {
		for _, cv := range versions {
			if v, err := semver.NewVersion(cv.Version); err == nil && v.Prerelease() == "" {
				return cv, nil
			}
		}
		return nil, fmt.Errorf("only pre-releases are published (%s): pick one with --version", listVersions(versions))
	}
	for _, cv := range versions {
		if cv.Version == want {
			return cv, nil
		}
	}
	c, err := semver.NewConstraint(want)
	if err != nil {
		return nil, fmt.Errorf("--version %q is neither a published version nor a SemVer constraint such as \"^1.2\": %w", want, err)
	}
	for _, cv := range versions {
		if v, err := semver.NewVersion(cv.Version); err == nil && c.Check(v) {
			return cv, nil
		}
	}
	return nil, fmt.Errorf("no version matches %q (published: %s)", want, listVersions(versions))
}

// listVersions names the newest few versions.
func listVersions(versions []*repo.ChartVersion) string {
	var vs []string
	for i, cv := range versions {
		if i == 8 {
			vs = append(vs, fmt.Sprintf("and %d more", len(versions)-i))
			break
		}
		vs = append(vs, cv.Version)
	}
	return strings.Join(vs, ", ")
}
