// Package examples carries the example GitHub workflows in the binary, so
// that a new catalog starts with the same workflows this directory shows.
package examples

import "embed"

// Workflows holds workflows/*.yml: the pull request and publish workflows a
// catalog repository copies to .github/workflows/.
//
//go:embed workflows/*.yml
var Workflows embed.FS
