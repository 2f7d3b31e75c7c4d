package eval

import "github.com/kingrook/kingrook/movegen"

type (
	bitboard = movegen.Bitboard
	square   = movegen.Square
	color    = movegen.Color
)

const (
	white = movegen.White
	black = movegen.Black
)

// score packs a middlegame and an endgame value into one int32 so that a
// term costs one addition: mg in the high 16 bits, eg in the low 16 (a
// negative eg borrows one from the high half, which mg() undoes). Sums stay
// exact as long as both halves of the final total fit in 16 bits.
type score int32

func mkScore(mg, eg int) score { return score(int32(uint32(mg)<<16) + int32(eg)) }
func (s score) mg() int        { return int(int16(uint32(s+0x8000) >> 16)) }
func (s score) eg() int        { return int(int16(uint16(s))) }

// weights is Params compiled into packed scores.
type weights [NumTerms]score

func compile(p *Params) *weights {
	var w weights
	for i, pr := range p {
		w[i] = mkScore(pr.MG, pr.EG)
	}
	return &w
}

// DefaultParams returns a copy of the weights Evaluate uses: the tuned set
// when one was generated into params_tuned.go, else the hand-set one.
func DefaultParams() Params {
	if t := tunedParams(); t != nil {
		return *t
	}
	return handParams()
}

// HandParams returns a copy of the hand-set weights (the tuner's default
// starting point).
func HandParams() Params { return handParams() }

// Tables built once by init from constants and never written afterwards.
var (
	defaultWeights *weights
	forwardFile    [2][64]bitboard // squares in front of a square on its file, seen from a colour
	passedMask     [2][64]bitboard // squares in front on the same and adjacent files
	adjacentFiles  [8]bitboard
	forwardRanks   [2][8]bitboard // ranks strictly in front of a rank, seen from a colour
	outpostRanks   [2]bitboard    // relative ranks 4 to 6
	seventhRank    [2]bitboard
	eighthRank     [2]bitboard
)

func init() {
	dp := DefaultParams()
	defaultWeights = compile(&dp)
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentFiles[f] |= movegen.FileBB(f - 1)
		}
		if f < 7 {
			adjacentFiles[f] |= movegen.FileBB(f + 1)
		}
	}
	for r := 0; r < 8; r++ {
		for r2 := r + 1; r2 < 8; r2++ {
			forwardRanks[white][r] |= movegen.RankBB(r2)
		}
		for r2 := 0; r2 < r; r2++ {
			forwardRanks[black][r] |= movegen.RankBB(r2)
		}
	}
	for c := white; c <= black; c++ {
		for s := square(0); s < 64; s++ {
			ahead := forwardRanks[c][s.Rank()]
			forwardFile[c][s] = ahead & movegen.FileBB(s.File())
			passedMask[c][s] = ahead & (movegen.FileBB(s.File()) | adjacentFiles[s.File()])
		}
	}
	outpostRanks[white] = movegen.Rank4 | movegen.Rank5 | movegen.Rank6
	outpostRanks[black] = movegen.Rank5 | movegen.Rank4 | movegen.Rank3
	seventhRank[white], seventhRank[black] = movegen.Rank7, movegen.Rank2
	eighthRank[white], eighthRank[black] = movegen.Rank8, movegen.Rank1
}

// relative mirrors a square to c's side: the same square for white, the
// rank-mirrored one for black.
func relative(s square, c color) square { return s ^ square(56*int(c)) }

func distance(a, b square) int {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	return max(df, -df, dr, -dr)
}

func northFill(b bitboard) bitboard {
	b |= b << 8
	b |= b << 16
	return b | b<<32
}

func southFill(b bitboard) bitboard {
	b |= b >> 8
	b |= b >> 16
	return b | b>>32
}

// Evaluate returns the static evaluation of pos in centipawns from the side
// to move's point of view, with the default weights and no cache. It never
// returns a mate-range score. Safe for concurrent use.
func Evaluate(pos *movegen.Position) int {
	return evaluate(pos, defaultWeights, nil, nil)
}

