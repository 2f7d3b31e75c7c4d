package eval

// Hand-set starting weights, shaped from chess knowledge: the tuner's
// starting point, and the evaluation's weights until a tuned set is
// generated into params_tuned.go.

// board is a piece-square table written as seen from white's side: the
// first row is the eighth rank, the last row the first rank.
type board [64]int

// squares converts a board picture to square order (a1 = 0).
func (b *board) squares() [64]int {
	var out [64]int
	for i, v := range b {
		row, file := i/8, i%8
		out[(7-row)*8+file] = v
	}
	return out
}

// handPST holds the hand-set piece-square tables, pawn to king, each as a
// middlegame and an endgame board. It is read only.
var handPST = [6][2]board{
	// Pawns: advance in the centre in the middlegame, advance anywhere in
	// the endgame. Left-right symmetric (kings sit anywhere in 960).
	{board{
		0, 0, 0, 0, 0, 0, 0, 0,
		30, 30, 32, 34, 34, 32, 30, 30,
		8, 12, 18, 24, 24, 18, 12, 8,
		-2, 3, 8, 16, 16, 8, 3, -2,
		-4, 0, 5, 12, 12, 5, 0, -4,
		-3, 0, 2, 4, 4, 2, 0, -3,
		0, 2, 0, -8, -8, 0, 2, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
	}, board{
		0, 0, 0, 0, 0, 0, 0, 0,
		45, 45, 45, 45, 45, 45, 45, 45,
		25, 25, 25, 25, 25, 25, 25, 25,
		12, 12, 12, 12, 12, 12, 12, 12,
		4, 4, 4, 4, 4, 4, 4, 4,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
	}},
	// Knights: strongly centralizing, and welcome in the enemy camp.
	{board{
		-60, -30, -20, -15, -15, -20, -30, -60,
		-30, -10, 0, 5, 5, 0, -10, -30,
		-20, 5, 15, 20, 20, 15, 5, -20,
		-15, 10, 20, 25, 25, 20, 10, -15,
		-15, 5, 15, 20, 20, 15, 5, -15,
		-20, 0, 10, 12, 12, 10, 0, -20,
		-30, -15, 0, 0, 0, 0, -15, -30,
		-50, -25, -20, -15, -15, -20, -25, -50,
	}, board{
		-45, -30, -20, -15, -15, -20, -30, -45,
		-30, -15, -5, 0, 0, -5, -15, -30,
		-20, -5, 8, 12, 12, 8, -5, -20,
		-15, 0, 12, 18, 18, 12, 0, -15,
		-15, 0, 12, 18, 18, 12, 0, -15,
		-20, -5, 8, 12, 12, 8, -5, -20,
		-30, -15, -5, 0, 0, -5, -15, -30,
		-45, -30, -20, -15, -15, -20, -30, -45,
	}},
	// Bishops: mild preference for the centre and long diagonals.
	{board{
		-15, -8, -8, -8, -8, -8, -8, -15,
		-8, 0, 0, 0, 0, 0, 0, -8,
		-8, 2, 6, 8, 8, 6, 2, -8,
		-8, 4, 6, 10, 10, 6, 4, -8,
		-8, 2, 8, 10, 10, 8, 2, -8,
		-8, 6, 6, 6, 6, 6, 6, -8,
		-8, 6, 2, 2, 2, 2, 6, -8,
		-15, -8, -10, -8, -8, -10, -8, -15,
	}, board{
		-12, -8, -6, -5, -5, -6, -8, -12,
		-8, -3, 0, 0, 0, 0, -3, -8,
		-6, 0, 4, 5, 5, 4, 0, -6,
		-5, 0, 5, 8, 8, 5, 0, -5,
		-5, 0, 5, 8, 8, 5, 0, -5,
		-6, 0, 4, 5, 5, 4, 0, -6,
		-8, -3, 0, 0, 0, 0, -3, -8,
		-12, -8, -6, -5, -5, -6, -8, -12,
	}},
	// Rooks: the seventh rank, central files a little.
	{board{
		5, 5, 8, 10, 10, 8, 5, 5,
		15, 18, 18, 20, 20, 18, 18, 15,
		0, 2, 4, 5, 5, 4, 2, 0,
		-3, 0, 2, 3, 3, 2, 0, -3,
		-4, 0, 0, 2, 2, 0, 0, -4,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-8, -3, 0, 0, 0, 0, -3, -8,
		-4, 0, 3, 6, 6, 3, 0, -4,
	}, board{
		6, 6, 6, 6, 6, 6, 6, 6,
		10, 10, 10, 10, 10, 10, 10, 10,
		4, 4, 4, 4, 4, 4, 4, 4,
		2, 2, 2, 2, 2, 2, 2, 2,
		0, 0, 0, 0, 0, 0, 0, 0,
		-2, -2, -2, -2, -2, -2, -2, -2,
		-4, -4, -4, -4, -4, -4, -4, -4,
		-4, -2, 0, 0, 0, 0, -2, -4,
	}},
	// Queens: no hurry to come out, slight centralization.
	{board{
		-10, -5, -5, 0, 0, -5, -5, -10,
		-5, -5, 0, 0, 0, 0, -5, -5,
		-5, 0, 2, 4, 4, 2, 0, -5,
		-5, 0, 4, 5, 5, 4, 0, -5,
		-5, 0, 4, 5, 5, 4, 0, -5,
		-5, 2, 4, 4, 4, 4, 2, -5,
		-8, 0, 2, 2, 2, 2, 0, -8,
		-10, -8, -5, 0, 0, -5, -8, -10,
	}, board{
		-20, -10, -8, -5, -5, -8, -10, -20,
		-10, 0, 5, 8, 8, 5, 0, -10,
		-8, 5, 10, 12, 12, 10, 5, -8,
		-5, 8, 12, 15, 15, 12, 8, -5,
		-5, 8, 12, 15, 15, 12, 8, -5,
		-8, 5, 10, 12, 12, 10, 5, -8,
		-10, 0, 5, 8, 8, 5, 0, -10,
		-20, -10, -8, -5, -5, -8, -10, -20,
	}},
	// King: tucked away near a corner in the middlegame, central in the
	// endgame.
	{board{
		-70, -70, -70, -70, -70, -70, -70, -70,
		-60, -60, -60, -60, -60, -60, -60, -60,
		-50, -50, -55, -60, -60, -55, -50, -50,
		-40, -45, -50, -55, -55, -50, -45, -40,
		-30, -35, -40, -45, -45, -40, -35, -30,
		-15, -20, -25, -30, -30, -25, -20, -15,
		5, 8, -5, -15, -15, -5, 8, 5,
		15, 25, 10, -5, -5, 10, 25, 15,
	}, board{
		-45, -25, -18, -15, -15, -18, -25, -45,
		-22, -5, 5, 8, 8, 5, -5, -22,
		-15, 5, 18, 22, 22, 18, 5, -15,
		-12, 8, 22, 28, 28, 22, 8, -12,
		-15, 5, 18, 25, 25, 18, 5, -15,
		-20, -2, 8, 14, 14, 8, -2, -20,
		-28, -12, -4, 0, 0, -4, -12, -28,
		-45, -30, -22, -18, -18, -22, -30, -45,
	}},
}

