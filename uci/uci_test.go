package uci

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
)

func TestHandshake(t *testing.T) {
	h := newHarness(t)
	h.send("uci")
	lines := h.until("uciok")
	want := []string{"id name Kingrook test", "id author The Kingrook developers"}
	for _, o := range engine.Options() {
		want = append(want, o.String())
	}
	want = append(want, "uciok")
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range lines {
		if strings.Contains(l, "type check") && !strings.HasSuffix(l, "default false") && !strings.HasSuffix(l, "default true") {
			t.Errorf("check option default not lower-case true or false: %q", l)
		}
	}
	if rest := h.sync(); len(rest) != 0 {
		t.Fatalf("unexpected output %q", rest)
	}
}

// TestHandshakeVersion: without a version from the front end the id line
// carries engine.Version.
func TestHandshakeVersion(t *testing.T) {
	h := newHarnessConfig(t, Config{})
	h.send("uci")
	lines := h.until("uciok")
	if want := "id name Kingrook " + engine.Version; lines[0] != want {
		t.Fatalf("first line %q, want %q", lines[0], want)
	}
}

// lastBest reads up to the next bestmove line and returns it with the
// lines before.
func lastBest(h *harness) (string, []string) {
	h.t.Helper()
	lines := h.until("bestmove")
	return lines[len(lines)-1], lines[:len(lines)-1]
}

// TestIsReadyDuringSearch: readyok at once while searching, without
// stopping the search; exactly one bestmove after stop.
func TestIsReadyDuringSearch(t *testing.T) {
	h := newHarness(t)
	h.send("position startpos", "go infinite")
	h.until("info depth")
	h.noBestMove(5, "under go infinite before stop")
	if !h.eng.Searching() {
		t.Fatal("isready stopped the search")
	}
	h.send("stop")
	line, _ := lastBest(h)
	best, _ := bestMove(t, line)
	mustBeLegal(t, movegen.StartFEN, nil, best, false)
	h.noBestMove(1, "after the one expected")
}

// TestInfiniteNeverAnswersEarly: a depth-limited infinite search ends its
// work quickly but must hold bestmove until stop.
func TestInfiniteNeverAnswersEarly(t *testing.T) {
	h := newHarness(t)
	h.send("position startpos", "go infinite depth 2")
	h.until("info depth 2")
	h.noBestMove(20, "before stop")
	h.send("stop")
	line, _ := lastBest(h)
	best, _ := bestMove(t, line)
	mustBeLegal(t, movegen.StartFEN, nil, best, false)
}

// TestInfiniteWithClockNeverAnswersEarly: go infinite beside a movetime or
// a clock holds bestmove until stop, also long after the time's hard limit
// and the moment an overdue search would answer.
func TestInfiniteWithClockNeverAnswersEarly(t *testing.T) {
	for _, cmd := range []string{"go infinite movetime 50", "go infinite wtime 300 btime 300"} {
		h := newHarness(t)
		h.send("position startpos", cmd)
		h.until("info depth 1")
		time.Sleep(400 * time.Millisecond) // well past the hard limit and the overdue time
		h.noBestMove(3, "before stop under "+cmd)
		h.send("stop")
		line, _ := lastBest(h)
		best, _ := bestMove(t, line)
		mustBeLegal(t, movegen.StartFEN, nil, best, false)
	}
}

// TestBareGoIsInfinite: a bare go searches until stop, also where the
// search has nothing left to do: a mate in one is found at once and every
// depth up to the deepest completes, and still no bestmove comes before
// stop.
func TestBareGoIsInfinite(t *testing.T) {
	h := newHarness(t)
	const fen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1"
	h.send("position fen "+fen, "go")
	last := h.until(fmt.Sprintf("info depth %d ", eval.MaxPly-1))
	if l := last[len(last)-1]; !strings.Contains(l, " score mate 1 ") {
		t.Fatalf("deepest depth: %q, want mate 1", l)
	}
	h.noBestMove(5, "under a bare go before stop")
	h.send("stop")
	if line, _ := lastBest(h); line != "bestmove a1a8" {
		t.Fatalf("after stop: %q, want bestmove a1a8", line)
	}
}

