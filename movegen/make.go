package movegen

// Make plays a legal move. Make an illegal move and the position is corrupt:
// callers validate untrusted moves with IsLegal or ParseMove first.
func (p *Position) Make(m Move) {
	us := p.side
	them := us ^ 1
	from, to := m.From(), m.To()
	pc := p.board[from]
	u := p.pushUndo(m)
	p.pinnedOK = 0
	p.sinceNull++
	key := p.key ^ zobristSide
	if p.ep != NoSquare {
		key ^= zobristEP[p.ep.File()]
		p.ep = NoSquare
	}
	p.rule50++
	if us == Black {
		p.fullmove++
	}

	switch m.Kind() {
	case Castling:
		kTo, rTo := m.CastlingKingTarget(), m.CastlingRookTarget()
		rook := p.board[to]
		p.remove(from)
		p.remove(to)
		p.put(pc, kTo)
		p.put(rook, rTo)
		key ^= zobristPiece[pc][from] ^ zobristPiece[pc][kTo] ^ zobristPiece[rook][to] ^ zobristPiece[rook][rTo]
		p.pawnKey ^= zobristPiece[pc][from] ^ zobristPiece[pc][kTo]
		p.kingSq[us] = kTo
	case EnPassant:
		capSq := to ^ 8
		captured := p.board[capSq]
		u.captured = captured
		p.remove(capSq)
		p.move(from, to)
		key ^= zobristPiece[captured][capSq] ^ zobristPiece[pc][from] ^ zobristPiece[pc][to]
		p.pawnKey ^= zobristPiece[captured][capSq] ^ zobristPiece[pc][from] ^ zobristPiece[pc][to]
		p.rule50 = 0
	default:
		captured := p.board[to]
		if captured != NoPiece {
			u.captured = captured
			p.remove(to)
			key ^= zobristPiece[captured][to]
			if captured.Type() == Pawn {
				p.pawnKey ^= zobristPiece[captured][to]
			}
			p.rule50 = 0
		}
		p.move(from, to)
		key ^= zobristPiece[pc][from] ^ zobristPiece[pc][to]
		switch pc.Type() {
		case Pawn:
			p.rule50 = 0
			p.pawnKey ^= zobristPiece[pc][from] ^ zobristPiece[pc][to]
			if m.Kind() == Promotion {
				promo := MakePiece(us, m.PromotionType())
				p.remove(to)
				p.put(promo, to)
				key ^= zobristPiece[pc][to] ^ zobristPiece[promo][to]
				p.pawnKey ^= zobristPiece[pc][to]
			} else if int(to)^int(from) == 16 {
				// Double step: keep the ep square only if a capture is legal.
				ep := Square((int(from) + int(to)) / 2)
				if pawnAttacks[us][ep]&p.Pieces(them, Pawn) != 0 {
					p.side = them
					p.ep = ep
					p.checkers = p.AttackersTo(p.kingSq[them], p.byType[0]) & p.byColor[us]
					if p.epLegal() {
						key ^= zobristEP[ep.File()]
					} else {
						p.ep = NoSquare
					}
					p.side = us
				}
			}
		case King:
			p.kingSq[us] = to
			p.pawnKey ^= zobristPiece[pc][from] ^ zobristPiece[pc][to]
		}
	}

	if p.castling != 0 {
		if nc := p.castling & p.cd.mask[from] & p.cd.mask[to]; nc != p.castling {
			key ^= zobristCastling[p.castling] ^ zobristCastling[nc]
			p.castling = nc
		}
	}
	p.side = them
	p.key = key
	p.checkers = p.checkersAfter(m, us)
}

