package search

import "github.com/kingrook/kingrook/movegen"

// see tells whether the static exchange on m's target square gains at least
// threshold for the side making m (the swap algorithm with x-rays).
func see(pos *movegen.Position, m movegen.Move, threshold int) bool {
	if m.Kind() == movegen.Castling {
		return threshold <= 0
	}
	from, to := m.From(), m.To()
	swap := seeValues[pos.CapturedType(m)] - threshold
	if m.IsPromotion() {
		swap += seeValues[m.PromotionType()] - seeValues[movegen.Pawn]
	}
	if swap < 0 {
		return false
	}
	next := pos.PieceOn(from).Type()
	if m.IsPromotion() {
		next = m.PromotionType()
	}
	swap = seeValues[next] - swap
	if swap <= 0 {
		return true
	}
	occ := pos.Occupied() ^ movegen.SquareBB(from) | movegen.SquareBB(to)
	if m.Kind() == movegen.EnPassant {
		occ ^= movegen.SquareBB(to ^ 8)
	}
	stm := pos.SideToMove()
	attackers := pos.AttackersTo(to, occ) & occ
	bishops := pos.ByType(movegen.Bishop) | pos.ByType(movegen.Queen)
	rooks := pos.ByType(movegen.Rook) | pos.ByType(movegen.Queen)
	res := true
	for {
		stm = stm.Other()
		attackers &= occ
		mine := attackers & pos.ByColor(stm)
		if mine == 0 {
			break
		}
		// Pinned pieces may not take part while their pinner stays.
		if pinned := pos.Pinned(stm) & mine; pinned != 0 {
			ksq := pos.KingSquare(stm)
			for b := pinned; b != 0; {
				s := b.PopLSB()
				if !movegen.Line(ksq, s).Has(to) {
					mine &^= movegen.SquareBB(s)
				}
			}
			if mine == 0 {
				break
			}
		}
		res = !res
		var pt movegen.PieceType
		for pt = movegen.Pawn; pt <= movegen.King; pt++ {
			if mine&pos.ByType(pt) != 0 {
				break
			}
		}
		if pt == movegen.King {
			// The king may capture only if the other side has no attacker left.
			if attackers&pos.ByColor(stm.Other()) != 0 {
				return !res
			}
			return res
		}
		swap = seeValues[pt] - swap
		if swap < boolToInt(res) {
			break
		}
		occ ^= movegen.SquareBB((mine & pos.ByType(pt)).LSB())
		if pt == movegen.Pawn || pt == movegen.Bishop || pt == movegen.Queen {
			attackers |= movegen.BishopAttacks(to, occ) & bishops
		}
		if pt == movegen.Rook || pt == movegen.Queen {
			attackers |= movegen.RookAttacks(to, occ) & rooks
		}
	}
	return res
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
