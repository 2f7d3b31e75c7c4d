package search

import (
	"slices"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// Choosing the result: the worker whose move is played and reported last
// (by thread vote when Options.ThreadVote is set), and its ponder move.

// result picks the worker whose move is played (bestWorker), reports its
// line once more when it is not the main worker's, so that bestmove is the
// last PV's first move, and returns its move, ponder move and exact score
// (an exact draw reported as 0, draw.go).
func (p *Pool) result(onInfo func(Info)) Result {
	if p.weak.on {
		if res, ok := p.weakResult(onInfo); ok {
			return res
		}
	}
	bw := p.bestWorker()
	if bw != p.workers[0] && onInfo != nil {
		bw.report(onInfo, max(1, bw.completed), 1)
	}
	best := bw.rootMoves[0]
	pv := best.pv // the line of exactScore's value
	if best.bound != Exact && bw.completed > 0 {
		pv = bw.completedPV
	}
	score, _ := bw.exactDraw(bw.exactScore(), Exact, pv)
	res := Result{BestMove: best.move, Score: score, Depth: bw.completed, Nodes: p.totalNodes()}
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

// ponderFromTT finds a reply to best in the table when the PV is too short.
func (p *Pool) ponderFromTT(pos *movegen.Position, best movegen.Move) movegen.Move {
	pos.Make(best)
	defer pos.Unmake()
	if e, ok := p.table.Probe(pos.Key()); ok && e.Move != movegen.NoMove && pos.IsLegal(e.Move) {
		return e.Move
	}
	return movegen.NoMove
}
