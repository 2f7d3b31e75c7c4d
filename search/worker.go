package search

import (
	"math"
	"sync/atomic"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

const (
	maxPly      = eval.MaxPly
	stackOffset = 6 // frames below ply 0 so that ply-1 .. ply-4 are valid
	infinite    = eval.Infinite
)

// lmrTable[depth][moveCount] is the base late-move reduction.
var lmrTable [2][64][64]int8

func init() {
	for d := 1; d < 64; d++ {
		for m := 1; m < 64; m++ {
			l := math.Log(float64(d)) * math.Log(float64(m))
			lmrTable[0][d][m] = int8(lmrCaptureBase + l/lmrCaptureDiv)
			lmrTable[1][d][m] = int8(lmrBase + l/lmrDiv)
		}
	}
}

// frame is the per-ply search state. All fields reset as the search
// descends (set before use); killers persist within a search.
type frame struct {
	move       movegen.Move    // move made at this ply
	piece      movegen.Piece   // piece that moved
	cont       *pieceToHistory // continuation history of (piece, to)
	staticEval int
	excluded   movegen.Move    // singular-extension search excludes this move
	killers    [2]movegen.Move // persists across the iteration
	inCheck    bool
	doubleExt  int
	pv         [maxPly + 1]movegen.Move
	pvLen      int
}

// rootMove is one move at the root with its latest score and PV.
type rootMove struct {
	move      movegen.Move
	score     int
	prevScore int
	bound     Bound
	selDepth  int
	pv        []movegen.Move
	nodes     uint64
}

// worker is one search thread. Fields marked "per search" are reset by
// startSearch; hist persists for the game.
type worker struct {
	id    int
	pool  *Pool
	table *tt.Table
	pos   *movegen.Position
	eval  *eval.Evaluator // this thread's evaluator, with its own pawn cache
	hist  histories

	// per search
	stack      [maxPly + stackOffset + 4]frame
	rootMoves  []rootMove
	pvIdx      int
	rootDepth  int
	selDepth   int
	nodes      uint64
	nodesPub   atomic.Uint64 // nodes published for other goroutines
	completed  int           // last fully completed depth
	bestChange float64
	stopped    bool
	// The best line of the last completed depth, whose score is exact.
	completedScore int
	completedPV    []movegen.Move
}

func newWorker(id int, p *Pool) *worker {
	return &worker{id: id, pool: p, eval: eval.NewEvaluator(nil), rootMoves: make([]rootMove, 0, movegen.MaxMoves)}
}

// shouldStop polls the shared stop flag and, on the main thread, the limits.
func (w *worker) shouldStop() bool {
	if w.stopped {
		return true
	}
	if w.nodes&tmCheckNodes == 0 {
		w.nodesPub.Store(w.nodes)
		if w.id == 0 {
			w.pool.checkLimits()
		}
		// With helpers, the node limit counts every thread's nodes; each
		// thread checks the sum when it publishes its own count.
		if lim := w.pool.limits.Nodes; lim > 0 && len(w.pool.workers) > 1 && w.pool.totalNodes() >= lim {
			w.pool.stop.Store(true)
		}
	}
	if w.pool.stop.Load() {
		w.stopped = true
	}
	if lim := w.pool.limits.Nodes; lim > 0 && w.id == 0 && w.nodes >= lim {
		w.pool.stop.Store(true)
		w.stopped = true
	}
	return w.stopped
}

// makeMove plays m and records it in the frame of ply.
func (w *worker) makeMove(m movegen.Move, ply int) {
	f := &w.stack[ply+stackOffset]
	pc := w.pos.PieceOn(m.From())
	capture := isCapture(w.pos, m)
	f.move = m
	f.piece = pc
	f.cont = &w.hist.cont[boolToInt(capture)][pc][m.To()]
	w.nodes++
	w.pos.Make(m)
}

func (w *worker) makeNull(ply int) {
	f := &w.stack[ply+stackOffset]
	f.move = movegen.NullMove
	f.piece = movegen.NoPiece
	f.cont = &w.hist.cont[0][0][0]
	w.nodes++
	w.pos.MakeNull()
}

func isCapture(pos *movegen.Position, m movegen.Move) bool {
	return m.Kind() == movegen.EnPassant || (m.Kind() != movegen.Castling && pos.PieceOn(m.To()) != movegen.NoPiece)
}

// updatePV sets ply's PV to m followed by the child's PV.
func (w *worker) updatePV(ply int, m movegen.Move) {
	f := &w.stack[ply+stackOffset]
	child := &w.stack[ply+stackOffset+1]
	f.pv[0] = m
	n := copy(f.pv[1:], child.pv[:child.pvLen])
	f.pvLen = n + 1
}

// drawScore varies the draw score by a point with the node count, which
// keeps the search from settling into threefold lines blindly.
func (w *worker) drawScore() int { return 1 - int(w.nodes&2) }

// negamax is the principal variation search.
func (w *worker) negamax(alpha, beta, depth, ply int, cutNode bool) int {
	pvNode := beta-alpha > 1
	pos := w.pos
	f := &w.stack[ply+stackOffset]
	f.pvLen = 0

	// 1. Quiescence at the horizon.
	if depth <= 0 {
		return w.qsearch(alpha, beta, ply)
	}
	depth = min(depth, maxPly-1)
	inCheck := pos.InCheck()
	f.inCheck = inCheck
	if pvNode && ply > w.selDepth {
		w.selDepth = ply
	}

	// 2. Stop, draws and the ply limit.
	if ply > 0 {
		if w.shouldStop() {
			return 0
		}
		if pos.IsRepetition() || pos.InsufficientMaterial() {
			return w.drawScore()
		}
		if pos.Rule50() >= 100 {
			if !inCheck || pos.HasLegalMove() {
				return w.drawScore()
			}
			return eval.MatedIn(ply)
		}
		if ply >= maxPly-1 {
			if inCheck {
				return 0
			}
			return w.eval.Evaluate(pos)
		}
		// 3. Mate-distance pruning.
		alpha = max(alpha, eval.MatedIn(ply))
		beta = min(beta, eval.MateIn(ply+1))
		if alpha >= beta {
			return alpha
		}
	}

	// 4. Transposition table.
	excluded := f.excluded
	key := pos.Key()
	var te tt.Entry
	hit := false
	if excluded == movegen.NoMove {
		te, hit = w.table.Probe(key, ply)
	}
	ttMove := movegen.NoMove
	if hit {
		ttMove = te.Move
	}
	if ply == 0 {
		ttMove = w.rootMoves[w.pvIdx].move
	}
	ttPV := pvNode || (hit && te.PV)
	if !pvNode && hit && excluded == movegen.NoMove && te.Depth >= depth && pos.Rule50() < 90 &&
		(te.Bound == tt.BoundExact ||
			(te.Bound == tt.BoundLower && te.Score >= beta) ||
			(te.Bound == tt.BoundUpper && te.Score <= alpha)) {
		if ttMove != movegen.NoMove && te.Score >= beta && !isNoisy(pos, ttMove) {
			w.updateQuietStats(ply, ttMove, nil, 0, historyBonus(depth))
		}
		return te.Score
	}

	// 5. Static evaluation.
	var staticEval, evalScore int
	switch {
	case inCheck:
		staticEval, evalScore = -infinite, -infinite
	case excluded != movegen.NoMove:
		staticEval = f.staticEval
		evalScore = staticEval
	default:
		if hit {
			staticEval = te.Eval
		} else {
			staticEval = w.eval.Evaluate(pos)
		}
		evalScore = refineEval(te, hit, staticEval)
		if !hit {
			w.table.Store(key, ply, movegen.NoMove, 0, staticEval, -6, tt.BoundNone, ttPV)
		}
	}
	f.staticEval = staticEval
	improving := false
	if !inCheck {
		if prev := w.stack[ply+stackOffset-2].staticEval; prev != -infinite {
			improving = staticEval > prev
		} else if prev4 := w.stack[ply+stackOffset-4].staticEval; prev4 != -infinite {
			improving = staticEval > prev4
		} else {
			improving = true
		}
	}
	w.stack[ply+stackOffset+1].killers = [2]movegen.Move{}
	w.stack[ply+stackOffset+1].excluded = movegen.NoMove

	if !pvNode && !inCheck && excluded == movegen.NoMove {
		// 6. Reverse futility pruning.
		if depth <= rfpMaxDepth && !eval.IsMate(evalScore) &&
			evalScore-rfpMargin*(depth-boolToInt(improving)) >= beta {
			return (evalScore + beta) / 2
		}
		// 7. Razoring.
		if depth <= razorMaxDepth && evalScore+razorMargin*depth < alpha {
			s := w.qsearch(alpha, alpha+1, ply)
			if s <= alpha {
				return s
			}
		}
		// 8. Null-move pruning.
		if depth >= nmpMinDepth && evalScore >= beta && staticEval >= beta &&
			w.stack[ply+stackOffset-1].move != movegen.NullMove &&
			pos.NonPawnMaterial(pos.SideToMove()) && !eval.IsMate(beta) {
			r := nmpBase + depth/nmpDepthDiv + min((evalScore-beta)/nmpEvalDiv, nmpEvalLimit)
			w.makeNull(ply)
			s := -w.negamax(-beta, -beta+1, depth-r, ply+1, !cutNode)
			pos.UnmakeNull()
			if w.stopped {
				return 0
			}
			if s >= beta {
				if eval.IsMate(s) {
					s = beta
				}
				return s
			}
		}
	}

	// 9. Internal iterative reduction.
	if depth >= iirMinDepth && ttMove == movegen.NoMove && excluded == movegen.NoMove && (pvNode || cutNode) {
		depth--
	}

	// 10. The move loop.
	var mp picker
	mp.init(w, ply, ttMove, false)
	var quietsTried [64]movegen.Move
	var noisyTried [32]movegen.Move
	nQuiet, nNoisy := 0, 0
	bestScore := -infinite
	bestMove := movegen.NoMove
	moveCount := 0
	origAlpha := alpha
	us := pos.SideToMove()

	for m := mp.next(); m != movegen.NoMove; m = mp.next() {
		if m == excluded {
			continue
		}
		if ply == 0 && !w.isRootMove(m) {
			continue
		}
		moveCount++
		noisy := isNoisy(pos, m)
		capture := isCapture(pos, m)
		pc := pos.PieceOn(m.From())
		histScore := 0
		if !noisy {
			histScore = int(w.hist.butterfly[us][m.From()][m.To()]) +
				int(w.stack[ply+stackOffset-1].cont[pc][m.To()]) +
				int(w.stack[ply+stackOffset-2].cont[pc][m.To()])
		}

		// 11. Pruning at shallow depth.
		if ply > 0 && bestScore > -eval.MateInMaxPly && pos.NonPawnMaterial(us) {
			lmrDepth := max(0, depth-int(lmrTable[1][min(depth, 63)][min(moveCount, 63)]))
			if !noisy {
				// Late move pruning.
				if depth <= lmpMaxDepth && moveCount >= (lmpBase+depth*depth)/(2-boolToInt(improving)) {
					mp.skipQuiets = true
					continue
				}
				// Futility pruning.
				if !inCheck && lmrDepth <= fpMaxDepth && staticEval+fpBase+fpMargin*lmrDepth <= alpha {
					mp.skipQuiets = true
					continue
				}
				// SEE pruning of quiet moves.
				if lmrDepth <= seeMaxDepth && !see(pos, m, seeQuietMargin*lmrDepth) {
					continue
				}
			} else if depth <= seeMaxDepth && !see(pos, m, seeCaptureMargin*depth*depth) {
				continue
			}
		}

		// 12. Extensions.
		extension := 0
		if ply < 2*w.rootDepth {
			if ply > 0 && m == ttMove && excluded == movegen.NoMove && depth >= seMinDepth &&
				hit && te.Depth >= depth-seTTDepthMargin && te.Bound&tt.BoundLower != 0 && !eval.IsMate(te.Score) {
				// Singular extension: is the TT move much better than all others?
				sBeta := te.Score - seBetaMargin*depth
				f.excluded = m
				s := w.negamax(sBeta-1, sBeta, (depth-1)/2, ply, cutNode)
				f.excluded = movegen.NoMove
				if w.stopped {
					return 0
				}
				if s < sBeta {
					extension = 1
					if !pvNode && s < sBeta-seDoubleMargin && f.doubleExt <= seMaxDoubleExtend {
						extension = 2
					}
				} else if sBeta >= beta {
					return sBeta // multi-cut: several moves beat beta
				} else if te.Score >= beta {
					extension = -1
				}
			} else if inCheck {
				extension = 1 // check extension: the evasion gets a ply
			}
		}
		newDepth := depth - 1 + extension
		w.stack[ply+stackOffset+1].doubleExt = f.doubleExt + boolToInt(extension >= 2)

		nodesBefore := w.nodes
		w.makeMove(m, ply)
		givesCheck := pos.InCheck()

		// 13. Late move reductions, then the principal variation search.
		var score int
		if depth >= lmrMinDepth && moveCount > 1+boolToInt(pvNode) && (!noisy || !ttPV) {
			r := int(lmrTable[boolToInt(!capture)][min(depth, 63)][min(moveCount, 63)])
			if !noisy {
				r -= boolToInt(ttPV)
				r += boolToInt(cutNode)
				r -= boolToInt(givesCheck)
				r += boolToInt(!improving)
				r -= histScore / lmrHistoryDiv
				if m == mp.killers[0] || m == mp.killers[1] || m == mp.counter {
					r--
				}
			}
			d := max(1, min(newDepth, newDepth-r))
			score = -w.negamax(-alpha-1, -alpha, d, ply+1, true)
			if score > alpha && d < newDepth {
				score = -w.negamax(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
			}
		} else if !pvNode || moveCount > 1 {
			score = -w.negamax(-alpha-1, -alpha, newDepth, ply+1, !cutNode)
		}
		if pvNode && (moveCount == 1 || score > alpha) {
			score = -w.negamax(-beta, -alpha, newDepth, ply+1, false)
		}
		pos.Unmake()
		if w.stopped {
			return 0
		}

		if ply == 0 {
			w.updateRootMove(m, score, moveCount, alpha, beta, w.nodes-nodesBefore)
		}

		// 14. Best move and cutoffs.
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
		if m != bestMove {
			if !noisy && nQuiet < len(quietsTried) {
				quietsTried[nQuiet] = m
				nQuiet++
			} else if noisy && nNoisy < len(noisyTried) {
				noisyTried[nNoisy] = m
				nNoisy++
			}
		}
	}

	// 15. Mate and stalemate.
	if moveCount == 0 {
		if excluded != movegen.NoMove {
			return alpha
		}
		if inCheck {
			return eval.MatedIn(ply)
		}
		return 0
	}

	// 16. History updates on a cutoff.
	if bestScore >= beta && bestMove != movegen.NoMove {
		bonus := historyBonus(depth)
		if !isNoisy(pos, bestMove) {
			w.updateQuietStats(ply, bestMove, quietsTried[:nQuiet], nQuiet, bonus)
		} else {
			w.updateCaptureHistory(bestMove, bonus)
		}
		for _, nm := range noisyTried[:nNoisy] {
			w.updateCaptureHistory(nm, -bonus)
		}
	}

	// 17. Store in the transposition table.
	if excluded == movegen.NoMove && !(ply == 0 && w.pvIdx > 0) {
		bound := tt.BoundUpper
		if bestScore >= beta {
			bound = tt.BoundLower
		} else if pvNode && bestScore > origAlpha {
			bound = tt.BoundExact
		}
		w.table.Store(key, ply, bestMove, bestScore, staticEval, depth, bound, ttPV)
	}
	return bestScore
}

// updateQuietStats rewards a quiet move that caused a cutoff and punishes
// the quiet moves tried before it.
func (w *worker) updateQuietStats(ply int, best movegen.Move, tried []movegen.Move, n int, bonus int) {
	f := &w.stack[ply+stackOffset]
	if f.killers[0] != best {
		f.killers[1] = f.killers[0]
		f.killers[0] = best
	}
	if prev := &w.stack[ply+stackOffset-1]; prev.move != movegen.NoMove && prev.move != movegen.NullMove {
		w.hist.counter[prev.piece][prev.move.To()] = best
	}
	w.updateQuietHistory(ply, best, bonus)
	for _, m := range tried {
		w.updateQuietHistory(ply, m, -bonus)
	}
}

func (w *worker) updateQuietHistory(ply int, m movegen.Move, bonus int) {
	pos := w.pos
	us := pos.SideToMove()
	pc := pos.PieceOn(m.From())
	to := m.To()
	gravity(&w.hist.butterfly[us][m.From()][to], bonus)
	for _, back := range [3]int{1, 2, 4} {
		prev := &w.stack[ply+stackOffset-back]
		if prev.move == movegen.NoMove || prev.move == movegen.NullMove {
			if back == 1 {
				continue
			}
			break
		}
		gravity(&prev.cont[pc][to], bonus)
	}
}

func (w *worker) updateCaptureHistory(m movegen.Move, bonus int) {
	pos := w.pos
	victim := pos.PieceOn(m.To()).Type()
	if m.Kind() == movegen.EnPassant {
		victim = movegen.Pawn
	}
	gravity(&w.hist.capture[pos.PieceOn(m.From())][m.To()][victim], bonus)
}

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
	if pos.IsRepetition() || pos.InsufficientMaterial() {
		return w.drawScore()
	}
	inCheck := pos.InCheck()
	if pos.Rule50() >= 100 && (!inCheck || pos.HasLegalMove()) {
		return w.drawScore()
	}
	if ply >= maxPly-1 {
		if inCheck {
			return 0
		}
		return w.eval.Evaluate(pos)
	}

	key := pos.Key()
	te, hit := w.table.Probe(key, ply)
	if !pvNode && hit && (te.Bound == tt.BoundExact ||
		(te.Bound == tt.BoundLower && te.Score >= beta) ||
		(te.Bound == tt.BoundUpper && te.Score <= alpha)) {
		return te.Score
	}
	ttPV := pvNode || (hit && te.PV)

	bestScore := -infinite
	staticEval := -infinite
	if !inCheck {
		if hit {
			staticEval = te.Eval
		} else {
			staticEval = w.eval.Evaluate(pos)
		}
		bestScore = refineEval(te, hit, staticEval)
		// Stand pat.
		if bestScore >= beta {
			if !hit {
				w.table.Store(key, ply, movegen.NoMove, bestScore, staticEval, -6, tt.BoundLower, false)
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
		if !inCheck || bestScore > -eval.MateInMaxPly {
			if !inCheck {
				// Delta pruning: even winning the piece cannot reach alpha.
				victim := pos.PieceOn(m.To()).Type()
				if m.Kind() == movegen.EnPassant {
					victim = movegen.Pawn
				}
				if !m.IsPromotion() && staticEval+seeValues[victim]+qsDeltaMargin <= alpha && !see(pos, m, 1) {
					bestScore = max(bestScore, staticEval+seeValues[victim]+qsDeltaMargin)
					continue
				}
			}
			if !see(pos, m, 0) {
				continue
			}
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
	bound := tt.BoundUpper
	if bestScore >= beta {
		bound = tt.BoundLower
	} else if pvNode && bestScore > origAlpha {
		bound = tt.BoundExact
	}
	w.table.Store(key, ply, bestMove, bestScore, staticEval, 0, bound, ttPV)
	return bestScore
}

// refineEval returns the TT score in place of the static evaluation when the
// entry's bound shows it is the better estimate.
func refineEval(te tt.Entry, hit bool, staticEval int) int {
	if hit && (te.Bound == tt.BoundExact ||
		(te.Bound == tt.BoundLower && te.Score > staticEval) ||
		(te.Bound == tt.BoundUpper && te.Score < staticEval)) {
		return te.Score
	}
	return staticEval
}
