package search

import (
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// Pool runs a search over one or more Lazy SMP workers sharing a table.
// One search runs at a time; Search is not reentrant.
type Pool struct {
	table   *tt.Table
	workers []*worker

	// per search
	stop       atomic.Bool
	ponder     atomic.Bool // pondering and no ponderhit yet
	limits     Limits
	opts       Options
	start      time.Time
	startNanos atomic.Int64 // start as UnixNano, moved forward on ponderhit
	soft, hard time.Duration
	timed      bool
	forced     bool         // one legal move under a clock: a short search only
	deepest    atomic.Int32 // deepest depth completed by any worker
	tbProbe    bool         // probe the tablebases in the tree (tb.go)
	tbRootHits uint64       // tablebase probes made at the root
	tbRoot     tbRoot       // what the tables say of the root

	mu        sync.Mutex    // guards ponderHit against PonderHit racing Search
	ponderHit chan struct{} // closed on the ponderhit of a pondering search, nil when not pondering

	helpers sync.WaitGroup // the helper threads of the running search
	root    []movegen.Move // the root moves of the last search (a buffer kept to save allocations)
	votes   []int          // per worker, the votes for its best move (bestWorker's buffer)
}

// NewPool returns a pool that searches with table.
func NewPool(table *tt.Table) *Pool {
	return &Pool{table: table}
}

// NewGame clears the move-ordering histories of all workers.
func (p *Pool) NewGame() {
	for _, w := range p.workers {
		w.hist.clear()
	}
}

// PonderHit switches a pondering search to the clock: from now on the time
// limits of its Limits apply. With no pondering search running it does
// nothing; a caller that starts Search on another goroutine passes
// Limits.PonderHit instead, which cannot arrive too early.
func (p *Pool) PonderHit() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ponder.Load() {
		p.startNanos.Store(time.Now().UnixNano())
		p.ponder.Store(false)
		close(p.ponderHit)
	}
}

// beginPonder sets the ponder state of a search starting under lim and
// returns the channel that PonderHit closes (nil when not pondering).
func (p *Pool) beginPonder(lim Limits) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ponderHit = nil
	if lim.Ponder {
		p.ponderHit = make(chan struct{})
	}
	p.ponder.Store(lim.Ponder)
	return p.ponderHit
}

// endPonder clears the ponder state when a search ends, so that a late
// PonderHit finds nothing to switch.
func (p *Pool) endPonder() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ponder.Store(false)
}

func (p *Pool) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - p.startNanos.Load())
}

// checkLimits stops the search when the hard time limit is reached.
func (p *Pool) checkLimits() {
	if p.timed && !p.ponder.Load() && p.elapsed() >= p.hard {
		p.stop.Store(true)
	}
}

func (p *Pool) totalTBHits() uint64 {
	n := p.tbRootHits
	for _, w := range p.workers {
		n += w.tbHits.Load()
	}
	return n
}

func (p *Pool) totalNodes() uint64 {
	var n uint64
	for _, w := range p.workers {
		n += w.nodesPub.Load()
	}
	return n
}

// Stop makes the running search stop as soon as its workers next look at
// the flag. Cancelling the context given to Search does the same, but through
// one more goroutine, which may have to wait for a processor. A Stop that
// comes before Search has begun is lost: the context is what always holds.
func (p *Pool) Stop() {
	p.stop.Store(true)
}

// Search runs a search on pos and returns the best move (see api.go).
func (p *Pool) Search(ctx context.Context, pos *movegen.Position, lim Limits, opt Options, onInfo func(Info)) Result {
	p.start = time.Now()
	if !lim.Start.IsZero() && lim.Start.Before(p.start) {
		p.start = lim.Start
	}
	p.startNanos.Store(p.start.UnixNano())
	p.stop.Store(false)
	p.deepest.Store(0)
	p.limits = lim
	p.opts = opt
	p.opts.Threads = max(1, min(MaxThreads, opt.Threads))
	p.opts.MultiPV = max(1, min(MaxMultiPV, opt.MultiPV))
	p.setTimeLimits(pos.SideToMove())
	hitCh := p.beginPonder(lim)
	defer p.endPonder()
	if ctx.Done() != nil || lim.PonderHit != nil {
		done := make(chan struct{})
		defer close(done)
		go p.watch(ctx, lim.PonderHit, done)
	}

	for len(p.workers) < p.opts.Threads {
		p.workers = append(p.workers, newWorker(len(p.workers), p))
	}
	p.workers = p.workers[:p.opts.Threads]
	p.table.NewSearch()

	root := p.rootMovesFor(pos, lim.SearchMoves)
	root, tbr, hits := p.tbFilterRoot(pos, root)
	p.tbProbe, p.tbRootHits, p.tbRoot = p.tbInTree(tbr), hits, tbr
	if len(root) == 0 {
		p.waitIfInfinite(ctx, lim, hitCh)
		return Result{}
	}
	// Under a clock, a forced move is played at once: time spent on it is
	// lost. (Ponder waits for ponderhit as usual, then answers.)
	p.forced = len(root) == 1 && lim.HasClock && lim.MoveTime == 0 && !lim.Infinite

	for _, w := range p.workers {
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
		if w.id > 0 {
			p.helpers.Add(1)
			go func(w *worker) {
				defer p.helpers.Done()
				w.iterate(nil)
			}(w)
		}
	}
	main := p.workers[0]
	main.iterate(onInfo)

	// Infinite and ponder searches never end before stop (or ponderhit).
	p.waitIfInfinite(ctx, lim, hitCh)
	p.stop.Store(true)
	p.helpers.Wait()

	return p.result(onInfo)
}

