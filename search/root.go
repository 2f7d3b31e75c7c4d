package search

import (
	"slices"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// The root moves: which are searched and in what first order, their scores
// and PVs as the search finds them, and the settled best line after a
// stop.

// rootMove is one move at the root with its latest score and PV.
type rootMove struct {
	move      movegen.Move
	score     int
	prevScore int
	depth     int // the depth score was searched at
	bound     Bound
	selDepth  int
	pv        []movegen.Move
	nodes     uint64
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

// setRootMoves makes root the worker's root moves, unsearched. Their PV
// buffers, made once with room for the longest PV, are kept from search to
// search.
func (w *worker) setRootMoves(root []movegen.Move) {
	w.rootMoves = w.rootMoves[:len(root)]
	for i, m := range root {
		rm := &w.rootMoves[i]
		pv := rm.pv[:0]
		if cap(pv) < eval.MaxPly+1 {
			pv = make([]movegen.Move, 0, eval.MaxPly+1)
		}
		*rm = rootMove{move: m, score: -infinite, prevScore: -infinite, pv: append(pv, m)}
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
			rm.depth = w.rootDepth
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

// settleBest gives the best root move, after a stop, the exact score and PV
// of the last completed depth unless the aborted depth finished its line
// inside the window. A move that failed high at the aborted depth keeps its
// lower bound: it is played, but its score is no value (see exactScore). A
// move that failed low there (the first one searched after a fail low of
// the window, with only an upper bound) is no better than what the last
// completed depth knew: that depth's best move goes back to the front.
func (w *worker) settleBest() {
	rm := &w.rootMoves[0]
	if rm.score != -infinite && rm.bound == Exact {
		return
	}
	if w.completed > 0 && rm.score != -infinite && rm.bound == Upper && rm.move != w.completedPV[0] {
		for i := 1; i < len(w.rootMoves); i++ {
			if w.rootMoves[i].move == w.completedPV[0] {
				best := w.rootMoves[i]
				copy(w.rootMoves[1:i+1], w.rootMoves[:i])
				w.rootMoves[0] = best
				break
			}
		}
	}
	switch {
	case w.completed == 0:
		if rm.score == -infinite { // stopped before any line finished
			rm.score, rm.bound, rm.depth = w.evaluate(0), Exact, 1
			rm.pv = append(rm.pv[:0], rm.move)
		}
	case rm.score == -infinite || rm.move == w.completedPV[0]:
		rm.score, rm.bound, rm.depth = w.completedScore, Exact, w.completed
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
