// Command gencatalog writes a generated chart catalog, or a generated
// published index, for benchmarks:
//
//	go run ./scripts/gencatalog -n 100 -out /tmp/catalog
//	go run ./scripts/gencatalog -small -n 10000 -out /tmp/catalog
//	go run ./scripts/gencatalog -index 15000 -out /tmp/published/index.yaml
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/catalogist/catalogist/internal/testkit/gencatalog"
)

func main() {
	n := flag.Int("n", 100, "number of charts")
	index := flag.Int("index", 0, "write an index.yaml of this many versions (with Helm's writer) instead of a catalog")
	small := flag.Bool("small", false, "write small charts (four options, one template) instead of realistic ones")
	out := flag.String("out", "", "output directory, or index file with -index (created if missing)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gencatalog [-small] [-n N] -out DIR | gencatalog -index N -out FILE")
		os.Exit(2)
	}
	var err error
	if *index > 0 {
		err = gencatalog.Index(*index).WriteFile(*out, 0o644)
	} else if *small {
		err = gencatalog.WriteSmall(*out, *n)
	} else {
		err = gencatalog.Write(*out, *n)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}
