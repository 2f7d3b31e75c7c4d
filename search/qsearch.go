package search

import (
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// Quiescence search: captures (all evasions in check) until the position is
// quiet, with stand pat, delta and SEE pruning.

// qsearch searches noisy moves until the position is quiet (all evasions
// when in check).
func (w *worker) qsearch(alpha, beta, ply int) int {
	pos := w.pos
	pvNode := beta-alpha > 1
	f := &w.stack[ply+stackOffset]
	f.pvLen = 0
	if pvNode && ply > w.selDepth {
		w.selDepth = ply
	}
	if w.shouldStop() {
		return 0
	}
	if pos.IsDrawnRepetition(ply) || pos.InsufficientMaterial() {
		return w.drawScore()
	}
	inCheck := pos.InCheck()
	if pos.Rule50() >= rule50Plies && (!inCheck || pos.HasLegalMove()) {
		return w.drawScore()
	}
	if ply >= maxPly-1 {
		return w.plyLimitScore(inCheck, ply)
	}

	key := pos.Key()
	te, hit := w.table.Probe(key, ply)
	if !pvNode && hit && pos.Rule50() < ttCutoffMaxRule50 && ttCuts(te, alpha, beta) {
		return te.Score
	}
	ttPV := pvNode || (hit && te.PV)

	// Stand pat: out of check, the side to move may decline every capture.
	bestScore := -infinite
	staticEval := -infinite
	if !inCheck {
		if hit {
			staticEval = te.Eval
		} else {
			staticEval = w.evaluate(ply)
		}
		bestScore = refineEval(te, hit, staticEval)
		if eval.IsMate(bestScore) {
			bestScore = staticEval // a mate found elsewhere is no value to stand on
		}
		if bestScore >= beta {
			if !hit {
				w.table.Store(key, ply, movegen.NoMove, bestScore, staticEval, evalOnlyDepth, tt.BoundLower, false)
			}
			return bestScore
		}
		alpha = max(alpha, bestScore)
	}

	ttMove := movegen.NoMove
	if hit {
		ttMove = te.Move
	}
	var mp picker
	mp.init(w, ply, ttMove, true)
	bestMove := movegen.NoMove
	moveCount := 0
	origAlpha := alpha
	for m := mp.next(); m != movegen.NoMove; m = mp.next() {
		moveCount++
		if (!inCheck || bestScore > -eval.MateInMaxPly) && qsSkip(pos, m, inCheck, staticEval, alpha, &bestScore) {
			continue
		}
		w.makeMove(m, ply)
		score := -w.qsearch(-beta, -alpha, ply+1)
		pos.Unmake()
		if w.stopped {
			return 0
		}
		if score > bestScore {
			bestScore = score
			if score > alpha {
				bestMove = m
				if pvNode {
					w.updatePV(ply, m)
				}
				if score >= beta {
					break
				}
				alpha = score
			}
		}
	}
	if inCheck && moveCount == 0 {
		return eval.MatedIn(ply)
	}
	w.table.Store(key, ply, bestMove, bestScore, staticEval, qsDepth, boundFor(bestScore, origAlpha, beta, pvNode), ttPV)
	return bestScore
}

// qsSkip tells whether qsearch skips m. Out of check, delta pruning skips a
// capture when even its victim and a margin leave the score at or below
// alpha and the exchange wins nothing; that optimistic score still raises
// bestScore. Any move that loses material in the exchange is skipped.
func qsSkip(pos *movegen.Position, m movegen.Move, inCheck bool, staticEval, alpha int, bestScore *int) bool {
	if !inCheck {
		optimistic := staticEval + seeValues[pos.CapturedType(m)] + qsDeltaMargin
		if !m.IsPromotion() && optimistic <= alpha && !see(pos, m, 1) {
			*bestScore = max(*bestScore, optimistic)
			return true
		}
	}
	return !see(pos, m, 0)
}
