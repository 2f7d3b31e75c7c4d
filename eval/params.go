package eval

// Pair is one tunable weight: its middlegame and endgame values in
// centipawns. The evaluation blends the two by game phase.
type Pair struct{ MG, EG int }

// Params holds every tunable weight of the evaluation as one flat array of
// pairs, indexed by the term layout below (see TermGroups for names). A
// tuner reads and writes it through Vector; the evaluation compiles it once
// into packed scores (NewEvaluator). The weights are counted for each side
// and the evaluation is white's sum minus black's, so every weight is
// written as a bonus (positive) or a penalty (negative) for the side that
// has the feature. Middlegame and endgame sums are packed in 16 bits each,
// so one side's total must stay within ±32767 (ordinary weights are far
// below).
type Params [NumTerms]Pair

// Vector returns pointers to every weight, MG then EG of each term in index
// order: a flat view for tuners.
func (p *Params) Vector() []*int {
	v := make([]*int, 0, 2*NumTerms)
	for i := range p {
		v = append(v, &p[i].MG, &p[i].EG)
	}
	return v
}

// Term layout: the start index of each group of weights in Params. Indexed
// groups say what their index is.
const (
	iMaterial      = 0                  // [piece type - Pawn], pawn..queen
	iPST           = iMaterial + 5      // [piece type - Pawn][square from white's side], pawn..king
	iMobKnight     = iPST + 6*64        // [squares reachable in the mobility area]
	iMobBishop     = iMobKnight + 9     // same, 0..13
	iMobRook       = iMobBishop + 14    // same, 0..14
	iMobQueen      = iMobRook + 15      // same, 0..27
	iIsolated      = iMobQueen + 28     // per isolated pawn
	iDoubled       = iIsolated + 1      // per pawn with an own pawn in front on its file
	iBackward      = iDoubled + 1       // per backward pawn
	iPhalanx       = iBackward + 1      // [relative rank] pawn with an own pawn beside it
	iSupported     = iPhalanx + 8       // [relative rank] pawn defended by an own pawn
	iPassed        = iSupported + 8     // [relative rank] passed pawn
	iPassedFree    = iPassed + 8        // [relative rank] passed pawn whose path is empty
	iPassedSafe    = iPassedFree + 8    // [relative rank] passed pawn whose path the enemy does not attack
	iPassedKingOwn = iPassedSafe + 8    // times own king distance to the stop square times (rank-2)
	iPassedKingOpp = iPassedKingOwn + 1 // times enemy king distance to the stop square times (rank-2)
	iShelter       = iPassedKingOpp + 1 // [file distance from the edge 0..3][relative rank of own pawn, 0 = none]
	iStorm         = iShelter + 32      // [file distance from the edge][relative rank of enemy pawn, 0 = none]
	iStormBlocked  = iStorm + 32        // [relative rank] enemy storm pawn blocked by our shelter pawn
	iKingAttack    = iStormBlocked + 8  // [attacker type - Knight] per enemy king-zone square attacked
	iKingAttackers = iKingAttack + 4    // [number of attackers of the enemy king zone, capped at 7]
	iSafeCheck     = iKingAttackers + 8 // [checker type - Knight] per safe checking square
	iBishopPair    = iSafeCheck + 4     // two or more bishops
	iBadBishop     = iBishopPair + 1    // per own pawn on the bishop's square colour
	iCornerBishop  = iBadBishop + 1     // bishop in a corner behind its own pawn (a1/b2, h1/g2), 960
	iCornerBlocked = iCornerBishop + 1  // ... and the square in front of that pawn is occupied too
	iKnightOutpost = iCornerBlocked + 1 // knight on ranks 4-6, pawn-defended, no enemy pawn can chase it
	iBishopOutpost = iKnightOutpost + 1 // same for a bishop
	iRookOpen      = iBishopOutpost + 1 // rook on a file without pawns
	iRookSemiOpen  = iRookOpen + 1      // rook on a file without own pawns
	iRookSeventh   = iRookSemiOpen + 1  // rook on the 7th with enemy pawns there or the enemy king on the 8th
	iThreatPawn    = iRookSeventh + 1   // [victim type - Knight] enemy piece attacked by our pawn
	iThreatMinor   = iThreatPawn + 4    // [victim type - Knight] enemy piece attacked by our knight or bishop
	iThreatRook    = iThreatMinor + 4   // [victim type - Knight] enemy piece attacked by our rook
	iHanging       = iThreatRook + 4    // enemy piece (not pawn or king) attacked and not defended
	iTempo         = iHanging + 1       // side to move
	NumTerms       = iTempo + 1         // number of pairs in Params
)

// TermGroup names a run of consecutive weights in Params.
type TermGroup struct {
	Name  string
	Start int // first index in Params
	Len   int // number of pairs
	Cols  int // pairs per printed row (8 for rank-shaped tables), for generated code
}