// Evaluator evaluates with a given set of weights and a pawn-structure cache
// (pawns and kings, keyed by the position's pawn key). Its results equal
// Evaluate's for the same weights; the cache only saves time. An Evaluator
// is not safe for concurrent use: give each search thread its own. Make
// one with NewEvaluator: the zero Evaluator is not usable.
type Evaluator struct {
	w     *weights
	pawns []pawnEntry
	tr    *tracer // allocated on first use by Features
}

// pawnEntry caches the pawn-and-king terms of one pawn structure.
type pawnEntry struct {
	key    uint64
	score  score       // white's terms minus black's
	passed [2]bitboard // passed pawns by colour
}

// NewEvaluator returns an Evaluator with weights p (nil: DefaultParams) and
// a pawn cache of PawnCacheEntries entries (about half a megabyte).
func NewEvaluator(p *Params) *Evaluator {
	w := defaultWeights
	if p != nil {
		w = compile(p)
	}
	return &Evaluator{w: w, pawns: make([]pawnEntry, PawnCacheEntries)}
}

// Evaluate is Evaluate with the Evaluator's weights and pawn cache.
func (e *Evaluator) Evaluate(pos *movegen.Position) int {
	return evaluate(pos, e.w, e.pawns, nil)
}

// tracer records, for every term, how often it counted for each colour,
// and the non-linear parts of the final blend.
type tracer struct {
	coef   [NumTerms][2]int32
	phase  int
	scale  int
	rule50 int
	drawn  bool
	white  int // the blended score from white's view
}

// state is one evaluation in progress.
type state struct {
	pos  *movegen.Position
	w    *weights
	tr   *tracer
	sc   [2]score
	occ  bitboard
	att  [2][7]bitboard // [colour][piece type], index 0 = all
	att2 [2]bitboard    // squares attacked at least twice
	zone [2]bitboard    // king zone of each colour
	span [2]bitboard    // squares each colour's pawns attack or may attack later
	// Attacks on the enemy king zone, by the attacking colour.
	zoneAttackers [2]int
	zoneHits      [2][4]int // by attacker type - Knight
	passed        [2]bitboard
}

// add counts term i n times for colour c.
func (s *state) add(c color, i, n int) {
	s.sc[c] += s.w[i] * score(n)
	if s.tr != nil {
		s.tr.coef[i][c] += int32(n)
	}
}

func evaluate(pos *movegen.Position, w *weights, cache []pawnEntry, tr *tracer) int {
	if deadDraw(pos) {
		if tr != nil {
			tr.drawn = true
		}
		return Draw
	}
	s := state{pos: pos, w: w, tr: tr}
	s.setup()

	// 1. Pawns and kings: cached by pawn key when there is a cache.
	if cache != nil && tr == nil {
		key := pos.PawnKey()
		ent := &cache[key&uint64(len(cache)-1)]
		if key != 0 && ent.key == key {
			s.sc[white] += ent.score
			s.passed = ent.passed
		} else {
			s.pawnsAndKing(white)
			s.pawnsAndKing(black)
			*ent = pawnEntry{key: key, score: s.sc[white] - s.sc[black], passed: s.passed}
		}
	} else {
		s.pawnsAndKing(white)
		s.pawnsAndKing(black)
	}

	// 2. Pieces: material, placement, mobility, attack maps.
	s.pieces(white)
	s.pieces(black)

	// 3. Terms that need both sides' attack maps.
	for c := white; c <= black; c++ {
		s.kingSafety(c)
		s.passers(c)
		s.threats(c)
	}
	s.add(pos.SideToMove(), iTempo, 1)

	// 4. Blend by phase, scale drawish endgames, fade with the 50-move
	// counter.
	total := s.sc[white] - s.sc[black]
	mg, eg := total.mg(), total.eg()
	phase := gamePhase(pos)
	strong := white
	if eg < 0 {
		strong = black
	}
	sf := scaleFactor(pos, strong)
	v := (mg*phase + eg*(PhaseMax-phase)*sf/ScaleNormal) / PhaseMax
	r50 := min(pos.Rule50(), 100)
	v = v * (FadeBase - r50) / FadeBase
	if tr != nil {
		tr.phase, tr.scale, tr.rule50, tr.white = phase, sf, r50, v
	}
	if pos.SideToMove() == black {
		v = -v
	}
	return max(-(MateInMaxPly - 1), min(MateInMaxPly-1, v))
}