func TestPonder(t *testing.T) {
	h := newHarness(t)
	// ponderhit: the search goes on under the clock and answers.
	h.send("position startpos moves e2e4", "go ponder wtime 2000 btime 2000 depth 2")
	h.until("info depth 2")
	h.noBestMove(20, "while pondering")
	h.send("ponderhit")
	line, _ := lastBest(h)
	best, _ := bestMove(t, line)
	mustBeLegal(t, movegen.StartFEN, []string{"e2e4"}, best, false)

	// stop while pondering (ponder miss): one bestmove, then a new search.
	h.send("position startpos moves e2e4 e7e5", "go ponder wtime 2000 btime 2000")
	h.until("info depth")
	h.send("stop")
	line, _ = lastBest(h)
	best, _ = bestMove(t, line)
	mustBeLegal(t, movegen.StartFEN, []string{"e2e4", "e7e5"}, best, false)
	h.send("position startpos moves e2e4 e7e5 g1f3", "go depth 2")
	line, _ = lastBest(h)
	best, _ = bestMove(t, line)
	mustBeLegal(t, movegen.StartFEN, []string{"e2e4", "e7e5", "g1f3"}, best, false)
	h.noBestMove(1, "after the one expected")
}

// TestStrayStop: stop and ponderhit while idle do nothing, and do not cut
// the next search short.
func TestStrayStop(t *testing.T) {
	h := newHarness(t)
	h.send("stop", "ponderhit", "stop")
	if out := h.sync(); len(out) != 0 {
		t.Fatalf("output for a stray stop: %q", out)
	}
	h.send("position startpos", "go depth 4")
	line, before := lastBest(h)
	if count(before, "info depth 4") == 0 {
		t.Fatalf("a stale stop cut the search short: %q", before)
	}
	bestMove(t, line)
	h.send("stop", "stop")
	h.send("go depth 3")
	_, before = lastBest(h)
	if count(before, "info depth 3") == 0 {
		t.Fatalf("a stop after bestmove cut the next search short: %q", before)
	}
	h.noBestMove(1, "after the one expected")
}

// TestPositionDuringSearch: position stops the search (its bestmove is for
// the old position), then the next go searches the new one.
func TestPositionDuringSearch(t *testing.T) {
	h := newHarness(t)
	h.send("position startpos", "go infinite")
	h.until("info depth")
	h.send("position startpos moves d2d4")
	line, _ := lastBest(h)
	best, _ := bestMove(t, line)
	mustBeLegal(t, movegen.StartFEN, nil, best, false)
	h.send("go depth 2")
	line, _ = lastBest(h)
	best, _ = bestMove(t, line)
	mustBeLegal(t, movegen.StartFEN, []string{"d2d4"}, best, false)
}

func TestGoDuringSearch(t *testing.T) {
	h := newHarness(t)
	h.send("position startpos", "go infinite")
	h.until("info depth")
	h.send("go depth 2")
	lastBest(h)
	line, _ := lastBest(h)
	bestMove(t, line)
	h.noBestMove(1, "after the one expected")
}

func TestNewGameDuringSearch(t *testing.T) {
	h := newHarness(t)
	h.send("go infinite")
	h.until("info depth")
	h.send("ucinewgame")
	lastBest(h)
	h.send("go depth 1")
	lastBest(h)
}

func TestQuitDuringSearch(t *testing.T) {
	h := newHarness(t)
	h.send("go infinite")
	h.until("info depth")
	h.send("quit")
	rest, err := h.finish()
	if err != nil {
		t.Fatal(err)
	}
	if count(rest, "bestmove") != 1 {
		t.Fatalf("after quit: %q", rest)
	}
}

func TestEOFDuringSearch(t *testing.T) {
	h := newHarness(t)
	h.send("go ponder")
	h.until("info depth")
	rest, err := h.finish()
	if err != nil {
		t.Fatal(err)
	}
	if count(rest, "bestmove") != 1 {
		t.Fatalf("after end of input: %q", rest)
	}
}

// TestLastLineWithoutNewline: the last command counts even without a line
// end.
func TestLastLineWithoutNewline(t *testing.T) {
	h := newHarness(t)
	io.WriteString(h.in, "isready")
	rest, err := h.finish()
	if err != nil || len(rest) != 1 || rest[0] != "readyok" {
		t.Fatalf("got %q, %v", rest, err)
	}
}

