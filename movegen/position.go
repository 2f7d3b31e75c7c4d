package movegen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Castling rights, one bit per color and side. "King side" is the h-side
// (the rook right of the king, king ends on g), "queen side" the a-side.
const (
	WhiteOO   uint8 = 1
	WhiteOOO  uint8 = 2
	BlackOO   uint8 = 4
	BlackOOO  uint8 = 8
	AnyRights uint8 = 15
)

// castleIndex numbers the four rights 0..3 in the order of the bits above.
func castleIndex(c Color, kingSide bool) int {
	i := int(c) * 2
	if !kingSide {
		i++
	}
	return i
}

// castleData is everything castling needs, derived once when the FEN is read.
type castleData struct {
	rook     [4]Square   // the castling rook's start square, NoSquare if none
	empty    [4]Bitboard // squares that must be empty (king and rook paths, minus both pieces)
	kingPath [4]Bitboard // squares the king crosses, including its target: must not be attacked
	mask     [64]uint8   // rights kept when a move touches the square (AND mask)
}

// maxRule50 bounds the half-move clock read from a FEN (it is kept in 16 bits).
const maxRule50 = 10000

// undo holds what make cannot recompute on unmake.
type undo struct {
	move      Move
	captured  Piece
	castling  uint8
	ep        Square
	rule50    uint16
	key       uint64
	pawnKey   uint64
	checkers  Bitboard
	sinceNull uint16 // plies since the last null move (or SetFEN), for repetition scanning
}

// Position is a chess position with its game history (for repetitions).
// The zero value is not usable: use NewPosition or SetFEN.
type Position struct {
	board     [64]Piece
	byType    [7]Bitboard // index 0 = all pieces
	byColor   [2]Bitboard
	count     [16]uint8 // piece counts by Piece
	side      Color
	ep        Square
	castling  uint8
	rule50    int
	fullmove  int
	key       uint64
	pawnKey   uint64
	checkers  Bitboard
	sinceNull int // plies made since SetFEN or the last null move
	cd        castleData
	kingSq    [2]Square
	pinned    [2]Bitboard // Pinned(c), valid when bit c of pinnedOK is set
	pinnedOK  uint8       // cleared by every change of the pieces (Make, Unmake, SetFEN)
	history   []undo      // one entry per made move
	keys      []uint64    // key before each made move, for repetition detection
}

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// NewPosition returns the standard starting position.
func NewPosition() *Position {
	p := &Position{}
	if err := p.SetFEN(StartFEN); err != nil {
		panic(err) // unreachable: StartFEN is valid
	}
	return p
}

// Clone returns an independent copy of the position, history included.
func (p *Position) Clone() *Position {
	q := &Position{}
	q.CopyFrom(p)
	return q
}

// historyReserve is the least room for moves a copy's history gets, so that
// a search from it does not grow the history.
const historyReserve = 1024

// CopyFrom makes p an independent copy of q, history included. It reuses
// p's buffers when they are large enough: a searcher that takes a new root
// position this way does not allocate.
func (p *Position) CopyFrom(q *Position) {
	history, keys := p.history[:0], p.keys[:0]
	if need := max(cap(q.history), historyReserve); cap(history) < need {
		history = make([]undo, 0, need)
	}
	if need := max(cap(q.keys), historyReserve); cap(keys) < need {
		keys = make([]uint64, 0, need)
	}
	*p = *q
	p.history = append(history, q.history...)
	p.keys = append(keys, q.keys...)
}

// Accessors.

// SideToMove returns the color to move.
func (p *Position) SideToMove() Color { return p.side }

// PieceOn returns the piece on s; NoPiece when s is not a square of the
// board (NoSquare, say). The test costs nothing: it replaces the bounds check.
func (p *Position) PieceOn(s Square) Piece {
	if s >= 64 {
		return NoPiece
	}
	return p.board[s]
}

// Occupied returns all pieces.
func (p *Position) Occupied() Bitboard { return p.byType[0] }

// ByColor returns the pieces of color c.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// ByType returns the pieces of type t, both colors.
func (p *Position) ByType(t PieceType) Bitboard { return p.byType[t] }

// Pieces returns the pieces of color c and type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.byColor[c] & p.byType[t] }

// KingSquare returns the king square of color c.
func (p *Position) KingSquare(c Color) Square { return p.kingSq[c] }