// setup fills the pawn and king attack maps, king zones and pawn spans.
func (s *state) setup() {
	pos := s.pos
	s.occ = pos.Occupied()
	for c := white; c <= black; c++ {
		pawns := pos.Pieces(c, movegen.Pawn)
		pa := movegen.PawnAttacksBB(c, pawns)
		ksq := pos.KingSquare(c)
		ka := movegen.KingAttacks(ksq)
		var twice, fill bitboard
		if c == white {
			twice = pawns.North().East() & pawns.North().West()
			fill = northFill(pawns)
		} else {
			twice = pawns.South().East() & pawns.South().West()
			fill = southFill(pawns)
		}
		s.att[c][movegen.Pawn] = pa
		s.att[c][movegen.King] = ka
		s.att[c][0] = pa | ka
		s.att2[c] = twice | pa&ka
		s.zone[c] = ka | movegen.SquareBB(ksq)
		s.span[c] = movegen.PawnAttacksBB(c, fill)
	}
}

// pawnsAndKing adds c's terms that depend only on pawns and kings: pawn
// material and placement, pawn structure, passed pawns by rank, king
// placement and shelter. It records c's passed pawns.
func (s *state) pawnsAndKing(us color) {
	pos := s.pos
	them := us.Other()
	ours := pos.Pieces(us, movegen.Pawn)
	theirs := pos.Pieces(them, movegen.Pawn)
	if ours != 0 {
		s.add(us, iMaterial, ours.Count())
	}
	for b := ours; b != 0; {
		sq := b.PopLSB()
		r := sq.RelativeRank(us)
		s.add(us, iPST+int(relative(sq, us)), 1)
		adj := adjacentFiles[sq.File()]
		supporters := movegen.PawnAttacks(them, sq) & ours
		phalanx := ours & adj & movegen.RankBB(sq.Rank())
		stop := sq + 8
		if us == black {
			stop = sq - 8
		}
		if forwardFile[us][sq]&ours != 0 {
			s.add(us, iDoubled, 1)
		}
		if ours&adj == 0 {
			s.add(us, iIsolated, 1)
		} else if supporters == 0 && ours&adj&^forwardRanks[us][sq.Rank()] == 0 &&
			(s.att[them][movegen.Pawn] | theirs).Has(stop) {
			// Every neighbour is ahead, and the advance is stopped.
			s.add(us, iBackward, 1)
		}
		if phalanx != 0 {
			s.add(us, iPhalanx+r, 1)
		}
		if supporters != 0 {
			s.add(us, iSupported+r, 1)
		}
		if passedMask[us][sq]&theirs == 0 && forwardFile[us][sq]&ours == 0 {
			s.passed[us] |= movegen.SquareBB(sq)
			s.add(us, iPassed+r, 1)
		}
	}

	// King placement and the pawn shelter in front of it, on the king's
	// file and its neighbours (shifted inward at the edge) - any file, as
	// Chess960 kings may castle anywhere or stay home.
	ksq := pos.KingSquare(us)
	s.add(us, iPST+5*64+int(relative(ksq, us)), 1)
	ahead := forwardRanks[us][ksq.Rank()] | movegen.RankBB(ksq.Rank())
	ourFront, theirFront := ours&ahead, theirs&ahead
	center := min(max(ksq.File(), 1), 6)
	for f := center - 1; f <= center+1; f++ {
		d := min(f, 7-f)
		fileBB := movegen.FileBB(f)
		ourRank, theirRank := 0, 0
		if b := ourFront & fileBB; b != 0 {
			ourRank = backmost(b, us).RelativeRank(us)
		}
		if b := theirFront & fileBB; b != 0 {
			theirRank = backmost(b, us).RelativeRank(us)
		}
		s.add(us, iShelter+8*d+ourRank, 1)
		if ourRank != 0 && ourRank == theirRank-1 {
			s.add(us, iStormBlocked+theirRank, 1)
		} else {
			s.add(us, iStorm+8*d+theirRank, 1)
		}
	}
}