func TestCRLFAndWhitespace(t *testing.T) {
	h := newHarness(t)
	h.send("  position\tstartpos   moves  e2e4 \r", "\t", "", "   ", "d\r")
	out := h.sync()
	if len(infoStrings(out)) != 0 {
		t.Fatalf("complaints: %q", out)
	}
	if !containsLine(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") {
		t.Fatalf("position not set: %q", out)
	}
}

func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// fenOf returns the Fen line printed by "d".
func fenOf(h *harness) string {
	h.t.Helper()
	h.send("d")
	for _, l := range h.sync() {
		if f, ok := strings.CutPrefix(l, "Fen: "); ok {
			return f
		}
	}
	h.t.Fatal("no Fen line")
	return ""
}

// TestBadInputKeepsState: every kind of bad input gets an info string and
// leaves the last good position and options.
func TestBadInputKeepsState(t *testing.T) {
	h := newHarness(t)
	h.send("position startpos moves e2e4 e7e5", "setoption name Hash value 2")
	good := fenOf(h)
	bad := []string{
		"foo",
		"foo bar baz",
		"setoption",
		"setoption Hash value 4",
		"setoption name",
		"setoption name value 3",
		"setoption name Hash value",
		"setoption name Hash value x",
		"setoption name Hash value 0",
		"setoption name Hash value 99999999999999999999",
		"setoption name NoSuchOption value 1",
		"setoption name UCI_Chess960 value maybe",
		"debug",
		"debug sometimes",
		"bench",
		"go perft",
		"go perft x",
		"go perft 0",
		"go perft 99",
		"position",
		"position fen",
		"position fen 8/8/8 w - - 0 1",
		"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1",
		"position startpos moves e2e4 e7e5 e1e2 e1e2",
		"position startpos moves e2e5",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 zz",
		"position startpos moves e7e8x",
		"position somewhere",
		"position fen moves e2e4",
	}
	for _, l := range bad {
		h.send(l)
		out := h.sync()
		if len(infoStrings(out)) == 0 {
			t.Errorf("%q: no info string (got %q)", l, out)
		}
		if count(out, "bestmove") != 0 {
			t.Errorf("%q: searched (%q)", l, out)
		}
	}
	if got := fenOf(h); got != good {
		t.Fatalf("position changed by bad input: %s, want %s", got, good)
	}
	if s := h.eng.Settings(); s.Hash != 2 || s.Chess960 {
		t.Fatalf("options changed by bad input: %+v", s)
	}
}

// TestGoAfterRejectedPosition: after a position command is refused, go does
// not search the previous position (its move would be played in the wrong
// game): it says why and answers bestmove (none), once per go. A good
// position command ends that.
func TestGoAfterRejectedPosition(t *testing.T) {
	h := newHarness(t)
	for _, bad := range []string{
		"position fen 4k3/8/8/8/8/8/4K2R w - - 0 1",
		"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 zz",
		"position fen",
	} {
		h.send("position startpos moves e2e4", bad, "go depth 3")
		line, before := lastBest(h)
		if line != "bestmove (none)" || len(infoStrings(before)) != 2 || count(before, "info depth") != 0 {
			t.Fatalf("%q then go: %q, %q", bad, before, line)
		}
		// Under go infinite, go ponder and a bare go, no bestmove before
		// stop or ponderhit, as after a search: then exactly one.
		for _, c := range []struct{ goCmd, end string }{
			{"go infinite", "stop"}, {"go", "stop"}, {"go ponder wtime 1000 btime 1000", "ponderhit"},
			{"go ponder wtime 1000 btime 1000", "stop"}, {"go infinite", "position startpos moves e2e4"},
			{"go infinite", "go depth 1"},
		} {
			h.send(c.goCmd)
			h.noBestMove(3, c.goCmd+" before "+c.end)
			if c.goCmd == "go infinite" {
				h.send("ponderhit")
				h.noBestMove(1, "go infinite after ponderhit")
			}
			h.send(c.end)
			if line, _ := lastBest(h); line != "bestmove (none)" {
				t.Fatalf("%q then %s and %s: %q", bad, c.goCmd, c.end, line)
			}
			switch c.end {
			case "position startpos moves e2e4":
				h.send(bad) // rejected again
			case "go depth 1":
				if line, _ := lastBest(h); line != "bestmove (none)" {
					t.Fatalf("%q then %s and %s: %q", bad, c.goCmd, c.end, line)
				}
			}
			h.noBestMove(1, "after the one expected")
		}
		h.send("go perft 2")
		if out := h.sync(); len(infoStrings(out)) != 1 || count(out, "Nodes searched") != 0 {
			t.Fatalf("%q then go perft: %q", bad, out)
		}
		// The last good position is kept for display and the next command.
		if got := fenOf(h); got != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" {
			t.Fatalf("%q: position %s", bad, got)
		}
		h.send("position startpos moves e2e4", "go depth 3")
		line, _ = lastBest(h)
		best, _ := bestMove(t, line)
		mustBeLegal(t, movegen.StartFEN, []string{"e2e4"}, best, false)
	}
}

