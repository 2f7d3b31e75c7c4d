package movegen

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestFENErrors(t *testing.T) {
	for _, tc := range []struct {
		name, fen, wantErr string
	}{
		{"empty", "", "fields"},
		{"one-field", "4k3/8/8/8/8/8/8/4K3", "fields"},
		{"seven-fields", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 x", "fields"},
		{"seven-ranks", "4k3/8/8/8/8/8/4K3 w - - 0 1", "ranks"},
		{"nine-ranks", "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "ranks"},
		{"bad-piece-letter", "4k3/8/8/8/8/8/8/4K2X w - - 0 1", "piece letter"},
		{"digit-nine", "4k3/9/8/8/8/8/8/4K3 w - - 0 1", "piece letter"},
		{"digit-zero", "4k3/08/8/8/8/8/8/4K3 w - - 0 1", "piece letter"},
		{"too-many-squares", "4k3/8/8/8/8/8/8/4K2RR w - - 0 1", "more than 8 squares"},
		{"too-many-squares-digits", "4k3/44p/8/8/8/8/8/4K3 w - - 0 1", "more than 8 squares"},
		{"too-few-squares", "4k3/7/8/8/8/8/8/4K3 w - - 0 1", "squares"},
		{"no-white-king", "4k3/8/8/8/8/8/8/8 w - - 0 1", "white has 0 kings"},
		{"no-black-king", "8/8/8/8/8/8/8/4K3 w - - 0 1", "black has 0 kings"},
		{"two-white-kings", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "white has 2 kings"},
		{"two-black-kings", "3kk3/8/8/8/8/8/8/4K3 b - - 0 1", "black has 2 kings"},
		{"pawn-on-first-rank", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on rank 1"},
		{"pawn-on-last-rank", "p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on rank 8"},
		{"nine-pawns", "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "too many"},
		{"bad-side", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"},
		{"side-not-to-move-in-check", "4k3/8/8/8/8/8/8/4K2r b - - 0 1", "not to move is in check"},
		{"kings-touching", "8/8/8/8/8/8/4k3/4K3 w - - 0 1", "not to move is in check"},
		{"triple-check", "4k3/8/8/8/7b/3n4/8/r3K3 w - - 0 1", "more than two"},
		{"bad-castling-letter", "4k3/8/8/8/8/8/8/4K2R w Z - 0 1", "castling letter"},
		{"castling-field-too-long", "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "castling field"},
		{"two-rooks-one-side", "4k3/8/8/8/8/8/8/4K1RR w HG - 0 1", "two white rooks"},
		{"bad-ep-square", "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en-passant"},
		{"ep-text", "4k3/8/8/8/8/8/8/4K3 w - x 0 1", "en-passant"},
		{"negative-halfmove", "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "half-move"},
		{"text-halfmove", "4k3/8/8/8/8/8/8/4K3 w - - x 1", "half-move"},
		{"huge-halfmove", "4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", "half-move"},
		{"text-fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 x", "full-move"},
		{"negative-fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "full-move"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, kiwipeteFEN)
			p.Make(p.LegalMoves()[0])
			before, key, ply := p.FEN(true), p.Key(), p.Ply()
			err := p.SetFEN(tc.fen)
			if err == nil {
				t.Fatalf("SetFEN(%q) accepted", tc.fen)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q does not mention %q", err, tc.wantErr)
			}
			if p.FEN(true) != before || p.Key() != key || p.Ply() != ply {
				t.Errorf("failed SetFEN changed the position to %q", p.FEN(true))
			}
			checkConsistent(t, p)
		})
	}
}

// TestFENLenient: forms that GUIs and books send and that must be accepted.
func TestFENLenient(t *testing.T) {
	for _, tc := range []struct {
		name, fen, want string // FEN(true) after parsing
	}{
		{"no-counters", "4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"no-fullmove", "4k3/8/8/8/8/8/8/4K3 b - - 7", "4k3/8/8/8/8/8/8/4K3 b - - 7 1"},
		{"extra-spaces", "  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1 ", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"fullmove-zero", "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"stale-rights-no-rooks", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"stale-right-one-rook", "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", "r3k3/8/8/8/8/8/8/4K2R w Ha - 0 1"},
		{"king-off-back-rank", "8/4k3/8/8/8/8/4K3/R6R w KQ - 0 1", "8/4k3/8/8/8/8/4K3/R6R w - - 0 1"},
		{"right-named-twice", "4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "4k3/8/8/8/8/8/8/4K2R w H - 0 1"},
		{"black-rook-on-white-rank", "4k3/8/8/8/8/8/8/4K2r w K - 0 1", "4k3/8/8/8/8/8/8/4K2r w - - 0 1"},
		{"xfen-order-free", "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"},
		{"shredder", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"},
		// Rights whose rook is missing are ignored in every form (UCI.md).
		{"shredder-file-without-rook", "4k3/8/8/8/8/8/8/R3K3 w HA - 0 1", "4k3/8/8/8/8/8/8/R3K3 w A - 0 1"},
		{"shredder-file-without-black-rook", "r3k3/8/8/8/8/8/8/R3K3 w Ac - 0 1", "r3k3/8/8/8/8/8/8/R3K3 w A - 0 1"},
		{"shredder-stale-inner-letter", "r3k2r/8/8/8/8/8/8/R3K2R w HBhc - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w Hh - 0 1"},
		{"xfen-letter-on-king-file", "r3k2r/8/8/8/8/8/8/R3K2R w EHe - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w H - 0 1"},
		// An en-passant square on the wrong rank can have no legal capture.
		{"ep-on-wrong-rank", "4k3/8/8/8/3pP3/8/8/4K3 w - e3 0 1", "4k3/8/8/8/3pP3/8/8/4K3 w - - 0 1"},
		// Cut short after the side to move or the castling rights (EPD).
		{"two-fields", "r3k2r/8/8/8/8/8/8/R3K2R b", "r3k2r/8/8/8/8/8/8/R3K2R b - - 0 1"},
		{"three-fields", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Position
			err := p.SetFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.FEN(true); got != tc.want {
				t.Errorf("FEN %q, want %q", got, tc.want)
			}
			checkConsistent(t, &p)
		})
	}
}

func TestFENOutput(t *testing.T) {
	for _, tc := range []struct {
		in, std, c960 string
	}{
		{StartFEN, StartFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", StartFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 20", "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 20", "r3k2r/8/8/8/8/8/8/R3K2R b Ha - 5 20"},
		// An inner rook keeps its letter even in standard mode.
		{"4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1", "4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1", "4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1"},
		{"4k3/8/8/8/8/8/8/1R2K1RR w KB - 0 1", "4k3/8/8/8/8/8/8/1R2K1RR w KQ - 0 1", "4k3/8/8/8/8/8/8/1R2K1RR w HB - 0 1"},
		{"4k3/8/8/8/8/8/8/RR2K1R1 w GB - 0 1", "4k3/8/8/8/8/8/8/RR2K1R1 w KB - 0 1", "4k3/8/8/8/8/8/8/RR2K1R1 w GB - 0 1"},
		{"1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w KQkq - 0 1", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w KQkq - 0 1", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FAgb - 0 1"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"},
	} {
		p := mustPos(t, tc.in)
		if got := p.FEN(false); got != tc.std {
			t.Errorf("%s: FEN(false) = %q, want %q", tc.in, got, tc.std)
		}
		if got := p.FEN(true); got != tc.c960 {
			t.Errorf("%s: FEN(true) = %q, want %q", tc.in, got, tc.c960)
		}
		for _, s := range []string{tc.std, tc.c960} {
			if q := mustPos(t, s); q.Key() != p.Key() || q.FEN(true) != tc.c960 {
				t.Errorf("%s: printed FEN %q parses to another position", tc.in, s)
			}
		}
	}
}

// TestChess960FENMatchesBook: position n of the standard numbering is line
// n+1 of FRC_openings.epd (which writes castling as KQkq). The sample in
// testdata keeps every eighth line, and 518, with its number as ";n N".
func TestChess960FENMatchesBook(t *testing.T) {
	lines := readLines(t, "testdata/books/FRC_openings-sample.epd")
	for _, line := range lines {
		book, num, ok := strings.Cut(line, ";n ")
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || err != nil {
			t.Fatalf("line %q: no position number", line)
		}
		fen, err := Chess960FEN(n)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Fields(book)
		got := strings.Fields(fen)
		if got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("Chess960FEN(%d) = %q, book line %d = %q", n, fen, n+1, book)
		}
		// The book's KQkq names the same rooks as our Shredder letters.
		p, q := mustPos(t, fen), mustPos(t, book)
		if p.Key() != q.Key() || p.FEN(true) != q.FEN(true) {
			t.Fatalf("position %d: %q and %q differ", n, p.FEN(true), q.FEN(true))
		}
	}
	if len(lines) < 100 {
		t.Fatalf("%d sample lines, want the 122 of testdata", len(lines))
	}
}

// readLines returns the non-empty lines of a file, CR and blanks trimmed.
func readLines(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// booksDirEnv names the environment variable that points at the whole
// opening books (see testdata/README.md); .ci/run sets it when they are
// there.
const booksDirEnv = "KINGROOK_BOOKS_DIR"

// bookNames are the books sampled in testdata as NAME-sample.epd.
var bookNames = []string{"2moves_v1.epd", "UHO_4060_v4.epd", "3moves_FRC.epd", "DFRC_4852_v1.epd"}

// TestBookFENRoundTrip parses the samples of the opening books (mixed
// castling notations, CRLF line ends) and checks that the printed FEN, in
// both modes, parses back to the same position.
func TestBookFENRoundTrip(t *testing.T) {
	for _, name := range bookNames {
		t.Run(name, func(t *testing.T) {
			checkBookRoundTrip(t, name, filepath.Join("testdata", "books", strings.TrimSuffix(name, ".epd")+"-sample.epd"), 1)
		})
	}
}

// TestBookFENRoundTripFull does the same over every 97th line of the whole
// books in the directory named by KINGROOK_BOOKS_DIR.
func TestBookFENRoundTripFull(t *testing.T) {
	dir := os.Getenv(booksDirEnv)
	if dir == "" {
		t.Skip(booksDirEnv + " is not set: only the samples in testdata are read")
	}
	for _, name := range bookNames {
		t.Run(name, func(t *testing.T) { checkBookRoundTrip(t, name, filepath.Join(dir, name), 97) })
	}
}

// checkBookRoundTrip reads every step-th line of path, a sample of the book
// called name.
func checkBookRoundTrip(t *testing.T, name, path string, step int) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if name == "3moves_FRC.epd" && !strings.Contains(string(data), "\r\n") {
		t.Fatalf("%s: the CRLF line ends of the book are gone", path)
	}
	checked := 0
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if i%step != 0 || line == "" {
			continue
		}
		p := mustPos(t, line)
		// The book's own text comes back in the matching mode.
		if name == "2moves_v1.epd" || name == "UHO_4060_v4.epd" {
			if got := p.FEN(false); got != strings.Join(strings.Fields(line), " ") {
				t.Errorf("line %d: %q printed as %q", i+1, line, got)
			}
		}
		for _, chess960 := range []bool{true, false} {
			q := mustPos(t, p.FEN(chess960))
			if q.Key() != p.Key() || q.FEN(true) != p.FEN(true) {
				t.Fatalf("line %d: %q -> %q -> %q", i+1, line, p.FEN(chess960), q.FEN(true))
			}
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("%s: %d positions read", path, checked)
	}
}