// backmost returns the square of b closest to c's back rank.
func backmost(b bitboard, c color) square {
	if c == white {
		return b.LSB()
	}
	return b.MSB()
}

// record adds a piece's attacks to the maps and the king-attack counts.
func (s *state) record(us color, pt movegen.PieceType, a bitboard) {
	s.att2[us] |= s.att[us][0] & a
	s.att[us][0] |= a
	s.att[us][pt] |= a
	if z := a & s.zone[us.Other()]; z != 0 {
		s.zoneAttackers[us]++
		s.zoneHits[us][pt-movegen.Knight] += z.Count()
	}
}

// pieces adds material, placement, mobility and piece-specific terms for
// us's knights, bishops, rooks and queens.
func (s *state) pieces(us color) {
	pos := s.pos
	them := us.Other()
	mobArea := ^(pos.ByColor(us) | s.att[them][movegen.Pawn])
	outposts := outpostRanks[us] & s.att[us][movegen.Pawn] &^ s.span[them]
	s.knights(us, mobArea, outposts)
	s.bishops(us, mobArea, outposts)
	s.rooks(us, mobArea)
	s.queens(us, mobArea)
}

// material adds the count of b, us's pieces of type pt.
func (s *state) material(us color, pt movegen.PieceType, b bitboard) {
	if b != 0 {
		s.add(us, iMaterial+int(pt-movegen.Pawn), b.Count())
	}
}

// piece records the attacks a of us's piece of type pt on sq and adds its
// square and its mobility (mob is its type's first mobility term).
func (s *state) piece(us color, pt movegen.PieceType, sq square, a, mobArea bitboard, mob int) {
	s.record(us, pt, a)
	s.add(us, iPST+int(pt-movegen.Pawn)*64+int(relative(sq, us)), 1)
	s.add(us, mob+(a&mobArea).Count(), 1)
}

// knights adds the terms of us's knights.
func (s *state) knights(us color, mobArea, outposts bitboard) {
	b := s.pos.Pieces(us, movegen.Knight)
	s.material(us, movegen.Knight, b)
	for b != 0 {
		sq := b.PopLSB()
		s.piece(us, movegen.Knight, sq, movegen.KnightAttacks(sq), mobArea, iMobKnight)
		if outposts.Has(sq) {
			s.add(us, iKnightOutpost, 1)
		}
	}
}

// bishops adds the terms of us's bishops.
func (s *state) bishops(us color, mobArea, outposts bitboard) {
	b := s.pos.Pieces(us, movegen.Bishop)
	s.material(us, movegen.Bishop, b)
	if b.More() {
		s.add(us, iBishopPair, 1)
	}
	ourPawns := s.pos.Pieces(us, movegen.Pawn)
	for b != 0 {
		sq := b.PopLSB()
		s.piece(us, movegen.Bishop, sq, movegen.BishopAttacks(sq, s.occ), mobArea, iMobBishop)
		if outposts.Has(sq) {
			s.add(us, iBishopOutpost, 1)
		}
		sameColour := movegen.DarkSquares
		if !sameColour.Has(sq) {
			sameColour = ^sameColour
		}
		if n := (ourPawns & sameColour).Count(); n != 0 {
			s.add(us, iBadBishop, n)
		}
		s.cornerBishop(us, relative(sq, us), ourPawns)
	}
}

// cornerBishop adds the penalty of a bishop on rs (relative to us) boxed in
// its corner by its own pawn (a1/b2, h1/g2 and black's mirror): common in
// Chess960 starts.
func (s *state) cornerBishop(us color, rs square, ourPawns bitboard) {
	if rs != movegen.A1 && rs != movegen.H1 {
		return
	}
	pawnSq, frontSq := movegen.B2, movegen.NewSquare(1, 2)
	if rs == movegen.H1 {
		pawnSq, frontSq = movegen.G2, movegen.NewSquare(6, 2)
	}
	if ourPawns.Has(relative(pawnSq, us)) {
		s.add(us, iCornerBishop, 1)
		if s.occ.Has(relative(frontSq, us)) {
			s.add(us, iCornerBlocked, 1)
		}
	}
}