// TestGoBadNumbers: a bad value skips its parameter with an info string;
// the rest of the command is obeyed.
func TestGoBadNumbers(t *testing.T) {
	h := newHarness(t)
	h.send("position startpos", "go wtime abc depth 2 movestogo -3 frobnicate")
	line, before := lastBest(h)
	if n := len(infoStrings(before)); n != 3 {
		t.Fatalf("want 3 info strings, got %q", before)
	}
	if count(before, "info depth 2") == 0 || count(before, "info depth 3") != 0 {
		t.Fatalf("depth 2 not obeyed: %q", before)
	}
	bestMove(t, line)
	// A keyword where a number should be: the keyword still counts.
	h.send("go depth movetime 50")
	line, before = lastBest(h)
	if len(infoStrings(before)) != 1 {
		t.Fatalf("got %q", before)
	}
	bestMove(t, line)
	// Extreme clocks.
	for _, g := range []string{"go btime 1 wtime 1", "go wtime -100 btime -100", "go wtime 0 winc 0", "go movetime 0",
		"go nodes 1", "go depth 0", "go wtime 9223372036854775807 btime 9223372036854775807 movestogo 1 depth 3",
		"go movetime 9223372036854775807 depth 2", "go mate 1 depth 3",
		// Beyond 64 bits: clamped, not dropped (dropped clocks would make
		// this an endless search).
		"go wtime 99999999999999999999 btime 99999999999999999999 movestogo 1 depth 3",
		"go wtime -99999999999999999999 btime -99999999999999999999"} {
		h.send(g)
		line, _ = lastBest(h)
		best, _ := bestMove(t, line)
		mustBeLegal(t, movegen.StartFEN, nil, best, false)
	}
}

func TestSearchMoves(t *testing.T) {
	h := newHarness(t)
	h.send("position startpos", "go depth 3 searchmoves a2a3 z9z9 e2e5 h2h3")
	line, before := lastBest(h)
	if len(infoStrings(before)) != 2 {
		t.Fatalf("want 2 info strings for the illegal moves, got %q", before)
	}
	best, _ := bestMove(t, line)
	if best != "a2a3" && best != "h2h3" {
		t.Fatalf("bestmove %s outside searchmoves", best)
	}
	h.send("go searchmoves g1f3 depth 2")
	line, _ = lastBest(h)
	if best, _ := bestMove(t, line); best != "g1f3" {
		t.Fatalf("bestmove %s, want g1f3", best)
	}
}

