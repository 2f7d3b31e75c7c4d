package movegen

// GenKind selects which legal moves to generate.
type GenKind uint8

// Generation kinds. Noisy moves are captures (en passant included) and
// promotions to a queen; Quiet moves are everything else (castling and
// under-promotions without capture included). Noisy and Quiet together are
// all legal moves.
const (
	GenAll GenKind = iota
	GenNoisy
	GenQuiet
)

// GenerateLegal appends all legal moves to l.
func (p *Position) GenerateLegal(l *MoveList) { p.generate(l, GenAll) }

// GenerateNoisy appends the legal captures and queen promotions.
func (p *Position) GenerateNoisy(l *MoveList) { p.generate(l, GenNoisy) }

// GenerateQuiet appends the legal quiet moves (the complement of noisy).
func (p *Position) GenerateQuiet(l *MoveList) { p.generate(l, GenQuiet) }

// Generate appends the legal moves of the given kind.
func (p *Position) Generate(l *MoveList, kind GenKind) { p.generate(l, kind) }

// Pinned returns the pieces of color c pinned to their own king.
func (p *Position) Pinned(c Color) Bitboard {
	ksq := p.kingSq[c]
	them := p.byColor[c^1]
	snipers := (RookAttacks(ksq, 0)&(p.byType[Rook]|p.byType[Queen]) |
		BishopAttacks(ksq, 0)&(p.byType[Bishop]|p.byType[Queen])) & them
	occ := p.byType[0] ^ snipers
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.PopLSB()
		b := betweenBB[ksq][s] & occ
		if b != 0 && !b.More() {
			pinned |= b
		}
	}
	return pinned & p.byColor[c]
}

