package movegen

// genKind selects which legal moves to generate.
type genKind uint8

// Generation kinds. Noisy moves are captures (en passant included) and
// promotions to a queen; Quiet moves are everything else (castling and
// under-promotions without capture included). Noisy and Quiet together are
// all legal moves.
const (
	genAll genKind = iota
	genNoisy
	genQuiet
)

// GenerateLegal appends all legal moves to l.
func (p *Position) GenerateLegal(l *MoveList) { p.generate(l, genAll) }

// GenerateNoisy appends the legal captures and queen promotions.
func (p *Position) GenerateNoisy(l *MoveList) { p.generate(l, genNoisy) }

// GenerateQuiet appends the legal quiet moves (the complement of noisy).
func (p *Position) GenerateQuiet(l *MoveList) { p.generate(l, genQuiet) }

// Pinned returns the pieces of color c pinned to their own king. The
// answer is kept until the pieces change: generation, legality tests and a
// search's exchange evaluation ask it many times of one position.
func (p *Position) Pinned(c Color) Bitboard {
	if p.pinnedOK&(1<<c) != 0 {
		return p.pinned[c]
	}
	pinned := p.findPinned(c)
	p.pinned[c] = pinned
	p.pinnedOK |= 1 << c
	return pinned
}

// findPinned computes Pinned(c).
func (p *Position) findPinned(c Color) Bitboard {
	ksq := p.kingSq[c]
	them := p.byColor[c^1]
	snipers := (rookRays[ksq]&(p.byType[Rook]|p.byType[Queen]) |
		bishopRays[ksq]&(p.byType[Bishop]|p.byType[Queen])) & them
	if snipers == 0 {
		return 0
	}
	// A piece is pinned when it is the only piece between the king and an
	// enemy slider. (The occupancy keeps the other snipers: an enemy piece
	// in front of a slider means no pin, and in check the generator relies
	// on pins being exact.)
	occ := p.byType[0]
	ours := p.byColor[c]
	var pinned Bitboard
	for snipers != 0 {
		b := betweenBB[ksq][snipers.PopLSB()] & occ
		if b&ours != 0 && !b.More() {
			pinned |= b
		}
	}
	return pinned
}

// addTargets appends a normal move from from to each square of b.
func (l *MoveList) addTargets(from Square, b Bitboard) {
	n := b.Count()
	ms := l.Moves[l.N : l.N+n]
	for i := range ms {
		ms[i].Move = NewMove(from, b.PopLSB())
	}
	l.N += n
}

// addPromotions appends the promotions from from to to that kind asks for.
func (l *MoveList) addPromotions(from, to Square, kind genKind, capture bool) {
	if kind != genQuiet {
		l.Add(NewPromotion(from, to, Queen))
	}
	if kind == genAll || (kind == genQuiet) != capture {
		l.Add(NewPromotion(from, to, Knight))
		l.Add(NewPromotion(from, to, Rook))
		l.Add(NewPromotion(from, to, Bishop))
	}
}

// pawnPush shifts pawns of color c one rank forward.
func pawnPush(b Bitboard, c Color) Bitboard {
	if c == White {
		return b << 8
	}
	return b >> 8
}

// pawnCapturesWest returns the squares the pawns of c attack towards the
// a-file; pawnCapturesEast towards the h-file.
func pawnCapturesWest(b Bitboard, c Color) Bitboard {
	if c == White {
		return (b &^ FileA) << 7
	}
	return (b &^ FileA) >> 9
}

func pawnCapturesEast(b Bitboard, c Color) Bitboard {
	if c == White {
		return (b &^ FileH) << 9
	}
	return (b &^ FileH) >> 7
}

// pawnDeltas returns, for color c, the square offsets from a target back to
// the pawn: single push, west capture, east capture.
func pawnDeltas(c Color) (push, west, east int) {
	if c == White {
		return 8, 7, 9
	}
	return -8, -9, -7
}

