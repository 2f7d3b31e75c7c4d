package search

import "github.com/kingrook/kingrook/movegen"

// Move picker stages.
const (
	stageTT = iota
	stageGenNoisy
	stageGoodNoisy
	stageGenQuiet
	stageQuiet
	stageBadNoisy
	stageDone
)

// Ordering score bands.
const (
	scoreKiller1 = 1 << 28
	scoreKiller2 = scoreKiller1 - 1
	scoreCounter = scoreKiller1 - 2
)

// picker yields legal moves in a good order, generating them in stages:
// the TT move, winning noisy moves, quiet moves (killers and counter-move
// first, then by history), then losing noisy moves.
type picker struct {
	w          *worker
	ply        int
	ttMove     movegen.Move
	killers    [2]movegen.Move
	counter    movegen.Move
	stage      int
	noisy      movegen.MoveList
	quiet      movegen.MoveList
	bad        [movegen.MaxMoves]movegen.Move
	nBad       int
	idx        int
	badIdx     int
	skipQuiets bool
	qsearch    bool // only noisy moves (all moves when in check)
	inCheck    bool
}

func (mp *picker) init(w *worker, ply int, ttMove movegen.Move, qsearch bool) {
	mp.w = w
	mp.ply = ply
	mp.ttMove = ttMove
	mp.qsearch = qsearch
	mp.inCheck = w.pos.InCheck()
	mp.stage = stageTT
	mp.nBad, mp.idx, mp.badIdx = 0, 0, 0
	mp.skipQuiets = false
	mp.noisy.N, mp.quiet.N = 0, 0
	f := &w.stack[ply+stackOffset]
	mp.killers = f.killers
	mp.counter = movegen.NoMove
	if prev := &w.stack[ply+stackOffset-1]; prev.move != movegen.NoMove && prev.move != movegen.NullMove {
		mp.counter = w.hist.counter[prev.piece][prev.move.To()]
	}
	if ttMove == movegen.NoMove || (qsearch && !mp.inCheck && !isNoisy(w.pos, ttMove)) || !w.pos.IsLegal(ttMove) {
		mp.ttMove = movegen.NoMove
		mp.stage = stageGenNoisy
	}
}

// isNoisy tells whether m is a capture or a queen promotion (the generator's
// split between noisy and quiet moves).
func isNoisy(pos *movegen.Position, m movegen.Move) bool {
	return isCapture(pos, m) || (m.IsPromotion() && m.PromotionType() == movegen.Queen)
}

// pickBest moves the best-scored remaining move to position i and returns it
// (the first of equal scores; the one at i goes to the best one's place).
func pickBest(l *movegen.MoveList, i int) movegen.Move {
	ms := l.Moves[i:l.N]
	// The best score first (a conditional move, no branch to mispredict),
	// then the first move that has it.
	bestScore := ms[0].Score
	for j := 1; j < len(ms); j++ {
		bestScore = max(bestScore, ms[j].Score)
	}
	best := 0
	for ms[best].Score != bestScore {
		best++
	}
	ms[0], ms[best] = ms[best], ms[0]
	return ms[0].Move
}

// next returns the next move, or NoMove when none is left.
func (mp *picker) next() movegen.Move {
	pos := mp.w.pos
	for {
		switch mp.stage {
		case stageTT:
			mp.stage = stageGenNoisy
			return mp.ttMove
		case stageGenNoisy:
			pos.GenerateNoisy(&mp.noisy)
			mp.scoreNoisy()
			mp.idx = 0
			mp.stage = stageGoodNoisy
		case stageGoodNoisy:
			for mp.idx < mp.noisy.N {
				m := pickBest(&mp.noisy, mp.idx)
				mp.idx++
				if m == mp.ttMove {
					continue
				}
				if !mp.qsearch && !see(pos, m, -int(mp.noisy.Moves[mp.idx-1].Score)/badNoisySEEDiv) {
					mp.bad[mp.nBad] = m
					mp.nBad++
					continue
				}
				return m
			}
			if mp.qsearch && !mp.inCheck {
				mp.stage = stageDone
				continue
			}
			mp.stage = stageGenQuiet
		case stageGenQuiet:
			if mp.skipQuiets {
				mp.stage = stageBadNoisy
				continue
			}
			pos.GenerateQuiet(&mp.quiet)
			mp.scoreQuiet()
			mp.idx = 0
			mp.stage = stageQuiet
		case stageQuiet:
			for !mp.skipQuiets && mp.idx < mp.quiet.N {
				m := pickBest(&mp.quiet, mp.idx)
				mp.idx++
				if m == mp.ttMove {
					continue
				}
				return m
			}
			mp.stage = stageBadNoisy
		case stageBadNoisy:
			if mp.badIdx < mp.nBad {
				mp.badIdx++
				return mp.bad[mp.badIdx-1]
			}
			mp.stage = stageDone
		default:
			return movegen.NoMove
		}
	}
}

// scoreNoisy scores the noisy moves by the victim's value and the capture
// history; a promotion adds a multiple of the queen's value.
func (mp *picker) scoreNoisy() {
	w := mp.w
	pos := w.pos
	att := w.stack[mp.ply+stackOffset].threats
	for i := 0; i < mp.noisy.N; i++ {
		m := mp.noisy.Moves[i].Move
		victim := pos.CapturedType(m)
		s := int32(seeValues[victim]*noisyVictimMul) + int32(*w.hist.captureEntry(pos, att, m))/int32(noisyHistoryDiv)
		if m.IsPromotion() {
			s += int32(seeValues[movegen.Queen] * noisyPromoMul)
		}
		mp.noisy.Moves[i].Score = s
	}
}

// scoreQuiet orders the quiet moves: the killers and the counter-move
// first, then by butterfly and continuation history (one, two, four and six
// plies back).
func (mp *picker) scoreQuiet() {
	w := mp.w
	pos := w.pos
	us := pos.SideToMove()
	att := w.stack[mp.ply+stackOffset].threats
	ch1 := w.stack[mp.ply+stackOffset-1].cont
	ch2 := w.stack[mp.ply+stackOffset-2].cont
	ch4 := w.stack[mp.ply+stackOffset-4].cont
	ch6 := w.stack[mp.ply+stackOffset-6].cont
	butterfly := &w.hist.butterfly[us&1]
	k1, k2, counter := mp.killers[0], mp.killers[1], mp.counter
	// Locals and a subslice: the loop's stores cannot change them, so the
	// compiler loads them once and checks no bounds but the tables' (a
	// piece is below 16, a square below 64).
	qs := mp.quiet.Moves[:mp.quiet.N]
	for i := range qs {
		m := qs[i].Move
		var s int32
		switch m {
		case k1:
			s = scoreKiller1
		case k2:
			s = scoreKiller2
		case counter:
			s = scoreCounter
		default:
			from, to := m.From(), m.To()
			pc := pos.PieceOn(from) & 15
			s = int32(butterfly[boolToInt(att.Has(from))][boolToInt(att.Has(to))][from][to]) +
				int32(quietCont1Mul)*int32(ch1[pc][to]) + int32(ch2[pc][to]) + (int32(ch4[pc][to])+int32(ch6[pc][to]))/int32(quietCont4Div)
		}
		qs[i].Score = s
	}
}
