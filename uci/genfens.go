package uci

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
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
// a draw by rule. Without a book the start is the standard one, a Chess960
// one or a Double Fischer Random one, drawn by weight; with a book (an EPD
// or FEN file, one position a line, # comments) it is a random line of the
// book. The extra words, in any order, each followed by a number:
//
//	standard W   weight of the standard start (default 1)
//	chess960 W   weight of Chess960 starts (default 1; "frc" is the same)
//	dfrc W       weight of Double Fischer Random starts (default 1)
//	plies N      random moves after the start (default 8; 2 after a book line)
//
// Line i depends only on the seed and i, so the same seed gives the same
// openings whatever N. Standard-start lines use KQkq castling, the others
// Shredder-FEN file letters. Bad arguments give an info string and no
// lines.

// Limits of genfens.
const (
	maxGenfens       = 10_000_000
	maxGenfensPlies  = 100
	genfensPlies     = 8
	genfensBookPlies = 2
	maxBookBytes     = 1 << 30
)

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
	c := genfensCmd{mix: movegen.VariantMix{Standard: 1, Chess960: 1, DFRC: 1}, plies: -1}
	usage := errors.New("genfens: expected genfens N seed S book <None|file> [standard W] [chess960 W] [dfrc W] [plies N]")
	if len(args) < 5 || !strings.EqualFold(args[1], "seed") || !strings.EqualFold(args[3], "book") {
		return c, usage
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
	extra := args[5:]
	for len(extra) > 0 {
		if len(extra) < 2 {
			return c, fmt.Errorf("genfens: %q needs a number", extra[0])
		}
		word, val := strings.ToLower(extra[0]), extra[1]
		extra = extra[2:]
		if word == "plies" {
			p, err := strconv.Atoi(val)
			if err != nil || p < 0 || p > maxGenfensPlies {
				return c, fmt.Errorf("genfens: plies %q is not a number 0..%d", val, maxGenfensPlies)
			}
			c.plies = p
			continue
		}
		w, err := strconv.ParseFloat(val, 64)
		if err != nil || w < 0 || w > 1e6 {
			return c, fmt.Errorf("genfens: %s %q is not a weight 0..1e6", word, val)
		}
		switch word {
		case "standard":
			c.mix.Standard = w
		case "chess960", "frc":
			c.mix.Chess960 = w
		case "dfrc":
			c.mix.DFRC = w
		default:
			return c, fmt.Errorf("genfens: unknown word %q (standard, chess960, dfrc or plies)", word)
		}
	}
	if c.book == "" {
		if err := c.mix.Validate(); err != nil {
			return c, fmt.Errorf("genfens: %v", err)
		}
	}
	if c.plies < 0 {
		c.plies = genfensPlies
		if c.book != "" {
			c.plies = genfensBookPlies
		}
	}
	return c, nil
}

// readBook returns the positions of an EPD or FEN file as FENs: the first
// four fields of each line, with the move counters when the line has them.
// Every line must be a legal position.
func readBook(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxBookBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxBookBytes)
	}
	var book []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var pos movegen.Position
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) < 4 {
			return nil, fmt.Errorf("%s:%d: not a position: %q", path, line, truncate(text))
		}
		fen := strings.Join(fields[:4], " ")
		if len(fields) >= 6 && isCounter(fields[4]) && isCounter(fields[5]) {
			fen += " " + fields[4] + " " + fields[5]
		}
		if err := pos.SetFEN(fen); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		book = append(book, fen)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(book) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return book, nil
}

func isCounter(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0
}

// genfens prints the openings of a genfens command.
func (s *session) genfens(args []string) {
	c, err := parseGenfens(args)
	if err != nil {
		s.infof("%v", err)
		return
	}
	var book []string
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

// genfensLines returns the openings of c, drawn from book when it is not
// empty.
func genfensLines(c genfensCmd, book []string) ([]string, error) {
	fens := make([]string, 0, c.n)
	var pos movegen.Position
	for i := range c.n {
		rng := rand.New(rand.NewPCG(c.seed, uint64(i)))
		start, v := "", movegen.Standard
		if len(book) > 0 {
			start = book[rng.IntN(len(book))]
		} else {
			v = c.mix.Pick(rng)
			start = movegen.RandomStartFEN(v, rng)
		}
		if err := movegen.RandomPlies(&pos, start, c.plies, rng); err != nil {
			return nil, err
		}
		fens = append(fens, pos.FEN(v != movegen.Standard))
	}
	return fens, nil
}