// result picks the worker whose move is played (bestWorker), reports its
// line once more when it is not the main worker's, so that bestmove is the
// last PV's first move, and returns its move, ponder move and exact score.
func (p *Pool) result(onInfo func(Info)) Result {
	bw := p.bestWorker()
	if bw != p.workers[0] && onInfo != nil {
		bw.report(onInfo, max(1, bw.completed), 1)
	}
	best := bw.rootMoves[0]
	res := Result{BestMove: best.move, Score: bw.exactScore(), Depth: bw.completed, Nodes: p.totalNodes()}
	if len(best.pv) > 1 {
		res.PonderMove = best.pv[1]
	} else {
		res.PonderMove = p.ponderFromTT(bw.pos, best.move)
	}
	return res
}

// bestWorker picks the worker whose best move is played. Without ThreadVote,
// with one thread, MultiPV or a depth limit it is the main worker. Otherwise
// the workers vote: each gives its move (score - lowest score +
// voteScoreBase) * completed depth, and the move with the most votes wins;
// a mate found settles it (the fastest mate, or the slowest loss when all
// are mated).
func (p *Pool) bestWorker() *worker {
	best := p.workers[0]
	if !p.opts.ThreadVote || len(p.workers) == 1 || p.opts.MultiPV > 1 || p.limits.Depth > 0 {
		return best
	}
	minScore := infinite
	for _, w := range p.workers {
		if w.completed > 0 {
			minScore = min(minScore, w.exactScore())
		}
	}
	// votes[i]: the votes of all workers for worker i's best move.
	p.votes = slices.Grow(p.votes[:0], len(p.workers))[:len(p.workers)]
	for i, w := range p.workers {
		p.votes[i] = 0
		for _, o := range p.workers {
			if o.completed > 0 && o.rootMoves[0].move == w.rootMoves[0].move {
				p.votes[i] += (o.exactScore() - minScore + voteScoreBase) * o.completed
			}
		}
	}
	bi := 0
	for i := 1; i < len(p.workers); i++ {
		w := p.workers[i]
		if w.completed == 0 {
			continue
		}
		bs, ws := best.exactScore(), w.exactScore()
		switch {
		case eval.IsMate(bs) || eval.IsMate(ws):
			if ws > bs {
				best, bi = w, i
			}
		case p.votes[i] > p.votes[bi] || (w.rootMoves[0].move == best.rootMoves[0].move && w.completed > best.completed):
			best, bi = w, i
		}
	}
	return best
}

// watch stops the search when ctx is cancelled and hands on a ponderhit
// from hit (nil when none can come), until done is closed.
func (p *Pool) watch(ctx context.Context, hit <-chan struct{}, done <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			p.stop.Store(true)
			return
		case <-hit:
			p.PonderHit()
			hit = nil
		case <-done:
			return
		}
	}
}

// setRootMoves makes root the worker's root moves, unsearched. Their PV
// buffers, made once with room for the longest PV, are kept from search to
// search.
func (w *worker) setRootMoves(root []movegen.Move) {
	w.rootMoves = w.rootMoves[:len(root)]
	for i, m := range root {
		rm := &w.rootMoves[i]
		pv := rm.pv[:0]
		if cap(pv) < maxPly+1 {
			pv = make([]movegen.Move, 0, maxPly+1)
		}
		*rm = rootMove{move: m, score: -infinite, prevScore: -infinite, pv: append(pv, m)}
	}
}