// handParams returns the hand-set weights.
func handParams() Params {
	var p Params
	// Material: pawn, knight, bishop, rook, queen.
	p.set(iMaterial, []int{80, 325, 340, 470, 980}, []int{105, 310, 330, 540, 1010})
	for piece, t := range handPST {
		mg, eg := t[0].squares(), t[1].squares()
		p.set(iPST+piece*64, mg[:], eg[:])
	}
	p.setHandMobility()
	p.setHandPawns()
	p.setHandKingSafety()
	p.setHandPieces()
	return p
}

// set gives the terms from start on the middlegame and endgame weights mg
// and eg.
func (p *Params) set(start int, mg, eg []int) {
	for i := range mg {
		p[start+i] = Pair{mg[i], eg[i]}
	}
}

// one gives term i the weights mg and eg.
func (p *Params) one(i, mg, eg int) { p[i] = Pair{mg, eg} }

// setHandMobility sets the mobility tables.
func (p *Params) setHandMobility() {
	// Mobility: steep at first (a trapped piece is nearly lost), then
	// flattening.
	p.set(iMobKnight,
		[]int{-35, -20, -8, 0, 6, 12, 17, 21, 24},
		[]int{-45, -28, -12, -2, 5, 11, 15, 18, 20})
	p.set(iMobBishop,
		[]int{-30, -18, -8, 0, 6, 12, 17, 21, 24, 27, 29, 31, 33, 35},
		[]int{-40, -25, -12, -3, 4, 10, 15, 19, 23, 26, 28, 30, 32, 34})
	p.set(iMobRook,
		[]int{-25, -15, -8, -3, 0, 3, 6, 9, 12, 14, 16, 18, 20, 22, 23},
		[]int{-45, -30, -15, -5, 3, 10, 17, 23, 28, 33, 37, 40, 43, 45, 47})
	p.set(iMobQueen,
		[]int{-15, -10, -6, -3, 0, 2, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22},
		[]int{-30, -20, -12, -6, 0, 5, 10, 14, 18, 21, 24, 27, 30, 32, 34, 36, 38, 40, 41, 42, 43, 44, 45, 46, 47, 47, 48, 48})
}