// checkersAfter returns the pieces of us checking the other king after us
// played m. The other king was not in check before, so a slider can check
// only if it just moved there or a line opened through a vacated square.
func (p *Position) checkersAfter(m Move, us Color) Bitboard {
	ksq := p.kingSq[us^1]
	ours := p.byColor[us]
	checkers := (pawnAttacks[us^1][ksq]&p.byType[Pawn] | knightAttacks[ksq]&p.byType[Knight]) & ours
	vacated := SquareBB(m.From())
	switch m.Kind() {
	case EnPassant:
		vacated |= SquareBB(m.To() ^ 8)
	case Castling:
		vacated |= SquareBB(m.To()) | SquareBB(m.CastlingRookTarget())
	default:
		if pt := p.board[m.To()].Type(); pt >= Bishop && pt <= Queen {
			vacated |= SquareBB(m.To())
		}
	}
	if vacated&(rookRays[ksq]|bishopRays[ksq]) == 0 {
		return checkers
	}
	occ := p.byType[0]
	if rq := (p.byType[Rook] | p.byType[Queen]) & ours; rq&rookRays[ksq] != 0 {
		checkers |= RookAttacks(ksq, occ) & rq
	}
	if bq := (p.byType[Bishop] | p.byType[Queen]) & ours; bq&bishopRays[ksq] != 0 {
		checkers |= BishopAttacks(ksq, occ) & bq
	}
	return checkers
}

// pushUndo saves the state that m's unmake will need and returns the entry.
// Fields are stored one by one into the slice: building a struct value and
// copying it costs a store-forwarding stall on every move.
func (p *Position) pushUndo(m Move) *undo {
	n := len(p.history)
	if n < cap(p.history) {
		p.history = p.history[:n+1]
	} else {
		p.history = append(p.history, undo{})
	}
	u := &p.history[n]
	u.move = m
	u.captured = NoPiece
	u.castling = p.castling
	u.ep = p.ep
	u.rule50 = uint16(p.rule50)
	u.key = p.key
	u.pawnKey = p.pawnKey
	u.checkers = p.checkers
	u.sinceNull = uint16(min(p.sinceNull, 0xFFFF))
	p.keys = append(p.keys, p.key)
	return u
}

// Unmake takes back the last move made by Make; with none to take back it
// panics (Undo is the checked form).
func (p *Position) Unmake() {
	n := len(p.history) - 1
	if n < 0 {
		panic("movegen: Unmake with no move made")
	}
	u := &p.history[n]
	m := u.move
	p.side ^= 1
	p.pinnedOK = 0
	us := p.side
	from, to := m.From(), m.To()

	switch m.Kind() {
	case Castling:
		kTo, rTo := m.CastlingKingTarget(), m.CastlingRookTarget()
		king, rook := p.board[kTo], p.board[rTo]
		p.remove(kTo)
		p.remove(rTo)
		p.put(king, from)
		p.put(rook, to)
		p.kingSq[us] = from
	case EnPassant:
		p.move(to, from)
		p.put(u.captured, to^8)
	default:
		if m.Kind() == Promotion {
			p.remove(to)
			p.put(MakePiece(us, Pawn), to)
		}
		p.move(to, from)
		if u.captured != NoPiece {
			p.put(u.captured, to)
		}
		if p.board[from].Type() == King {
			p.kingSq[us] = from
		}
	}
	p.restore(u)
	if us == Black {
		p.fullmove--
	}
}

func (p *Position) restore(u *undo) {
	p.castling = u.castling
	p.ep = u.ep
	p.rule50 = int(u.rule50)
	p.key = u.key
	p.pawnKey = u.pawnKey
	p.checkers = u.checkers
	p.sinceNull = int(u.sinceNull)
	p.history = p.history[:len(p.history)-1]
	p.keys = p.keys[:len(p.keys)-1]
}

// MakeNull passes the move (for null-move pruning). Not legal in check.
func (p *Position) MakeNull() {
	p.pushUndo(NullMove)
	p.sinceNull = 0
	key := p.key ^ zobristSide
	if p.ep != NoSquare {
		key ^= zobristEP[p.ep.File()]
		p.ep = NoSquare
	}
	p.key = key
	p.rule50++
	p.side ^= 1
	p.checkers = 0
}

// UnmakeNull takes back a null move.
func (p *Position) UnmakeNull() {
	p.side ^= 1
	p.restore(&p.history[len(p.history)-1])
}

// IsRepetition tells whether the current position occurred before, within
// the reach of the half-move clock and not across a null move.
func (p *Position) IsRepetition() bool {
	c, _ := p.repetitions(1)
	return c > 0
}

