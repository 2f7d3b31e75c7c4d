package search

import (
	"sync/atomic"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// The worker, one per search thread: its per-ply stack, evaluation and
// making and unmaking of moves along the search.

const (
	stackOffset = 6 // frames below ply 0: ply-1 .. ply-6 are read, so at least 6
	stackSpare  = 4 // frames above the ply limit: ply+1 is written, so at least 1
	infinite    = eval.Infinite
)

// frame is the per-ply search state. iterate clears the whole stack when a
// search starts; below that, a node sets its own fields before reading
// them, except killers and excluded, which its parent clears (step 5), and
// doubleExt, which its parent sets before each move.
type frame struct {
	move       movegen.Move     // move made at this ply
	piece      movegen.Piece    // piece that moved
	cont       *pieceToHistory  // continuation history of (piece, to)
	contCorr   *pieceToHistory  // continuation correction of (piece, to); nil for a null move
	staticEval int              // corrected; -infinite when in check
	rawEval    int              // before correction; -infinite when in check
	threats    movegen.Bitboard // squares the side not to move attacks (negamax nodes)
	excluded   movegen.Move     // singular-extension search excludes this move
	killers    [2]movegen.Move  // quiet cutoff moves of the parent's earlier children (at the root: of the search)
	inCheck    bool
	doubleExt  int // double extensions on the line to this ply
	reduction  int // the late-move reduction of the move being searched from this ply, else 0
	pv         [eval.MaxPly + 1]movegen.Move
	pvLen      int
}

// The slots of worker.pickers.
const (
	pickNegamax = iota
	pickExcluded
	pickQsearch
)

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
	// The accumulators are brought up to date lazily: making a move only
	// records its feature change in accDelta[ply+1], and evaluate applies the
	// changes from accTop, the highest ply whose accumulator is up to date
	// for the current line, to the ply it evaluates. Nodes that never
	// evaluate (table hits, draws, cutoffs before the evaluation) and their
	// subtrees cost no update. A move that needs a refresh (a king crossing
	// the d/e line in a king-mirrored net, nnue.Net.Crosses) is the
	// exception: it needs its own position, so makeMove brings the line up
	// to date and updates the child at once, after making the move.
	accDelta []nnue.Delta // a null move's is the zero Delta (no piece put): a copy of the parent
	accTop   int
	mirrored bool // the net's layout is not nnue.Plain: makeMove applies a move that Crosses at once
	hist     histories

	// pickers are the move pickers of each ply: [pickNegamax] for the node's
	// own move loop, [pickExcluded] for a singular-extension search of the
	// same node, [pickQsearch] for quiescence. Kept here, not declared in
	// each node, because a picker holds about 5 KB of move lists that Go
	// would zero at every node; init sets every field a node reads.
	pickers [eval.MaxPly + stackOffset + stackSpare][3]picker

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
	scoreTrend float64 // average of the completed depths' scores, newest weighted most
	stopped    bool
	// The best line of the last completed depth, whose score is exact.
	completedScore int
	completedPV    []movegen.Move
}

func newWorker(id int, p *Pool) *worker {
	return &worker{id: id, pool: p, table: p.table, eval: eval.NewEvaluator(nil), rootMoves: make([]rootMove, 0, movegen.MaxMoves)}
}

// prepare readies the worker for a search of pos with the root moves root:
// its own copy of the position, the table and network of the search, and
// the per-search state cleared.
func (w *worker) prepare(pos *movegen.Position, root []movegen.Move) {
	p := w.pool
	if w.pos == nil {
		w.pos = pos.Clone()
	} else {
		w.pos.CopyFrom(pos)
	}
	w.table = p.table
	w.setNet(p.opts.Net)
	w.setRootMoves(root)
	w.nodes = 0
	w.nodesPub.Store(0)
	w.tbHits.Store(0)
	w.stopped = false
	w.completed = 0
	w.searching.Store(0)
	w.bestChange = 0
	w.scoreTrend = 0
}

// setNet selects the evaluation of the next search (nil: the hand-written
// one) and, for a network, refreshes the root accumulator from w.pos. The
// accumulator stack is allocated only when the network changes.
func (w *worker) setNet(n *nnue.Net) {
	w.allocNet(n)
	if n != nil {
		w.accs[0].Refresh(n, w.pos)
		w.accTop = 0
	}
}

