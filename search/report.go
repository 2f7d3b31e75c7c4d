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
		score, bound = w.exactDraw(score, bound, rm.pv)
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
