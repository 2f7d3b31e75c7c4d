package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/syzygy"
	"github.com/kingrook/kingrook/movegen"
)

// runProbe prints the Syzygy tablebase value of a position and of each of
// its legal moves, in Fathom's words and numbers.
func runProbe(args []string, stdout, stderr io.Writer) int {
	fs := subFlags("probe", "--syzygy PATH --fen FEN", stderr)
	path := fs.String("syzygy", "", "directories of Syzygy tables (separated as in the UCI option SyzygyPath)")
	fen := fs.String("fen", "", "the position")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "kingrook probe: unexpected arguments %q\n", fs.Args())
		return exitUsage
	case *path == "" || *fen == "":
		fmt.Fprintln(stderr, "kingrook probe: --syzygy PATH and --fen FEN are required")
		return exitUsage
	}
	pos := movegen.NewPosition()
	if err := pos.SetFEN(*fen); err != nil {
		fmt.Fprintf(stderr, "kingrook probe: %v\n", err)
		return exitUsage
	}
	tb, err := syzygy.Open(*path)
	defer tb.Close()
	if n, _ := tb.Count(); n == 0 {
		if err != nil {
			fmt.Fprintf(stderr, "kingrook probe: %v\n", err)
		}
		fmt.Fprintf(stderr, "kingrook probe: no Syzygy tables in %s\n", *path)
		return exitFailure
	}
	res, ok := tb.ProbeRoot(pos)
	if !ok {
		fmt.Fprintf(stderr, "kingrook probe: no table covers %s\n", pos.FEN(false))
		return exitFailure
	}
	fmt.Fprintf(stdout, "wdl %v dtz %d\n", res.WDL, eval.Abs(res.DTZ))
	sort.Slice(res.Moves, func(i, j int) bool { return res.Moves[i].Move.UCI(false) < res.Moves[j].Move.UCI(false) })
	for _, m := range res.Moves {
		fmt.Fprintf(stdout, "%s wdl %v dtz %d\n", m.Move.UCI(false), m.WDL, eval.Abs(m.DTZ))
	}
	return exitOK
}