// rooks adds the terms of us's rooks.
func (s *state) rooks(us color, mobArea bitboard) {
	pos := s.pos
	them := us.Other()
	ourPawns := pos.Pieces(us, movegen.Pawn)
	theirPawns := pos.Pieces(them, movegen.Pawn)
	b := pos.Pieces(us, movegen.Rook)
	s.material(us, movegen.Rook, b)
	for b != 0 {
		sq := b.PopLSB()
		s.piece(us, movegen.Rook, sq, movegen.RookAttacks(sq, s.occ), mobArea, iMobRook)
		file := movegen.FileBB(sq.File())
		if file&ourPawns == 0 {
			if file&theirPawns == 0 {
				s.add(us, iRookOpen, 1)
			} else {
				s.add(us, iRookSemiOpen, 1)
			}
		}
		if seventhRank[us].Has(sq) &&
			(theirPawns&seventhRank[us] != 0 || eighthRank[us].Has(pos.KingSquare(them))) {
			s.add(us, iRookSeventh, 1)
		}
	}
}

// queens adds the terms of us's queens.
func (s *state) queens(us color, mobArea bitboard) {
	b := s.pos.Pieces(us, movegen.Queen)
	s.material(us, movegen.Queen, b)
	for b != 0 {
		sq := b.PopLSB()
		a := movegen.BishopAttacks(sq, s.occ) | movegen.RookAttacks(sq, s.occ)
		s.piece(us, movegen.Queen, sq, a, mobArea, iMobQueen)
	}
}

// kingSafety adds us's attack on the enemy king: zone attacks by piece
// type once enough pieces join, the number of attackers, and safe checks.
func (s *state) kingSafety(us color) {
	pos := s.pos
	them := us.Other()
	n := s.zoneAttackers[us]
	if n >= KingAttackMinAttackers {
		for i, h := range s.zoneHits[us] {
			if h != 0 {
				s.add(us, iKingAttack+i, h)
			}
		}
	}
	if n != 0 {
		s.add(us, iKingAttackers+min(n, 7), 1)
	}
	ksq := pos.KingSquare(them)
	safe := ^(s.att[them][0] | pos.ByColor(us))
	diag := movegen.BishopAttacks(ksq, s.occ) & safe
	orth := movegen.RookAttacks(ksq, s.occ) & safe
	checks := [4]bitboard{
		movegen.KnightAttacks(ksq) & safe & s.att[us][movegen.Knight],
		diag & s.att[us][movegen.Bishop],
		orth & s.att[us][movegen.Rook],
		(diag | orth) & s.att[us][movegen.Queen],
	}
	for i, c := range checks {
		if c != 0 {
			s.add(us, iSafeCheck+i, min(c.Count(), SafeCheckCap))
		}
	}
}

// passers adds the passed-pawn terms that depend on pieces: a free and an
// unattacked path, and both kings' distances to the stop square.
func (s *state) passers(us color) {
	pos := s.pos
	them := us.Other()
	for b := s.passed[us]; b != 0; {
		sq := b.PopLSB()
		r := sq.RelativeRank(us)
		path := forwardFile[us][sq]
		if path&s.occ == 0 {
			s.add(us, iPassedFree+r, 1)
		}
		if path&s.att[them][0] == 0 {
			s.add(us, iPassedSafe+r, 1)
		}
		if r >= 3 {
			stop := sq + 8
			if us == black {
				stop = sq - 8
			}
			k := r - 2
			s.add(us, iPassedKingOwn, k*min(distance(pos.KingSquare(us), stop), PassedKingDistCap))
			s.add(us, iPassedKingOpp, k*min(distance(pos.KingSquare(them), stop), PassedKingDistCap))
		}
	}
}

