package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/kingrook/kingrook/movegen"
)

// chess960Count is the number of Chess960 start positions.
const chess960Count = 960

// runPerft counts the leaf nodes below a position, root move by root move.
func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := subFlags("perft", "--depth N [--fen FEN] [--chess960] [--divide]", stderr)
	depth := fs.Int("depth", 0, "depth in plies (required)")
	fen := fs.String("fen", movegen.StartFEN, "the position (castling as KQkq, Shredder-FEN or X-FEN)")
	chess960 := fs.Bool("chess960", false, "write castling moves as king takes rook")
	divide := fs.Bool("divide", false, "print the count below each root move")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "kingrook perft: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	if *depth < 1 || *depth > movegen.MaxPerftDepth {
		fmt.Fprintf(stderr, "kingrook perft: --depth N is required, 1..%d\n", movegen.MaxPerftDepth)
		return exitUsage
	}
	pos := movegen.NewPosition()
	if err := pos.SetFEN(*fen); err != nil {
		fmt.Fprintf(stderr, "kingrook perft: %v\n", err)
		return exitUsage
	}
	start := time.Now()
	var progress func(movegen.DivideEntry, int, int)
	if !*divide {
		// A line after every root move, on stderr so stdout stays parseable.
		progress = func(e movegen.DivideEntry, done, of int) {
			fmt.Fprintf(stderr, "perft: %d/%d %s: %d, %s\n", done, of, e.Move.UCI(*chess960), e.Nodes,
				time.Since(start).Round(time.Millisecond))
		}
	}
	total, err := pos.WritePerft(stdout, *depth, *chess960, *divide, progress)
	if err != nil {
		fmt.Fprintf(stderr, "kingrook perft: %v\n", err)
		return exitFailure
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "Time (ms): %d\n", elapsed.Milliseconds())
	fmt.Fprintf(stdout, "Nodes/second: %d\n", uint64(float64(total)/max(elapsed.Seconds(), 1e-9)))
	return exitOK
}

// runFRC prints Chess960 and Double Fischer Random start positions.
func runFRC(args []string, stdout, stderr io.Writer) int {
	fs := subFlags("frc", "N | --random | W B | --dfrc", stderr)
	random := fs.Bool("random", false, "a random Chess960 start position")
	dfrc := fs.Bool("dfrc", false, "a random Double Fischer Random start position")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	nums := make([]int, fs.NArg())
	for i, a := range fs.Args() {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 || n >= chess960Count {
			fmt.Fprintf(stderr, "kingrook frc: %q is not a start position number 0..%d\n", a, chess960Count-1)
			return exitUsage
		}
		nums[i] = n
	}
	var fen string
	var err error
	switch {
	case *random && !*dfrc && len(nums) == 0:
		fen, err = movegen.Chess960FEN(rand.IntN(chess960Count))
	case *dfrc && !*random && len(nums) == 0:
		fen, err = movegen.DFRCFEN(rand.IntN(chess960Count), rand.IntN(chess960Count))
	case !*random && !*dfrc && len(nums) == 1:
		fen, err = movegen.Chess960FEN(nums[0])
	case !*random && !*dfrc && len(nums) == 2:
		fen, err = movegen.DFRCFEN(nums[0], nums[1])
	default:
		fmt.Fprintln(stderr, "kingrook frc: give one of N, W B, --random or --dfrc")
		fs.Usage()
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "kingrook frc: %v\n", err)
		return exitFailure
	}
	fmt.Fprintln(stdout, fen)
	return exitOK
}
