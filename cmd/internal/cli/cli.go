// Package cli holds what the commands under cmd/ share on the command line:
// their exit codes and the parsing of a subcommand's flags, so that every
// command answers --help and bad flags alike.
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// Exit codes of the commands.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2 // bad flags or arguments
)

// SubFlags returns the flag set of a subcommand; cmd names it as the user
// types it ("kingrook perft"), synopsis is its usage line after that name.
// Its errors and usage go to stderr until Parse redirects them.
func SubFlags(cmd, synopsis string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(cmd, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s %s\n\nFlags:\n%s", cmd, synopsis, fs.FlagUsages())
	}
	return fs
}

// Parse parses args with fs; done reports that the command should return
// code at once: help was asked for (the usage is printed once, to stdout,
// ExitOK) or the flags were bad (the error and the usage go to stderr,
// ExitUsage).
func Parse(fs *pflag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	// pflag prints the usage itself on -h/--help; silence that so that it
	// is printed once, to stdout, below.
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case errors.Is(err, pflag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		return ExitOK, true
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n\n", fs.Name(), err)
		fs.SetOutput(stderr)
		fs.Usage()
		return ExitUsage, true
	}
	return ExitOK, false
}