// Count returns how many pieces pc are on the board.
func (p *Position) Count(pc Piece) int { return int(p.count[pc]) }

// EPSquare returns the en-passant square (only set when an ep capture is legal).
func (p *Position) EPSquare() Square { return p.ep }

// CastlingRights returns the rights bits (WhiteOO | ...).
func (p *Position) CastlingRights() uint8 { return p.castling }

// CastlingRook returns the rook square for a right, or NoSquare.
func (p *Position) CastlingRook(c Color, kingSide bool) Square {
	i := castleIndex(c, kingSide)
	if p.castling&(1<<i) == 0 {
		return NoSquare
	}
	return p.cd.rook[i]
}

// Rule50 returns the half-move clock.
func (p *Position) Rule50() int { return p.rule50 }

// FullMove returns the full-move number.
func (p *Position) FullMove() int { return p.fullmove }

// Key returns the Zobrist key.
func (p *Position) Key() uint64 { return p.key }

// PawnKey returns the Zobrist key of pawns (and kings) only.
func (p *Position) PawnKey() uint64 { return p.pawnKey }

// Checkers returns the pieces giving check.
func (p *Position) Checkers() Bitboard { return p.checkers }

// InCheck tells whether the side to move is in check.
func (p *Position) InCheck() bool { return p.checkers != 0 }

// Ply returns the number of moves made since SetFEN.
func (p *Position) Ply() int { return len(p.history) }

// LastMove returns the last move made, or NoMove.
func (p *Position) LastMove() Move {
	if len(p.history) == 0 {
		return NoMove
	}
	return p.history[len(p.history)-1].move
}

// CapturedType returns the type of the piece m captures here: Pawn for en
// passant, NoPieceType for castling (king takes own rook) and quiet moves.
func (p *Position) CapturedType(m Move) PieceType {
	switch m.Kind() {
	case EnPassant:
		return Pawn
	case Castling:
		return NoPieceType
	}
	return p.board[m.To()].Type()
}

// NonPawnMaterial tells whether color c has a piece other than pawns and king.
func (p *Position) NonPawnMaterial(c Color) bool {
	return p.byColor[c]&^(p.byType[Pawn]|p.byType[King]) != 0
}

// Board mutation helpers (no key updates).

func (p *Position) put(pc Piece, s Square) {
	b := SquareBB(s)
	p.board[s] = pc
	p.byType[0] |= b
	p.byType[pc.Type()] |= b
	p.byColor[pc.Color()] |= b
	p.count[pc]++
}

func (p *Position) remove(s Square) {
	pc := p.board[s]
	b := SquareBB(s)
	p.board[s] = NoPiece
	p.byType[0] ^= b
	p.byType[pc.Type()] ^= b
	p.byColor[pc.Color()] ^= b
	p.count[pc]--
}

func (p *Position) move(from, to Square) {
	pc := p.board[from]
	b := SquareBB(from) | SquareBB(to)
	p.board[from] = NoPiece
	p.board[to] = pc
	p.byType[0] ^= b
	p.byType[pc.Type()] ^= b
	p.byColor[pc.Color()] ^= b
}

// AttackersTo returns the pieces of both colors attacking s with occupancy occ.
func (p *Position) AttackersTo(s Square, occ Bitboard) Bitboard {
	return (pawnAttacks[Black][s] & p.Pieces(White, Pawn)) |
		(pawnAttacks[White][s] & p.Pieces(Black, Pawn)) |
		(knightAttacks[s] & p.byType[Knight]) |
		(RookAttacks(s, occ) & (p.byType[Rook] | p.byType[Queen])) |
		(BishopAttacks(s, occ) & (p.byType[Bishop] | p.byType[Queen])) |
		(kingAttacks[s] & p.byType[King])
}

// Attacked tells whether color by attacks s with occupancy occ.
func (p *Position) Attacked(s Square, by Color, occ Bitboard) bool {
	them := p.byColor[by]
	if (pawnAttacks[by^1][s]&p.byType[Pawn]|knightAttacks[s]&p.byType[Knight]|kingAttacks[s]&p.byType[King])&them != 0 {
		return true
	}
	if rq := (p.byType[Rook] | p.byType[Queen]) & them; rq&rookRays[s] != 0 && RookAttacks(s, occ)&rq != 0 {
		return true
	}
	bq := (p.byType[Bishop] | p.byType[Queen]) & them
	return bq&bishopRays[s] != 0 && BishopAttacks(s, occ)&bq != 0
}

