package uci

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// genfensOutput runs commands in-process and returns the FENs of the
// genfens lines and the other info strings.
func genfensOutput(t *testing.T, cmds ...string) (fens, infos []string) {
	t.Helper()
	h := newHarness(t)
	h.send(cmds...)
	for _, l := range h.sync() {
		if fen, ok := strings.CutPrefix(l, "info string genfens "); ok && !strings.HasPrefix(fen, "genfens:") {
			fens = append(fens, fen)
		} else {
			infos = append(infos, l)
		}
	}
	return fens, infos
}

// checkOpenings checks that every FEN is a legal position with a legal
// move, reached by plies moves from a start or a book line.
func checkOpenings(t *testing.T, fens []string) {
	t.Helper()
	for _, fen := range fens {
		var p movegen.Position
		if err := p.SetFEN(fen); err != nil {
			t.Fatalf("%q: %v", fen, err)
		}
		if !p.HasLegalMove() {
			t.Errorf("%q: no legal move", fen)
		}
		if p.FEN(false) != fen && p.FEN(true) != fen {
			t.Errorf("%q is not in canonical form", fen)
		}
	}
}

func TestGenfens(t *testing.T) {
	fens, infos := genfensOutput(t, "genfens 30 seed 7 book None")
	if len(fens) != 30 || len(infos) != 0 {
		t.Fatalf("%d openings, info %q", len(fens), infos)
	}
	checkOpenings(t, fens)
	// The default mix has every kind of start: standard ones keep the
	// standard back ranks' pieces on their home squares more often than
	// not, and Chess960 and DFRC openings use Shredder letters.
	shredder, distinct := 0, map[string]bool{}
	for _, fen := range fens {
		distinct[fen] = true
		if f := strings.Fields(fen); f[2] != "-" && strings.ContainsAny(f[2], "ABCDEFGHabcdefgh") {
			shredder++
		}
	}
	if shredder == 0 || shredder == len(fens) {
		t.Errorf("%d of %d openings with Shredder castling letters: want a mix", shredder, len(fens))
	}
	if len(distinct) < 28 {
		t.Errorf("only %d distinct openings of 30", len(distinct))
	}

	// The same seed gives the same lines, a prefix for fewer lines; another
	// seed gives others.
	again, _ := genfensOutput(t, "genfens 10 seed 7 book None")
	if strings.Join(again, "\n") != strings.Join(fens[:10], "\n") {
		t.Errorf("seed 7 gave other openings the second time:\n%q\n%q", again, fens[:10])
	}
	other, _ := genfensOutput(t, "genfens 10 seed 8 book None")
	same := 0
	for i := range other {
		if other[i] == fens[i] {
			same++
		}
	}
	if same > 1 {
		t.Errorf("seeds 7 and 8 share %d of 10 openings", same)
	}
}

func TestGenfensMix(t *testing.T) {
	fens, infos := genfensOutput(t, "genfens 20 seed 1 book None standard 1 chess960 0 dfrc 0 plies 2")
	if len(fens) != 20 || len(infos) != 0 {
		t.Fatalf("%d openings, info %q", len(fens), infos)
	}
	checkOpenings(t, fens)
	for _, fen := range fens {
		// Two plies from the standard start: move 2, White to move, full rights.
		if f := strings.Fields(fen); f[1] != "w" || f[2] != "KQkq" || f[5] != "2" {
			t.Errorf("%q is not two plies from the standard start", fen)
		}
	}
	fens, _ = genfensOutput(t, "genfens 20 seed 1 book None standard 0 frc 0 dfrc 1 plies 0")
	differ := 0
	for _, fen := range fens {
		ranks := strings.Split(strings.Fields(fen)[0], "/")
		if strings.ToLower(ranks[7]) != ranks[0] {
			differ++
		}
		if ranks[1] != "pppppppp" || ranks[6] != "PPPPPPPP" {
			t.Errorf("%q is not a start position", fen)
		}
	}
	if differ < 15 {
		t.Errorf("%d of 20 DFRC starts have different back ranks", differ)
	}
	fens, _ = genfensOutput(t, "genfens 20 seed 1 book None standard 0 chess960 1 dfrc 0 plies 0")
	for _, fen := range fens {
		ranks := strings.Split(strings.Fields(fen)[0], "/")
		if strings.ToLower(ranks[7]) != ranks[0] {
			t.Errorf("%q is not a Chess960 start", fen)
		}
	}
}

