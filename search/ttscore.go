package search

import (
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// The transposition table stores the scores it is given. The search keeps
// mate scores in it relative to the node (eval.ScoreToTT) and reads them
// back as mate distances from the root for the probing ply
// (eval.ScoreFromTT), so that an entry stays right when its position is
// reached at another ply.

// ttLookup probes the table for key at ply; a hit's score is a distance
// from the root.
func (w *worker) ttLookup(key uint64, ply int) (tt.Entry, bool) {
	e, ok := w.table.Probe(key)
	if ok {
		e.Score = eval.ScoreFromTT(e.Score, ply)
	}
	return e, ok
}

// ttRecord stores a result found at ply, its score a distance from the root.
func (w *worker) ttRecord(key uint64, ply int, move movegen.Move, score, staticEval, depth int, bound tt.Bound, pv bool) {
	w.table.Store(key, move, eval.ScoreToTT(score, ply), staticEval, depth, bound, pv)
}
