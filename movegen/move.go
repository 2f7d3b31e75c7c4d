package movegen

// Move is a 16-bit move.
//
//	bits  0-5   from square
//	bits  6-11  to square (for castling: the square of the castling rook)
//	bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen
//	bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
//
// Castling is always encoded as king takes own rook, in standard chess too.
// The zero value NoMove is never a legal move (a1a1).
type Move uint16

// Move kinds (bits 14-15).
const (
	Normal    Move = 0 << 14
	Promotion Move = 1 << 14
	EnPassant Move = 2 << 14
	Castling  Move = 3 << 14
)

// NoMove is the null value: no move.
const NoMove Move = 0

// NullMove is a distinct non-move value (b1b1) used by null-move pruning.
const NullMove Move = 65

// NewMove builds a normal move.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// NewPromotion builds a promotion to piece type pt (Knight..Queen).
func NewPromotion(from, to Square, pt PieceType) Move {
	return Promotion | Move(pt-Knight)<<12 | Move(from) | Move(to)<<6
}

// NewSpecial builds an en-passant or castling move.
func NewSpecial(from, to Square, kind Move) Move { return kind | Move(from) | Move(to)<<6 }

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the target square (the rook's square for castling).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Kind returns Normal, Promotion, EnPassant or Castling.
func (m Move) Kind() Move { return m & (3 << 14) }

// PromotionType returns the piece type promoted to (valid for promotions).
func (m Move) PromotionType() PieceType { return PieceType(m>>12&3) + Knight }

// IsPromotion tells whether m promotes a pawn.
func (m Move) IsPromotion() bool { return m.Kind() == Promotion }

// IsCastling tells whether m is castling (king takes own rook).
func (m Move) IsCastling() bool { return m.Kind() == Castling }

// CastlingKingTarget returns where the king lands: g-file when the rook is
// on the king's right (h-side), c-file otherwise.
func (m Move) CastlingKingTarget() Square {
	k, _ := castlingTargets(m.From().Rank(), m.To() > m.From())
	return k
}

// CastlingRookTarget returns where the castling rook lands: f or d file.
func (m Move) CastlingRookTarget() Square {
	_, r := castlingTargets(m.From().Rank(), m.To() > m.From())
	return r
}

// castlingTargets returns where king and rook land when castling on rank:
// g and f on the king side (h-side), c and d on the queen side.
func castlingTargets(rank int, kingSide bool) (king, rook Square) {
	if kingSide {
		return NewSquare(6, rank), NewSquare(5, rank)
	}
	return NewSquare(2, rank), NewSquare(3, rank)
}

// UCI prints the move in UCI notation. Castling is printed as king takes rook
// when chess960 is set, and as the king's move to the g/c file otherwise.
// NoMove prints as "0000".
func (m Move) UCI(chess960 bool) string {
	if m == NoMove || m == NullMove {
		return "0000"
	}
	to := m.To()
	if m.IsCastling() && !chess960 {
		to = m.CastlingKingTarget()
	}
	s := m.From().String() + to.String()
	if m.IsPromotion() {
		s += string("nbrq"[m>>12&3])
	}
	return s
}

// String returns the move as UCI text in the engine's own encoding, which
// is Chess960's: castling as the king taking its own rook (e1h1), in
// standard chess too. UCI(false) writes standard chess's e1g1.
func (m Move) String() string { return m.UCI(true) }

// ScoredMove is a move with an ordering score kept beside it.
type ScoredMove struct {
	Move  Move
	Score int32
}

// MaxMoves bounds the number of legal moves in any position.
const MaxMoves = 256

// MoveList is a fixed-size move list that never allocates.
type MoveList struct {
	Moves [MaxMoves]ScoredMove
	N     int
}

// Len returns the number of moves.
func (l *MoveList) Len() int { return l.N }

// At returns the i-th move.
func (l *MoveList) At(i int) Move { return l.Moves[i].Move }

// Add appends a move.
func (l *MoveList) Add(m Move) { l.Moves[l.N].Move = m; l.N++ }

// Clear empties the list.
func (l *MoveList) Clear() { l.N = 0 }

// Contains tells whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for i := 0; i < l.N; i++ {
		if l.Moves[i].Move == m {
			return true
		}
	}
	return false
}
