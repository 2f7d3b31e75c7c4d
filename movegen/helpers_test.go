package movegen

import (
	"strings"
	"testing"
)

// mustPos parses fen or fails the test.
func mustPos(t testing.TB, fen string) *Position {
	t.Helper()
	p := &Position{}
	if err := p.SetFEN(fen); err != nil {
		t.Fatalf("SetFEN(%q): %v", fen, err)
	}
	return p
}

// placement writes the piece-placement field of a FEN for the given pieces,
// with the writer of Position.FEN (whose output the FEN tests hold to
// literal text and to the opening books).
func placement(pieces map[Square]Piece) string {
	var sb strings.Builder
	WritePlacement(&sb, func(s Square) Piece { return pieces[s] })
	return sb.String()
}

// castlingMoves returns the legal castling moves of p.
func castlingMoves(p *Position) []Move {
	var out []Move
	for _, m := range p.LegalMoves() {
		if m.IsCastling() {
			out = append(out, m)
		}
	}
	return out
}

// checkConsistent fails when the incremental state disagrees with a full
// recomputation (keys, checkers, king squares, piece counts, bitboards).
func checkConsistent(t testing.TB, p *Position) {
	t.Helper()
	key, pawnKey := p.computeKeys()
	if key != p.Key() {
		t.Fatalf("%s: key %x, recomputed %x", p.FEN(true), p.Key(), key)
	}
	if pawnKey != p.PawnKey() {
		t.Fatalf("%s: pawn key %x, recomputed %x", p.FEN(true), p.PawnKey(), pawnKey)
	}
	us := p.SideToMove()
	if c := p.AttackersTo(p.KingSquare(us), p.Occupied()) & p.ByColor(us.Other()); c != p.Checkers() {
		t.Fatalf("%s: checkers %x, recomputed %x", p.FEN(true), uint64(p.Checkers()), uint64(c))
	}
	var occ, colors [2]Bitboard
	for s := Square(0); s < 64; s++ {
		pc := p.PieceOn(s)
		if pc == NoPiece {
			continue
		}
		if !p.Pieces(pc.Color(), pc.Type()).Has(s) {
			t.Fatalf("%s: %v on %v missing from its bitboard", p.FEN(true), pc, s)
		}
		occ[0] |= SquareBB(s)
		colors[pc.Color()] |= SquareBB(s)
		if pc.Type() == King && p.KingSquare(pc.Color()) != s {
			t.Fatalf("%s: king square %v, king on %v", p.FEN(true), p.KingSquare(pc.Color()), s)
		}
	}
	if occ[0] != p.Occupied() || colors[White] != p.ByColor(White) || colors[Black] != p.ByColor(Black) {
		t.Fatalf("%s: occupancy bitboards disagree with the board", p.FEN(true))
	}
	for pc := WhitePawn; pc <= BlackKing; pc++ {
		if pc.Type() == NoPieceType || pc.Type() > King {
			continue
		}
		if n := p.Pieces(pc.Color(), pc.Type()).Count(); n != p.Count(pc) {
			t.Fatalf("%s: count of %v is %d, board has %d", p.FEN(true), pc, p.Count(pc), n)
		}
	}
}