// TestCastlingNotation: castling in and out per UCI_Chess960.
func TestCastlingNotation(t *testing.T) {
	h := newHarness(t)
	const fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
	// Standard mode: e1g1 out, both forms in.
	h.send("position fen "+fen, "go depth 2 searchmoves e1h1")
	line, before := lastBest(h)
	if best, _ := bestMove(t, line); best != "e1g1" {
		t.Fatalf("standard bestmove %s, want e1g1", best)
	}
	if !strings.Contains(before[len(before)-1], " pv e1g1") {
		t.Fatalf("standard pv: %q", before[len(before)-1])
	}
	h.send("go depth 2 searchmoves e1c1")
	line, _ = lastBest(h)
	if best, _ := bestMove(t, line); best != "e1c1" {
		t.Fatalf("standard queen-side bestmove %s, want e1c1", best)
	}
	h.send("position fen " + fen + " moves e1g1")
	viaKing := fenOf(h)
	h.send("position fen " + fen + " moves e1h1")
	if got := fenOf(h); got != viaKing || !strings.HasSuffix(strings.Fields(got)[0], "R4RK1") {
		t.Fatalf("e1h1 gives %s, e1g1 gives %s", got, viaKing)
	}

	// 960 mode: king takes rook out and in; e1g1 is not castling.
	h.send("setoption name UCI_Chess960 value true", "position fen "+fen, "go depth 2 searchmoves e1g1 e1h1")
	line, before = lastBest(h)
	if best, _ := bestMove(t, line); best != "e1h1" {
		t.Fatalf("960 bestmove %s, want e1h1", best)
	}
	if len(infoStrings(before)) != 1 {
		t.Fatalf("e1g1 should be refused in 960 mode: %q", before)
	}
	if !strings.Contains(before[len(before)-1], " pv e1h1") {
		t.Fatalf("960 pv: %q", before[len(before)-1])
	}
	// King already on g1: castling is g1h1.
	const g1 = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1"
	h.send("position fen "+g1, "go depth 2 searchmoves g1h1")
	line, _ = lastBest(h)
	if best, _ := bestMove(t, line); best != "g1h1" {
		t.Fatalf("960 bestmove %s, want g1h1", best)
	}
	h.send("position fen " + g1 + " moves g1h1")
	if got := fenOf(h); !strings.HasPrefix(got, "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b") {
		t.Fatalf("g1h1 gives %s", got)
	}
	// KQkq FEN is accepted in 960 mode too, and the ponder move is written
	// as king takes rook.
	h.send("position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1 moves e8h8")
	if got := fenOf(h); !strings.HasPrefix(got, "r4rk1/") {
		t.Fatalf("e8h8 gives %s", got)
	}
}

func TestLongLines(t *testing.T) {
	h := newHarness(t)
	// A 1 MB line of junk.
	h.send(strings.Repeat("x", 1<<20))
	if out := h.sync(); len(infoStrings(out)) != 1 {
		t.Fatalf("junk line: %q", out)
	}
	// A 1 MB position command: knights going back and forth.
	var sb strings.Builder
	sb.WriteString("position startpos moves")
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	n := 0
	for sb.Len() < 1<<20 {
		sb.WriteString(" " + cycle[n%4])
		n++
	}
	h.send(sb.String())
	pos := movegen.NewPosition()
	for i := range n {
		m, err := movegen.ParseMove(pos, cycle[i%4], false)
		if err != nil {
			t.Fatal(err)
		}
		pos.Make(m)
	}
	if got := fenOf(h); got != pos.FEN(false) {
		t.Fatalf("after %d moves: %s, want %s", n, got, pos.FEN(false))
	}
	h.send("go depth 2")
	line, _ := lastBest(h)
	best, _ := bestMove(t, line)
	if _, err := movegen.ParseMove(pos, best, false); err != nil {
		t.Fatal(err)
	}
}

