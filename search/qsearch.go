package search

import (
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// Quiescence search: captures (all evasions in check) until the position is
// quiet, with stand pat, delta and SEE pruning; at its first ply, also the
// quiet moves that give check.

// qsearch is quiescence's first ply, called at the main search's horizon:
// noisy moves, then quiet checks that lose no material.
func (w *worker) qsearch(alpha, beta, ply int) int {
	return w.quiesce(alpha, beta, ply, true)
}

// quiesce searches noisy moves until the position is quiet (all evasions
// when in check), and the quiet checks when checks is set.
func (w *worker) quiesce(alpha, beta, ply int, checks bool) int {
	pos := w.pos
	pvNode := beta-alpha > 1
	f := &w.stack[ply+stackOffset]
	f.pvLen = 0
	if pvNode && ply > w.selDepth {
		w.selDepth = ply
	}

	// 1. Stop, draws and the ply limit.
	inCheck, exitScore, done := w.qsExit(ply)
	if done {
		return exitScore
	}
	// An upcoming repetition: the side to move can draw at least.
	if alpha < 0 && pos.HasUpcomingRepetition(ply) {
		alpha = w.drawScore()
		if alpha >= beta {
			return alpha
		}
	}

	// 2. Transposition table.
	key := pos.Key()
	te, hit := w.ttLookup(key, ply)
	// A node without the quiet checks stores a ply less (qsNoChecksDepth):
	// its upper bound, or exact score, does not hold for a node with them.
	if !pvNode && hit && pos.Rule50() < ttCutoffMaxRule50 && ttCuts(te, alpha, beta) &&
		(!checks || te.Depth() >= qsDepth || te.Bound() == tt.BoundLower) {
		return te.Score
	}
	ttPV := pvNode || (hit && te.PV())

	// 3. Stand pat: out of check, the side to move may decline every capture.
	bestScore := -infinite
	staticEval, rawEval := -infinite, -infinite
	if !inCheck {
		rawEval, staticEval, bestScore = w.standPat(te, hit, ply)
		if bestScore >= beta {
			bestScore = failHighScore(bestScore, beta)
			if !hit {
				w.ttRecord(key, ply, movegen.NoMove, bestScore, rawEval, evalOnlyDepth, tt.BoundLower, false)
			}
			return bestScore
		}
		alpha = max(alpha, bestScore)
	}

	// 4. The noisy moves (all evasions in check).
	ttMove := movegen.NoMove
	if hit {
		ttMove = te.Move()
	}
	f.threats = threats(pos) // for the histories, as negamax sets them
	mp := &w.pickers[ply+stackOffset][pickQsearch]
	mp.init(w, ply, ttMove, true)
	bestMove := movegen.NoMove
	moveCount := 0
	origAlpha := alpha
	var tried [maxNoisyTried]movegen.Move // captures searched, for the capture history
	nTried := 0
	for m := mp.next(); m != movegen.NoMove; m = mp.next() {
		moveCount++
		// In check, once a move is found that is not mated, the quiet
		// evasions are left out: quiescence looks for captures that
		// change the score, and a quiet evasion seldom does.
		notMated := bestScore > -eval.MateInMaxPly
		if inCheck && notMated && !isNoisy(pos, m) {
			continue
		}
		// The child's table entry is asked for before the exchange is
		// judged, so that it arrives while qsSkip works.
		w.table.Prefetch(pos.KeyAfter(m))
		if (!inCheck || notMated) && qsSkip(pos, m, inCheck, staticEval, alpha, &bestScore) {
			continue
		}
		capture := isCapture(pos, m)
		w.makeMove(m, ply)
		score := -w.quiesce(-beta, -alpha, ply+1, false)
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
		if capture && nTried < len(tried) {
			tried[nTried] = m
			nTried++
		}
	}

	// 4b. Quiet checks, at the first ply, while no move has failed high.
	if checks && !inCheck && bestScore < beta && staticEval+qsCheckMargin > alpha {
		if w.qsQuietChecks(mp, ply, &alpha, beta, &bestScore, &bestMove, pvNode) {
			return 0
		}
	}

	// 5. Mate, the capture history of a cutoff, and the table store.
	if inCheck && moveCount == 0 {
		return eval.MatedIn(ply)
	}
	if bestScore >= beta {
		if bestMove != movegen.NoMove && isCapture(pos, bestMove) {
			w.updateCaptureHistory(ply, bestMove, qsHistoryBonus)
			for _, m := range tried[:nTried] {
				w.updateCaptureHistory(ply, m, -qsHistoryBonus)
			}
		}
		bestScore = failHighScore(bestScore, beta)
	}
	depth := qsDepth
	if !checks {
		depth = qsNoChecksDepth
	}
	w.ttRecord(key, ply, bestMove, bestScore, rawEval, depth, boundFor(bestScore, origAlpha, beta, pvNode), ttPV)
	return bestScore
}

// qsQuietChecks is step 4b of quiesce: it searches the quiet moves that
// give check and lose no material in the exchange (not the underpromotions),
// updating alpha, the best score and move, and tells whether the search
// stopped. It uses the picker's quiet list, which quiescence out of check
// leaves unused.
func (w *worker) qsQuietChecks(mp *picker, ply int, alpha *int, beta int, bestScore *int, bestMove *movegen.Move, pvNode bool) (stopped bool) {
	pos := w.pos
	l := &mp.quiet
	pos.GenerateQuiet(l)
	for i := range l.N {
		m := l.Moves[i].Move
		if m.IsPromotion() || !pos.GivesCheck(m) || !see(pos, m, 0) {
			continue
		}
		w.makeMove(m, ply)
		score := -w.quiesce(-beta, -*alpha, ply+1, false)
		pos.Unmake()
		if w.stopped {
			return true
		}
		if score > *bestScore {
			*bestScore = score
			if score > *alpha {
				*bestMove = m
				if pvNode {
					w.updatePV(ply, m)
				}
				if score >= beta {
					return false
				}
				*alpha = score
			}
		}
	}
	return false
}

// failHighScore is the score quiescence returns for a fail high: halfway
// back to beta, as the stand pat or a capture's score above beta is an
// estimate that the moves left unsearched could only lower (not for mate
// scores, which are exact).
func failHighScore(score, beta int) int {
	if eval.IsMate(score) || eval.IsMate(beta) {
		return score
	}
	return (score + beta) / 2
}

// qsExit is step 1 of qsearch: it returns done with the score when the
// search stops, the position is drawn or the ply limit is reached, and
// tells whether the side to move is in check.
func (w *worker) qsExit(ply int) (inCheck bool, score int, done bool) {
	pos := w.pos
	if w.shouldStop() {
		return false, 0, true
	}
	if pos.IsDrawnRepetition(ply) || pos.InsufficientMaterial() {
		return false, w.drawScore(), true
	}
	inCheck = pos.InCheck()
	if pos.Rule50() >= rule50Plies && (!inCheck || pos.HasLegalMove()) {
		return inCheck, w.drawScore(), true
	}
	if ply >= eval.MaxPly-1 {
		return inCheck, w.plyLimitScore(inCheck, ply), true
	}
	return inCheck, 0, false
}

// standPat returns the static evaluation of a quiescence node out of check
// (the table's, from te, when hit) before and after the correction history,
// and the score the side to move can stand on: the TT score when its bound
// makes it the better estimate, else the corrected static evaluation.
func (w *worker) standPat(te ttEntry, hit bool, ply int) (rawEval, staticEval, standScore int) {
	if hit {
		rawEval = te.Eval()
	} else {
		rawEval = w.evaluate(ply)
	}
	staticEval = w.correction(rawEval, ply)
	standScore = refineEval(te, hit, staticEval)
	if eval.IsMate(standScore) {
		standScore = staticEval // a mate found elsewhere is no value to stand on
	}
	return rawEval, staticEval, standScore
}

// qsSkip tells whether qsearch skips m. Out of check, delta pruning skips a
// capture when even its victim and a margin leave the score at or below
// alpha and the exchange wins nothing; that optimistic score still raises
// bestScore. Any move that loses material in the exchange is skipped.
func qsSkip(pos *movegen.Position, m movegen.Move, inCheck bool, staticEval, alpha int, bestScore *int) bool {
	if !inCheck {
		optimistic := staticEval + seeValues[pos.CapturedType(m)] + qsDeltaMargin
		if !m.IsPromotion() && optimistic <= alpha {
			if !see(pos, m, 1) {
				*bestScore = max(*bestScore, optimistic)
				return true
			}
			return false // it gains at least 1, so at least 0: no second exchange
		}
	}
	return !see(pos, m, 0)
}