func (p *Position) generate(l *MoveList, kind genKind) {
	us := p.side
	them := us ^ 1
	ksq := p.kingSq[us]
	occ := p.byType[0]
	ours := p.byColor[us]

	var targets Bitboard
	switch kind {
	case genAll:
		targets = ^ours
	case genNoisy:
		targets = p.byColor[them]
	case genQuiet:
		targets = ^occ
	}

	// 1. King moves: legal when the target is not attacked with the king lifted.
	occNoKing := occ ^ SquareBB(ksq)
	for t := kingAttacks[ksq] & targets; t != 0; {
		to := t.PopLSB()
		if !p.Attacked(to, them, occNoKing) {
			l.Add(NewMove(ksq, to))
		}
	}
	if p.checkers.More() {
		return // double check: only the king moves
	}

	// 2. Other pieces block or capture the checker when in check; a pinned
	// piece then cannot move at all.
	mask := ^Bitboard(0)
	pinned := p.Pinned(us)
	movable := ours
	if p.checkers != 0 {
		mask = betweenBB[ksq][p.checkers.LSB()] | p.checkers
		movable &^= pinned
	}
	targets &= mask

	p.genPawns(l, kind, mask, pinned, movable)

	for b := movable & p.byType[Knight] &^ pinned; b != 0; {
		from := b.PopLSB()
		l.addTargets(from, knightAttacks[from]&targets)
	}
	for b := movable & p.byType[Bishop]; b != 0; {
		from := b.PopLSB()
		atk := BishopAttacks(from, occ) & targets
		if pinned.Has(from) {
			atk &= lineBB[ksq][from]
		}
		l.addTargets(from, atk)
	}
	for b := movable & p.byType[Rook]; b != 0; {
		from := b.PopLSB()
		atk := RookAttacks(from, occ) & targets
		if pinned.Has(from) {
			atk &= lineBB[ksq][from]
		}
		l.addTargets(from, atk)
	}
	for b := movable & p.byType[Queen]; b != 0; {
		from := b.PopLSB()
		atk := QueenAttacks(from, occ) & targets
		if pinned.Has(from) {
			atk &= lineBB[ksq][from]
		}
		l.addTargets(from, atk)
	}

	// 3. Castling.
	if kind != genNoisy && p.checkers == 0 {
		p.genCastling(l)
	}
}

func (p *Position) genCastling(l *MoveList) {
	us := p.side
	rights := p.castling >> (2 * us) & 3
	if rights == 0 {
		return
	}
	ksq := p.kingSq[us]
	for i := 0; i < 2; i++ {
		if rights&(1<<i) == 0 {
			continue
		}
		idx := int(us)*2 + i
		rsq := p.cd.rook[idx]
		if p.byType[0]&p.cd.empty[idx] != 0 {
			continue
		}
		if p.castlingSafe(idx, ksq, rsq) {
			l.Add(NewSpecial(ksq, rsq, Castling))
		}
	}
}

// castlingSafe checks that no square the king crosses (its target included)
// is attacked, with king and castling rook lifted from the board: this also
// catches an enemy rook or queen behind the castling rook on the back rank.
func (p *Position) castlingSafe(idx int, ksq, rsq Square) bool {
	them := p.side ^ 1
	occ := p.byType[0] ^ SquareBB(ksq) ^ SquareBB(rsq)
	for path := p.cd.kingPath[idx]; path != 0; {
		if p.Attacked(path.PopLSB(), them, occ) {
			return false
		}
	}
	return true
}

