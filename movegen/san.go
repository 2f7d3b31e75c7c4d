package movegen

import (
	"fmt"
	"strings"
)

// ParseSAN reads a move in standard algebraic notation (as PGN writes
// it; castling O-O / O-O-O, also in Chess960) and returns it if it is
// legal in pos.
func ParseSAN(pos *Position, san string) (Move, error) {
	s := strings.TrimRight(san, "+#!?")
	var l MoveList
	pos.GenerateLegal(&l)
	switch s {
	case "O-O", "0-0", "O-O-O", "0-0-0":
		kingSide := len(s) == 3
		for i := 0; i < l.N; i++ {
			m := l.At(i)
			if m.IsCastling() && (m.To().File() > m.From().File()) == kingSide {
				return m, nil
			}
		}
		return NoMove, fmt.Errorf("illegal castling %s", san)
	}
	piece := Pawn
	if len(s) > 0 {
		if i := strings.IndexByte("NBRQK", s[0]); i >= 0 {
			piece = Knight + PieceType(i)
			s = s[1:]
		}
	}
	promo := NoPieceType
	if i := strings.IndexByte(s, '='); i >= 0 {
		if i+2 != len(s) {
			return NoMove, fmt.Errorf("bad promotion in %q", san)
		}
		promo = promotionType(s[i+1])
		if promo == NoPieceType {
			return NoMove, fmt.Errorf("bad promotion in %q", san)
		}
		s = s[:i]
	} else if piece == Pawn && len(s) > 2 {
		if pt := promotionType(s[len(s)-1]); pt != NoPieceType {
			promo, s = pt, s[:len(s)-1]
		}
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "x", ""), "-", "")
	if len(s) < 2 || len(s) > 4 {
		return NoMove, fmt.Errorf("cannot read move %q", san)
	}
	to, ok := ParseSquare(s[len(s)-2:])
	if !ok {
		return NoMove, fmt.Errorf("cannot read move %q", san)
	}
	dis := s[:len(s)-2]
	found := NoMove
	for i := 0; i < l.N; i++ {
		m := l.At(i)
		if m.IsCastling() || m.To() != to || pos.PieceOn(m.From()).Type() != piece {
			continue
		}
		if (promo == NoPieceType) != !m.IsPromotion() || (m.IsPromotion() && m.PromotionType() != promo) {
			continue
		}
		if !matchesFrom(m.From(), dis) {
			continue
		}
		if found != NoMove {
			return NoMove, fmt.Errorf("ambiguous move %q", san)
		}
		found = m
	}
	if found == NoMove {
		return NoMove, fmt.Errorf("illegal move %q in %s", san, pos.FEN(false))
	}
	return found, nil
}

// promotionType returns the piece type of a SAN promotion letter, or
// NoPieceType.
func promotionType(c byte) PieceType {
	if i := strings.IndexByte("NBRQ", c); i >= 0 {
		return Knight + PieceType(i)
	}
	return NoPieceType
}

// matchesFrom tells whether from fits a SAN disambiguation (file, rank,
// both or none).
func matchesFrom(from Square, dis string) bool {
	for i := 0; i < len(dis); i++ {
		c := dis[i]
		switch {
		case c >= 'a' && c <= 'h':
			if from.File() != int(c-'a') {
				return false
			}
		case c >= '1' && c <= '8':
			if from.Rank() != int(c-'1') {
				return false
			}
		default:
			return false
		}
	}
	return true
}