// computeKeys recomputes key and pawn key from scratch (the tests hold
// the incremental keys to it).
func (p *Position) computeKeys() (key, pawnKey uint64) {
	for s := Square(0); s < 64; s++ {
		if pc := p.board[s]; pc != NoPiece {
			key ^= zobristPiece[pc][s]
			if pc.Type() == Pawn || pc.Type() == King {
				pawnKey ^= zobristPiece[pc][s]
			}
		}
	}
	if p.ep != NoSquare {
		key ^= zobristEP[p.ep.File()]
	}
	key ^= zobristCastling[p.castling]
	if p.side == Black {
		key ^= zobristSide
	}
	return key, pawnKey
}

// SetFEN sets the position from FEN text. The castling field may be KQkq,
// Shredder-FEN file letters, or X-FEN mixtures, in any mode. On error the
// position is left unchanged and the error names the problem. The fields
// after the side to move may be omitted (no castling right, no en-passant
// square, counters 0 and 1); a castling right whose rook is missing and an
// en-passant square with no legal capture are ignored.
func (p *Position) SetFEN(fen string) error {
	var q Position
	if err := q.parseFEN(fen); err != nil {
		return err
	}
	q.pinnedOK = 0 // parsing may have asked before every piece stood
	q.history = p.history[:0]
	q.keys = p.keys[:0]
	if q.history == nil {
		q.history = make([]undo, 0, 1024)
		q.keys = make([]uint64, 0, 1024)
	}
	*p = q
	return nil
}

func (p *Position) parseFEN(fen string) error {
	f := strings.Fields(fen)
	if len(f) < 2 || len(f) > 6 {
		return fmt.Errorf("invalid FEN %q: want 2 to 6 fields, got %d", fen, len(f))
	}
	// A FEN cut short after the side to move (EPD-style) has no castling
	// right and no en-passant square, as Stockfish reads it.
	for len(f) < 4 {
		f = append(f, "-")
	}
	p.ep = NoSquare
	for i := range p.cd.rook {
		p.cd.rook[i] = NoSquare
	}
	for i := range p.cd.mask {
		p.cd.mask[i] = AnyRights
	}
	// 1. Placement.
	if err := p.parsePlacement(f[0]); err != nil {
		return err
	}
	// 2. Side to move.
	switch f[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return fmt.Errorf("invalid FEN: side to move %q, want w or b", f[1])
	}
	if p.Attacked(p.kingSq[p.side.Other()], p.side, p.byType[0]) {
		return errors.New("invalid FEN: the side not to move is in check")
	}
	// 3. Castling.
	if err := p.parseCastling(f[2]); err != nil {
		return err
	}
	// 4. En passant: kept only if a legal ep capture exists (checked below).
	if err := p.parseEnPassant(f[3]); err != nil {
		return err
	}
	// 5. Counters.
	if err := p.parseCounters(f[4:]); err != nil {
		return err
	}
	p.checkers = p.AttackersTo(p.kingSq[p.side], p.byType[0]) & p.byColor[p.side.Other()]
	if p.checkers.Count() > 2 {
		return errors.New("invalid FEN: side to move is in check by more than two pieces")
	}
	if p.ep != NoSquare && !p.epLegal() {
		p.ep = NoSquare
	}
	p.key, p.pawnKey = p.computeKeys()
	return nil
}

// parsePlacement reads FEN's piece placement field and checks the kings and
// the piece counts.
func (p *Position) parsePlacement(field string) error {
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("invalid FEN: piece placement has %d ranks, want 8", len(ranks))
	}
	for i, row := range ranks {
		r := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				if file > 8 {
					return fmt.Errorf("invalid FEN: rank %d has more than 8 squares", r+1)
				}
				continue
			}
			pc, ok := pieceFromChar(c)
			if !ok {
				return fmt.Errorf("invalid FEN: bad piece letter %q", c)
			}
			if file >= 8 {
				return fmt.Errorf("invalid FEN: rank %d has more than 8 squares", r+1)
			}
			if pc.Type() == Pawn && (r == 0 || r == 7) {
				return fmt.Errorf("invalid FEN: pawn on rank %d", r+1)
			}
			p.put(pc, NewSquare(file, r))
			file++
		}
		if file != 8 {
			return fmt.Errorf("invalid FEN: rank %d has %d squares, want 8", r+1, file)
		}
	}
	for c := White; c <= Black; c++ {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fmt.Errorf("invalid FEN: %v has %d kings, want 1", colorName(c), n)
		}
		p.kingSq[c] = p.Pieces(c, King).LSB()
		if p.Pieces(c, Pawn).Count() > 8 || p.byColor[c].Count() > 16 {
			return fmt.Errorf("invalid FEN: %v has too many pieces", colorName(c))
		}
	}
	return nil
}