// genPawns appends pawn moves. Targets are computed for all movable pawns
// at once by shifting; a pinned pawn's move survives only along its pin.
func (p *Position) genPawns(l *MoveList, kind genKind, mask, pinned, movable Bitboard) {
	us := p.side
	them := us ^ 1
	ksq := p.kingSq[us]
	empty := ^p.byType[0]
	enemy := p.byColor[them]
	pawns := movable & p.byType[Pawn]
	promoRank, thirdRank := Rank7, Rank3
	if us == Black {
		promoRank, thirdRank = Rank2, Rank6
	}
	dPush, dWest, dEast := pawnDeltas(us)
	rest := pawns &^ promoRank
	promo := pawns & promoRank

	// Pushes.
	if kind != genNoisy {
		one := pawnPush(rest, us) & empty
		two := pawnPush(one&thirdRank, us) & empty & mask
		for b := one & mask; b != 0; {
			to := b.PopLSB()
			from := Square(int(to) - dPush)
			if pinOK(pinned, ksq, from, to) {
				l.Add(NewMove(from, to))
			}
		}
		for b := two; b != 0; {
			to := b.PopLSB()
			from := Square(int(to) - 2*dPush)
			if pinOK(pinned, ksq, from, to) {
				l.Add(NewMove(from, to))
			}
		}
	}

	// Captures, en passant.
	if kind != genQuiet {
		for b := pawnCapturesWest(rest, us) & enemy & mask; b != 0; {
			to := b.PopLSB()
			from := Square(int(to) - dWest)
			if pinOK(pinned, ksq, from, to) {
				l.Add(NewMove(from, to))
			}
		}
		for b := pawnCapturesEast(rest, us) & enemy & mask; b != 0; {
			to := b.PopLSB()
			from := Square(int(to) - dEast)
			if pinOK(pinned, ksq, from, to) {
				l.Add(NewMove(from, to))
			}
		}
		if p.ep != NoSquare {
			for b := pawnAttacks[them][p.ep] & rest; b != 0; {
				m := NewSpecial(b.PopLSB(), p.ep, EnPassant)
				if p.epSafe(m) {
					l.Add(m)
				}
			}
		}
	}

	// Promotions.
	if promo != 0 {
		for b := pawnPush(promo, us) & empty & mask; b != 0; {
			to := b.PopLSB()
			if from := Square(int(to) - dPush); pinOK(pinned, ksq, from, to) {
				l.addPromotions(from, to, kind, false)
			}
		}
		if kind != genQuiet {
			for b := pawnCapturesWest(promo, us) & enemy & mask; b != 0; {
				to := b.PopLSB()
				if from := Square(int(to) - dWest); pinOK(pinned, ksq, from, to) {
					l.addPromotions(from, to, kind, true)
				}
			}
			for b := pawnCapturesEast(promo, us) & enemy & mask; b != 0; {
				to := b.PopLSB()
				if from := Square(int(to) - dEast); pinOK(pinned, ksq, from, to) {
					l.addPromotions(from, to, kind, true)
				}
			}
		}
	}
}

// pinOK tells whether a move from from to to keeps a pinned piece on its
// pin line (always true for an unpinned piece).
func pinOK(pinned Bitboard, ksq, from, to Square) bool {
	return !pinned.Has(from) || lineBB[ksq][from].Has(to)
}

// epSafe tests an en-passant capture by removing both pawns: the only move
// whose legality depends on two vacated squares.
func (p *Position) epSafe(m Move) bool {
	us := p.side
	them := us ^ 1
	ksq := p.kingSq[us]
	capSq := m.To() ^ 8
	occ := (p.byType[0] ^ SquareBB(m.From()) ^ SquareBB(capSq)) | SquareBB(m.To())
	if p.checkers != 0 && !p.checkers.Has(capSq) {
		// In check: ep must capture the checker or block a slider's ray.
		if p.checkers.More() || !betweenBB[ksq][p.checkers.LSB()].Has(m.To()) {
			return false
		}
	}
	return RookAttacks(ksq, occ)&(p.byType[Rook]|p.byType[Queen])&p.byColor[them] == 0 &&
		BishopAttacks(ksq, occ)&(p.byType[Bishop]|p.byType[Queen])&p.byColor[them] == 0
}

