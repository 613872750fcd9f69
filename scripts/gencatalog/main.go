// Command gencatalog writes a generated chart catalog for benchmarks:
//
//	go run ./scripts/gencatalog -n 100 -out /tmp/catalog
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/catalogist/catalogist/internal/gencatalog"
)

func main() {
	n := flag.Int("n", 100, "number of charts")
	out := flag.String("out", "", "output directory (created if missing)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gencatalog [-n N] -out DIR")
		os.Exit(2)
	}
	if err := gencatalog.Write(*out, *n); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}
