package search

import (
	"slices"
	"time"

	"github.com/kingrook/kingrook/eval"
)

// Info reporting: one Info per PV line, with the score the GUI sees and
// its win/draw/loss estimate.

// report sends one Info per PV line.
func (w *worker) report(onInfo func(Info), depth, multiPV int) {
	pr := w.progress()
	for i := 0; i < multiPV; i++ {
		rm := w.rootMoves[i]
		score := rm.score
		bound := rm.bound
		d := depth
		if score != -infinite && rm.depth > 0 {
			d = rm.depth // after a stop, a line may hold the last completed depth's score
		}
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
		score, bound = w.pool.tbRootScore(score, bound)
		score, bound = w.exactDraw(score, bound, rm.pv)
		onInfo(w.lineInfo(pr, rm, i+1, d, score, bound))
	}
}

// progress is what every Info of one report shares: the time from go, the
// nodes and their rate, the table's fill.
type progress struct {
	el       time.Duration
	nodes    uint64
	nps      uint64
	hashfull int
	tbHits   uint64
}

// progress returns the search's progress, as the main worker sees it.
func (w *worker) progress() progress {
	p := w.pool
	el := time.Since(p.start) // from go, also after a ponderhit
	nodes := p.totalNodes() - w.nodesPub.Load() + w.nodes
	nps := uint64(0)
	if el > 0 {
		nps = uint64(float64(nodes) / el.Seconds())
	}
	return progress{el: el, nodes: nodes, nps: nps, hashfull: p.table.Hashfull(), tbHits: p.totalTBHits()}
}

// lineInfo is the Info of root line rm, reported as line number multiPV
// of depth d with the score and bound given.
func (w *worker) lineInfo(pr progress, rm rootMove, multiPV, d, score int, bound Bound) Info {
	material := eval.Material(w.pos)
	return Info{
		Depth: d, SelDepth: max(rm.selDepth, d), MultiPV: multiPV, Score: score, Bound: bound,
		WDL: wdl(score, material), Material: material, Nodes: pr.nodes, NPS: pr.nps, Time: pr.el, HashFull: pr.hashfull, TBHits: pr.tbHits,
		PV: slices.Clone(rm.pv),
	}
}

// wdl returns win/draw/loss per mille of a root score with the model of
// eval.WDL (mates and tablebase results are certain).
func wdl(score, material int) [3]int {
	w, d, l := eval.WDL(score, material)
	return [3]int{w, d, l}
}
