package search

import (
	"github.com/kingrook/kingrook/movegen"
)

// Choosing the result: the main worker's move (the chosen line of a
// weakened search), its ponder move and its exact score.

// result returns the main worker's move, ponder move and exact score (an
// exact draw reported as 0, draw.go); the main worker reported its line
// last, so bestmove is the last PV's first move. A weakened search plays
// the line it chose (strength.go).
func (p *Pool) result(onInfo func(Info)) Result {
	if p.weak.on && !p.weak.full() {
		if res, ok := p.weakResult(onInfo); ok {
			return res
		}
	}
	bw := p.workers[0]
	best := bw.rootMoves[0]
	pv := best.pv // the line of exactScore's value
	if best.bound != Exact && bw.completed > 0 {
		pv = bw.completedPV
	}
	score, bound := p.tbRootScore(bw.exactScore(), Exact) // as the last report
	score, _ = bw.exactDraw(score, bound, pv)
	res := Result{BestMove: best.move, Score: score, Depth: bw.completed, Nodes: p.totalNodes()}
	if len(best.pv) > 1 {
		res.PonderMove = best.pv[1]
	} else {
		res.PonderMove = p.ponderFromTT(bw.pos, best.move)
	}
	return res
}

// ponderFromTT finds a reply to best in the table when the PV is too short.
func (p *Pool) ponderFromTT(pos *movegen.Position, best movegen.Move) movegen.Move {
	pos.Make(best)
	defer pos.Unmake()
	if e, ok := p.table.Probe(pos.Key()); ok && e.Move != movegen.NoMove && pos.IsLegal(e.Move) {
		return e.Move
	}
	return movegen.NoMove
}
