package uci

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kingrook/kingrook/movegen"
)

// genfens: openings for OpenBench's DATAGEN workloads, which run
//
//	kingrook "genfens N seed S book <None|FILE> [extra]" quit
//
// and read N lines "info string genfens <FEN>": the start positions of
// the games their workers play. Each opening is a start position followed
// by random legal moves, ending in a position with a legal move that is not
// a draw by rule. OpenBench plays the games of a workload without a book as
// standard chess, so without a book the start is the standard one unless
// the extra words ask for Chess960 or Double Fischer Random starts; with a
// book (an EPD or FEN file, one position a line, # comments) it is a random
// line of the book. The extra words, in any order, each followed by a
// number:
//
//	standard W   weight of the standard start
//	chess960 W   weight of Chess960 starts ("frc" is the same)
//	dfrc W       weight of Double Fischer Random starts
//	plies N      random moves after the start (default 8; 2 after a book line)
//
// Kinds of start not named have weight 0; with none named every start is
// the standard one. The weights apply without a book only.
//
// Line i depends only on the seed and i, so the same seed gives the same
// openings whatever N. Standard openings use KQkq castling; Chess960 and
// DFRC openings, and every line of a Chess960 book (one whose file name
// says FRC or 960, or with a position whose castling king or rooks stand
// elsewhere than in the standard arrangement), use Shredder-FEN file
// letters. Book lines keep their move counters: the FEN's fifth and sixth
// fields, or the EPD operations hmvc (half-move clock) and fmvn (full-move
// number); 0 and 1 when the line has neither. Bad arguments give an info
// string and no lines.

// Limits of genfens.
const (
	maxGenfens       = 10_000_000
	maxGenfensPlies  = 100
	maxGenfensWeight = 1e6
	genfensPlies     = 8
	genfensBookPlies = 2
	maxBookBytes     = 1 << 30
)

// genfensUsage is the synopsis given with argument errors.
const genfensUsage = "genfens N seed S book <None|file> [standard W] [chess960 W] [dfrc W] [plies N]"

// genfensCmd is a parsed genfens command.
type genfensCmd struct {
	n     int
	seed  uint64
	book  string // "" for none
	mix   movegen.VariantMix
	plies int
}