// parseEnPassant reads FEN's en-passant field. The square is kept when it
// and the square the pawn came from are empty; whether a capture is legal
// is checked once the rest of the position is read.
func (p *Position) parseEnPassant(field string) error {
	if field == "-" {
		return nil
	}
	s, ok := ParseSquare(field)
	if !ok {
		return fmt.Errorf("invalid FEN: bad en-passant square %q", field)
	}
	if s.Rank() != [2]int{5, 2}[p.side] {
		return nil // no capture can be legal there: ignored, like any other ep square without one
	}
	from := s + 8
	if p.side == Black {
		from = s - 8
	}
	if p.byType[0]&(SquareBB(s)|SquareBB(from)) == 0 {
		p.ep = s
	}
	return nil
}

// maxFullmove is the largest full-move number FEN may give.
const maxFullmove = 100000

// parseCounters reads the optional half-move clock and full-move number.
func (p *Position) parseCounters(f []string) error {
	p.fullmove = 1
	if len(f) >= 1 {
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 0 || n > maxRule50 {
			return fmt.Errorf("invalid FEN: bad half-move clock %q", f[0])
		}
		p.rule50 = n
	}
	if len(f) == 2 {
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 0 || n > maxFullmove {
			return fmt.Errorf("invalid FEN: bad full-move number %q", f[1])
		}
		p.fullmove = max(n, 1)
	}
	return nil
}

func colorName(c Color) string {
	if c == White {
		return "white"
	}
	return "black"
}

// parseCastling reads KQkq, Shredder-FEN (HAha) and X-FEN mixtures.
func (p *Position) parseCastling(s string) error {
	if s == "-" {
		return nil
	}
	if len(s) > 4 {
		return fmt.Errorf("invalid FEN: castling field %q too long", s)
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		c := White
		if ch >= 'a' && ch <= 'z' {
			c = Black
			ch -= 'a' - 'A'
		}
		back := [2]int{0, 7}[c]
		ksq := p.kingSq[c]
		rook := MakePiece(c, Rook)
		rsq := NoSquare
		switch {
		case ch == 'K':
			for f := 7; f > ksq.File(); f-- {
				if sq := NewSquare(f, back); p.board[sq] == rook {
					rsq = sq
					break
				}
			}
		case ch == 'Q':
			for f := 0; f < ksq.File(); f++ {
				if sq := NewSquare(f, back); p.board[sq] == rook {
					rsq = sq
					break
				}
			}
		case ch >= 'A' && ch <= 'H':
			// A file letter names one square; with no rook there the
			// right is ignored below, like a K/Q right without its rook.
			if sq := NewSquare(int(ch-'A'), back); p.board[sq] == rook {
				rsq = sq
			}
		default:
			return fmt.Errorf("invalid FEN: bad castling letter %q in %q", s[i], s)
		}
		// A right whose rook is missing, or whose king has left its back
		// rank, is ignored, as Stockfish and the GUIs do: sloppy FEN
		// writers often leave stale rights behind.
		if ksq.Rank() != back || rsq == NoSquare {
			continue
		}
		kingSide := rsq > ksq
		idx := castleIndex(c, kingSide)
		if p.castling&(1<<idx) != 0 {
			if p.cd.rook[idx] == rsq {
				continue // the same right named twice (e.g. KH)
			}
			return fmt.Errorf("invalid FEN: castling field %q names two %v rooks on one side of the king", s, colorName(c))
		}
		p.addCastling(c, kingSide, rsq)
	}
	return nil
}

