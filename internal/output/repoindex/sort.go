package repoindex

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"
	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// versionKey is a chart version with its SemVer parsed once, so sorting
// does not parse on every comparison as Helm's SortEntries does.
type versionKey struct {
	cv    *repo.ChartVersion
	core  [3]uint64       // major, minor, patch
	sv    *semver.Version // set when the version is not plain MAJOR.MINOR.PATCH
	valid bool
}

func newVersionKey(cv *repo.ChartVersion) versionKey {
	k := versionKey{cv: cv}
	v := versionOf(cv)
	if core, ok := plainCore(v); ok {
		k.core, k.valid = core, true
		return k
	}
	if sv, err := semver.NewVersion(v); err == nil {
		k.sv, k.valid = sv, true
		k.core = [3]uint64{sv.Major(), sv.Minor(), sv.Patch()}
	}
	return k
}

func versionOf(cv *repo.ChartVersion) string {
	if cv == nil || cv.Metadata == nil {
		return ""
	}
	return cv.Version
}

// plainCore parses the common "1.2.3" without a regexp. Leading zeros and
// long numbers are left to semver, which has its own rules for them.
func plainCore(v string) ([3]uint64, bool) {
	var core [3]uint64
	for i := range core {
		j := 0
		for j < len(v) && j < 18 && v[j] >= '0' && v[j] <= '9' {
			core[i] = core[i]*10 + uint64(v[j]-'0')
			j++
		}
		if j == 0 || j > 1 && v[0] == '0' {
			return core, false
		}
		v = v[j:]
		if i < 2 {
			if v == "" || v[0] != '.' {
				return core, false
			}
			v = v[1:]
		}
	}
	return core, v == ""
}

// compareVersions orders newest first by SemVer precedence, as Helm's
// SortEntries does, invalid versions last. Helm's sort is not stable and
// leaves equal versions ("1.0.0" and "1.0.0+build") in any order; ties are
// broken here on everything else so that the order depends only on the
// entries, never on where they started.
func compareVersions(a, b *versionKey) int {
	switch {
	case a.valid && !b.valid:
		return -1
	case !a.valid && b.valid:
		return 1
	case a.valid:
		if c := compareSemver(a, b); c != 0 {
			return -c
		}
	}
	return compareEntries(a.cv, b.cv)
}

// compareSemver compares as semver.Version.Compare does.
func compareSemver(a, b *versionKey) int {
	for i := range a.core {
		if c := cmp.Compare(a.core[i], b.core[i]); c != 0 {
			return c
		}
	}
	var ap, bp string
	if a.sv != nil {
		ap = a.sv.Prerelease()
	}
	if b.sv != nil {
		bp = b.sv.Prerelease()
	}
	switch {
	case ap == "" && bp == "":
		return 0
	case ap == "":
		return 1
	case bp == "":
		return -1
	}
	return a.sv.Compare(b.sv)
}

// compareEntries breaks ties between versions of equal precedence.
func compareEntries(a, b *repo.ChartVersion) int {
	if a == nil || b == nil {
		switch {
		case a == b:
			return 0
		case a == nil:
			return 1
		}
		return -1
	}
	if c := cmp.Compare(versionOf(a), versionOf(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Digest, b.Digest); c != 0 {
		return c
	}
	if c := b.Created.Compare(a.Created); c != 0 {
		return c
	}
	if c := slices.Compare(a.URLs, b.URLs); c != 0 {
		return c
	}
	return bytes.Compare(entryBytes(a), entryBytes(b))
}

// entryBytes is the encoding of an entry, the last resort of ordering.
func entryBytes(cv *repo.ChartVersion) []byte {
	var b bytes.Buffer
	e := emitter{w: &b}
	e.chartVersion(0, cv)
	e.flush()
	return b.Bytes()
}

// sortVersions sorts cvs in place, newest first.
func sortVersions(cvs repo.ChartVersions) {
	if len(cvs) < 2 {
		return
	}
	keys := make([]versionKey, len(cvs))
	for i, cv := range cvs {
		keys[i] = newVersionKey(cv)
	}
	slices.SortFunc(keys, func(a, b versionKey) int { return compareVersions(&a, &b) })
	for i := range keys {
		cvs[i] = keys[i].cv
	}
}

// sortedNames returns the chart names of entries in order.
func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.SortFunc(names, strings.Compare)
	return names
}
