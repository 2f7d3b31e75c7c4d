package selfplay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// PGN conversion: games played by other front ends (fastchess, cutechess,
// OpenBench workers) with the engines' evaluations in the move comments:
//
//	1. e4 {book} e5 {book} 2. Nf3 {+0.35/12 0.52s} Nc6 {-0.20/11 0.31s, ...}
//	45. Qh7+ {+M3/20 0.1s} ...
//
// The comment after a move is the score of the engine that played it, from
// its own view, in pawns (or +Mn / -Mn: mate in n moves for or against it),
// then a slash and the depth. Mate distances are read as moves, as UCI and
// fastchess give them (cutechess may count plies; training drops mate
// scores either way). The first such number of a comment is read;
// a comment without one ({book}, or none at all) leaves the position
// without a score. The leading unscored moves (the opening book) become the
// stored start position; later unscored positions are stored with NoScore.
// Games without a result (*) are skipped.

// PGNError is the error of one game that could not be read; the PGNReader
// goes on with the next game.
type PGNError struct {
	Game int // 1-based number of the game in the input
	Err  error
}

func (e *PGNError) Error() string { return fmt.Sprintf("pgn game %d: %v", e.Game, e.Err) }
func (e *PGNError) Unwrap() error { return e.Err }

// errNoResult marks a game that ended without a result.
var errNoResult = errors.New("no result (*): skipped")

// PGNReader reads games with evaluation comments from a PGN stream.
type PGNReader struct {
	r     *bufio.Reader
	games int
	peek  *pgnToken
}

// NewPGNReader returns a reader of the games in r.
func NewPGNReader(r io.Reader) *PGNReader {
	return &PGNReader{r: bufio.NewReaderSize(r, 1<<16)}
}

type tokenKind int

const (
	tokTag tokenKind = iota
	tokComment
	tokSymbol
)

type pgnToken struct {
	kind  tokenKind
	text  string // tag: the name; comment: its text; symbol: itself
	value string // tag: the value
}

// token returns the next token, or io.EOF.
func (p *PGNReader) token() (pgnToken, error) {
	if p.peek != nil {
		t := *p.peek
		p.peek = nil
		return t, nil
	}
	for {
		c, err := p.r.ReadByte()
		if err != nil {
			return pgnToken{}, err
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == ';' || c == '%':
			if _, err := p.r.ReadString('\n'); err != nil {
				return pgnToken{}, err
			}
			continue
		case c == '[':
			line, err := p.r.ReadString(']')
			if err != nil {
				return pgnToken{}, fmt.Errorf("unterminated tag [%s", strings.TrimSpace(line))
			}
			return parseTag(line[:len(line)-1])
		case c == '{':
			text, err := p.r.ReadString('}')
			if err != nil {
				return pgnToken{}, errors.New("unterminated comment")
			}
			return pgnToken{kind: tokComment, text: text[:len(text)-1]}, nil
		case c == '(':
			if err := p.skipVariation(); err != nil {
				return pgnToken{}, err
			}
			continue
		case c == '$':
			for {
				d, err := p.r.ReadByte()
				if err != nil {
					return pgnToken{}, err
				}
				if d < '0' || d > '9' {
					_ = p.r.UnreadByte()
					break
				}
			}
			continue
		}
		var sb strings.Builder
		sb.WriteByte(c)
		for {
			d, err := p.r.ReadByte()
			if err != nil {
				break
			}
			if strings.IndexByte(" \t\r\n{}()[];$", d) >= 0 {
				_ = p.r.UnreadByte()
				break
			}
			sb.WriteByte(d)
		}
		return pgnToken{kind: tokSymbol, text: sb.String()}, nil
	}
}

// skipVariation skips a (nested) variation after its opening parenthesis.
func (p *PGNReader) skipVariation() error {
	depth := 1
	for depth > 0 {
		c, err := p.r.ReadByte()
		if err != nil {
			return errors.New("unterminated variation")
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case '{':
			if _, err := p.r.ReadString('}'); err != nil {
				return errors.New("unterminated comment")
			}
		}
	}
	return nil
}