// countLegal returns the number of legal moves, exactly the length of
// GenerateLegal's list, without writing moves: perft's bulk count.
func (p *Position) countLegal() int {
	us := p.side
	them := us ^ 1
	ksq := p.kingSq[us]
	occ := p.byType[0]
	ours := p.byColor[us]
	n := 0

	occNoKing := occ ^ SquareBB(ksq)
	for t := kingAttacks[ksq] &^ ours; t != 0; {
		if !p.Attacked(t.PopLSB(), them, occNoKing) {
			n++
		}
	}
	if p.checkers.More() {
		return n
	}
	mask := ^Bitboard(0)
	pinned := p.Pinned(us)
	movable := ours
	if p.checkers != 0 {
		mask = betweenBB[ksq][p.checkers.LSB()] | p.checkers
		movable &^= pinned
	}
	targets := ^ours & mask

	// Pieces.
	for b := movable & p.byType[Knight] &^ pinned; b != 0; {
		n += (knightAttacks[b.PopLSB()] & targets).Count()
	}
	for b := movable & (p.byType[Bishop] | p.byType[Queen]); b != 0; {
		from := b.PopLSB()
		atk := BishopAttacks(from, occ) & targets
		if pinned.Has(from) {
			atk &= lineBB[ksq][from]
		}
		n += atk.Count()
	}
	for b := movable & (p.byType[Rook] | p.byType[Queen]); b != 0; {
		from := b.PopLSB()
		atk := RookAttacks(from, occ) & targets
		if pinned.Has(from) {
			atk &= lineBB[ksq][from]
		}
		n += atk.Count()
	}

	// Pawns: unpinned ones by set arithmetic, pinned ones one by one.
	pawns := movable & p.byType[Pawn]
	empty := ^occ
	enemy := p.byColor[them]
	promoRank, thirdRank := Rank7, Rank3
	if us == Black {
		promoRank, thirdRank = Rank2, Rank6
	}
	free := pawns &^ pinned
	rest := free &^ promoRank
	promo := free & promoRank
	one := pawnPush(rest, us) & empty
	two := pawnPush(one&thirdRank, us) & empty
	n += (one & mask).Count() + (two & mask).Count() +
		(pawnCapturesWest(rest, us) & enemy & mask).Count() + (pawnCapturesEast(rest, us) & enemy & mask).Count()
	if promo != 0 {
		n += 4 * ((pawnPush(promo, us) & empty & mask).Count() +
			(pawnCapturesWest(promo, us) & enemy & mask).Count() + (pawnCapturesEast(promo, us) & enemy & mask).Count())
	}
	for b := pawns & pinned; b != 0; { // not in check here: movable excludes pinned pieces in check
		from := b.PopLSB()
		line := lineBB[ksq][from]
		fromBB := SquareBB(from)
		m := 1
		if promoRank.Has(from) {
			m = 4
		}
		push := pawnPush(fromBB, us) & empty
		if thirdRank&push != 0 {
			push |= pawnPush(push, us) & empty
		}
		caps := pawnAttacks[us][from] & enemy
		n += m * ((push | caps) & line).Count()
	}
	if p.ep != NoSquare {
		for b := pawnAttacks[them][p.ep] & pawns &^ promoRank; b != 0; {
			if p.epSafe(NewSpecial(b.PopLSB(), p.ep, EnPassant)) {
				n++
			}
		}
	}

	// Castling.
	if p.checkers == 0 && p.castling>>(2*us)&3 != 0 {
		for i := 0; i < 2; i++ {
			idx := int(us)*2 + i
			if p.castling&(1<<idx) != 0 && p.byType[0]&p.cd.empty[idx] == 0 && p.castlingSafe(idx, ksq, p.cd.rook[idx]) {
				n++
			}
		}
	}
	return n
}

// isLegalByGeneration tells whether m is a legal move here (m may be any
// 16-bit value) by generating all legal moves: the reference the tests
// hold IsLegal to.
func (p *Position) isLegalByGeneration(m Move) bool {
	if m == NoMove || m == NullMove {
		return false
	}
	var l MoveList
	p.generate(&l, genAll)
	return l.Contains(m)
}