// allocNet sets the network (nil: the hand-written evaluation) and
// allocates its accumulator stack, only when the network changes.
func (w *worker) allocNet(n *nnue.Net) {
	if n != w.net || (n != nil && len(w.accs) == 0) {
		w.net, w.accs = n, nil
		w.mirrored = n != nil && n.Layout != nnue.Plain
		if n != nil {
			w.accs = n.NewAccumulators(eval.MaxPly + 1)
			w.accDelta = make([]nnue.Delta, eval.MaxPly+1)
		}
	}
}

// evaluate is the static evaluation of the position at ply, from the side
// to move's view: the network's when one is set, else the hand-written one.
// Both fade toward zero as the fifty-move counter grows (the hand-written
// evaluation does it itself); the bare-king term (eval.MopUp) is added to
// either.
func (w *worker) evaluate(ply int) int {
	if w.net == nil {
		return w.eval.Evaluate(w.pos) + eval.MopUp(w.pos)
	}
	var v int
	if ply > w.accTop && w.accDelta[ply].NAdd > 0 {
		// The last change is applied in one pass with the output layer.
		w.updateAccumulators(ply - 1)
		w.accTop = ply
		v = w.accs[ply].ApplyEvaluate(w.net, &w.accs[ply-1], w.accDelta[ply], w.pos.SideToMove())
	} else {
		w.updateAccumulators(ply)
		v = w.net.Evaluate(&w.accs[ply], w.pos.SideToMove())
	}
	// The bare-king term is added after the fade, so that the way to the
	// mate stays as clear late in the 50 moves as early.
	return v*(netFadeBase-min(w.pos.Rule50(), rule50Plies))/netFadeBase + eval.MopUp(w.pos)
}

// updateAccumulators brings the accumulators of the current line up to date
// to ply.
func (w *worker) updateAccumulators(ply int) {
	for k := w.accTop + 1; k <= ply; k++ {
		if w.accDelta[k].NAdd == 0 { // a null move
			w.accs[k].CopyFrom(&w.accs[k-1])
		} else {
			w.accs[k].Apply(w.net, &w.accs[k-1], w.accDelta[k])
		}
	}
	w.accTop = max(w.accTop, ply)
}

// recordMove notes that the accumulator of ply+1 is the one of ply changed
// by delta (the zero Delta for a null move), not yet applied.
func (w *worker) recordMove(ply int, delta nnue.Delta) {
	w.accDelta[ply+1] = delta
	w.accTop = min(w.accTop, ply)
}

// makeMove plays m and records it in the frame of ply. The caller has
// asked for the table entry of the position after m (Prefetch of KeyAfter)
// before its pruning tests, so that it arrives while they work.
func (w *worker) makeMove(m movegen.Move, ply int) {
	f := &w.stack[ply+stackOffset]
	pc := w.pos.PieceOn(m.From())
	capture := isCapture(w.pos, m)
	f.move = m
	f.piece = pc
	f.cont = &w.hist.cont[boolToInt(capture)][pc][m.To()]
	f.contCorr = &w.hist.contCorr[pc][m.To()]
	w.nodes++
	if w.net != nil {
		w.accDelta[ply+1].SetMove(w.pos, m)
		w.accTop = min(w.accTop, ply)
	}
	w.pos.Make(m)
	if w.mirrored {
		w.crossLine(ply)
	}
}

// crossLine applies the move just made at ply at once if it needs a refresh
// (nnue.Net.Crosses), while w.pos is the position after it: the
// accumulators of the current line are brought up to date to ply+1.
func (w *worker) crossLine(ply int) {
	if d := w.accDelta[ply+1]; w.net.Crosses(d) {
		w.updateAccumulators(ply)
		w.accs[ply+1].ApplyMade(w.net, &w.accs[ply], d, w.pos)
		w.accTop = ply + 1
	}
}

func (w *worker) makeNull(ply int) {
	f := &w.stack[ply+stackOffset]
	f.move = movegen.NullMove
	f.piece = movegen.NoPiece
	f.cont = &w.hist.cont[0][0][0]
	f.contCorr = nil
	w.nodes++
	w.pos.MakeNull()
	w.table.Prefetch(w.pos.Key())
	if w.net != nil {
		w.recordMove(ply, nnue.Delta{})
	}
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