func TestGoPerft(t *testing.T) {
	for _, tc := range []struct {
		fen      string
		chess960 bool
	}{
		{movegen.StartFEN, false},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
	} {
		h := newHarness(t)
		h.send("setoption name UCI_Chess960 value "+strconv.FormatBool(tc.chess960), "position fen "+tc.fen, "go perft 3")
		lines := h.until("Nodes searched: ")
		pos := movegen.NewPosition()
		if err := pos.SetFEN(tc.fen); err != nil {
			t.Fatal(err)
		}
		var l movegen.MoveList
		pos.GenerateLegal(&l)
		if len(lines) != l.N+2 || lines[l.N] != "" {
			t.Fatalf("%s: %d lines for %d moves: %q", tc.fen, len(lines), l.N, lines)
		}
		var sum uint64
		for _, line := range lines[:l.N] {
			mv, cnt, ok := strings.Cut(line, ": ")
			m, err := movegen.ParseMove(pos, mv, tc.chess960)
			if !ok || err != nil || m.UCI(tc.chess960) != mv {
				t.Fatalf("bad divide line %q: %v", line, err)
			}
			n, err := strconv.ParseUint(cnt, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			pos.Make(m)
			if want := pos.Perft(2); n != want {
				t.Errorf("%s: %d, want %d", line, n, want)
			}
			pos.Unmake()
			sum += n
		}
		if want := "Nodes searched: " + strconv.FormatUint(pos.Perft(3), 10); lines[l.N+1] != want || sum != pos.Perft(3) {
			t.Fatalf("%q, want %q (sum %d)", lines[l.N+1], want, sum)
		}
	}
}

// infoRE is the shape of a search report line.
var infoRE = regexp.MustCompile(`^info depth (\d+) seldepth \d+ multipv (\d+) score (cp -?\d+|mate -?\d+)` +
	`( lowerbound| upperbound)?( wdl \d+ \d+ \d+)? nodes \d+ nps \d+ hashfull \d+ time \d+ pv( [a-h][1-8][a-h][1-8][nbrq]?)+$`)

// TestBestMoveIsLastPV: a search stopped by its limit at once (a node limit
// of 1) still reports the move it plays as a line first, so that bestmove
// is the first move of the last PV (the overdue answer before any report:
// engine's TestReplyOverdueBeforeReport).
func TestBestMoveIsLastPV(t *testing.T) {
	h := newHarness(t)
	for _, pos := range []string{"startpos", "startpos moves e2e4", "fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"} {
		h.send("position "+pos, "go nodes 1")
		line, before := lastBest(h)
		best, _ := bestMove(t, line)
		if len(before) == 0 {
			t.Fatalf("%s: %q with no line before it", pos, line)
		}
		last := before[len(before)-1]
		if !infoRE.MatchString(last) || !strings.Contains(last, " pv "+best) {
			t.Errorf("%s: last line %q before %q", pos, last, line)
		}
	}
}

func TestInfoLines(t *testing.T) {
	for _, wdl := range []bool{false, true} {
		h := newHarness(t)
		h.send("setoption name MultiPV value 3", "setoption name UCI_ShowWDL value "+strconv.FormatBool(wdl),
			"position startpos moves e2e4", "go depth 4")
		line, before := lastBest(h)
		var lastPV []string
		lines := map[string]bool{}
		for _, l := range before {
			m := infoRE.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("malformed info line %q", l)
			}
			if (m[5] != "") != wdl {
				t.Fatalf("wdl shown=%v with UCI_ShowWDL=%v: %q", m[5] != "", wdl, l)
			}
			lines[m[2]] = true
			if m[2] == "1" {
				_, pv, _ := strings.Cut(l, " pv ")
				lastPV = strings.Fields(pv)
			}
		}
		if !lines["1"] || !lines["2"] || !lines["3"] || len(lines) != 3 {
			t.Fatalf("multipv lines %v", lines)
		}
		best, ponder := bestMove(t, line)
		if best != lastPV[0] {
			t.Fatalf("bestmove %s, last pv %v", best, lastPV)
		}
		if len(lastPV) > 1 && ponder != lastPV[1] {
			t.Fatalf("ponder %s, last pv %v", ponder, lastPV)
		}
		if ponder != "" {
			mustBeLegal(t, movegen.StartFEN, []string{"e2e4", best}, ponder, false)
		}
	}
}

func TestFormatInfo(t *testing.T) {
	pos := movegen.NewPosition()
	e2e4, _ := movegen.ParseMove(pos, "e2e4", false)
	i := search.Info{Depth: 7, SelDepth: 9, MultiPV: 2, Score: eval.MateIn(3), Bound: search.Lower,
		WDL: [3]int{1000, 0, 0}, Nodes: 1234, NPS: 5678, Time: 1500 * time.Millisecond, HashFull: 12,
		PV: []movegen.Move{e2e4}}
	// Centipawns come from eval's win/draw/loss model: the score at which
	// the side ahead wins half of its games is 100; tablebase wins (the
	// search's score of a won root the tables cover) stay as they are.
	a, _ := eval.WDLParams(58)
	a58, tbWin := int(math.Round(a)), eval.MateInMaxPly-2
	tests := []struct {
		info     search.Info
		wdl      bool
		expected string
	}{
		{i, true, "info depth 7 seldepth 9 multipv 2 score mate 2 lowerbound wdl 1000 0 0 nodes 1234 nps 5678 hashfull 12 time 1500 pv e2e4"},
		{func() search.Info { j := i; j.Score, j.Bound, j.Material = -a58, search.Upper, 58; return j }(), false,
			"info depth 7 seldepth 9 multipv 2 score cp -100 upperbound nodes 1234 nps 5678 hashfull 12 time 1500 pv e2e4"},
		{func() search.Info { j := i; j.Score, j.Bound, j.Material = a58, search.Exact, 58; return j }(), false,
			"info depth 7 seldepth 9 multipv 2 score cp 100 nodes 1234 nps 5678 hashfull 12 time 1500 pv e2e4"},
		{func() search.Info { j := i; j.Score, j.Bound, j.Material = tbWin, search.Exact, 4; return j }(), false,
			fmt.Sprintf("info depth 7 seldepth 9 multipv 2 score cp %d nodes 1234 nps 5678 hashfull 12 time 1500 pv e2e4", tbWin)},
		{func() search.Info { j := i; j.Score, j.Bound = eval.MatedIn(4), search.Exact; return j }(), false,
			"info depth 7 seldepth 9 multipv 2 score mate -2 nodes 1234 nps 5678 hashfull 12 time 1500 pv e2e4"},
		{search.Info{Score: eval.MatedIn(0)}, false, "info depth 0 score mate 0"},
		{search.Info{Score: 0}, true, "info depth 0 score cp 0"},
	}
	for _, tc := range tests {
		if got := formatInfo(tc.info, false, tc.wdl); got != tc.expected {
			t.Errorf("got  %q\nwant %q", got, tc.expected)
		}
	}
}

