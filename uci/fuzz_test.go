package uci

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// FuzzHandle feeds random lines to the command loop: it must never panic,
// and every bestmove it prints is well formed. Lines that would run for long
// or take much memory by design (perft, bench, Hash, Threads) are skipped:
// their parsing is the same code the other lines reach.
func FuzzHandle(f *testing.F) {
	for _, seed := range []string{
		"uci", "isready", "debug on", "ucinewgame", "stop", "ponderhit", "d", "eval", "register later",
		"position startpos moves e2e4 e7e5 g1f3",
		"position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1",
		"position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"position fen 8/8/8 w", "position startpos moves e2e5",
		"go depth 2", "go nodes 100", "go movetime 1", "go wtime 10 btime 10 winc 0 binc 0 movestogo 1",
		"go depth 2 searchmoves e2e4 z9z9", "go mate 1 depth 2", "go depth x movetime",
		"setoption name MultiPV value 2", "setoption name UCI_Chess960 value true", "setoption name x value",
		"setoption name Move Overhead value -1", "joho debug on", "\t\r", "go ponder", "go infinite",
		"position startpos\ngo depth 1\nstop\nisready",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		lower := strings.ToLower(input)
		for _, skip := range []string{"perft", "bench", "hash", "thread"} {
			if strings.Contains(lower, skip) {
				t.Skip()
			}
		}
		var out bytes.Buffer
		eng := testEngine(t)
		s := &session{eng: eng, cfg: Config{Log: zerolog.Nop()}, out: &output{w: &out}}
		for _, line := range strings.Split(input, "\n") {
			if !s.handle(line, time.Now()) {
				break
			}
			// Keep searches short: a fuzzed "go" may have no limit.
			eng.Stop()
			eng.Wait()
		}
		s.shutdown()
		s.out.mu.Lock()
		text := out.String()
		s.out.mu.Unlock()
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "bestmove") {
				f := strings.Fields(l)
				if l != strings.Join(f, " ") || !(len(f) == 2 || len(f) == 4 && f[2] == "ponder") {
					t.Fatalf("malformed %q", l)
				}
			}
		}
	})
}
