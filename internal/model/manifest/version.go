package manifest

import (
	"fmt"
	"regexp"
	"strconv"
)

// Version is a Kubernetes minor release a chart targets.
type Version struct{ Major, Minor int }

// Default is the target when none is given: the minor of the k8s.io/api
// module this binary is built with (k8s.io/api v0.37.x is Kubernetes 1.37),
// since the API lifecycle the Checker knows is that module's.
var Default = Version{1, 37}

var versionPattern = regexp.MustCompile(`^v?([0-9]{1,4})\.([0-9]{1,4})(?:\.[0-9]{1,6})?$`)

// ParseVersion reads a Kubernetes release: "1.37", "v1.37", "1.37.2" or
// "v1.37.0". The patch release, when given, is ignored: APIs change only
// with minor releases.
func ParseVersion(s string) (Version, error) {
	m := versionPattern.FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("Kubernetes version %q: want MAJOR.MINOR, optionally with a v and a patch release, such as 1.37 or v1.37.2", s)
	}
	major, _ := strconv.Atoi(m[1]) // the pattern bounds both to 4 digits
	minor, _ := strconv.Atoi(m[2])
	if major == 0 {
		return Version{}, fmt.Errorf("Kubernetes version %q: there is no Kubernetes 0.x; did you mean 1.%d?", s, minor)
	}
	return Version{major, minor}, nil
}

// String returns "1.37".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// before reports whether v is an earlier release than major.minor.
func (v Version) before(major, minor int) bool {
	return v.Major < major || v.Major == major && v.Minor < minor
}