// waitIfInfinite blocks an infinite or ponder search that finished early
// until stop (or, for ponder, ponderhit): the one place that holds back the
// result of such a search, also when there is no move to search.
func (p *Pool) waitIfInfinite(ctx context.Context, lim Limits, hitCh chan struct{}) {
	if p.stop.Load() && ctx.Err() != nil {
		return
	}
	if lim.Infinite {
		<-ctx.Done()
		return
	}
	if lim.Ponder {
		select {
		case <-ctx.Done():
		case <-hitCh:
		}
	}
}

// ponderFromTT finds a reply to best in the table when the PV is too short.
func (p *Pool) ponderFromTT(pos *movegen.Position, best movegen.Move) movegen.Move {
	pos.Make(best)
	defer pos.Unmake()
	if e, ok := p.table.Probe(pos.Key(), 1); ok && e.Move != movegen.NoMove && pos.IsLegal(e.Move) {
		return e.Move
	}
	return movegen.NoMove
}

// rootMovesFor lists the legal root moves, restricted to searchMoves when
// given, ordered by a quick guess (captures first).
func (p *Pool) rootMovesFor(pos *movegen.Position, searchMoves []movegen.Move) []movegen.Move {
	var l movegen.MoveList
	pos.GenerateLegal(&l)
	out := p.root[:0]
	for i := 0; i < l.N; i++ {
		m := l.Moves[i].Move
		if len(searchMoves) > 0 && !slices.Contains(searchMoves, m) {
			continue
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out, func(a, b movegen.Move) int {
		return quickScore(pos, b) - quickScore(pos, a)
	})
	p.root = out
	return out
}

func quickScore(pos *movegen.Position, m movegen.Move) int {
	s := 0
	if isCapture(pos, m) {
		s += rootCaptureBonus + seeValues[pos.PieceOn(m.To()).Type()] - seeValues[pos.PieceOn(m.From()).Type()]/rootAttackerDiv
	}
	if m.IsPromotion() {
		s += seeValues[m.PromotionType()]
	}
	return s
}

// setTimeLimits computes the soft and hard limits for this move.
func (p *Pool) setTimeLimits(us movegen.Color) {
	lim := p.limits
	overhead := p.opts.MoveOverhead
	p.timed = false
	switch {
	case lim.MoveTime > 0:
		t := max(time.Duration(tmMinMillis)*time.Millisecond, lim.MoveTime-overhead)
		p.soft, p.hard, p.timed = t, t, true
	case lim.HasClock:
		left, inc, given := lim.WTime, lim.WInc, lim.WTimeGiven
		theirLeft, theirInc := lim.BTime, lim.BInc
		if us == movegen.Black {
			left, inc, given = lim.BTime, lim.BInc, lim.BTimeGiven
			theirLeft, theirInc = lim.WTime, lim.WInc
		}
		if !given && (lim.WTimeGiven || lim.BTimeGiven) {
			// Only the opponent's clock was given: assume ours is the same
			// rather than think for a millisecond.
			left, inc = theirLeft, theirInc
		}
		avail := left - overhead - time.Duration(tmSafetyMillis)*time.Millisecond
		avail = max(time.Duration(tmMinMillis)*time.Millisecond, avail)
		mtg := tmDefaultMovesToGo
		if lim.MovesToGo > 0 {
			mtg = min(lim.MovesToGo, tmDefaultMovesToGo)
		}
		soft := avail/time.Duration(mtg) + inc*tmIncNum/tmIncDen
		hardCap := avail * tmHardCapNum / tmHardCapDen
		if lim.MovesToGo == 1 {
			hardCap = avail * tmLastMoveNum / tmLastMoveDen
		}
		hardCap = max(time.Duration(tmMinMillis)*time.Millisecond, hardCap)
		hard := min(soft*tmHardMul, hardCap)
		p.soft, p.hard, p.timed = min(soft, hard), hard, true
	}
}

// softStop tells whether to start no new iteration, given how stable the
// best move has been.
func (p *Pool) softStop(w *worker) bool {
	if !p.timed || p.ponder.Load() || p.limits.MoveTime > 0 {
		return false
	}
	scale := tmStabilityMin + (tmStabilityMax-tmStabilityMin)*math.Min(1, w.bestChange)
	return float64(p.elapsed()) > float64(p.soft)*scale
}

// iterate is iterative deepening for one worker. Only the main worker
// (id 0) reports through onInfo and decides when to stop.
func (w *worker) iterate(onInfo func(Info)) {
	p := w.pool
	for i := range w.stack {
		w.stack[i] = frame{staticEval: -infinite}
		w.stack[i].cont = &w.hist.cont[0][0][0]
	}
	maxDepth := maxPly - 1
	if p.limits.Depth > 0 {
		maxDepth = min(maxDepth, p.limits.Depth)
	}
	if p.forced {
		maxDepth = min(maxDepth, tmSingleReplyDepth)
	}
	multiPV := min(p.opts.MultiPV, len(w.rootMoves))
	lastBest := movegen.NoMove
	for depth := 1; depth <= maxDepth; depth++ {
		if w.skipDepth(depth) {
			continue
		}
		w.rootDepth = depth
		w.searching.Store(int32(depth))
		w.bestChange *= bestChangeDecay
		for i := range w.rootMoves {
			w.rootMoves[i].prevScore = w.rootMoves[i].score
			w.rootMoves[i].score = -infinite // not searched at this depth yet
		}
		for w.pvIdx = 0; w.pvIdx < multiPV; w.pvIdx++ {
			w.selDepth = 0
			w.aspiration(depth, onInfo)
			if w.stopped {
				break
			}
			// Sort the searched lines to the front, best first, and the
			// lines finished at this depth among themselves.
			slices.SortStableFunc(w.rootMoves[w.pvIdx:], func(a, b rootMove) int { return b.score - a.score })
			slices.SortStableFunc(w.rootMoves[:w.pvIdx+1], func(a, b rootMove) int { return b.score - a.score })
			if onInfo != nil && (w.pvIdx+1 == multiPV || p.elapsed() > reportInterval) {
				w.report(onInfo, depth, multiPV)
			}
		}
		if w.stopped {
			break
		}
		w.completed = depth
		for d := p.deepest.Load(); d < int32(depth) && !p.deepest.CompareAndSwap(d, int32(depth)); {
			d = p.deepest.Load()
		}
		w.completedScore = w.rootMoves[0].score
		w.completedPV = append(w.completedPV[:0], w.rootMoves[0].pv...)
		if w.id != 0 {
			continue
		}
		if best := w.rootMoves[0].move; best != lastBest {
			if lastBest != movegen.NoMove {
				w.bestChange += 1
			}
			lastBest = best
		}
		// Mate limit: stop once a mate in the asked number of moves is found.
		if m := p.limits.Mate; m > 0 && eval.IsMate(w.rootMoves[0].score) && w.rootMoves[0].score > 0 &&
			eval.MateMoves(w.rootMoves[0].score) <= m {
			break
		}
		if p.softStop(w) {
			break
		}
	}
	w.nodesPub.Store(w.nodes) // the exact count, for Result.Nodes
	w.settleBest()
	if w.id == 0 {
		p.stop.Store(true)
		if w.stopped && onInfo != nil {
			// Report the final PV once more so bestmove equals pv[0].
			w.report(onInfo, max(1, w.completed), multiPV)
		}
	}
}

// skipDepth tells a helper to leave a depth to the others, so that the
// threads spread over several depths instead of repeating one: a helper skips
// depth d (d > 1) when some worker has completed it, or when at least half of
// the workers are already searching d or deeper. With two threads the helper
// thus runs one ply ahead of the main thread, whose next iteration then finds
// the helper's results in the shared table.
func (w *worker) skipDepth(depth int) bool {
	if w.id == 0 || depth <= 1 {
		return false
	}
	if int(w.pool.deepest.Load()) >= depth {
		return true
	}
	ahead := 0
	for _, o := range w.pool.workers {
		if o != w && int(o.searching.Load()) >= depth {
			ahead++
		}
	}
	return ahead*helperAheadDen >= len(w.pool.workers)*helperAheadNum
}

// settleBest gives the best root move, after a stop, the exact score and PV
// of the last completed depth unless the aborted depth finished its line
// inside the window. A move that failed high at the aborted depth keeps its
// lower bound: it is played, but its score is no value (see exactScore).
func (w *worker) settleBest() {
	rm := &w.rootMoves[0]
	if rm.score != -infinite && rm.bound == Exact {
		return
	}
	switch {
	case w.completed == 0:
		if rm.score == -infinite { // stopped before any line finished
			rm.score, rm.bound = w.evaluate(0), Exact
			rm.pv = append(rm.pv[:0], rm.move)
		}
	case rm.score == -infinite || rm.move == w.completedPV[0]:
		rm.score, rm.bound = w.completedScore, Exact
		rm.pv = append(rm.pv[:0], w.completedPV...)
	}
}

// exactScore is the value of the search once settled: the best line's score
// when exact, else the last completed depth's.
func (w *worker) exactScore() int {
	rm := w.rootMoves[0]
	if rm.bound == Exact || w.completed == 0 {
		return rm.score
	}
	return w.completedScore
}

// aspiration searches the root at depth with a window around the last score.
func (w *worker) aspiration(depth int, onInfo func(Info)) {
	rm := &w.rootMoves[w.pvIdx]
	alpha, beta := -infinite, infinite
	delta := aspirationDelta
	if depth >= aspirationDepth && rm.prevScore != -infinite && !eval.IsMate(rm.prevScore) {
		alpha = max(rm.prevScore-delta, -infinite)
		beta = min(rm.prevScore+delta, infinite)
	}
	failHighs := 0
	for {
		d := max(1, depth-failHighs)
		score := w.negamax(alpha, beta, d, 0, false)
		// Sort even after a stop: moves searched to the end keep fresh scores.
		slices.SortStableFunc(w.rootMoves[w.pvIdx:], func(a, b rootMove) int { return b.score - a.score })
		if w.stopped {
			return
		}
		switch {
		case score <= alpha:
			beta = (alpha + beta) / 2
			alpha = max(score-delta, -infinite)
			failHighs = 0
		case score >= beta:
			beta = min(score+delta, infinite)
			failHighs = min(failHighs+1, aspirationMaxFailHighs)
		default:
			return
		}
		if onInfo != nil && w.pool.elapsed() > reportInterval {
			w.report(onInfo, depth, min(w.pool.opts.MultiPV, len(w.rootMoves)))
		}
		delta += delta / aspirationGrowthDiv
	}
}

// isRootMove tells whether m is one of the root moves still to be searched
// in this MultiPV line.
func (w *worker) isRootMove(m movegen.Move) bool {
	for i := w.pvIdx; i < len(w.rootMoves); i++ {
		if w.rootMoves[i].move == m {
			return true
		}
	}
	return false
}

// updateRootMove records a root move's score and PV after it is searched.
func (w *worker) updateRootMove(m movegen.Move, score, moveCount, alpha, beta int, nodes uint64) {
	for i := w.pvIdx; i < len(w.rootMoves); i++ {
		rm := &w.rootMoves[i]
		if rm.move != m {
			continue
		}
		rm.nodes += nodes
		if moveCount == 1 || score > alpha {
			rm.score = score
			rm.selDepth = w.selDepth
			rm.bound = Exact
			if score >= beta {
				rm.bound = Lower
			} else if score <= alpha {
				rm.bound = Upper
			}
			child := &w.stack[stackOffset+1]
			rm.pv = append(rm.pv[:0], m)
			rm.pv = append(rm.pv, child.pv[:child.pvLen]...)
		} else {
			rm.score = -infinite // not better than the best: keep it behind
		}
		return
	}
}

// report sends one Info per PV line.
func (w *worker) report(onInfo func(Info), depth, multiPV int) {
	p := w.pool
	el := time.Since(p.start) // from go, also after a ponderhit
	nodes := p.totalNodes() - w.nodesPub.Load() + w.nodes
	nps := uint64(0)
	if el > 0 {
		nps = uint64(float64(nodes) / el.Seconds())
	}
	hashfull := p.table.Hashfull()
	for i := 0; i < multiPV; i++ {
		rm := w.rootMoves[i]
		score := rm.score
		bound := rm.bound
		d := depth
		if score == -infinite {
			// Not searched at this depth yet: show the previous result.
			score = rm.prevScore
			bound = Exact
			d = max(1, depth-1)
			if score == -infinite {
				if i > 0 {
					continue
				}
				score = w.evaluate(0) // stopped before any line finished
			}
		}
		score, bound = p.tbRootScore(score, bound)
		material := eval.Material(w.pos)
		onInfo(Info{
			Depth: d, SelDepth: max(rm.selDepth, d), MultiPV: i + 1, Score: score, Bound: bound,
			WDL: wdl(score, material), Material: material, Nodes: nodes, NPS: nps, Time: el, HashFull: hashfull, TBHits: p.totalTBHits(),
			PV: slices.Clone(rm.pv),
		})
	}
}

// wdl returns win/draw/loss per mille of a root score with the model of
// eval.WDL (mates and tablebase results are certain).
func wdl(score, material int) [3]int {
	w, d, l := eval.WDL(score, material)
	return [3]int{w, d, l}
}
