package search

import (
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// The node steps of negamax (the principal variation search): the numbered
// steps 1 to 9 before the move loop and 15 to 17 after it. The move loop,
// steps 10 to 14, is in moveloop.go.

// node is the state that the steps of one negamax call share.
type node struct {
	f           *frame
	alpha, beta int
	depth, ply  int
	pvNode      bool
	cutNode     bool
	inCheck     bool
	excluded    movegen.Move // the move a singular-extension search leaves out
	key         uint64
	te          ttEntry
	hit         bool // te holds the table's entry for key
	ttMove      movegen.Move
	ttCapture   bool // the TT move is a capture
	ttPV        bool // a PV node now or when the entry was stored
	staticEval  int  // corrected by the correction history; -infinite when in check
	rawEval     int  // the evaluation before correction, stored in the table
	evalScore   int  // staticEval, or the TT score when its bound says it is better
	improving   bool
	origAlpha   int // alpha when the move loop begins
	tbFloor     int // a tablebase lower bound of a PV node (tb.go), else -infinite
	tbCeil      int // a tablebase upper bound of a PV node, else infinite
}

// negamax is the principal variation search.
func (w *worker) negamax(alpha, beta, depth, ply int, cutNode bool) int {
	f := &w.stack[ply+stackOffset]
	f.pvLen = 0

	// 1. Quiescence at the horizon.
	if depth <= 0 {
		return w.qsearch(alpha, beta, ply)
	}
	n := node{f: f, alpha: alpha, beta: beta, depth: min(depth, eval.MaxPly-1), ply: ply,
		pvNode: beta-alpha > 1, cutNode: cutNode, inCheck: w.pos.InCheck(), excluded: f.excluded,
		tbFloor: -infinite, tbCeil: infinite}
	f.inCheck = n.inCheck
	if n.pvNode && ply > w.selDepth {
		w.selDepth = ply
	}

	// 2. Stop, draws and the ply limit; 3. mate-distance pruning.
	if ply > 0 {
		if score, done := w.interiorExit(&n); done {
			return score
		}
	}

	// 4. Transposition table (the threats first: a TT cutoff updates the
	// history, which they index; and finding them while the table's entry
	// arrives costs less than after it, measured against finding them only
	// for the nodes that need them).
	f.threats = threats(w.pos)
	if score, done := w.probeTT(&n); done {
		return score
	}

	// 4b. Tablebases (tb.go).
	if score, done := w.probeTablebase(&n); done {
		return score
	}

	// 5. Static evaluation. The children start with no killers and no
	// excluded move.
	w.evaluateNode(&n)
	w.stack[ply+stackOffset+1].killers = [2]movegen.Move{}
	w.stack[ply+stackOffset+1].excluded = movegen.NoMove

	// 5b. Hindsight on the parent's reduction.
	w.hindsight(&n)

	// 6-8. Pruning before any move is tried.
	if !n.pvNode && !n.inCheck && n.excluded == movegen.NoMove {
		if score, done := w.pruneNode(&n); done {
			return score
		}
	}

	// 9. Internal iterative reduction.
	if n.depth >= iirMinDepth && n.ttMove == movegen.NoMove && n.excluded == movegen.NoMove && (n.pvNode || cutNode) {
		n.depth--
	}

	// 10-14. The move loop; 15-17. the node's result.
	var res loopResult
	if score, done := w.searchMoves(&n, &res); done {
		return score
	}
	return w.finishNode(&n, &res)
}

// interiorExit is steps 2 and 3 below the root: it returns done with the
// score when the search stops, the position is drawn or the ply limit is
// reached, and narrows the window to the mate distance.
func (w *worker) interiorExit(n *node) (score int, done bool) {
	pos := w.pos
	if w.shouldStop() {
		return 0, true
	}
	if pos.IsDrawnRepetition(n.ply) || pos.InsufficientMaterial() {
		return w.drawScore(), true
	}
	if pos.Rule50() >= rule50Plies {
		if !n.inCheck || pos.HasLegalMove() {
			return w.drawScore(), true
		}
		return eval.MatedIn(n.ply), true
	}
	if n.ply >= eval.MaxPly-1 {
		return w.plyLimitScore(n.inCheck, n.ply), true
	}
	// 3. Mate-distance pruning.
	n.alpha = max(n.alpha, eval.MatedIn(n.ply))
	n.beta = min(n.beta, eval.MateIn(n.ply+1))
	if n.alpha >= n.beta {
		return n.alpha, true
	}
	// 3b. An upcoming repetition: the side to move can draw at least.
	if n.alpha < 0 && pos.HasUpcomingRepetition(n.ply) {
		n.alpha = w.drawScore()
		if n.alpha >= n.beta {
			return n.alpha, true
		}
	}
	return 0, false
}

// plyLimitScore is the score of a node at the ply limit.
func (w *worker) plyLimitScore(inCheck bool, ply int) int {
	if inCheck {
		return 0
	}
	return w.evaluate(ply)
}

// probeTT is step 4: it reads the table (not in a singular-extension search)
// and returns done with the stored score when its depth and bound settle a
// non-PV node.
func (w *worker) probeTT(n *node) (score int, done bool) {
	pos := w.pos
	n.key = pos.Key()
	if n.excluded == movegen.NoMove {
		n.te, n.hit = w.ttLookup(n.key, n.ply)
	}
	if n.hit {
		n.ttMove = n.te.Move()
	}
	if n.ply == 0 {
		n.ttMove = w.rootMoves[w.pvIdx].move
	}
	n.ttPV = n.pvNode || (n.hit && n.te.PV())
	if n.pvNode || !n.hit || n.te.Depth() < n.depth || pos.Rule50() >= ttCutoffMaxRule50 || !ttCuts(n.te, n.alpha, n.beta) {
		return 0, false
	}
	if n.ttMove != movegen.NoMove && n.te.Score >= n.beta && !isNoisy(pos, n.ttMove) {
		w.updateQuietStats(n.ply, n.ttMove, nil, historyBonus(n.depth))
	}
	return n.te.Score, true
}

// ttCuts tells whether an entry's score settles a search of the window
// (alpha, beta): it is exact, a lower bound at or above beta, or an upper
// bound at or below alpha.
func ttCuts(te ttEntry, alpha, beta int) bool {
	return te.Bound() == tt.BoundExact ||
		(te.Bound() == tt.BoundLower && te.Score >= beta) ||
		(te.Bound() == tt.BoundUpper && te.Score <= alpha)
}

// evaluateNode is step 5: the static evaluation (from the table when it has
// one, else computed and stored as an eval-only entry), the score used for
// pruning, and whether the position is improving.
func (w *worker) evaluateNode(n *node) {
	switch {
	case n.inCheck:
		n.staticEval, n.evalScore, n.rawEval = -infinite, -infinite, -infinite
	case n.excluded != movegen.NoMove:
		n.staticEval = n.f.staticEval // the same node, searched again without one move
		n.rawEval = n.f.rawEval
		n.evalScore = n.staticEval
	default:
		if n.hit {
			n.rawEval = n.te.Eval()
		} else {
			n.rawEval = w.evaluate(n.ply)
		}
		n.staticEval = w.correction(n.rawEval, n.ply)
		n.evalScore = refineEval(n.te, n.hit, n.staticEval)
		if !n.hit {
			w.ttRecord(n.key, n.ply, movegen.NoMove, 0, n.rawEval, evalOnlyDepth, tt.BoundNone, n.ttPV)
		}
	}
	n.f.rawEval = n.rawEval
	n.f.staticEval = n.staticEval
	n.improving = w.isImproving(n)
}

// hindsight is step 5b: it judges the reduction of the move that led to
// the node by how the mover's evaluation changed (the node's evaluation
// against the parent's, each from its own side): a deep reduction of a move
// that did not worsen the mover's position is undone by a ply, a reduction
// of one that worsened it much is deepened by a ply.
func (w *worker) hindsight(n *node) {
	prev := &w.stack[n.ply+stackOffset-1]
	if n.ply == 0 || prev.reduction == 0 || n.inCheck || n.excluded != movegen.NoMove || prev.staticEval == -infinite {
		return
	}
	fall := n.staticEval + prev.staticEval // the mover's evaluation before, less after
	switch {
	case prev.reduction >= hindsightDeeperR && fall <= 0:
		n.depth = min(n.depth+1, eval.MaxPly-1)
	case prev.reduction >= hindsightShallowerR && n.depth >= 2 && fall >= hindsightFallMargin:
		n.depth--
	}
}

// refineEval returns the TT score in place of the static evaluation when the
// entry's bound shows it is the better estimate.
func refineEval(te ttEntry, hit bool, staticEval int) int {
	if hit && ttCuts(te, staticEval, staticEval) {
		return te.Score
	}
	return staticEval
}

// isImproving tells whether the static evaluation is better than at our
// previous move (two plies back, or four when that one was in check; true
// when neither is known).
func (w *worker) isImproving(n *node) bool {
	if n.inCheck {
		return false
	}
	if prev := w.stack[n.ply+stackOffset-2].staticEval; prev != -infinite {
		return n.staticEval > prev
	}
	if prev4 := w.stack[n.ply+stackOffset-4].staticEval; prev4 != -infinite {
		return n.staticEval > prev4
	}
	return true
}

// pruneNode is steps 6 to 8, tried at non-PV nodes not in check: it returns
// done with a score when the node can be cut before any move is searched.
func (w *worker) pruneNode(n *node) (score int, done bool) {
	pos := w.pos
	// 6. Reverse futility pruning.
	if n.depth <= rfpMaxDepth && !eval.IsMate(n.evalScore) &&
		n.evalScore-rfpMargin*(n.depth-boolToInt(n.improving)) >= n.beta {
		return (n.evalScore + n.beta) / 2, true
	}
	// 7. Razoring.
	if n.depth <= razorMaxDepth && n.evalScore+razorMargin*n.depth < n.alpha {
		if s := w.qsearch(n.alpha, n.alpha+1, n.ply); s <= n.alpha {
			return s, true
		}
	}
	// 8. Null-move pruning.
	if n.depth >= nmpMinDepth && n.evalScore >= n.beta && n.staticEval >= n.beta &&
		w.stack[n.ply+stackOffset-1].move != movegen.NullMove &&
		pos.NonPawnMaterial(pos.SideToMove()) && !eval.IsMate(n.beta) {
		return w.nullMove(n)
	}
	return 0, false
}

// nullMove searches the position with the side to move passing, at a depth
// reduced with the margin over beta; a fail high cuts the node.
func (w *worker) nullMove(n *node) (score int, done bool) {
	r := nmpBase + n.depth/nmpDepthDiv + min((n.evalScore-n.beta)/nmpEvalDiv, nmpEvalLimit)
	w.makeNull(n.ply)
	s := -w.negamax(-n.beta, -n.beta+1, n.depth-r, n.ply+1, !n.cutNode)
	w.pos.UnmakeNull()
	if w.stopped {
		return 0, true
	}
	if s < n.beta {
		return 0, false
	}
	if eval.IsMate(s) {
		s = n.beta // an unproven mate: a null move is not a legal line
	}
	return s, true
}

// finishNode is steps 15 to 17: mate and stalemate, the history updates on
// a cutoff, and the table store.
func (w *worker) finishNode(n *node, res *loopResult) int {
	// 15. Mate and stalemate.
	if res.moveCount == 0 {
		if n.excluded != movegen.NoMove {
			return n.alpha
		}
		if n.inCheck {
			return eval.MatedIn(n.ply)
		}
		return 0
	}

	// 16. History updates on a cutoff.
	if res.bestScore >= n.beta && res.bestMove != movegen.NoMove {
		bonus := historyBonus(n.depth)
		if !isNoisy(w.pos, res.bestMove) {
			// A cutoff by the first quiet move at low depth is trivial:
			// the killers learn it, the histories do not.
			quietBonus := bonus
			if res.nQuiet == 0 && n.depth <= trivialCutDepth {
				quietBonus = 0
			}
			w.updateQuietStats(n.ply, res.bestMove, res.quiets[:res.nQuiet], quietBonus)
		} else {
			w.updateCaptureHistory(n.ply, res.bestMove, bonus)
		}
		for _, m := range res.noisy[:res.nNoisy] {
			w.updateCaptureHistory(n.ply, m, -bonus)
		}
	}

	// 17. Store in the transposition table (not for a singular-extension
	// search, nor for the second and later MultiPV lines at the root).
	res.bestScore = min(res.bestScore, n.tbCeil)
	if n.excluded == movegen.NoMove && !(n.ply == 0 && w.pvIdx > 0) {
		bound := boundFor(res.bestScore, n.origAlpha, n.beta, n.pvNode)
		w.ttRecord(n.key, n.ply, res.bestMove, res.bestScore, n.rawEval, n.depth, bound, n.ttPV)
		// 17b. The correction history learns from a quiet node's score
		// where its bound says which way the evaluation erred.
		if !n.inCheck && (res.bestMove == movegen.NoMove || !isNoisy(w.pos, res.bestMove)) && eval.Abs(res.bestScore) < corrEvalLimit &&
			!(bound == tt.BoundLower && res.bestScore <= n.staticEval) && !(bound == tt.BoundUpper && res.bestScore >= n.staticEval) {
			w.updateCorrection(n.ply, n.depth, res.bestScore-n.staticEval)
		}
	}
	return res.bestScore
}

// boundFor is the bound of a node's best score found with the window
// (origAlpha, beta).
func boundFor(bestScore, origAlpha, beta int, pvNode bool) tt.Bound {
	switch {
	case bestScore >= beta:
		return tt.BoundLower
	case pvNode && bestScore > origAlpha:
		return tt.BoundExact
	}
	return tt.BoundUpper
}
