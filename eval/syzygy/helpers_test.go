package syzygy

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/kingrook/kingrook/movegen"
)

// randomPosition places the pieces of a material such as "KRPvKB" at random
// until the position is legal. With ep set, it makes the side to move able
// to take a pawn that just moved two squares (the material needs a pawn on
// each side). rule50 is the half-move clock to write.
func randomPosition(r *rand.Rand, material string, ep bool, rule50 int) (*movegen.Position, error) {
	return randomPositionFor(r, material, anySide, ep, rule50)
}

// anySide asks randomPositionFor to draw the side to move with each try.
const anySide = movegen.Color(2)

// randomPositionFor is randomPosition with side to move (or anySide).
func randomPositionFor(r *rand.Rand, material string, side movegen.Color, ep bool, rule50 int) (*movegen.Position, error) {
	sides := strings.Split(material, "v")
	if len(sides) != 2 {
		return nil, fmt.Errorf("bad material %q", material)
	}
	for tries := 0; tries < 10000; tries++ {
		var board [64]byte
		stm := side
		if side == anySide {
			stm = movegen.Color(r.IntN(2))
		}
		epSq := -1
		if ep {
			epSq = placeEPPawns(r, &board, stm)
		}
		if !placePieces(r, &board, sides, ep) {
			continue
		}
		var sb strings.Builder
		movegen.WritePlacement(&sb, func(sq movegen.Square) movegen.Piece { return pieceOf(board[sq]) })
		sb.WriteString([]string{" w - ", " b - "}[stm])
		if epSq >= 0 {
			sb.WriteString(movegen.Square(epSq).String())
		} else {
			sb.WriteString("-")
		}
		fmt.Fprintf(&sb, " %d 1", rule50)
		pos := movegen.NewPosition()
		if err := pos.SetFEN(sb.String()); err != nil {
			continue
		}
		if ep && pos.EPSquare() == movegen.NoSquare {
			continue
		}
		return pos, nil
	}
	return nil, fmt.Errorf("no legal position found for %s", material)
}

// placeEPPawns puts the opponent's pawn on its fourth rank, with the two
// squares behind it kept empty ('-'), and one of ours beside it; it returns
// the en passant square.
func placeEPPawns(r *rand.Rand, board *[64]byte, stm movegen.Color) int {
	file := r.IntN(8)
	side := 1 - 2*r.IntN(2)
	if file+side < 0 || file+side > 7 {
		side = -side
	}
	rank, behind, start := 4, 5, 6 // white to move: black pawn on rank 5
	them, us := byte('p'), byte('P')
	if stm == movegen.Black {
		rank, behind, start = 3, 2, 1
		them, us = 'P', 'p'
	}
	board[rank*8+file] = them
	board[rank*8+file+side] = us
	board[start*8+file] = '-' // must stay empty
	epSq := behind*8 + file
	board[epSq] = '-'
	return epSq
}

// placePieces puts the pieces of both sides (FEN letters, White's first) on
// random free squares, pawns off the first and last ranks; with ep one pawn
// of each side stands already. It reports whether every piece found a square.
func placePieces(r *rand.Rand, board *[64]byte, sides []string, ep bool) bool {
	skip := [2]bool{ep, ep}
	for c, s := range sides {
		for i := 0; i < len(s); i++ {
			pc := s[i]
			if pc == 'P' && skip[c] {
				skip[c] = false
				continue
			}
			if c == 1 {
				pc += 'a' - 'A'
			}
			placed := false
			for k := 0; k < 100 && !placed; k++ {
				sq := r.IntN(64)
				if board[sq] == 0 && ((pc != 'P' && pc != 'p') || (sq >= 8 && sq < 56)) {
					board[sq] = pc
					placed = true
				}
			}
			if !placed {
				return false
			}
		}
	}
	return true
}

// pieceOf converts a FEN letter of the board (0 or '-': empty) to a piece.
func pieceOf(b byte) movegen.Piece {
	for pc := movegen.Piece(0); pc < 16; pc++ {
		if pc.Type() >= movegen.Pawn && pc.Type() <= movegen.King && pc.String() == string(b) {
			return pc
		}
	}
	return movegen.NoPiece
}

// fathomSAN names m (legal in pos) as Fathom's command-line tool does in its
// move lists: SAN without check marks. A pawn capture names the pawn's file;
// otherwise, when more than one piece of the mover's kind attacks the target
// (pins not considered, and for a pawn the pawns that attack the target
// square), the move names its file if exactly one of them stands on the
// mirrored file (h for a, g for b: Fathom's file mask counts from the other
// edge), else its rank if exactly one stands on its rank, else both.
func fathomSAN(pos *movegen.Position, m movegen.Move) string {
	from, to := m.From(), m.To()
	us := pos.SideToMove()
	pt := pos.PieceOn(from).Type()
	occ := pos.Occupied()
	capture := pos.PieceOn(to) != movegen.NoPiece || m.Kind() == movegen.EnPassant
	var sb strings.Builder
	var att movegen.Bitboard
	switch pt {
	case movegen.King:
		sb.WriteByte('K')
	case movegen.Pawn:
		att = movegen.PawnAttacks(us.Other(), to) & pos.Pieces(us, movegen.Pawn)
	default:
		sb.WriteString(movegen.MakePiece(movegen.White, pt).String())
		att = movegen.Attacks(pt, to, occ) & pos.Pieces(us, pt)
	}
	switch {
	case pt == movegen.Pawn && capture:
		sb.WriteByte(byte('a' + from.File()))
	case att.More():
		switch {
		case (att & movegen.FileBB(7-from.File())).Count() == 1:
			sb.WriteByte(byte('a' + from.File()))
		case (att & movegen.RankBB(from.Rank())).Count() == 1:
			sb.WriteByte(byte('1' + from.Rank()))
		default:
			sb.WriteString(from.String())
		}
	}
	if capture {
		sb.WriteByte('x')
	}
	sb.WriteString(to.String())
	if m.IsPromotion() {
		sb.WriteByte('=')
		sb.WriteString(movegen.MakePiece(movegen.White, m.PromotionType()).String())
	}
	return sb.String()
}
