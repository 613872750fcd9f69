package manifest

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Version
	}{
		{"1.37", Version{1, 37}},
		{"v1.37", Version{1, 37}},
		{"1.37.2", Version{1, 37}},
		{"v1.37.0", Version{1, 37}},
		{"1.9", Version{1, 9}},
	} {
		got, err := ParseVersion(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if got.String() != strconv.Itoa(tc.want.Major)+"."+strconv.Itoa(tc.want.Minor) {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
	for _, in := range []string{"", "1", "v1", "1.x", "1.37.2.1", "1.37-rc.0", "V1.37", " 1.37", "0.37", "1.99999", "latest"} {
		if v, err := ParseVersion(in); err == nil {
			t.Errorf("ParseVersion(%q) = %v, want an error", in, v)
		} else if !strings.Contains(err.Error(), strconv.Quote(in)) {
			t.Errorf("ParseVersion(%q): the error %q does not name the input", in, err)
		}
	}
}

// TestDefaultIsTheAPIModule: Default must be the release of the k8s.io/api
// module the binary is built with, whose lifecycle the Checker reads.
func TestDefaultIsTheAPIModule(t *testing.T) {
	mod, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*k8s\.io/api v0\.(\d+)\.\d+`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod requires no k8s.io/api v0.N.x")
	}
	minor, _ := strconv.Atoi(string(m[1]))
	if (Version{1, minor}) != Default {
		t.Fatalf("go.mod has k8s.io/api v0.%d (Kubernetes 1.%d), Default is %s: update Default (and the test API server)", minor, minor, Default)
	}
}