// addCastling derives a right's data: rook square, squares to keep empty,
// squares the king crosses, and the per-square masks that end the right.
func (p *Position) addCastling(c Color, kingSide bool, rsq Square) {
	idx := castleIndex(c, kingSide)
	ksq := p.kingSq[c]
	bit := uint8(1) << idx
	p.castling |= bit
	p.cd.rook[idx] = rsq
	kTo, rTo := castlingTargets(ksq.Rank(), kingSide)
	kingPath := Between(ksq, kTo) | SquareBB(kTo)
	rookPath := Between(rsq, rTo) | SquareBB(rTo)
	p.cd.empty[idx] = (kingPath | rookPath) &^ (SquareBB(ksq) | SquareBB(rsq))
	p.cd.kingPath[idx] = kingPath
	p.cd.mask[ksq] &^= [2]uint8{WhiteOO | WhiteOOO, BlackOO | BlackOOO}[c]
	p.cd.mask[rsq] &^= bit
}

// epLegal tells whether some pawn can legally capture en passant.
func (p *Position) epLegal() bool {
	us := p.side
	capSq := p.ep ^ 8 // the pawn that made the double step
	if p.board[capSq] != MakePiece(us.Other(), Pawn) || p.board[p.ep] != NoPiece {
		return false
	}
	attackers := pawnAttacks[us.Other()][p.ep] & p.Pieces(us, Pawn)
	for attackers != 0 {
		from := attackers.PopLSB()
		if p.epSafe(NewSpecial(from, p.ep, EnPassant)) {
			return true
		}
	}
	return false
}

// WritePlacement writes FEN's piece placement field for the pieces that at
// gives (NoPiece for an empty square), rank 8 first.
func WritePlacement(sb *strings.Builder, at func(Square) Piece) {
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := at(NewSquare(f, r))
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteString(pc.String())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
}

// FEN returns the position as FEN. With chess960 false castling is written
// KQkq for a right whose rook is the outermost on its side and as the
// rook's file letter otherwise: standard FEN for standard chess, X-FEN for
// Chess960. With chess960 true every right is a file letter: Shredder-FEN.
func (p *Position) FEN(chess960 bool) string {
	var sb strings.Builder
	WritePlacement(&sb, func(s Square) Piece { return p.board[s] })
	sb.WriteByte(' ')
	sb.WriteString(p.side.String())
	sb.WriteByte(' ')
	sb.WriteString(p.castlingString(chess960))
	sb.WriteByte(' ')
	sb.WriteString(p.ep.String())
	fmt.Fprintf(&sb, " %d %d", p.rule50, p.fullmove)
	return sb.String()
}

func (p *Position) castlingString(chess960 bool) string {
	if p.castling == 0 {
		return "-"
	}
	var sb strings.Builder
	for _, c := range []Color{White, Black} {
		for _, ks := range []bool{true, false} {
			idx := castleIndex(c, ks)
			if p.castling&(1<<idx) == 0 {
				continue
			}
			rsq := p.cd.rook[idx]
			var ch byte
			if !chess960 && p.outermostRook(c, rsq, ks) {
				ch = "KQ"[idx&1]
			} else {
				ch = byte('A' + rsq.File())
			}
			if c == Black {
				ch += 'a' - 'A'
			}
			sb.WriteByte(ch)
		}
	}
	return sb.String()
}

// outermostRook tells whether rsq is the outermost rook of color c on its side
// of the king, so that K/Q names it unambiguously.
func (p *Position) outermostRook(c Color, rsq Square, kingSide bool) bool {
	rooks := p.Pieces(c, Rook) & RankBB(rsq.Rank())
	if kingSide {
		return rooks&^(SquareBB(rsq)-1)&^SquareBB(rsq) == 0
	}
	return rooks&(SquareBB(rsq)-1) == 0
}

// String draws the board as text, rank 8 at the top and the file letters
// below (the "d" command prints the FEN and key beside it).
func (p *Position) String() string {
	var sb strings.Builder
	sb.WriteString("\n +---+---+---+---+---+---+---+---+\n")
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			sb.WriteString(" | ")
			sb.WriteString(strings.ReplaceAll(p.board[NewSquare(f, r)].String(), ".", " "))
		}
		fmt.Fprintf(&sb, " | %d\n +---+---+---+---+---+---+---+---+\n", r+1)
	}
	sb.WriteString("   a   b   c   d   e   f   g   h\n")
	return sb.String()
}