// parseTag reads `Name "value"`.
func parseTag(s string) (pgnToken, error) {
	s = strings.TrimSpace(s)
	name, rest, ok := strings.Cut(s, " ")
	rest = strings.TrimSpace(rest)
	if !ok || len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
		return pgnToken{}, fmt.Errorf("bad tag [%s]", s)
	}
	v := strings.ReplaceAll(rest[1:len(rest)-1], `\"`, `"`)
	return pgnToken{kind: tokTag, text: name, value: strings.ReplaceAll(v, `\\`, `\`)}, nil
}

// pgnGame is the state of one game while Next reads it.
type pgnGame struct {
	pos        *movegen.Position
	plies      []Ply
	tags       map[string]string
	result     byte
	resultSeen bool
	moves      bool  // movetext began: a tag now starts the next game
	err        error // the game cannot be read; skip to its result
	pending    int   // the score of the last move, until its comment is read
	lastMover  movegen.Color
}

// Next returns the next game, io.EOF after the last one, or a *PGNError
// for a game that could not be read (call Next again for the next game).
func (p *PGNReader) Next() (*Game, error) {
	g := pgnGame{tags: map[string]string{}, pending: NoScore, lastMover: movegen.White}
	started := false
	for {
		t, err := p.token()
		if errors.Is(err, io.EOF) {
			if !started {
				return nil, io.EOF
			}
			break
		}
		if err != nil {
			if !started {
				p.games++
			}
			return nil, &PGNError{Game: p.games, Err: err}
		}
		if !started {
			started = true
			p.games++
		}
		if t.kind == tokTag {
			if g.moves {
				p.peek = &t // the next game's first tag
				break
			}
			g.tags[t.text] = t.value
			continue
		}
		g.moves = true
		if g.movetext(t) {
			break
		}
	}
	game, err := g.finish()
	if err != nil {
		return nil, &PGNError{Game: p.games, Err: err}
	}
	return game, nil
}

// flush gives the last move the score of its comment, if any.
func (g *pgnGame) flush() {
	if len(g.plies) > 0 {
		g.plies[len(g.plies)-1].Score = int16(g.pending)
	}
	g.pending = NoScore
}

// movetext reads one token of the movetext: a comment, a move number, a
// move or the result. It returns true at the result, the game's end.
func (g *pgnGame) movetext(t pgnToken) bool {
	if g.err != nil {
		return t.kind == tokSymbol && isResult(t.text)
	}
	if g.pos == nil {
		pos, err := pgnStart(g.tags)
		if err != nil {
			g.err = err
			return false
		}
		g.pos = pos
	}
	if t.kind == tokComment {
		if s, ok := parseEvalComment(t.text); ok && len(g.plies) > 0 {
			g.pending = toWhite(s, g.lastMover)
		}
		return false
	}
	sym := t.text
	if isResult(sym) {
		g.result, g.resultSeen = resultByte(sym), sym != "*"
		if sym == "*" {
			g.err = errNoResult
		}
		return true
	}
	// Move numbers: "12." "12..." or glued "12.e4".
	sym = strings.TrimLeft(sym, "0123456789")
	sym = strings.TrimLeft(sym, ".")
	if sym == "" {
		return false
	}
	if len(g.plies) == MaxPlies {
		g.err = fmt.Errorf("more than %d plies", MaxPlies)
		return false
	}
	m, err := movegen.ParseSAN(g.pos, sym)
	if err != nil {
		g.err = fmt.Errorf("move %d (%s): %v", len(g.plies)/2+1, sym, err)
		return false
	}
	g.flush()
	g.lastMover = g.pos.SideToMove()
	g.plies = append(g.plies, Ply{Move: m, Score: NoScore})
	g.pos.Make(m)
	return false
}

// finish checks the game read and returns it, its unscored opening (book
// moves) folded into the start position.
func (g *pgnGame) finish() (*Game, error) {
	g.flush()
	if g.err == nil && !g.resultSeen {
		if r, ok := g.tags["Result"]; ok && isResult(r) && r != "*" {
			g.result, g.resultSeen = resultByte(r), true
		}
	}
	if g.err == nil && !g.resultSeen {
		g.err = errNoResult
	}
	if g.err == nil && g.pos == nil {
		g.err = errors.New("no moves")
	}
	if g.err != nil {
		return nil, g.err
	}
	book := 0
	for book < len(g.plies) && g.plies[book].Score == NoScore {
		book++
	}
	for range len(g.plies) {
		g.pos.Unmake()
	}
	for _, pl := range g.plies[:book] {
		g.pos.Make(pl.Move)
	}
	start := movegen.NewPosition()
	if err := start.SetFEN(g.pos.FEN(true)); err != nil {
		return nil, err
	}
	return &Game{Start: start, Plies: g.plies[book:], Result: g.result}, nil
}

// pgnStart returns a game's start position from its tags.
func pgnStart(tags map[string]string) (*movegen.Position, error) {
	fen, ok := tags["FEN"]
	if !ok {
		return movegen.NewPosition(), nil
	}
	pos := movegen.NewPosition()
	if err := pos.SetFEN(fen); err != nil {
		return nil, fmt.Errorf("FEN tag: %v", err)
	}
	return pos, nil
}

func isResult(s string) bool {
	return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*"
}

func resultByte(s string) byte {
	switch s {
	case "1-0":
		return WhiteWins
	case "0-1":
		return BlackWins
	}
	return Draw
}

// toWhite turns a score from mover's view into White's.
func toWhite(s int, mover movegen.Color) int {
	if mover == movegen.Black {
		return -s
	}
	return s
}

// parseEvalComment reads the score at the start of a comment's first
// "score/depth" word: "+0.35/12", "-1.20/9", "0.00/1", "+M5/20", "-M3/7".
// It returns centipawns (or a mate score) from the mover's view.
func parseEvalComment(c string) (int, bool) {
	for _, w := range strings.FieldsFunc(c, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\t' }) {
		num, _, ok := strings.Cut(w, "/")
		if !ok {
			continue
		}
		sign := 1
		switch {
		case strings.HasPrefix(num, "+"):
			num = num[1:]
		case strings.HasPrefix(num, "-"):
			num, sign = num[1:], -1
		}
		if strings.HasPrefix(num, "M") {
			n, err := strconv.Atoi(num[1:])
			if err != nil || n < 0 || n > 100 {
				continue
			}
			if sign > 0 {
				return eval.Mate - max(1, 2*n-1), true // mate in n moves: 2n-1 plies
			}
			return -(eval.Mate - 2*n), true // mated in n moves: 2n plies
		}
		if !strings.Contains(num, ".") {
			continue // a pawn score has decimals: "0.00"
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		cp := int(math.Round(v * 100))
		return sign * max(-(eval.MateInMaxPly-1), min(eval.MateInMaxPly-1, cp)), true
	}
	return 0, false
}