func TestNoLegalMove(t *testing.T) {
	h := newHarness(t)
	for _, fen := range []string{"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "7k/8/6QK/8/8/8/8/8 b - - 0 1"} {
		h.send("position fen "+fen, "go depth 3")
		if line, _ := lastBest(h); line != "bestmove (none)" {
			t.Fatalf("%s: %q", fen, line)
		}
		h.send("go infinite")
		h.noBestMove(1, "before stop in "+fen)
		h.send("stop")
		if line, _ := lastBest(h); line != "bestmove (none)" {
			t.Fatalf("%s: %q", fen, line)
		}
	}
	// Drawn by rule but with legal moves: a real move.
	h.send("position fen 7k/8/8/8/8/8/8/K5R1 w - - 100 80", "go depth 3")
	line, _ := lastBest(h)
	best, _ := bestMove(t, line)
	mustBeLegal(t, "7k/8/8/8/8/8/8/K5R1 w - - 100 80", nil, best, false)
}

func TestSetOptionForms(t *testing.T) {
	h := newHarness(t)
	h.send("setoption name move  overhead value 100", "setoption name HASH value 3",
		"SetOption name UCI_Chess960 value true", "setoption name Clear Hash", "setoption name MultiPV value  2 ")
	if out := h.sync(); len(out) != 0 {
		t.Fatalf("complaints: %q", out)
	}
	s := h.eng.Settings()
	if s.MoveOverhead != 100*time.Millisecond || s.Hash != 3 || !s.Chess960 || s.MultiPV != 2 {
		t.Fatalf("settings %+v", s)
	}
}

func TestUnknownTokensBeforeCommand(t *testing.T) {
	h := newHarness(t)
	h.send("joho debug on")
	out := h.sync()
	if len(infoStrings(out)) != 1 {
		t.Fatalf("got %q", out)
	}
	h.send("xyzzy isready")
	h.until("readyok")
}

