package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kingrook/kingrook/search"
)

// runSPSA prints the tunable search parameters of a tune build (make
// TAGS=tune) as the input of an OpenBench SPSA tune, one line each: "name,
// int|float, value, min, max, c_end, r_end". Arguments keep the parameters
// whose names begin with one of them. A build without the tag has none:
// that is a usage error.
func runSPSA(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("kingrook spsa", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: kingrook spsa [PREFIX...]\n\n"+
			"Prints the search parameters that a tuning build (make TAGS=tune) offers as\n"+
			"UCI options, as the input of an OpenBench SPSA tune, one a line: name,\n"+
			"int|float, value, min, max, c_end, r_end. With PREFIX, only the parameters\n"+
			"whose names begin with one. No flags but --help.\n")
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	ts := search.Tunables()
	if len(ts) == 0 {
		fmt.Fprintln(stderr, "kingrook spsa: this build has no tunable parameters; build with make TAGS=tune (go build -tags tune)")
		return exitUsage
	}
	prefixes := fs.Args()
	n := 0
	for _, t := range ts {
		if len(prefixes) > 0 && !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(t.Name, p) }) {
			continue
		}
		fmt.Fprintln(stdout, t.SPSALine())
		n++
	}
	if n == 0 {
		fmt.Fprintf(stderr, "kingrook spsa: no tunable parameter begins with %s\n", strings.Join(prefixes, " or "))
		return exitUsage
	}
	return exitOK
}
