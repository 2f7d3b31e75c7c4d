package search

import "github.com/kingrook/kingrook/movegen"

// threats is the set of squares the side not to move attacks (through the
// current occupancy). Quiet-move history is kept apart for moves from and to
// attacked squares: leaving an attacked square and entering one are
// different moves in kind, though the same from and to.
func threats(pos *movegen.Position) movegen.Bitboard {
	them := pos.SideToMove().Other()
	occ := pos.Occupied()
	att := movegen.PawnAttacksBB(them, pos.Pieces(them, movegen.Pawn))
	for b := pos.Pieces(them, movegen.Knight); b != 0; {
		att |= movegen.KnightAttacks(b.PopLSB())
	}
	for b := pos.Pieces(them, movegen.Bishop) | pos.Pieces(them, movegen.Queen); b != 0; {
		att |= movegen.BishopAttacks(b.PopLSB(), occ)
	}
	for b := pos.Pieces(them, movegen.Rook) | pos.Pieces(them, movegen.Queen); b != 0; {
		att |= movegen.RookAttacks(b.PopLSB(), occ)
	}
	return att | movegen.KingAttacks(pos.KingSquare(them))
}