// parseGenfens reads the arguments of genfens.
func parseGenfens(args []string) (genfensCmd, error) {
	c := genfensCmd{plies: -1}
	if len(args) < 5 || !strings.EqualFold(args[1], "seed") || !strings.EqualFold(args[3], "book") {
		return c, errors.New("genfens: expected " + genfensUsage)
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 || n > maxGenfens {
		return c, fmt.Errorf("genfens: N %q is not a number 1..%d", args[0], maxGenfens)
	}
	c.n = n
	// Seeds are unsigned 64-bit; a negative one is read as its two's
	// complement so that any integer works.
	if s, err := strconv.ParseUint(args[2], 10, 64); err == nil {
		c.seed = s
	} else if s, err := strconv.ParseInt(args[2], 10, 64); err == nil {
		c.seed = uint64(s)
	} else {
		return c, fmt.Errorf("genfens: seed %q is not an integer", args[2])
	}
	if !strings.EqualFold(args[4], "none") {
		c.book = args[4]
	}
	if err := c.parseExtra(args[5:]); err != nil {
		return c, err
	}
	if c.plies < 0 {
		c.plies = genfensPlies
		if c.book != "" {
			c.plies = genfensBookPlies
		}
	}
	return c, nil
}

// parseExtra reads the extra words of genfens into c.mix and c.plies.
func (c *genfensCmd) parseExtra(extra []string) error {
	named := false
	for len(extra) > 0 {
		if len(extra) < 2 {
			return fmt.Errorf("genfens: %q needs a number", extra[0])
		}
		word, val := strings.ToLower(extra[0]), extra[1]
		extra = extra[2:]
		if word == "plies" {
			p, err := strconv.Atoi(val)
			if err != nil || p < 0 || p > maxGenfensPlies {
				return fmt.Errorf("genfens: plies %q is not a number 0..%d", val, maxGenfensPlies)
			}
			c.plies = p
			continue
		}
		w, err := strconv.ParseFloat(val, 64)
		if err != nil || !(w >= 0 && w <= maxGenfensWeight) {
			return fmt.Errorf("genfens: %s %q is not a weight 0..%.0f", word, val, float64(maxGenfensWeight))
		}
		switch word {
		case "standard":
			c.mix.Standard = w
		case "chess960", "frc":
			c.mix.Chess960 = w
		case "dfrc":
			c.mix.DFRC = w
		default:
			return fmt.Errorf("genfens: unknown word %q (standard, chess960, frc, dfrc or plies)", word)
		}
		named = true
	}
	if !named {
		c.mix = movegen.VariantMix{Standard: 1}
	}
	if c.book == "" {
		if err := c.mix.Validate(); err != nil {
			return fmt.Errorf("genfens: %v", err)
		}
	}
	return nil
}

// openingBook is the positions of a book file.
type openingBook struct {
	fens []string
	// chess960: the book holds Chess960 or DFRC positions; its openings
	// are written with Shredder-FEN castling letters.
	chess960 bool
}

// readBook reads an EPD or FEN file: the first four fields of each line,
// with the move counters of the line (see counters). Every line must be a
// legal position.
func readBook(path string) (openingBook, error) {
	var book openingBook
	f, err := os.Open(path)
	if err != nil {
		return book, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxBookBytes {
		return book, fmt.Errorf("%s: larger than %d bytes", path, maxBookBytes)
	}
	book.chess960 = isChess960Name(path)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var pos movegen.Position
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a byte-order mark
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) < 4 {
			return book, fmt.Errorf("%s:%d: not a position: %q", path, line, truncate(text))
		}
		rule50, fullmove, err := counters(fields[4:])
		if err != nil {
			return book, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		fen := fmt.Sprintf("%s %d %d", strings.Join(fields[:4], " "), rule50, fullmove)
		if err := pos.SetFEN(fen); err != nil {
			return book, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if !pos.HasLegalMove() || pos.Rule50() >= 100 {
			continue // a finished game: no opening can start from it
		}
		book.chess960 = book.chess960 || !standardCastling(&pos)
		book.fens = append(book.fens, fen)
	}
	if err := sc.Err(); err != nil {
		return book, fmt.Errorf("%s: %v", path, err)
	}
	if len(book.fens) == 0 {
		return book, fmt.Errorf("%s: no positions", path)
	}
	return book, nil
}

// counters returns the half-move clock and full-move number of a book
// line from the fields after its first four: a FEN's two numbers, or else
// the EPD operations hmvc and fmvn; 0 and 1 for those not given.
func counters(rest []string) (rule50, fullmove int, err error) {
	if len(rest) >= 2 && isCounter(rest[0]) && isCounter(rest[1]) {
		rule50, _ = strconv.Atoi(rest[0])
		fullmove, _ = strconv.Atoi(rest[1])
		return rule50, max(fullmove, 1), nil
	}
	rule50, fullmove = 0, 1
	for _, op := range epdOperations(strings.Join(rest, " ")) {
		if len(op) == 0 || (op[0] != "hmvc" && op[0] != "fmvn") {
			continue
		}
		if len(op) != 2 || !isCounter(op[1]) {
			return 0, 0, fmt.Errorf("EPD operation %q: want one number", strings.Join(op, " "))
		}
		n, _ := strconv.Atoi(op[1])
		if op[0] == "hmvc" {
			rule50 = n
		} else {
			fullmove = max(n, 1)
		}
	}
	return rule50, fullmove, nil
}

// epdOperations splits the operations of an EPD line, "opcode operand...;"
// each, into their words; a double-quoted operand is one word and may hold
// semicolons and spaces.
func epdOperations(s string) [][]string {
	var ops [][]string
	var op []string
	var word strings.Builder
	inWord, quoted := false, false
	endWord := func() {
		if inWord {
			op = append(op, word.String())
			word.Reset()
			inWord = false
		}
	}
	for _, r := range s {
		switch {
		case quoted:
			if r == '"' {
				quoted = false
			} else {
				word.WriteRune(r)
			}
		case r == '"':
			quoted, inWord = true, true
		case r == ';':
			endWord()
			ops, op = append(ops, op), nil
		case r == ' ' || r == '\t':
			endWord()
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	endWord()
	if len(op) > 0 {
		ops = append(ops, op)
	}
	return ops
}

func isCounter(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0
}

// isChess960Name tells whether a book's file name says it holds Chess960
// or DFRC positions (FRC or 960 in it, e.g. FRC_openings.epd,
// DFRC_openings.epd, chess960.epd).
func isChess960Name(path string) bool {
	name := strings.ToUpper(filepath.Base(path))
	return strings.Contains(name, "FRC") || strings.Contains(name, "960")
}

// standardCastling tells whether every castling right of pos belongs to a
// king on the e-file and a rook in the corner, as in standard chess.
func standardCastling(pos *movegen.Position) bool {
	for _, c := range []movegen.Color{movegen.White, movegen.Black} {
		for _, kingSide := range []bool{true, false} {
			rook := pos.CastlingRook(c, kingSide)
			if rook == movegen.NoSquare {
				continue
			}
			wantFile := 0
			if kingSide {
				wantFile = 7
			}
			if pos.KingSquare(c).File() != 4 || rook.File() != wantFile {
				return false
			}
		}
	}
	return true
}

// genfens prints the openings of a genfens command.
func (s *session) genfens(args []string) {
	c, err := parseGenfens(args)
	if err != nil {
		s.infof("%v", err)
		return
	}
	var book openingBook
	if c.book != "" {
		if book, err = readBook(c.book); err != nil {
			s.infof("genfens: book: %v", err)
			return
		}
	}
	fens, err := genfensLines(c, book)
	if err != nil {
		s.infof("genfens: %v", err)
		return
	}
	for _, fen := range fens {
		s.out.line("info string genfens " + fen)
	}
}

// genfensLines returns the openings of c, drawn from book when it has
// positions.
func genfensLines(c genfensCmd, book openingBook) ([]string, error) {
	fens := make([]string, 0, c.n)
	var pos movegen.Position
	for i := range c.n {
		rng := rand.New(rand.NewPCG(c.seed, uint64(i)))
		var start string
		var chess960 bool
		if len(book.fens) > 0 {
			start, chess960 = book.fens[rng.IntN(len(book.fens))], book.chess960
		} else {
			v := c.mix.Pick(rng)
			start, chess960 = movegen.RandomStartFEN(v, rng), v != movegen.Standard
		}
		if err := movegen.RandomPlies(&pos, start, c.plies, rng); err != nil {
			return nil, err
		}
		fens = append(fens, pos.FEN(chess960))
	}
	return fens, nil
}
