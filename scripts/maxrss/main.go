// Command maxrss runs a command and prints its peak resident memory, in
// KiB, on the last line of its standard error, for the benchmarks that
// measure memory without depending on GNU time:
//
//	go run ./scripts/maxrss bin/catalogist lint catalog/
//
// The command's exit status is maxrss's own.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: maxrss COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	// Linux reports ru_maxrss in KiB.
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		fmt.Fprintf(os.Stderr, "maxrss: %d\n", ru.Maxrss)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
