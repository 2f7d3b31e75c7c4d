package search

import (
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/syzygy"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// Syzygy tablebases in the search.
//
// At the root, a position the tables cover has its moves ranked by DTZ (by
// WDL when a DTZ table is missing) and only those that keep the best result
// are searched: a win is converted within the 50-move rule, a draw held, a
// loss resisted. The tree is then left to the evaluation (probing it would
// only say "won" everywhere), unless the root is won and ranked by WDL only.
// Below a root the tables do not cover, positions right after a capture or
// pawn move with few enough pieces are probed for WDL and the result is
// stored in the table as an exact score or a bound.

// tbWin is the score of a tablebase win at the root; a win found at ply p
// scores tbWin - p. It stays below the mate scores, so mates found by the
// search are preferred and reported as such.
const tbWin = eval.MateInMaxPly - 1

// tbRoot is the outcome of the root probe.
type tbRoot struct {
	inTables bool // the root position was ranked by the tables
	probeDTZ bool // ... with DTZ
	wdl      syzygy.WDL
}

// tbFilterRoot keeps the root moves that preserve the best tablebase result
// (all of them when the tables do not cover the position). It returns the
// moves kept and what the probe found; hits counts the probes made.
func (p *Pool) tbFilterRoot(pos *movegen.Position, moves []movegen.Move) ([]movegen.Move, tbRoot, uint64) {
	tb := p.opts.Tablebases
	var r tbRoot
	if tb == nil || len(moves) == 0 || !tb.Probable(pos) || pos.Occupied().Count() > p.opts.ProbeLimit {
		return moves, r, 0
	}
	pos = pos.Clone()
	// Each move's DTZ from the root's view (1, 101, -1, -101 for zeroing
	// moves), as Fathom's root probe computes it; WDL only as a fallback.
	values := make(map[movegen.Move]int, len(moves))
	if res, ok := tb.ProbeRoot(pos); ok {
		r.probeDTZ = true
		for _, mr := range res.Moves {
			values[mr.Move] = mr.DTZ
		}
	} else {
		for _, m := range moves {
			pos.Make(m)
			w, ok := tb.ProbeWDL(pos)
			pos.Unmake()
			if !ok {
				return moves, tbRoot{}, 0
			}
			values[m] = [5]int{-1, -101, 0, 101, 1}[-w+2]
		}
	}
	r.inTables = true
	rule50 := pos.Rule50()
	best := -1 << 30
	for _, m := range moves {
		best = max(best, tbRank(values[m], rule50, p.opts.Rule50))
	}
	kept := moves[:0:0]
	for _, m := range moves {
		if tbRank(values[m], rule50, p.opts.Rule50) == best {
			kept = append(kept, m)
		}
	}
	// Among winning moves keep the quickest to zero the counter: playing
	// them converts the win whatever the search prefers.
	if r.probeDTZ && values[kept[0]] > 0 {
		minDTZ := values[kept[0]]
		for _, m := range kept {
			minDTZ = min(minDTZ, values[m])
		}
		quick := kept[:0]
		for _, m := range kept {
			if values[m] == minDTZ {
				quick = append(quick, m)
			}
		}
		kept = quick
	}
	v := values[kept[0]]
	switch {
	case tbRank(v, rule50, p.opts.Rule50) >= tbRankWin:
		r.wdl = syzygy.Win
	case v > 0:
		r.wdl = syzygy.CursedWin
	case v == 0:
		r.wdl = syzygy.Draw
	case tbRank(v, rule50, p.opts.Rule50) > -tbRankWin:
		r.wdl = syzygy.BlessedLoss
	default:
		r.wdl = syzygy.Loss
	}
	return kept, r, uint64(len(moves))
}

// tbRankWin is the rank of a move that wins under the 50-move rule.
const tbRankWin = 1000

// tbRank orders root moves by their DTZ v and the half-move clock: safe
// wins first (tbRankWin), then wins the 50-move rule may spoil, the shorter
// the better, draws (0), losses it may save, losses (-tbRankWin).
func tbRank(v, rule50 int, useRule50 bool) int {
	switch {
	case v > 0 && (!useRule50 || v+rule50 <= 99):
		return tbRankWin
	case v > 0:
		return tbRankWin - (v + rule50)
	case v < 0 && (!useRule50 || -2*v+rule50 < 100):
		return -tbRankWin
	case v < 0:
		return -tbRankWin + (-v + rule50)
	}
	return 0
}

// tbInTree tells whether the search probes the tables below the root.
func (p *Pool) tbInTree(r tbRoot) bool {
	if p.opts.Tablebases == nil || p.opts.ProbeLimit < 2 || p.opts.Tablebases.MaxPieces() == 0 {
		return false
	}
	return !r.inTables || (!r.probeDTZ && r.wdl > syzygy.Draw)
}

// probeTablebase is step 4b: a WDL probe of a position just after a
// capture or pawn move with few pieces. It returns done with the score when
// the result settles the node, after storing it in the table.
func (w *worker) probeTablebase(n *node) (score int, done bool) {
	p := w.pool
	pos := w.pos
	if !p.tbProbe || n.ply == 0 || n.excluded != movegen.NoMove || n.depth < p.opts.ProbeDepth ||
		pos.Rule50() != 0 || pos.CastlingRights() != 0 ||
		pos.Occupied().Count() > min(p.opts.ProbeLimit, p.opts.Tablebases.MaxPieces()) {
		return 0, false
	}
	wdl, ok := p.opts.Tablebases.ProbeWDL(pos)
	if !ok {
		return 0, false
	}
	w.tbHits.Add(1)
	draw := 0 // with the 50-move rule, cursed wins and blessed losses are draws
	if p.opts.Rule50 {
		draw = 1
	}
	var bound tt.Bound
	switch {
	case int(wdl) < -draw:
		score, bound = -tbWin+n.ply, tt.BoundUpper
	case int(wdl) > draw:
		score, bound = tbWin-n.ply, tt.BoundLower
	default:
		score, bound = 2*int(wdl)*draw, tt.BoundExact
	}
	if bound == tt.BoundExact || (bound == tt.BoundLower && score >= n.beta) ||
		(bound == tt.BoundUpper && score <= n.alpha) {
		staticEval := n.te.Eval()
		if !n.hit {
			staticEval = w.evaluate(n.ply)
		}
		w.ttRecord(n.key, n.ply, movegen.NoMove, score, staticEval, min(eval.MaxPly-1, n.depth+tbStoreDepthBonus), bound, n.ttPV)
		return score, true
	}
	// A PV node searches on, within the bound.
	if n.pvNode {
		if bound == tt.BoundLower {
			n.tbFloor = score
			n.alpha = max(n.alpha, score)
		} else {
			n.tbCeil = score
		}
	}
	return 0, false
}

// tbRootScore is the score reported for a root the tables cover: the
// tablebase result unless the search found a mate (a win scores tbWin-1, a
// cursed win or blessed loss one point from a draw, as the 50-move rule
// makes it a draw only if the game gets there).
func (p *Pool) tbRootScore(score int, bound Bound) (int, Bound) {
	if !p.tbRoot.inTables || eval.IsMate(score) {
		return score, bound
	}
	switch p.tbRoot.wdl {
	case syzygy.Win:
		return tbWin - 1, Exact
	case syzygy.CursedWin:
		return 1, Exact
	case syzygy.BlessedLoss:
		return -1, Exact
	case syzygy.Loss:
		return -tbWin + 1, Exact
	}
	return 0, Exact
}
