//go:build corpus

package corpustest

import "testing"

// Registry is the reference API's schema registry directory; only the
// corpus tests read it.
func Registry(t testing.TB) string {
	t.Helper()
	return dir(t, RegistryEnv, "REGISTRY")
}