func (p *Position) generate(l *MoveList, kind GenKind) {
	us := p.side
	them := us ^ 1
	ksq := p.kingSq[us]
	occ := p.byType[0]
	ours := p.byColor[us]
	enemy := p.byColor[them]

	// King moves first: legal when the target is not attacked with the king lifted.
	var kTargets Bitboard
	switch kind {
	case GenAll:
		kTargets = kingAttacks[ksq] &^ ours
	case GenNoisy:
		kTargets = kingAttacks[ksq] & enemy
	case GenQuiet:
		kTargets = kingAttacks[ksq] &^ occ
	}
	occNoKing := occ ^ SquareBB(ksq)
	for kTargets != 0 {
		to := kTargets.PopLSB()
		if !p.Attacked(to, them, occNoKing) {
			l.Add(NewMove(ksq, to))
		}
	}
	if p.checkers.More() {
		return // double check: only the king moves
	}

	// Targets for other pieces: block or capture the checker when in check.
	mask := ^Bitboard(0)
	if p.checkers != 0 {
		mask = betweenBB[ksq][p.checkers.LSB()] | p.checkers
	}
	var targets Bitboard
	switch kind {
	case GenAll:
		targets = ^ours & mask
	case GenNoisy:
		targets = enemy & mask
	case GenQuiet:
		targets = ^occ & mask
	}

	pinned := p.Pinned(us)
	p.genPawns(l, kind, mask, pinned)

	for _, pt := range [4]PieceType{Knight, Bishop, Rook, Queen} {
		bb := p.byColor[us] & p.byType[pt]
		if pt == Knight {
			bb &^= pinned // a pinned knight never moves
		}
		for bb != 0 {
			from := bb.PopLSB()
			var atk Bitboard
			switch pt {
			case Knight:
				atk = knightAttacks[from]
			case Bishop:
				atk = BishopAttacks(from, occ)
			case Rook:
				atk = RookAttacks(from, occ)
			default:
				atk = QueenAttacks(from, occ)
			}
			atk &= targets
			if pinned.Has(from) {
				atk &= lineBB[ksq][from]
			}
			for atk != 0 {
				l.Add(NewMove(from, atk.PopLSB()))
			}
		}
	}

	if kind != GenNoisy && p.checkers == 0 {
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
	path := p.cd.kingPath[idx]
	for path != 0 {
		if p.Attacked(path.PopLSB(), them, occ) {
			return false
		}
	}
	return true
}

func (p *Position) genPawns(l *MoveList, kind GenKind, mask, pinned Bitboard) {
	us := p.side
	them := us ^ 1
	ksq := p.kingSq[us]
	occ := p.byType[0]
	enemy := p.byColor[them]
	pawns := p.Pieces(us, Pawn)
	promoRank := Rank7
	thirdRank := Rank3
	up := 8
	if us == Black {
		promoRank = Rank2
		thirdRank = Rank6
		up = -8
	}
	shift := func(b Bitboard) Bitboard {
		if us == White {
			return b << 8
		}
		return b >> 8
	}
	empty := ^occ
	// legalFrom filters pinned pawns: they may move only along the pin line.
	add := func(from, to Square) bool {
		return !pinned.Has(from) || lineBB[ksq][from].Has(to)
	}

	promo := pawns & promoRank
	rest := pawns &^ promoRank

	// Pushes.
	if kind != GenNoisy {
		one := shift(rest) & empty
		two := shift(one&thirdRank) & empty
		one &= mask
		two &= mask
		for one != 0 {
			to := one.PopLSB()
			from := Square(int(to) - up)
			if add(from, to) {
				l.Add(NewMove(from, to))
			}
		}
		for two != 0 {
			to := two.PopLSB()
			from := Square(int(to) - 2*up)
			if add(from, to) {
				l.Add(NewMove(from, to))
			}
		}
	}

	// Captures.
	if kind != GenQuiet {
		for b := rest; b != 0; {
			from := b.PopLSB()
			atk := pawnAttacks[us][from] & enemy & mask
			for atk != 0 {
				to := atk.PopLSB()
				if add(from, to) {
					l.Add(NewMove(from, to))
				}
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
	for b := promo; b != 0; {
		from := b.PopLSB()
		pushTo := Square(int(from) + up)
		if empty.Has(pushTo) && mask.Has(pushTo) && add(from, pushTo) {
			if kind != GenQuiet {
				l.Add(NewPromotion(from, pushTo, Queen))
			}
			if kind != GenNoisy {
				l.Add(NewPromotion(from, pushTo, Knight))
				l.Add(NewPromotion(from, pushTo, Rook))
				l.Add(NewPromotion(from, pushTo, Bishop))
			}
		}
		if kind == GenQuiet {
			continue
		}
		atk := pawnAttacks[us][from] & enemy & mask
		for atk != 0 {
			to := atk.PopLSB()
			if add(from, to) {
				l.Add(NewPromotion(from, to, Queen))
				l.Add(NewPromotion(from, to, Knight))
				l.Add(NewPromotion(from, to, Rook))
				l.Add(NewPromotion(from, to, Bishop))
			}
		}
	}
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
		if !betweenBB[ksq][p.checkers.LSB()].Has(m.To()) {
			return false
		}
	}
	return RookAttacks(ksq, occ)&(p.byType[Rook]|p.byType[Queen])&p.byColor[them] == 0 &&
		BishopAttacks(ksq, occ)&(p.byType[Bishop]|p.byType[Queen])&p.byColor[them] == 0
}

// IsLegal tells whether m is a legal move here (m may be any 16-bit value).
func (p *Position) IsLegal(m Move) bool {
	if m == NoMove || m == NullMove {
		return false
	}
	var l MoveList
	p.generate(&l, GenAll)
	return l.Contains(m)
}

// IsPseudoLegalFast tells whether m is legal, like IsLegal, by generating
// only the moves of the piece on m's from-square. Search uses it to validate
// transposition-table and killer moves.
func (p *Position) IsPseudoLegalFast(m Move) bool {
	from := m.From()
	pc := p.board[from]
	if pc == NoPiece || pc.Color() != p.side || m == NoMove || m == NullMove {
		return false
	}
	return p.IsLegal(m)
}

// HasLegalMove tells whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	var l MoveList
	p.generate(&l, GenAll)
	return l.N > 0
}
