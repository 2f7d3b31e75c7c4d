package movegen

import (
	"math/bits"
	"strings"
)

// Bitboard is a set of squares, bit i = square i.
type Bitboard uint64

// File and rank masks.
const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xFF
	Rank2 Bitboard = Rank1 << 8
	Rank3 Bitboard = Rank1 << 16
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank6 Bitboard = Rank1 << 40
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
	// DarkSquares holds a1, c1, ... (the squares of a1's color).
	DarkSquares Bitboard = 0xAA55AA55AA55AA55
)

// SquareBB returns the bitboard of one square.
func SquareBB(s Square) Bitboard { return 1 << s }

// FileBB returns the mask of file f (0..7).
func FileBB(f int) Bitboard { return FileA << f }

// RankBB returns the mask of rank r (0..7).
func RankBB(r int) Bitboard { return Rank1 << (8 * r) }

// Has tells whether s is in b.
func (b Bitboard) Has(s Square) bool { return b&(1<<s) != 0 }

// Count returns the number of squares.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// LSB returns the lowest square (b must be non-empty).
func (b Bitboard) LSB() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// MSB returns the highest square (b must be non-empty).
func (b Bitboard) MSB() Square { return Square(63 - bits.LeadingZeros64(uint64(b))) }

// PopLSB removes and returns the lowest square.
func (b *Bitboard) PopLSB() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// More tells whether b has more than one square.
func (b Bitboard) More() bool { return b&(b-1) != 0 }

// North shifts one rank up; South one down.
func (b Bitboard) North() Bitboard { return b << 8 }

// South shifts one rank down.
func (b Bitboard) South() Bitboard { return b >> 8 }

// East shifts one file right.
func (b Bitboard) East() Bitboard { return (b &^ FileH) << 1 }

// West shifts one file left.
func (b Bitboard) West() Bitboard { return (b &^ FileA) >> 1 }

func (b Bitboard) String() string {
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		for f := 0; f < 8; f++ {
			if b.Has(NewSquare(f, r)) {
				sb.WriteByte('X')
			} else {
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Precomputed tables, built by init from constants in well under a millisecond
// apart from the slider tables (a few milliseconds).
var (
	pawnAttacks   [2][64]Bitboard
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	betweenBB     [64][64]Bitboard // squares strictly between two aligned squares
	lineBB        [64][64]Bitboard // the whole line through two aligned squares
	rookRays      [64]Bitboard     // rook attacks on an empty board
	bishopRays    [64]Bitboard     // bishop attacks on an empty board
)

// PawnAttacks returns the squares a pawn of color c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

// PawnAttacksBB returns the squares attacked by all pawns of color c in b.
func PawnAttacksBB(c Color, b Bitboard) Bitboard {
	if c == White {
		return b.North().East() | b.North().West()
	}
	return b.South().East() | b.South().West()
}

// KnightAttacks returns the knight's attacks from s.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s] }

// KingAttacks returns the king's attacks from s.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// Between returns the squares strictly between a and b when aligned, else 0.
func Between(a, b Square) Bitboard { return betweenBB[a][b] }

// Line returns the full line through a and b when aligned, else 0.
func Line(a, b Square) Bitboard { return lineBB[a][b] }

// Attacks returns the attacks of a piece type (not pawn) from s given occupancy.
func Attacks(pt PieceType, s Square, occ Bitboard) Bitboard {
	switch pt {
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return BishopAttacks(s, occ)
	case Rook:
		return RookAttacks(s, occ)
	case Queen:
		return BishopAttacks(s, occ) | RookAttacks(s, occ)
	case King:
		return kingAttacks[s]
	}
	return 0
}

// slowAttacks walks rays square by square: used to fill the magic tables.
func slowAttacks(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var b Bitboard
	for _, d := range dirs {
		f, r := s.File()+d[0], s.Rank()+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			sq := NewSquare(f, r)
			b |= SquareBB(sq)
			if occ.Has(sq) {
				break
			}
			f += d[0]
			r += d[1]
		}
	}
	return b
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func init() {
	for s := Square(0); s < 64; s++ {
		b := SquareBB(s)
		pawnAttacks[White][s] = PawnAttacksBB(White, b)
		pawnAttacks[Black][s] = PawnAttacksBB(Black, b)
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			f, r := s.File()+d[0], s.Rank()+d[1]
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				knightAttacks[s] |= SquareBB(NewSquare(f, r))
			}
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				f, r := s.File()+df, s.Rank()+dr
				if (df != 0 || dr != 0) && f >= 0 && f < 8 && r >= 0 && r < 8 {
					kingAttacks[s] |= SquareBB(NewSquare(f, r))
				}
			}
		}
	}
	initMagics()
	for s := Square(0); s < 64; s++ {
		rookRays[s] = RookAttacks(s, 0)
		bishopRays[s] = BishopAttacks(s, 0)
	}
	for a := Square(0); a < 64; a++ {
		for _, pt := range []PieceType{Bishop, Rook} {
			atk := Attacks(pt, a, 0)
			for b := Square(0); b < 64; b++ {
				if atk.Has(b) {
					lineBB[a][b] = (Attacks(pt, a, 0) & Attacks(pt, b, 0)) | SquareBB(a) | SquareBB(b)
					betweenBB[a][b] = Attacks(pt, a, SquareBB(b)) & Attacks(pt, b, SquareBB(a))
				}
			}
		}
	}
}