// TermGroups returns the layout of Params, in index order.
func TermGroups() []TermGroup {
	return []TermGroup{
		{"Material", iMaterial, 5, 5},
		{"PST pawn", iPST + 0*64, 64, 8},
		{"PST knight", iPST + 1*64, 64, 8},
		{"PST bishop", iPST + 2*64, 64, 8},
		{"PST rook", iPST + 3*64, 64, 8},
		{"PST queen", iPST + 4*64, 64, 8},
		{"PST king", iPST + 5*64, 64, 8},
		{"Mobility knight", iMobKnight, 9, 9},
		{"Mobility bishop", iMobBishop, 14, 7},
		{"Mobility rook", iMobRook, 15, 5},
		{"Mobility queen", iMobQueen, 28, 7},
		{"Isolated pawn", iIsolated, 1, 1},
		{"Doubled pawn", iDoubled, 1, 1},
		{"Backward pawn", iBackward, 1, 1},
		{"Phalanx pawn", iPhalanx, 8, 8},
		{"Supported pawn", iSupported, 8, 8},
		{"Passed pawn", iPassed, 8, 8},
		{"Passed free path", iPassedFree, 8, 8},
		{"Passed safe path", iPassedSafe, 8, 8},
		{"Passed own king", iPassedKingOwn, 1, 1},
		{"Passed enemy king", iPassedKingOpp, 1, 1},
		{"King shelter", iShelter, 32, 8},
		{"Pawn storm", iStorm, 32, 8},
		{"Blocked storm", iStormBlocked, 8, 8},
		{"King attack", iKingAttack, 4, 4},
		{"King attackers", iKingAttackers, 8, 8},
		{"Safe check", iSafeCheck, 4, 4},
		{"Bishop pair", iBishopPair, 1, 1},
		{"Bad bishop", iBadBishop, 1, 1},
		{"Corner bishop", iCornerBishop, 1, 1},
		{"Corner bishop blocked", iCornerBlocked, 1, 1},
		{"Knight outpost", iKnightOutpost, 1, 1},
		{"Bishop outpost", iBishopOutpost, 1, 1},
		{"Rook open file", iRookOpen, 1, 1},
		{"Rook semi-open file", iRookSemiOpen, 1, 1},
		{"Rook on seventh", iRookSeventh, 1, 1},
		{"Threat by pawn", iThreatPawn, 4, 4},
		{"Threat by minor", iThreatMinor, 4, 4},
		{"Threat by rook", iThreatRook, 4, 4},
		{"Hanging piece", iHanging, 1, 1},
		{"Tempo", iTempo, 1, 1},
	}
}

// Fixed (untuned) constants of the evaluation.
const (
	// Phase weights of the non-pawn pieces; PhaseMax is the opening phase.
	PhaseKnight = 1
	PhaseBishop = 1
	PhaseRook   = 2
	PhaseQueen  = 4
	PhaseMax    = 24

	// ScaleNormal is the endgame scale factor of an ordinary position; the
	// others replace it in drawish endgames (applied to the endgame part,
	// for the side ahead).
	ScaleNormal = 64
	// ScaleOCBPure: opposite-coloured bishops and pawns only.
	ScaleOCBPure = 18
	// ScaleOCBPieces: opposite-coloured bishops with other pieces.
	ScaleOCBPieces = 46
	// ScaleNoPawnsMinorOnly: the side ahead has no pawns and at most a minor.
	ScaleNoPawnsMinorOnly = 0
	// ScaleNoPawnsVsMinor: the side ahead has no pawns, at most a minor's
	// worth of extra material, and the defender has at most a minor (KRvKB).
	ScaleNoPawnsVsMinor = 6
	// ScaleNoPawnsEven: the side ahead has no pawns and at most a minor's
	// worth of extra material (KRBvKR, KQvKQ...).
	ScaleNoPawnsEven = 14

	// Material in pawn units for the scale rules (not the tuned values, so
	// that tuning never changes which rule applies).
	unitsMinor = 3
	unitsRook  = 5
	unitsQueen = 9

	// FadeBase: the score is multiplied by (FadeBase - rule50) / FadeBase,
	// so it drifts toward a draw as the 50-move counter runs.
	FadeBase = 200

	// KingAttackMinAttackers: zone attacks count once this many pieces join.
	KingAttackMinAttackers = 2
	// SafeCheckCap caps the safe checking squares counted per piece type.
	SafeCheckCap = 3
	// PassedKingDistCap caps the king distances of the passed-pawn terms.
	PassedKingDistCap = 5

	// PawnCacheEntries is the size of an Evaluator's pawn-structure cache.
	PawnCacheEntries = 1 << 14
)
