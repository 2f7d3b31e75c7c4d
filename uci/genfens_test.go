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

// startKind tells which kind of start position fen is (no move played):
// "standard" (written with KQkq), "chess960" (both back ranks in one
// arrangement, Chess960's number 518 too when written with Shredder
// letters) or "dfrc".
func startKind(t *testing.T, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	switch {
	case len(ranks) != 8 || ranks[1] != "pppppppp" || ranks[6] != "PPPPPPPP":
		t.Fatalf("%q is not a start position", fen)
	case ranks[0] == "rnbqkbnr" && ranks[7] == "RNBQKBNR" && f[2] == "KQkq":
		return "standard"
	case strings.ToLower(ranks[7]) == ranks[0]:
		return "chess960"
	}
	return "dfrc"
}

// standardArrangement tells whether fen can be a standard chess position
// as far as castling tells: its castling field is written with K, Q, k and
// q only, and each right belongs to a king on the e-file and a rook in the
// corner.
func standardArrangement(t *testing.T, fen string) bool {
	t.Helper()
	var p movegen.Position
	if err := p.SetFEN(fen); err != nil {
		t.Fatal(err)
	}
	return strings.Trim(strings.Fields(fen)[2], "KQkq-") == "" && standardCastling(&p)
}

// kinds counts the kinds of the start positions fens.
func kinds(t *testing.T, fens []string) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, fen := range fens {
		n[startKind(t, fen)]++
	}
	return n
}

