// Command kingrook is a UCI chess engine for standard chess, Chess960 and
// Double Fischer Random.
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set with -ldflags "-X main.version=..." by the Makefile and CI.
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, "kingrook", version)
	return 0
}
