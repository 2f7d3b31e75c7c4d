// Command datagen makes training data for Kingrook's evaluation from its
// own games.
//
//	datagen [flags]                   play self-play games (below)
//	datagen pgn [--out FILE] PGN...   convert games with evaluation comments
//	datagen export [--all] FILE...    print binary games as text
//
// Playing: fast games at a fixed node count from the standard start,
// Chess960 and Double Fischer Random starts (the shares set by --frc and
// --dfrc, the rest standard), each followed by --random-plies random moves;
// openings whose 6-ply score exceeds 300 cp are redrawn. Every position is
// labelled with the exact score of the search's last completed depth (taken
// from the info callback; the search's final score is exact too, but may
// come from the depth the node limit interrupted) and the game's result. A
// game ends at checkmate, stalemate, the 50-move rule, a threefold
// repetition (not the first repeat: the search may repeat once to win),
// insufficient material or adjudication.
//
// Output (--format):
//   - binary (the default): every game whole, in the cmd/internal/selfplay format
//     (about 4 bytes a position); the trainer reads it, and `datagen export`
//     prints it as text;
//   - text: the training positions, `FEN | score | result` (score in
//     centipawns, result 1.0/0.5/0.0, both from White's view), selected like
//     the shared corpus: from ply 12, not in check, the move played quiet,
//     |score| < 2000, no mate scores;
//   - epd: the same positions as `FEN [result]`, the input of cmd/tune.
//
// An existing --out file is appended to, never overwritten (a binary file
// cut short by a killed process is first cut back to its last complete
// game; in binary the game numbers, and so the games drawn for a seed,
// continue after the games already in the file). SIGINT or SIGTERM stops
// at once and writes complete games only; --duration stops starting games
// after that time and lets those under way finish. Progress goes to stderr.
//
//	go run ./cmd/datagen --games 400 --nodes 5000 --seed 7 --out /tmp/games.bin
//	go run ./cmd/datagen export /tmp/games.bin | gzip > /tmp/games.txt.gz
//	go run ./cmd/datagen --games 4000 --format epd --out /tmp/data.epd   # for cmd/tune
//
// The search plays with the hand-written evaluation unless --net names a
// network ("embedded" or a .nnue file), so that each net can make the data
// for the next.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/kingrook/kingrook/cmd/internal/cli"
)

// Exit codes.
const (
	exitOK      = cli.ExitOK
	exitFailure = cli.ExitFailure
	exitUsage   = cli.ExitUsage
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: ctx is cancelled by SIGINT or SIGTERM.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "pgn":
			return runPGN(args[1:], stdin, stdout, stderr)
		case "export":
			return runExport(args[1:], stdin, stdout, stderr)
		}
	}
	return runPlay(ctx, args, stdout, stderr)
}

// fail prints an error of the command and returns code.
func fail(stderr io.Writer, code int, format string, args ...any) int {
	fmt.Fprintf(stderr, "datagen: "+format+"\n", args...)
	return code
}
