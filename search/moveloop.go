package search

import (
	"math"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// The move loop of negamax, steps 10 to 14: pruning of single moves,
// extensions, late move reductions and the principal variation search of
// each move, and the best move and cutoffs.

// moveInfo is what the move loop knows of a move before making it.
type moveInfo struct {
	m         movegen.Move
	count     int  // 1-based number among the moves searched at this node
	noisy     bool // capture or queen promotion
	capture   bool
	histScore int // butterfly and continuation history (quiet moves), capture history (noisy ones)
}

// loopResult is what the move loop leaves for the node's result.
type loopResult struct {
	bestScore int
	bestMove  movegen.Move
	moveCount int
	quiets    [maxQuietsTried]movegen.Move // tried and not best, for the history malus
	noisy     [maxNoisyTried]movegen.Move
	nQuiet    int
	nNoisy    int
}

// searchMoves is steps 10 to 14, the move loop. It returns done with a score
// when the node ends early (stop, or a singular-extension multi-cut).
func (w *worker) searchMoves(n *node, res *loopResult) (int, bool) {
	pos := w.pos
	us := pos.SideToMove()
	mp := &w.pickers[n.ply+stackOffset][pickNegamax+boolToInt(n.excluded != movegen.NoMove)]
	mp.init(w, n.ply, n.ttMove, false)
	res.bestScore, res.bestMove = n.tbFloor, movegen.NoMove
	n.origAlpha = n.alpha
	n.ttCapture = n.ttMove != movegen.NoMove && isCapture(pos, n.ttMove)
	for m := mp.next(); m != movegen.NoMove; m = mp.next() {
		if m == n.excluded || (n.ply == 0 && !w.isRootMove(m)) {
			continue
		}
		res.moveCount++
		mi := moveInfo{m: m, count: res.moveCount, noisy: isNoisy(pos, m), capture: isCapture(pos, m)}
		if !mi.noisy {
			mi.histScore = w.quietHistory(n.ply, m)
		} else {
			mi.histScore = int(*w.hist.captureEntry(pos, n.f.threats, m))
		}

		// 11. Pruning at shallow depth. The child's table entry is asked
		// for first, so that it arrives while the tests work.
		w.table.Prefetch(pos.KeyAfter(m))
		if n.ply > 0 && res.bestScore > -eval.MateInMaxPly && pos.NonPawnMaterial(us) && w.pruneMove(n, mp, &mi) {
			continue
		}

		// 12. Extensions.
		extension, cutScore, cut := w.extension(n, m)
		if cut {
			return cutScore, true
		}
		newDepth := n.depth - 1 + extension
		w.stack[n.ply+stackOffset+1].doubleExt = n.f.doubleExt + boolToInt(extension >= 2)

		// 13. Late move reductions, then the principal variation search.
		nodesBefore := w.nodes
		score := w.searchMove(n, mp, &mi, newDepth, res.bestScore)
		if w.stopped {
			return 0, true
		}
		if n.ply == 0 {
			w.updateRootMove(m, score, mi.count, n.alpha, n.beta, w.nodes-nodesBefore)
		}

		// 14. Best move and cutoffs.
		if score > res.bestScore {
			res.bestScore = score
			if score > n.alpha {
				res.bestMove = m
				if n.pvNode {
					w.updatePV(n.ply, m)
				}
				if score >= n.beta {
					break
				}
				n.alpha = score
				if n.pvNode && n.depth >= pvDropMinDepth && n.depth <= pvDropMaxDepth && !eval.IsMate(score) {
					n.depth-- // the rest need only show they are worse
				}
			}
		}
		if m != res.bestMove {
			res.addTried(m, mi.noisy)
		}
	}
	return 0, false
}

// addTried remembers a move that was searched and is not the best, while
// there is room.
func (res *loopResult) addTried(m movegen.Move, noisy bool) {
	if !noisy && res.nQuiet < len(res.quiets) {
		res.quiets[res.nQuiet] = m
		res.nQuiet++
	} else if noisy && res.nNoisy < len(res.noisy) {
		res.noisy[res.nNoisy] = m
		res.nNoisy++
	}
}

// pruneMove is step 11: it tells whether to skip the move. Late move and
// futility pruning also skip the quiet moves still to come.
func (w *worker) pruneMove(n *node, mp *picker, mi *moveInfo) bool {
	pos := w.pos
	if mi.noisy {
		// SEE pruning of captures.
		return n.depth <= seeMaxDepth && !see(pos, mi.m, seeCaptureMargin*n.depth*n.depth)
	}
	lmrDepth := max(0, n.depth-lmrBaseReduction(true, n.depth, mi.count))
	// Late move pruning.
	if n.depth <= lmpMaxDepth && mi.count >= (lmpBase+n.depth*n.depth)/(2-boolToInt(n.improving)) {
		mp.skipQuiets = true
		return true
	}
	// History pruning.
	if n.depth <= hpMaxDepth && mi.histScore < -hpMargin*n.depth {
		return true
	}
	// Futility pruning. With the history term in the margin a later quiet
	// move may pass: only this one is skipped.
	if !n.inCheck && lmrDepth <= fpMaxDepth && n.staticEval+fpBase+fpMargin*lmrDepth+mi.histScore/fpHistoryDiv <= n.alpha {
		return true
	}
	// SEE pruning of quiet moves.
	return lmrDepth <= seeMaxDepth && !see(pos, mi.m, seeQuietMargin*lmrDepth)
}

// extension is step 12: the singular extension of the TT move, or one ply
// for the moves out of check, while the line is shorter than twice the root
// depth. cut reports a score for the whole node (a stop, or a multi-cut).
func (w *worker) extension(n *node, m movegen.Move) (ext, score int, cut bool) {
	if n.ply >= extensionPlyFactor*w.rootDepth {
		return 0, 0, false
	}
	te := &n.te
	if n.ply > 0 && m == n.ttMove && n.excluded == movegen.NoMove && n.depth >= seMinDepth &&
		n.hit && te.Depth() >= n.depth-seTTDepthMargin && te.Bound()&tt.BoundLower != 0 && !eval.IsMate(te.Score) {
		return w.singular(n, m)
	}
	if n.inCheck {
		return 1, 0, false // check extension: the evasion gets a ply
	}
	return 0, 0, false
}

// singular searches the node without the TT move at reduced depth below the
// TT score: when every other move fails low the TT move is singular and is
// extended (twice when far below); when the reduced search beats beta
// anyway, several moves do and the node is cut.
func (w *worker) singular(n *node, m movegen.Move) (ext, score int, cut bool) {
	sBeta := n.te.Score - seBetaMargin*n.depth
	n.f.excluded = m
	s := w.negamax(sBeta-1, sBeta, (n.depth-1)/seDepthDiv, n.ply, n.cutNode)
	n.f.excluded = movegen.NoMove
	switch {
	case w.stopped:
		return 0, 0, true
	case s < sBeta:
		if !n.pvNode && s < sBeta-seDoubleMargin && n.f.doubleExt <= seMaxDoubleExtend {
			return 2, 0, false
		}
		return 1, 0, false
	case sBeta >= n.beta:
		return 0, sBeta, true // multi-cut: several moves beat beta
	case n.te.Score >= n.beta:
		return -1, 0, false
	}
	return 0, 0, false
}

// searchMove is step 13: it makes the move, searches it (reduced with a
// null window first when late, then with a null window at full depth, a ply
// deeper or shallower as the reduced score says, then with the full window
// at PV nodes as needed) and unmakes it. bestScore is the node's best score
// so far.
func (w *worker) searchMove(n *node, mp *picker, mi *moveInfo, newDepth, bestScore int) int {
	alpha, beta, ply := n.alpha, n.beta, n.ply
	w.makeMove(mi.m, ply)
	var score int
	if n.depth >= lmrMinDepth && mi.count > 1+boolToInt(n.pvNode) && (!mi.noisy || !n.ttPV) {
		d := max(1, min(newDepth, newDepth-w.reduction(n, mp, mi)))
		n.f.reduction = newDepth - d
		score = -w.negamax(-alpha-1, -alpha, d, ply+1, true)
		n.f.reduction = 0
		if score > alpha && d < newDepth {
			deeper := score > bestScore+lmrDeeperBase+lmrDeeperMul*newDepth
			shallower := score < bestScore+lmrShallowerMargin
			newDepth += boolToInt(deeper) - boolToInt(shallower)
			if newDepth > d {
				score = -w.negamax(-alpha-1, -alpha, newDepth, ply+1, !n.cutNode)
				// The full-depth result teaches the continuation histories.
				if !mi.noisy && !w.stopped {
					bonus := historyBonus(newDepth)
					if score <= alpha {
						bonus = -bonus
					}
					w.updateContHistory(ply, w.stack[ply+stackOffset].piece, mi.m.To(), bonus)
				}
			}
		}
	} else if !n.pvNode || mi.count > 1 {
		score = -w.negamax(-alpha-1, -alpha, newDepth, ply+1, !n.cutNode)
	}
	if n.pvNode && (mi.count == 1 || score > alpha) {
		score = -w.negamax(-beta, -alpha, newDepth, ply+1, false)
	}
	w.pos.Unmake()
	return score
}

// lmrTable[depth][moveCount] is the base late-move reduction.
var lmrTable [2][lmrTableSize][lmrTableSize]int8

func init() { initLMR() }

// initLMR fills lmrTable from the parameters (again when a tune build sets
// one).
func initLMR() {
	for d := 1; d < lmrTableSize; d++ {
		for m := 1; m < lmrTableSize; m++ {
			l := math.Log(float64(d)) * math.Log(float64(m))
			lmrTable[0][d][m] = int8(lmrCaptureBase + l/lmrCaptureDiv)
			lmrTable[1][d][m] = int8(lmrBase + l/lmrDiv)
		}
	}
}

// lmrBaseReduction is the late-move reduction before adjustments.
func lmrBaseReduction(quiet bool, depth, count int) int {
	return int(lmrTable[boolToInt(quiet)][min(depth, lmrTableSize-1)][min(count, lmrTableSize-1)])
}

// reduction is the late-move reduction of mi, which is on the board. A
// noisy move is reduced less with a good capture history. Quiet moves are
// reduced less at PV nodes, when they give check, have a good history, are a
// killer or counter-move, or when the table's entry is at least as deep as
// the node, and more at cut nodes, after a capture as the TT move and when
// the position is not improving.
func (w *worker) reduction(n *node, mp *picker, mi *moveInfo) int {
	r := lmrBaseReduction(!mi.capture, n.depth, mi.count)
	if mi.noisy {
		return r - mi.histScore/lmrCaptureHistoryDiv
	}
	r -= boolToInt(n.ttPV)
	r += lmrCutNode * boolToInt(n.cutNode)
	r += boolToInt(n.ttCapture)
	r -= boolToInt(n.hit && n.te.Depth() >= n.depth)
	r -= boolToInt(w.pos.InCheck()) // the move gives check
	r += boolToInt(!n.improving)
	r -= mi.histScore / lmrHistoryDiv
	if mi.m == mp.killers[0] || mi.m == mp.killers[1] || mi.m == mp.counter {
		r--
	}
	return r
}

// quietHistory is the butterfly and continuation history (one and two
// plies back) of the quiet move m, which late move reductions use.
func (w *worker) quietHistory(ply int, m movegen.Move) int {
	pos := w.pos
	pc := pos.PieceOn(m.From())
	return int(*w.hist.quietEntry(pos.SideToMove(), w.stack[ply+stackOffset].threats, m)) +
		int(w.stack[ply+stackOffset-1].cont[pc][m.To()]) +
		int(w.stack[ply+stackOffset-2].cont[pc][m.To()])
}