func TestDisplay(t *testing.T) {
	h := newHarness(t)
	h.send("position fen 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "d")
	out := h.sync()
	pos := movegen.NewPosition()
	if err := pos.SetFEN("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Fen: 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "Checkers: e2", fmt.Sprintf("Key: %016X", pos.Key())} {
		if !containsLine(out, want) {
			t.Errorf("no %q in %q", want, out)
		}
	}
	if !containsLine(out, "   a   b   c   d   e   f   g   h") {
		t.Errorf("no board in %q", out)
	}
}

func TestEval(t *testing.T) {
	h := newHarness(t)
	h.send("setoption name Use NNUE value false", "position startpos moves e2e4", "eval")
	out := h.sync()
	pos := movegen.NewPosition()
	m, _ := movegen.ParseMove(pos, "e2e4", false)
	pos.Make(m)
	want := strings.Split(strings.TrimRight(eval.Trace(pos), "\n"), "\n")
	white := -nnue.Default().EvaluatePosition(pos) // black to move
	want = append(want, fmt.Sprintf("NNUE evaluation (%s, not in use: Use NNUE is false)  %+.2f (white side)", nnue.DefaultName, float64(white)/100))
	if strings.Join(out, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q, want %q", out, want)
	}
	h.send("setoption name Use NNUE value true", "eval")
	out = h.sync()
	if last := out[len(out)-1]; !strings.HasPrefix(last, "NNUE evaluation ("+nnue.DefaultName+", in use)") {
		t.Fatalf("with Use NNUE: last line %q", last)
	}
}

func TestBenchCommand(t *testing.T) {
	var got [][]string
	h := newHarnessConfig(t, Config{Bench: func(out io.Writer, args []string) error {
		got = append(got, args)
		if len(args) > 0 && args[0] == "x" {
			return errors.New("bad hash \"x\"")
		}
		io.WriteString(out, "line one\n42 nodes 7 nps\n")
		return nil
	}})
	h.send("bench", "bench 16 1 5 default depth", "bench x")
	out := h.sync()
	if count(out, "42 nodes 7 nps") != 2 || len(infoStrings(out)) != 1 || count(out, `info string bench: bad hash "x"`) != 1 {
		t.Fatalf("got %q", out)
	}
	if fmt.Sprint(got) != "[[] [16 1 5 default depth] [x]]" {
		t.Fatalf("arguments %q", got)
	}
}

func TestDebugLogFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "uci log.txt")
	h := newHarness(t)
	h.send("setoption name Debug Log File value "+path, "position startpos", "go depth 1")
	lastBest(h)
	h.send("setoption name Debug Log File value <empty>", "isready")
	h.until("readyok")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, want := range []string{`"in":"position startpos"`, `"in":"go depth 1"`, `"out":"bestmove `, `"time":"`,
		`"in":"setoption name Debug Log File value <empty>"`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s:\n%s", want, log)
		}
	}
	if strings.Contains(log, "readyok") {
		t.Error("logging went on after the log file was closed")
	}
	// A file that cannot be opened: info string, option unchanged.
	h.send("setoption name Debug Log File value " + filepath.Join(path, "no", "such", "dir"))
	if out := h.sync(); len(infoStrings(out)) != 1 || h.eng.Settings().DebugLogFile != "" {
		t.Fatalf("got %q, option %q", out, h.eng.Settings().DebugLogFile)
	}
}

// TestSyzygyPathInfo: setting SyzygyPath answers with the number of tables
// found, also when there are none or the directory does not exist.
func TestSyzygyPathInfo(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	h.send("setoption name SyzygyPath value " + dir)
	if got := h.sync(); len(got) != 1 || got[0] != "info string Found 0 tablebases" {
		t.Errorf("empty directory: %q", got)
	}
	h.send("setoption name SyzygyPath value /nonexistent/syzygy")
	if got := h.sync(); len(got) != 1 || !strings.HasPrefix(got[0], "info string Found 0 tablebases; ") {
		t.Errorf("missing directory: %q", got)
	}
	h.send("position fen 8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", "go depth 3")
	if best, _ := lastBest(h); !strings.HasPrefix(best, "bestmove ") {
		t.Errorf("search after a bad SyzygyPath: %q", best)
	}
}

// TestEvalFileInfo: EvalFile answers with the net in use; a file that
// cannot be loaded is refused with an info string and the net stays; the
// embedded net's name, <empty> and an empty value bring the embedded net
// back.
func TestEvalFileInfo(t *testing.T) {
	h := newHarness(t)
	embedded := "info string NNUE evaluation using " + nnue.DefaultName + " (embedded)"
	for _, c := range []struct{ cmd, want string }{
		{"setoption name EvalFile value /nonexistent/net.nnue", "info string option EvalFile: /nonexistent/net.nnue not loaded: "},
		{"setoption name EvalFile value " + nnue.DefaultName, embedded},
		{"setoption name EvalFile value <empty>", embedded},
		{"setoption name EvalFile value", embedded},
		{"setoption name EvalFile", embedded},
	} {
		h.send(c.cmd)
		if got := h.sync(); len(got) != 1 || !strings.HasPrefix(got[0], c.want) {
			t.Errorf("%q: got %q, want %q", c.cmd, got, c.want)
		}
		if got := h.eng.Settings().EvalFile; got != nnue.DefaultName {
			t.Errorf("%q: EvalFile %q, want %q", c.cmd, got, nnue.DefaultName)
		}
	}
}
