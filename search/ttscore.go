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

// ttEntry is a table entry as the search reads it: the stored word, whose
// fields the methods decode, and the score as a distance from the root.
// Two words, so that it stays in registers (a tt.Entry goes through memory).
type ttEntry struct {
	p     tt.Packed
	Score int
}

func (e ttEntry) Move() movegen.Move { return e.p.Move() }
func (e ttEntry) Eval() int          { return e.p.Eval() }
func (e ttEntry) Depth() int         { return e.p.Depth() }
func (e ttEntry) Bound() tt.Bound    { return e.p.Bound() }
func (e ttEntry) PV() bool           { return e.p.PV() }

// ttLookup probes the table for key at ply; a hit's score is a distance
// from the root.
func (w *worker) ttLookup(key uint64, ply int) (ttEntry, bool) {
	p, ok := w.table.ProbePacked(key)
	if !ok {
		return ttEntry{}, false
	}
	return ttEntry{p: p, Score: eval.ScoreFromTT(p.Score(), ply)}, true
}

// ttRecord stores a result found at ply, its score a distance from the root.
func (w *worker) ttRecord(key uint64, ply int, move movegen.Move, score, staticEval, depth int, bound tt.Bound, pv bool) {
	w.table.Store(key, move, eval.ScoreToTT(score, ply), staticEval, depth, bound, pv)
}
