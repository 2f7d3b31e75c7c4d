package movegen

// Color is the side: White or Black.
type Color uint8

// The two colors.
const (
	White Color = iota
	Black
)

// Other returns the opposite color.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "w"
	}
	return "b"
}

// Square indexes the board: a1 = 0, b1 = 1, ..., h8 = 63.
type Square uint8

// NoSquare marks an absent square (e.g. no en-passant square).
const NoSquare Square = 64

// Named squares used by the rules and tests.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
	A2
	B2
	C2
	D2
	E2
	F2
	G2
	H2
)

// Named squares of the eighth rank.
const (
	A8 Square = 56 + iota
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// NewSquare builds a square from file (0..7 = a..h) and rank (0..7 = 1..8).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0..7 for files a..h.
func (s Square) File() int { return int(s & 7) }

// Rank returns 0..7 for ranks 1..8.
func (s Square) Rank() int { return int(s >> 3) }

// RelativeRank returns the rank seen from c's side (0 = c's back rank).
func (s Square) RelativeRank(c Color) int { return s.Rank() ^ int(c)*7 }

func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads "e4"-style text.
func ParseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// PieceType is a kind of piece without color.
type PieceType uint8

// Piece types. NoPieceType is zero so an empty board square reads as nothing.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece combines color and type: bits 0-2 type, bit 3 color. Zero is empty.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// Named pieces.
const (
	WhitePawn   = Piece(Pawn)
	WhiteKnight = Piece(Knight)
	WhiteBishop = Piece(Bishop)
	WhiteRook   = Piece(Rook)
	WhiteQueen  = Piece(Queen)
	WhiteKing   = Piece(King)
	BlackPawn   = Piece(8 | Pawn)
	BlackKnight = Piece(8 | Knight)
	BlackBishop = Piece(8 | Bishop)
	BlackRook   = Piece(8 | Rook)
	BlackQueen  = Piece(8 | Queen)
	BlackKing   = Piece(8 | King)
)

// MakePiece builds a piece of color c and type t.
func MakePiece(c Color, t PieceType) Piece { return Piece(uint8(c)<<3 | uint8(t)) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's color (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

const pieceChars = " PNBRQK  pnbrqk"

func (p Piece) String() string {
	if p == NoPiece || int(p) >= len(pieceChars) {
		return "."
	}
	return pieceChars[p : p+1]
}

func pieceFromChar(c byte) (Piece, bool) {
	for i := 1; i < len(pieceChars); i++ {
		if pieceChars[i] == c && c != ' ' {
			return Piece(i), true
		}
	}
	return NoPiece, false
}