// threats adds us's attacks on enemy pieces: by pawns, minors and rooks by
// victim type, and undefended pieces under attack.
func (s *state) threats(us color) {
	pos := s.pos
	them := us.Other()
	victims := pos.ByColor(them) &^ (pos.ByType(movegen.Pawn) | pos.ByType(movegen.King))
	if victims == 0 {
		return
	}
	byPawn := s.att[us][movegen.Pawn] & victims
	byMinor := (s.att[us][movegen.Knight] | s.att[us][movegen.Bishop]) & victims
	byRook := s.att[us][movegen.Rook] & victims
	if byPawn|byMinor|byRook != 0 {
		for pt := movegen.Knight; pt <= movegen.Queen; pt++ {
			pcs := pos.Pieces(them, pt)
			i := int(pt - movegen.Knight)
			if n := (byPawn & pcs).Count(); n != 0 {
				s.add(us, iThreatPawn+i, n)
			}
			if n := (byMinor & pcs).Count(); n != 0 {
				s.add(us, iThreatMinor+i, n)
			}
			if n := (byRook & pcs).Count(); n != 0 {
				s.add(us, iThreatRook+i, n)
			}
		}
	}
	if h := victims & s.att[us][0] &^ s.att[them][0]; h != 0 {
		s.add(us, iHanging, h.Count())
	}
}

// gamePhase returns PhaseMax with all pieces on the board down to 0 with
// none but pawns and kings.
func gamePhase(pos *movegen.Position) int {
	p := PhaseKnight*pos.ByType(movegen.Knight).Count() +
		PhaseBishop*pos.ByType(movegen.Bishop).Count() +
		PhaseRook*pos.ByType(movegen.Rook).Count() +
		PhaseQueen*pos.ByType(movegen.Queen).Count()
	return min(p, PhaseMax)
}

// deadDraw tells whether neither side can mate: bare kings, a single minor,
// or two knights against a bare king.
func deadDraw(pos *movegen.Position) bool {
	if pos.ByType(movegen.Pawn)|pos.ByType(movegen.Rook)|pos.ByType(movegen.Queen) != 0 {
		return false
	}
	minors := pos.ByType(movegen.Knight) | pos.ByType(movegen.Bishop)
	if !minors.More() {
		return true
	}
	knights := pos.ByType(movegen.Knight)
	return minors == knights && minors.Count() == 2 &&
		(knights == pos.ByColor(white)&knights || knights == pos.ByColor(black)&knights)
}

// npmUnits returns c's non-pawn material in pawn units (fixed values).
func npmUnits(pos *movegen.Position, c color) int {
	return unitsMinor*(pos.Pieces(c, movegen.Knight)|pos.Pieces(c, movegen.Bishop)).Count() +
		unitsRook*pos.Pieces(c, movegen.Rook).Count() +
		unitsQueen*pos.Pieces(c, movegen.Queen).Count()
}

// scaleFactor returns the endgame scale for the side ahead (strong), out of
// ScaleNormal.
func scaleFactor(pos *movegen.Position, strong color) int {
	wb, bb := pos.Pieces(white, movegen.Bishop), pos.Pieces(black, movegen.Bishop)
	ocb := wb != 0 && bb != 0 && !wb.More() && !bb.More() &&
		(wb&movegen.DarkSquares != 0) != (bb&movegen.DarkSquares != 0)
	if !ocb && pos.Pieces(strong, movegen.Pawn) != 0 {
		return ScaleNormal // the common case
	}
	ns, nw := npmUnits(pos, strong), npmUnits(pos, strong.Other())
	// Opposite-coloured bishops.
	if ocb {
		if ns == unitsMinor && nw == unitsMinor {
			return ScaleOCBPure
		}
		return ScaleOCBPieces
	}
	// No pawns to promote and not a rook's worth ahead.
	if ns-nw <= unitsMinor {
		switch {
		case ns < unitsRook:
			return ScaleNoPawnsMinorOnly
		case nw <= unitsMinor:
			return ScaleNoPawnsVsMinor
		default:
			return ScaleNoPawnsEven
		}
	}
	return ScaleNormal
}