// TestGenfensBook starts from testdata/book.epd (written by hand).
func TestGenfensBook(t *testing.T) {
	book, err := filepath.Abs("testdata/book.epd")
	if err != nil {
		t.Fatal(err)
	}
	fens, infos := genfensOutput(t, "genfens 12 seed 3 book "+book+" plies 0")
	if len(fens) != 12 || len(infos) != 0 {
		t.Fatalf("%d openings, info %q", len(fens), infos)
	}
	want := map[string]bool{
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1":     true,
		"rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2":     true,
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3": true,
	}
	seen := map[string]bool{}
	for _, fen := range fens {
		if !want[fen] {
			t.Errorf("%q is not a book line", fen)
		}
		seen[fen] = true
	}
	if len(seen) < 2 {
		t.Errorf("only %d distinct book lines drawn", len(seen))
	}
	// The default after a book line: two random plies.
	fens, _ = genfensOutput(t, "genfens 12 seed 3 book "+book)
	checkOpenings(t, fens)
	for _, fen := range fens {
		if want[fen] {
			t.Errorf("%q: no random plies after the book line", fen)
		}
	}
}

func TestGenfensBadArguments(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range []string{
		"genfens",
		"genfens 10",
		"genfens x seed 1 book None",
		"genfens 0 seed 1 book None",
		"genfens -5 seed 1 book None",
		"genfens 10 seed x book None",
		"genfens 10 sead 1 book None",
		"genfens 10 seed 1 bok None",
		"genfens 10 seed 1 book",
		"genfens 10 seed 1 book None dfrc",
		"genfens 10 seed 1 book None dfrc x",
		"genfens 10 seed 1 book None dfrc -1",
		"genfens 10 seed 1 book None colour 1",
		"genfens 10 seed 1 book None standard 0 chess960 0 dfrc 0",
		"genfens 10 seed 1 book None plies 1000",
		"genfens 10 seed 1 book " + filepath.Join(dir, "missing.epd"),
		"genfens 10 seed 1 book " + dir,
		"genfens 10 seed 1 book " + writeFile(t, dir, "bad.epd", "not a position at all\n"),
		"genfens 10 seed 1 book " + writeFile(t, dir, "empty.epd", "# nothing\n\n"),
	} {
		fens, infos := genfensOutput(t, cmd)
		if len(fens) != 0 || len(infos) != 1 || !strings.HasPrefix(infos[0], "info string genfens") {
			t.Errorf("%q: openings %q, info %q", cmd, fens, infos)
		}
	}
	// A negative seed is an integer too.
	if fens, infos := genfensOutput(t, "genfens 2 seed -3 book None"); len(fens) != 2 {
		t.Errorf("seed -3: %q %q", fens, infos)
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWaitForSearch: with WaitForSearch (commands from the command line),
// a go with a limit finishes before the next command runs; one without a
// limit does not hold the loop.
func TestWaitForSearch(t *testing.T) {
	h := newHarnessConfig(t, Config{Version: "test", WaitForSearch: true})
	h.send("position startpos", "go depth 4", "genfens 1 seed 1 book None")
	out := h.until("info string genfens")
	if count(out, "bestmove") != 1 || count(out, "info depth 4") == 0 {
		t.Fatalf("the search did not finish before the next command: %q", out)
	}
	h.send("go infinite")
	h.sync() // answered while the search runs
	h.send("stop")
	h.until("bestmove")
}
