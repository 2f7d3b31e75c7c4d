package search

import (
	"runtime"
	"slices"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// Iterative deepening and aspiration windows: each worker searches the root
// at increasing depths, the helpers spread over the depths, and each depth
// searches a window around the last score, widened on a fail.

// iterateOnThread runs iterate with the goroutine locked to its OS thread.
//
// The Go runtime preempts a goroutine that has run for 10 ms and puts it on
// the global run queue, where another thread may take it; the OS may run
// that thread on another core, whose caches hold none of the worker's
// tables or the network's weights. Locked, the goroutine comes back to its
// own thread, which the OS keeps on its core: on the 2-core Xeon, bench
// counted 15-40 migrations from core to core without the lock (9-21 with
// it, 0-2 with GODEBUG=asyncpreemptoff=1) and ran 4% slower (bench/README.md).
func (w *worker) iterateOnThread(onInfo func(Info)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w.iterate(onInfo)
}

// iterate is iterative deepening for one worker. Only the main worker
// (id 0) reports through onInfo and decides when to stop.
func (w *worker) iterate(onInfo func(Info)) {
	p := w.pool
	for i := range w.stack {
		w.stack[i] = frame{staticEval: -infinite}
		w.stack[i].cont = &w.hist.cont[0][0][0]
	}
	maxDepth := eval.MaxPly - 1
	if p.limits.Depth > 0 {
		maxDepth = min(maxDepth, p.limits.Depth)
	}
	if p.forced {
		maxDepth = min(maxDepth, tmSingleReplyDepth)
	}
	if p.weak.on {
		maxDepth = min(maxDepth, p.weak.depth)
	}
	multiPV := min(p.opts.MultiPV, len(w.rootMoves))
	shown := min(multiPV, p.shownPV) // lines reported
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
				w.report(onInfo, depth, shown)
			}
		}
		if w.stopped {
			break
		}
		w.completeDepth(depth)
		if w.id == 0 && p.weak.on && !p.weak.full() {
			w.weakSnapshot(depth, min(multiPV, p.weak.lines)) // the lines shown beyond the plan's are no choice
		}
		if w.id == 0 && w.mainDone(&lastBest) {
			break
		}
	}
	w.nodesPub.Store(w.nodes) // the exact count, for Result.Nodes
	w.settleBest()
	if w.id == 0 {
		p.stop.Store(true)
		if w.stopped && onInfo != nil {
			// Report the final PV once more so bestmove equals pv[0], each
			// line with the depth its score comes from: the stopped depth
			// for the lines it finished, the one before for the others.
			w.report(onInfo, max(1, w.rootDepth), shown)
		}
	}
}

// completeDepth records that the worker finished depth: the depth, the
// deepest depth of the pool, and the best line with its exact score.
func (w *worker) completeDepth(depth int) {
	p := w.pool
	w.completed = depth
	for d := p.deepest.Load(); d < int32(depth) && !p.deepest.CompareAndSwap(d, int32(depth)); {
		d = p.deepest.Load()
	}
	w.completedScore = w.rootMoves[0].score
	w.completedPV = append(w.completedPV[:0], w.rootMoves[0].pv...)
}

// mainDone tells the main worker, after a completed depth, whether to start
// no new iteration: a mate within the mate limit is found, or the soft time
// limit, scaled by how often the best move changed, has passed. lastBest is
// the best move of the previous depth, updated here.
func (w *worker) mainDone(lastBest *movegen.Move) bool {
	p := w.pool
	if best := w.rootMoves[0].move; best != *lastBest {
		if *lastBest != movegen.NoMove {
			w.bestChange += 1
		}
		*lastBest = best
	}
	// Mate limit: stop once a mate in the asked number of moves is found.
	if m := p.limits.Mate; m > 0 && eval.IsMate(w.rootMoves[0].score) && w.rootMoves[0].score > 0 &&
		eval.MateMoves(w.rootMoves[0].score) <= m {
		return true
	}
	stop := p.softStop(w) || p.weakSoftStop(w) || p.softNodesStop(w)
	w.trackScore()
	return stop
}

// trackScore folds the score of the depth just completed into the score
// trend, which softStop compares the next depth's score with.
func (w *worker) trackScore() {
	s := trendScore(w.completedScore)
	if w.completed <= 1 {
		w.scoreTrend = s
		return
	}
	w.scoreTrend += tmTrendWeight * (s - w.scoreTrend)
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
			w.report(onInfo, depth, min(w.pool.shownPV, len(w.rootMoves)))
		}
		delta += delta / aspirationGrowthDiv
	}
}
