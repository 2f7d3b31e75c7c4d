// Command datagen makes training data for Kingrook's evaluation from its
// own games.
//
//	datagen [flags]                   play self-play games (below)
//	datagen pgn [--out FILE] PGN...   convert games with evaluation comments
//	datagen export [--all] FILE...    print binary games as text
//	datagen manifest [--check] DIR    rebuild or check the manifest of a folder of games
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
// after that time and lets those under way finish. Progress goes to stderr:
// games, plies and training positions (those of selfplay.TrainingFilter,
// the trainer's) with their rate an hour.
//
// # Files and the manifest
//
// A binary --out file holds the games of one seed: each run writes its
// games after a header that records what made them (the seed, the number
// of its first game, the net's name and SHA-256, the settings that decide
// the games, the build; selfplay.Meta), and keeps a row of the manifest
// beside the file (--manifest, default manifest.tsv in --out's folder)
// up to date: when it starts, at every progress line and at least every
// minute, and when it stops. A run killed between two updates leaves its
// row behind its file; the next run in the folder, whatever its file,
// recounts every row whose file has another size than recorded (and no
// running datagen) and says so.
// The manifest is tab-separated text, one row per file:
//
//	file  seed  net  net_sha256  flags  games  plies  positions  bytes  builds  updated
//
// positions counts the training positions; flags are the settings that
// decide the games besides seed and net (--nodes --frc --dfrc
// --random-plies --hash); builds the commits that wrote the file ("?" for
// games written before the manifest). Seeds are never reused: a run is
// refused (exit code 2, nothing written) when the manifest lists its seed
// for another file (also one that is gone: its row stays), when --seed
// differs from the one the file's games were played with, or when its
// net or settings differ from theirs. Without --seed, a run appending to a
// file takes the recorded seed. A file written by a build before the
// manifest (no record in it) is taken over with the --seed it was made
// with, after a few seconds' check that no other process still writes it;
// a run holds a lock on its file (flock), so two runs never write one.
// `datagen manifest DIR` recounts every *.bin and *.bin.gz file of DIR and
// rewrites the manifest, keeping the seed, net and settings it records (or
// taking them from the files' headers when it has no row, e.g. when the
// manifest was lost); --check only reports what differs (exit code 1).
//
//	go run ./cmd/datagen --net embedded --frc 0.35 --dfrc 0.1 --games 0 --duration 2h \
//	    --seed 11002 --out $HOME/kingrook-data/games/kingrook10-11002.bin
//	go run ./cmd/datagen manifest --check $HOME/kingrook-data/games
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

// commit is the source's git commit as a build passes it (-ldflags "-X
// main.commit=..."), recorded with the games; empty: the commit go build
// stamps, if any (cli.BuildCommit).
var commit string

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
		case "manifest":
			return runManifest(args[1:], stdout, stderr)
		}
	}
	return runPlay(ctx, args, stdout, stderr)
}

// fail prints an error of the command and returns code.
func fail(stderr io.Writer, code int, format string, args ...any) int {
	fmt.Fprintf(stderr, "datagen: "+format+"\n", args...)
	return code
}