// RepetitionCount returns how often the current position occurred before,
// within the reach of the half-move clock and not across a null move.
func (p *Position) RepetitionCount() int {
	c, _ := p.repetitions(len(p.keys))
	return c
}

// IsDrawnRepetition tells whether the current position, ply plies below the
// root of a search, counts as a draw by repetition in that search: it
// repeats a position reached after the root, or it occurred twice before (a
// real threefold). One earlier occurrence at or before the root is not a
// draw yet: the game may still avoid the third. The scan is IsRepetition's.
func (p *Position) IsDrawnRepetition(ply int) bool {
	c, latest := p.repetitions(2)
	return c >= 2 || (c == 1 && latest < ply)
}

// repetitions counts the earlier occurrences of the current position, the
// same side to move, within the reach of the half-move clock and not across
// a null move, stopping at limit; latest is how many plies back the most
// recent one lies (0 when there is none).
func (p *Position) repetitions(limit int) (count, latest int) {
	n := len(p.keys)
	end := min(p.rule50, p.sinceNull)
	for i := 4; i <= end && count < limit; i += 2 {
		if p.keys[n-i] == p.key {
			if count == 0 {
				latest = i
			}
			count++
		}
	}
	return count, latest
}

// IsDrawByRule tells whether the 50-move rule or insufficient material
// (K v K, K+minor v K) makes the position a draw, or a repetition occurred.
// A position at 100 half-moves that is checkmate is not a draw.
func (p *Position) IsDrawByRule() bool {
	if p.rule50 >= 100 && (p.checkers == 0 || p.HasLegalMove()) {
		return true
	}
	return p.IsRepetition() || p.InsufficientMaterial()
}

// IsGameDrawn tells whether the game is over as a draw by the rules a
// game between engines ends on: the 50-move rule (a checkmate at 100
// half-moves stands), insufficient material, or a threefold repetition (the
// position occurred twice before). Unlike IsDrawByRule, one earlier
// occurrence is not enough: a player may repeat once and still win.
func (p *Position) IsGameDrawn() bool {
	if p.rule50 >= 100 && (p.checkers == 0 || p.HasLegalMove()) {
		return true
	}
	return p.RepetitionCount() >= 2 || p.InsufficientMaterial()
}

// InsufficientMaterial tells whether neither side can possibly mate:
// kings only, or a single knight or bishop beside the kings.
func (p *Position) InsufficientMaterial() bool {
	if p.byType[Pawn]|p.byType[Rook]|p.byType[Queen] != 0 {
		return false
	}
	return (p.byType[Knight] | p.byType[Bishop]).Count() <= 1
}

// KeyAfter returns the Zobrist key the position has after the legal move m,
// without playing it; a search uses it to fetch the table entry of the next
// position early. It is exact except after a double pawn step that leaves an
// en-passant capture legal, whose key Make adds only once the capture is
// known to be legal.
func (p *Position) KeyAfter(m Move) uint64 {
	from, to := m.From(), m.To()
	pc := p.board[from]
	key := p.key ^ zobristSide
	if p.ep != NoSquare {
		key ^= zobristEP[p.ep.File()]
	}
	switch m.Kind() {
	case Castling:
		rook := p.board[to]
		kTo, rTo := m.CastlingKingTarget(), m.CastlingRookTarget()
		key ^= zobristPiece[pc][from] ^ zobristPiece[pc][kTo] ^ zobristPiece[rook][to] ^ zobristPiece[rook][rTo]
	case EnPassant:
		capSq := to ^ 8
		key ^= zobristPiece[p.board[capSq]][capSq] ^ zobristPiece[pc][from] ^ zobristPiece[pc][to]
	default:
		if captured := p.board[to]; captured != NoPiece {
			key ^= zobristPiece[captured][to]
		}
		key ^= zobristPiece[pc][from]
		if m.Kind() == Promotion {
			key ^= zobristPiece[MakePiece(pc.Color(), m.PromotionType())][to]
		} else {
			key ^= zobristPiece[pc][to]
		}
	}
	if p.castling != 0 {
		if nc := p.castling & p.cd.mask[from] & p.cd.mask[to]; nc != p.castling {
			key ^= zobristCastling[p.castling] ^ zobristCastling[nc]
		}
	}
	return key
}
