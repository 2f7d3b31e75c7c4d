package main

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/kingrook/kingrook/cmd/internal/cli"
)

// subFlags returns the flag set of the subcommand kingrook name.
func subFlags(name, synopsis string, stderr io.Writer) *pflag.FlagSet {
	return cli.SubFlags("kingrook "+name, synopsis, stderr)
}

// parseFlags parses a kingrook command line or subcommand's flags
// (cli.Parse): done reports that the command should return code.
func parseFlags(fs *pflag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	return cli.Parse(fs, args, stdout, stderr)
}