func TestGenfens(t *testing.T) {
	fens, infos := genfensOutput(t, "genfens 30 seed 7 book None")
	if len(fens) != 30 || len(infos) != 0 {
		t.Fatalf("%d openings, info %q", len(fens), infos)
	}
	checkOpenings(t, fens)
	distinct := map[string]bool{}
	for _, fen := range fens {
		distinct[fen] = true
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

// TestGenfensDefaultIsStandard: what OpenBench sends without extra words
// gives standard openings only (it plays those games as standard chess).
// With plies 0 the same seed gives the start positions of the same lines.
func TestGenfensDefaultIsStandard(t *testing.T) {
	fens, infos := genfensOutput(t, "genfens 1000 seed 1 book None")
	if len(fens) != 1000 || len(infos) != 0 {
		t.Fatalf("%d openings, info %q", len(fens), infos)
	}
	checkOpenings(t, fens)
	for _, fen := range fens {
		if !standardArrangement(t, fen) {
			t.Errorf("%q is not a standard opening", fen)
		}
	}
	starts, _ := genfensOutput(t, "genfens 1000 seed 1 book None plies 0")
	if n := kinds(t, starts); n["standard"] != 1000 {
		t.Errorf("starts of genfens 1000 seed 1 book None: %v, want 1000 standard", n)
	}
}

// TestGenfensMix: the extra words choose the kinds of start; kinds not
// named are left out.
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
	for _, c := range []struct {
		words string
		want  []string // the kinds that must occur, and no others
	}{
		{"dfrc 1", []string{"dfrc"}},
		{"chess960 1", []string{"chess960"}},
		{"frc 1", []string{"chess960"}},
		{"chess960 1 dfrc 1", []string{"chess960", "dfrc"}},
		{"standard 1 chess960 1", []string{"standard", "chess960"}},
		{"standard 1 frc 1 dfrc 2", []string{"standard", "chess960", "dfrc"}},
	} {
		fens, infos := genfensOutput(t, "genfens 100 seed 1 book None plies 0 "+c.words)
		if len(fens) != 100 || len(infos) != 0 {
			t.Fatalf("%s: %d openings, info %q", c.words, len(fens), infos)
		}
		n := kinds(t, fens)
		for _, k := range c.want {
			if n[k] == 0 {
				t.Errorf("%s: no %s start in %v", c.words, k, n)
			}
			delete(n, k)
		}
		if len(n) != 0 {
			t.Errorf("%s: unasked kinds %v", c.words, n)
		}
		for _, fen := range fens {
			if kind := startKind(t, fen); kind != "standard" && standardArrangement(t, fen) {
				t.Errorf("%s: %s start %q without Shredder castling letters", c.words, kind, fen)
			}
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
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2":     true,
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
		"genfens 10 seed 1 book None chess960 0",
		"genfens 10 seed 1 book None frc NaN",
		"genfens 10 seed 1 book " + writeFile(t, dir, "badop.epd", "8/8/8/8/8/2k5/4P3/4K3 w - - hmvc x;\n"),
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

// TestGenfensBookCounters: book lines keep their half-move clock and
// full-move number, from FEN fields or the EPD operations hmvc and fmvn.
func TestGenfensBookCounters(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ line, want string }{
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 7; fmvn 23;", " 7 23"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - fmvn 23; hmvc 7;", " 7 23"},
		{`rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 "hmvc 9; fmvn 9"; fmvn 4; id "x";`, " 0 4"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;", " 0 1"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 12", " 3 12"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -", " 0 1"},
	} {
		book := writeFile(t, dir, "counters.epd", c.line+"\n")
		fens, infos := genfensOutput(t, "genfens 1 seed 1 book "+book+" plies 0")
		if len(fens) != 1 || !strings.HasSuffix(fens[0], c.want) {
			t.Errorf("%q: openings %q, info %q; want a FEN ending %q", c.line, fens, infos, c.want)
		}
	}
	// After one random ply, Black's, the full-move number goes on from fmvn.
	book := writeFile(t, dir, "counters.epd", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 7; fmvn 23;\n")
	fens, _ := genfensOutput(t, "genfens 5 seed 1 book "+book+" plies 1")
	for _, fen := range fens {
		if !strings.HasSuffix(fen, " 24") {
			t.Errorf("%q: one ply after fmvn 23 with Black to move, want move 24", fen)
		}
	}
}

// TestGenfensBookSkipsFinishedGames: a book line where the game is over (a
// mate, a stalemate, the fifty-move rule reached) cannot start an opening and
// is left out; a byte-order mark before the first line is ignored; a book of
// finished games only has no positions.
func TestGenfensBookSkipsFinishedGames(t *testing.T) {
	dir := t.TempDir()
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	finished := []string{
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                              // stalemate
		"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",                              // mate
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 100 60", // fifty moves
	}
	book := writeFile(t, dir, "mixed.epd", "\ufeff"+strings.Join(finished, "\n")+"\n"+start+"\n")
	fens, infos := genfensOutput(t, "genfens 20 seed 3 book "+book+" plies 2")
	if len(fens) != 20 || len(infos) != 0 {
		t.Fatalf("openings %d, info %q: want 20 from the one playable line", len(fens), infos)
	}
	only := writeFile(t, dir, "over.epd", strings.Join(finished, "\n")+"\n")
	if fens, infos := genfensOutput(t, "genfens 2 seed 1 book "+only); len(fens) != 0 || len(infos) != 1 {
		t.Fatalf("a book of finished games: openings %q, info %q", fens, infos)
	}
}

// TestGenfensChess960Book: the openings of a Chess960 book, named so or
// holding a position in a non-standard arrangement, are written with
// Shredder-FEN castling letters; those of a standard book with KQkq.
func TestGenfensChess960Book(t *testing.T) {
	dir := t.TempDir()
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	const frc = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
	for _, c := range []struct {
		name, lines string
		chess960    bool
	}{
		{"openings.epd", start + "\n", false},
		{"FRC_openings.epd", start + "\n", true},
		{"dfrc.epd", start + "\n", true},
		{"chess960-book.epd", start + "\n", true},
		{"openings.epd", start + "\n" + frc + "\n", true},
	} {
		book := writeFile(t, dir, c.name, c.lines)
		fens, infos := genfensOutput(t, "genfens 20 seed 1 book "+book+" plies 0")
		if len(fens) != 20 {
			t.Fatalf("%s %q: %d openings, info %q", c.name, c.lines, len(fens), infos)
		}
		for _, fen := range fens {
			castling := strings.Fields(fen)[2]
			if shredder := strings.Trim(castling, "KQkq") != ""; shredder != c.chess960 {
				t.Errorf("%s %q: opening %q, want Shredder letters %v", c.name, c.lines, fen, c.chess960)
			}
		}
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
