package search

import (
	"math"
	"sync/atomic"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

const (
	stackOffset = 6 // frames below ply 0: ply-1 .. ply-4 are read, so at least 4
	stackSpare  = 4 // frames above the ply limit: ply+1 is written, so at least 1
	infinite    = eval.Infinite
)

// lmrTable[depth][moveCount] is the base late-move reduction.
var lmrTable [2][lmrTableSize][lmrTableSize]int8

func init() {
	for d := 1; d < lmrTableSize; d++ {
		for m := 1; m < lmrTableSize; m++ {
			l := math.Log(float64(d)) * math.Log(float64(m))
			lmrTable[0][d][m] = int8(lmrCaptureBase + l/lmrCaptureDiv)
			lmrTable[1][d][m] = int8(lmrBase + l/lmrDiv)
		}
	}
}

// frame is the per-ply search state. iterate clears the whole stack when a
// search starts; below that, a node sets its own fields before reading
// them, except killers and excluded, which its parent clears (step 5), and
// doubleExt, which its parent sets before each move.
type frame struct {
	move       movegen.Move    // move made at this ply
	piece      movegen.Piece   // piece that moved
	cont       *pieceToHistory // continuation history of (piece, to)
	staticEval int             // -infinite when in check
	excluded   movegen.Move    // singular-extension search excludes this move
	killers    [2]movegen.Move // quiet cutoff moves of the parent's earlier children (at the root: of the search)
	inCheck    bool
	doubleExt  int // double extensions on the line to this ply
	pv         [eval.MaxPly + 1]movegen.Move
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

// worker is one search thread. The fields under "per search" are set by
// Pool.Search and iterate (bestChange, the best-move instability, is reset
// by each search too); hist persists for the game.
type worker struct {
	id    int
	pool  *Pool
	table *tt.Table
	pos   *movegen.Position
	eval  *eval.Evaluator    // this thread's evaluator, with its own pawn cache
	net   *nnue.Net          // the network evaluation; nil: the hand-written one
	accs  []nnue.Accumulator // net's accumulators, one per ply: accs[ply] is the position at ply
	hist  histories

	// per search
	stack      [eval.MaxPly + stackOffset + stackSpare]frame
	rootMoves  []rootMove
	pvIdx      int
	rootDepth  int
	selDepth   int
	nodes      uint64
	nodesPub   atomic.Uint64 // nodes published for other goroutines
	tbHits     atomic.Uint64 // tablebase probes in the tree
	completed  int           // last fully completed depth
	searching  atomic.Int32  // depth of the iteration under way, for the helpers' skipDepth
	bestChange float64
	stopped    bool
	// The best line of the last completed depth, whose score is exact.
	completedScore int
	completedPV    []movegen.Move
}

func newWorker(id int, p *Pool) *worker {
	return &worker{id: id, pool: p, eval: eval.NewEvaluator(nil), rootMoves: make([]rootMove, 0, movegen.MaxMoves)}
}

// setNet selects the evaluation of the next search (nil: the hand-written
// one) and, for a network, refreshes the root accumulator from w.pos. The
// accumulator stack is allocated only when the network changes.
func (w *worker) setNet(n *nnue.Net) {
	if n != w.net || (n != nil && len(w.accs) == 0) {
		w.net, w.accs = n, nil
		if n != nil {
			w.accs = n.NewAccumulators(eval.MaxPly + 1)
		}
	}
	if n != nil {
		w.accs[0].Refresh(n, w.pos)
	}
}

// evaluate is the static evaluation of the position at ply, from the side
// to move's view: the network's when one is set, else the hand-written one.
func (w *worker) evaluate(ply int) int {
	if w.net != nil {
		return w.net.Evaluate(&w.accs[ply], w.pos.SideToMove())
	}
	return w.eval.Evaluate(w.pos)
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
	if w.net != nil {
		w.accs[ply+1].Update(w.net, &w.accs[ply], w.pos, m)
	}
	w.pos.Make(m)
}

func (w *worker) makeNull(ply int) {
	f := &w.stack[ply+stackOffset]
	f.move = movegen.NullMove
	f.piece = movegen.NoPiece
	f.cont = &w.hist.cont[0][0][0]
	w.nodes++
	if w.net != nil {
		w.accs[ply+1].CopyFrom(&w.accs[ply])
	}
	w.pos.MakeNull()
}

// isCapture tells whether m takes a piece (en passant included).
func isCapture(pos *movegen.Position, m movegen.Move) bool {
	return pos.CapturedType(m) != movegen.NoPieceType
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
	te          tt.Entry
	hit         bool // te holds the table's entry for key
	ttMove      movegen.Move
	ttPV        bool // a PV node now or when the entry was stored
	staticEval  int  // -infinite when in check
	evalScore   int  // staticEval, or the TT score when its bound says it is better
	improving   bool
	origAlpha   int // alpha when the move loop begins
	tbFloor     int // a tablebase lower bound of a PV node (tb.go), else -infinite
	tbCeil      int // a tablebase upper bound of a PV node, else infinite
}

// moveInfo is what the move loop knows of a move before making it.
type moveInfo struct {
	m         movegen.Move
	count     int  // 1-based number among the moves searched at this node
	noisy     bool // capture or queen promotion
	capture   bool
	histScore int // butterfly and continuation history (quiet moves only)
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

	// 4. Transposition table.
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
		n.ttMove = n.te.Move
	}
	if n.ply == 0 {
		n.ttMove = w.rootMoves[w.pvIdx].move
	}
	n.ttPV = n.pvNode || (n.hit && n.te.PV)
	if n.pvNode || !n.hit || n.te.Depth < n.depth || pos.Rule50() >= ttCutoffMaxRule50 || !ttCuts(n.te, n.alpha, n.beta) {
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
func ttCuts(te tt.Entry, alpha, beta int) bool {
	return te.Bound == tt.BoundExact ||
		(te.Bound == tt.BoundLower && te.Score >= beta) ||
		(te.Bound == tt.BoundUpper && te.Score <= alpha)
}

// evaluateNode is step 5: the static evaluation (from the table when it has
// one, else computed and stored as an eval-only entry), the score used for
// pruning, and whether the position is improving.
func (w *worker) evaluateNode(n *node) {
	switch {
	case n.inCheck:
		n.staticEval, n.evalScore = -infinite, -infinite
	case n.excluded != movegen.NoMove:
		n.staticEval = n.f.staticEval // the same node, searched again without one move
		n.evalScore = n.staticEval
	default:
		if n.hit {
			n.staticEval = n.te.Eval
		} else {
			n.staticEval = w.evaluate(n.ply)
		}
		n.evalScore = refineEval(n.te, n.hit, n.staticEval)
		if !n.hit {
			w.ttRecord(n.key, n.ply, movegen.NoMove, 0, n.staticEval, evalOnlyDepth, tt.BoundNone, n.ttPV)
		}
	}
	n.f.staticEval = n.staticEval
	n.improving = w.isImproving(n)
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

// searchMoves is steps 10 to 14, the move loop. It returns done with a score
// when the node ends early (stop, or a singular-extension multi-cut).
func (w *worker) searchMoves(n *node, res *loopResult) (int, bool) {
	pos := w.pos
	us := pos.SideToMove()
	var mp picker
	mp.init(w, n.ply, n.ttMove, false)
	res.bestScore, res.bestMove = n.tbFloor, movegen.NoMove
	n.origAlpha = n.alpha
	for m := mp.next(); m != movegen.NoMove; m = mp.next() {
		if m == n.excluded || (n.ply == 0 && !w.isRootMove(m)) {
			continue
		}
		res.moveCount++
		mi := moveInfo{m: m, count: res.moveCount, noisy: isNoisy(pos, m), capture: isCapture(pos, m)}
		if !mi.noisy {
			mi.histScore = w.quietHistory(n.ply, m)
		}

		// 11. Pruning at shallow depth.
		if n.ply > 0 && res.bestScore > -eval.MateInMaxPly && pos.NonPawnMaterial(us) && w.pruneMove(n, &mp, &mi) {
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
		score := w.searchMove(n, &mp, &mi, newDepth)
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

// quietHistory is the butterfly and continuation history (one and two
// plies back) of the quiet move m, which late move reductions use.
func (w *worker) quietHistory(ply int, m movegen.Move) int {
	pos := w.pos
	pc := pos.PieceOn(m.From())
	return int(w.hist.butterfly[pos.SideToMove()][m.From()][m.To()]) +
		int(w.stack[ply+stackOffset-1].cont[pc][m.To()]) +
		int(w.stack[ply+stackOffset-2].cont[pc][m.To()])
}

// lmrBaseReduction is the late-move reduction before adjustments.
func lmrBaseReduction(quiet bool, depth, count int) int {
	return int(lmrTable[boolToInt(quiet)][min(depth, lmrTableSize-1)][min(count, lmrTableSize-1)])
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
	// Futility pruning.
	if !n.inCheck && lmrDepth <= fpMaxDepth && n.staticEval+fpBase+fpMargin*lmrDepth <= n.alpha {
		mp.skipQuiets = true
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
		n.hit && te.Depth >= n.depth-seTTDepthMargin && te.Bound&tt.BoundLower != 0 && !eval.IsMate(te.Score) {
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
// null window first when late, then with a null window at full depth, then
// with the full window at PV nodes as needed) and unmakes it.
func (w *worker) searchMove(n *node, mp *picker, mi *moveInfo, newDepth int) int {
	alpha, beta, ply := n.alpha, n.beta, n.ply
	w.makeMove(mi.m, ply)
	var score int
	if n.depth >= lmrMinDepth && mi.count > 1+boolToInt(n.pvNode) && (!mi.noisy || !n.ttPV) {
		d := max(1, min(newDepth, newDepth-w.reduction(n, mp, mi)))
		score = -w.negamax(-alpha-1, -alpha, d, ply+1, true)
		if score > alpha && d < newDepth {
			score = -w.negamax(-alpha-1, -alpha, newDepth, ply+1, !n.cutNode)
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

// reduction is the late-move reduction of mi, which is on the board: quiet
// moves are reduced less at PV nodes, when they give check, have a good
// history or are a killer or counter-move, and more at cut nodes and when
// the position is not improving.
func (w *worker) reduction(n *node, mp *picker, mi *moveInfo) int {
	r := lmrBaseReduction(!mi.capture, n.depth, mi.count)
	if mi.noisy {
		return r
	}
	r -= boolToInt(n.ttPV)
	r += boolToInt(n.cutNode)
	r -= boolToInt(w.pos.InCheck()) // the move gives check
	r += boolToInt(!n.improving)
	r -= mi.histScore / lmrHistoryDiv
	if mi.m == mp.killers[0] || mi.m == mp.killers[1] || mi.m == mp.counter {
		r--
	}
	return r
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
			w.updateQuietStats(n.ply, res.bestMove, res.quiets[:res.nQuiet], bonus)
		} else {
			w.updateCaptureHistory(res.bestMove, bonus)
		}
		for _, m := range res.noisy[:res.nNoisy] {
			w.updateCaptureHistory(m, -bonus)
		}
	}

	// 17. Store in the transposition table (not for a singular-extension
	// search, nor for the second and later MultiPV lines at the root).
	res.bestScore = min(res.bestScore, n.tbCeil)
	if n.excluded == movegen.NoMove && !(n.ply == 0 && w.pvIdx > 0) {
		bound := boundFor(res.bestScore, n.origAlpha, n.beta, n.pvNode)
		w.ttRecord(n.key, n.ply, res.bestMove, res.bestScore, n.staticEval, n.depth, bound, n.ttPV)
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

// updateQuietStats rewards a quiet move that caused a cutoff and punishes
// the quiet moves tried before it.
func (w *worker) updateQuietStats(ply int, best movegen.Move, tried []movegen.Move, bonus int) {
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
	for _, back := range contHistoryPlies {
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
	gravity(&w.hist.capture[pos.PieceOn(m.From())][m.To()][pos.CapturedType(m)], bonus)
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
	if pos.IsDrawnRepetition(ply) || pos.InsufficientMaterial() {
		return w.drawScore()
	}
	inCheck := pos.InCheck()
	if pos.Rule50() >= rule50Plies && (!inCheck || pos.HasLegalMove()) {
		return w.drawScore()
	}
	if ply >= eval.MaxPly-1 {
		return w.plyLimitScore(inCheck, ply)
	}

	key := pos.Key()
	te, hit := w.ttLookup(key, ply)
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
				w.ttRecord(key, ply, movegen.NoMove, bestScore, staticEval, evalOnlyDepth, tt.BoundLower, false)
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
	w.ttRecord(key, ply, bestMove, bestScore, staticEval, qsDepth, boundFor(bestScore, origAlpha, beta, pvNode), ttPV)
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

// refineEval returns the TT score in place of the static evaluation when the
// entry's bound shows it is the better estimate.
func refineEval(te tt.Entry, hit bool, staticEval int) int {
	if hit && ttCuts(te, staticEval, staticEval) {
		return te.Score
	}
	return staticEval
}
