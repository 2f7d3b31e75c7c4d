package movegen

import (
	"fmt"
	"strings"
)

// ParseMove reads a UCI move and returns it if legal in p. King takes own
// rook is always read as castling; in standard mode (chess960 false) the
// king's move to the g/c file is read as castling too, also when the king
// is already there ("g1g1", as that castling is written in standard mode).
// In Chess960 mode a one-square king move is a plain king move.
func ParseMove(p *Position, s string, chess960 bool) (Move, error) {
	if len(s) < 4 || len(s) > 5 {
		return NoMove, fmt.Errorf("invalid move %q: want 4 or 5 characters like e2e4 or e7e8q", s)
	}
	from, ok1 := ParseSquare(s[:2])
	to, ok2 := ParseSquare(s[2:4])
	if !ok1 || !ok2 {
		return NoMove, fmt.Errorf("invalid move %q: bad square", s)
	}
	var promo PieceType
	if len(s) == 5 {
		switch strings.ToLower(s[4:]) {
		case "n":
			promo = Knight
		case "b":
			promo = Bishop
		case "r":
			promo = Rook
		case "q":
			promo = Queen
		default:
			return NoMove, fmt.Errorf("invalid move %q: bad promotion piece", s)
		}
	}
	var l MoveList
	p.GenerateLegal(&l)
	// Exact matches first: normal moves, promotions, ep, king takes rook.
	for i := 0; i < l.N; i++ {
		m := l.Moves[i].Move
		if m.From() != from || m.To() != to {
			continue
		}
		if m.IsPromotion() != (promo != NoPieceType) || (promo != NoPieceType && m.PromotionType() != promo) {
			continue
		}
		return m, nil
	}
	// Standard-mode castling written as the king's move to g/c.
	if !chess960 && promo == NoPieceType {
		for i := 0; i < l.N; i++ {
			m := l.Moves[i].Move
			if m.IsCastling() && m.From() == from && m.CastlingKingTarget() == to {
				return m, nil
			}
		}
	}
	return NoMove, fmt.Errorf("illegal move %q in position %s", s, p.FEN(chess960))
}

// knightPlacements lists where the two knights stand among the five squares
// left after bishops and queen, in the standard (Scharnagl) numbering.
var knightPlacements = [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}

// Chess960BackRank returns the eight white back-rank pieces of start
// position n (0..959) in the standard numbering, file a first.
func Chess960BackRank(n int) ([8]PieceType, error) {
	var r [8]PieceType
	if n < 0 || n > 959 {
		return r, fmt.Errorf("chess960 position number %d out of range 0..959", n)
	}
	r[n%4*2+1] = Bishop // light-squared bishop on b, d, f or h
	n /= 4
	r[n%4*2] = Bishop // dark-squared bishop on a, c, e or g
	n /= 4
	placeNth := func(k int, pt PieceType) {
		for f := 0; f < 8; f++ {
			if r[f] == NoPieceType {
				if k == 0 {
					r[f] = pt
					return
				}
				k--
			}
		}
	}
	placeNth(n%6, Queen)
	n /= 6
	kn := knightPlacements[n]
	placeNth(kn[1], Knight) // the later one first, so the earlier index stays valid
	placeNth(kn[0], Knight)
	placeNth(0, Rook)
	placeNth(0, King)
	placeNth(0, Rook)
	return r, nil
}

// Chess960FEN returns the FEN of Chess960 start position n with
// Shredder-FEN castling letters (518 is the standard position: HAha).
func Chess960FEN(n int) (string, error) {
	return DFRCFEN(n, n)
}

// DFRCFEN returns the FEN of the Double Fischer Random start position with
// White's back rank number w and Black's number b.
func DFRCFEN(w, b int) (string, error) {
	wr, err := Chess960BackRank(w)
	if err != nil {
		return "", err
	}
	br, err := Chess960BackRank(b)
	if err != nil {
		return "", err
	}
	rank := func(r [8]PieceType, c Color) (string, string) {
		var pieces, castle strings.Builder
		var rooks []int
		for f, pt := range r {
			pieces.WriteString(MakePiece(c, pt).String())
			if pt == Rook {
				rooks = append(rooks, f)
			}
		}
		for i := len(rooks) - 1; i >= 0; i-- { // h-side rook first
			ch := byte('A' + rooks[i])
			if c == Black {
				ch += 'a' - 'A'
			}
			castle.WriteByte(ch)
		}
		return pieces.String(), castle.String()
	}
	wp, wc := rank(wr, White)
	bp, bc := rank(br, Black)
	return fmt.Sprintf("%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s%s - 0 1", bp, wp, wc, bc), nil
}