// setHandPawns sets the pawn-structure terms.
func (p *Params) setHandPawns() {
	p.one(iIsolated, -10, -12)
	p.one(iDoubled, -10, -20)
	p.one(iBackward, -8, -10)
	p.set(iPhalanx, []int{0, 2, 3, 6, 12, 25, 40, 0}, []int{0, 0, 2, 4, 10, 25, 50, 0})
	p.set(iSupported, []int{0, 0, 5, 7, 12, 20, 30, 0}, []int{0, 0, 3, 5, 10, 20, 35, 0})
	p.set(iPassed, []int{0, 0, 5, 10, 20, 35, 60, 0}, []int{0, 5, 10, 20, 40, 70, 110, 0})
	p.set(iPassedFree, []int{0, 0, 0, 0, 5, 10, 20, 0}, []int{0, 0, 0, 5, 15, 30, 50, 0})
	p.set(iPassedSafe, []int{0, 0, 0, 0, 5, 5, 10, 0}, []int{0, 0, 0, 5, 10, 20, 30, 0})
	p.one(iPassedKingOwn, 0, -2)
	p.one(iPassedKingOpp, 0, 5)
}

// setHandKingSafety sets the king's shelter and the attacks on it.
func (p *Params) setHandKingSafety() {
	// King shelter by the own pawn's relative rank (0 = no pawn), rows by
	// file distance from the edge: an open file in front of the king hurts
	// most in the centre. Storm: an enemy pawn close to our king.
	for d := 0; d < 4; d++ {
		open := -15 - 7*d
		p.set(iShelter+8*d,
			[]int{open, 12, 6, -4, -10, -14, -18, 0},
			[]int{0, 0, 0, 0, 0, 0, 0, 0})
		p.set(iStorm+8*d,
			[]int{-5, 0, -30, -16, -6, 0, 0, 0},
			[]int{0, 0, 0, 0, 0, 0, 0, 0})
	}
	p.set(iStormBlocked, []int{0, 0, -10, -4, 0, 0, 0, 0}, []int{0, 0, 0, 0, 0, 0, 0, 0})

	// King safety: the attacker's bonus.
	p.set(iKingAttack, []int{8, 6, 8, 12}, []int{0, 0, 0, 0})
	p.set(iKingAttackers, []int{0, 0, 10, 30, 55, 80, 100, 110}, []int{0, 0, 0, 0, 0, 0, 0, 0})
	p.set(iSafeCheck, []int{30, 20, 35, 25}, []int{5, 5, 5, 5})
}

// setHandPieces sets the piece terms, the threats and the tempo bonus.
func (p *Params) setHandPieces() {
	p.one(iBishopPair, 30, 50)
	p.one(iBadBishop, -2, -4)
	p.one(iCornerBishop, -40, -50)
	p.one(iCornerBlocked, -30, -30)
	p.one(iKnightOutpost, 20, 10)
	p.one(iBishopOutpost, 12, 5)
	p.one(iRookOpen, 25, 10)
	p.one(iRookSemiOpen, 12, 8)
	p.one(iRookSeventh, 10, 20)

	// Threats: victims knight, bishop, rook, queen.
	p.set(iThreatPawn, []int{50, 50, 70, 80}, []int{30, 30, 40, 40})
	p.set(iThreatMinor, []int{5, 5, 35, 40}, []int{10, 10, 25, 30})
	p.set(iThreatRook, []int{10, 10, 0, 40}, []int{15, 15, 0, 20})
	p.one(iHanging, 25, 20)

	p.one(iTempo, 20, 10)
}