// IsLegal tells whether m, any 16-bit value (a move from the transposition
// table or a killer slot, say), is a legal move here. It checks m alone,
// without generating moves.
func (p *Position) IsLegal(m Move) bool {
	us := p.side
	them := us ^ 1
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc.Color() != us || from == to { // from == to: NoMove, NullMove
		return false
	}
	kind := m.Kind()
	if kind != Promotion && m>>12&3 != 0 {
		return false // only promotions use bits 12-13
	}
	occ := p.byType[0]
	ours := p.byColor[us]
	switch kind {
	case Castling:
		if pc.Type() != King || p.checkers != 0 {
			return false
		}
		for i := 0; i < 2; i++ {
			idx := int(us)*2 + i
			if p.castling&(1<<idx) != 0 && p.cd.rook[idx] == to {
				return occ&p.cd.empty[idx] == 0 && p.castlingSafe(idx, from, to)
			}
		}
		return false
	case EnPassant:
		return pc.Type() == Pawn && to == p.ep && pawnAttacks[us][from].Has(to) && p.epSafe(m)
	case Promotion:
		if pc.Type() != Pawn || from.RelativeRank(us) != 6 {
			return false
		}
		if !(pawnPush(SquareBB(from), us)&^occ | pawnAttacks[us][from]&p.byColor[them]).Has(to) {
			return false
		}
	default:
		if pc.Type() == Pawn {
			if from.RelativeRank(us) == 6 {
				return false // a move to the last rank must promote
			}
			thirdRank := Rank3
			if us == Black {
				thirdRank = Rank6
			}
			one := pawnPush(SquareBB(from), us) &^ occ
			two := pawnPush(one&thirdRank, us) &^ occ
			if !(one | two | pawnAttacks[us][from]&p.byColor[them]).Has(to) {
				return false
			}
		} else if !(Attacks(pc.Type(), from, occ) &^ ours).Has(to) {
			return false
		}
	}
	// The move is pseudo-legal; now the king's safety.
	if pc.Type() == King {
		return !p.Attacked(to, them, occ^SquareBB(from))
	}
	ksq := p.kingSq[us]
	if p.checkers != 0 {
		if p.checkers.More() || !(betweenBB[ksq][p.checkers.LSB()] | p.checkers).Has(to) {
			return false
		}
	}
	return lineBB[ksq][from] == 0 || lineBB[ksq][from].Has(to) || !p.Pinned(us).Has(from)
}

// GivesCheck tells whether the legal move m gives check, discovered checks,
// castling, en passant and promotions included, without making it.
func (p *Position) GivesCheck(m Move) bool {
	us := p.side
	ksq := p.kingSq[us^1]
	from, to := m.From(), m.To()
	ours := p.byColor[us]
	occ := p.byType[0]
	rq := (p.byType[Rook] | p.byType[Queen]) & ours &^ SquareBB(from)
	bq := (p.byType[Bishop] | p.byType[Queen]) & ours &^ SquareBB(from)
	pt := p.board[from].Type()
	switch m.Kind() {
	case Castling:
		// The king never checks; the rook on its new square may, and the
		// vacated squares may open a line.
		rTo := m.CastlingRookTarget()
		occ = occ&^(SquareBB(from)|SquareBB(to)) | SquareBB(m.CastlingKingTarget()) | SquareBB(rTo)
		rq = rq&^SquareBB(to) | SquareBB(rTo)
		pt = King
	case EnPassant:
		occ = occ&^(SquareBB(from)|SquareBB(to^8)) | SquareBB(to)
	case Promotion:
		pt = m.PromotionType()
		occ = occ&^SquareBB(from) | SquareBB(to)
	default:
		occ = occ&^SquareBB(from) | SquareBB(to)
	}
	switch pt {
	case Pawn:
		if pawnAttacks[us][to].Has(ksq) {
			return true
		}
	case Knight:
		if knightAttacks[to].Has(ksq) {
			return true
		}
	case Bishop:
		bq |= SquareBB(to)
	case Rook:
		rq |= SquareBB(to)
	case Queen:
		bq |= SquareBB(to)
		rq |= SquareBB(to)
	}
	return rq&rookRays[ksq] != 0 && RookAttacks(ksq, occ)&rq != 0 ||
		bq&bishopRays[ksq] != 0 && BishopAttacks(ksq, occ)&bq != 0
}

// HasLegalMove tells whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	return p.countLegal() > 0
}
