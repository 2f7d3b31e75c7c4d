package search

import (
	"testing"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// TestQsearchQuietCheckMate: quiescence's first ply tries the quiet moves
// that give check, so it sees a back-rank mate; its later plies do not.
func TestQsearchQuietCheckMate(t *testing.T) {
	const fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" // Ra8# is quiet
	const ply = 1
	w := qsWorker(t, fen)
	if got, want := w.qsearch(-infinite, infinite, ply), eval.MateIn(ply+1); got != want {
		t.Errorf("first ply: qsearch %d, want mate in one, %d", got, want)
	}
	if pv := w.stack[ply+stackOffset].pv[:w.stack[ply+stackOffset].pvLen]; len(pv) == 0 || pv[0].UCI(false) != "a1a8" {
		t.Errorf("first ply: PV %v, want a1a8", pv)
	}
	w = qsWorker(t, fen)
	static := w.eval.Evaluate(w.pos)
	if got := w.quiesce(-infinite, infinite, ply, false); got != static {
		t.Errorf("later ply: quiesce %d, want the stand pat %d (no quiet moves)", got, static)
	}
}

// TestQsearchQuietChecksLoseNothing: a quiet check that loses the checking
// piece in the exchange is not tried at all.
func TestQsearchQuietChecksLoseNothing(t *testing.T) {
	w := qsWorker(t, "6k1/5ppp/1n6/8/8/8/8/R5K1 w - - 0 1") // Ra8+ Nxa8: the only check
	static := w.eval.Evaluate(w.pos)
	if got := w.qsearch(-infinite, infinite, 1); got != static {
		t.Errorf("qsearch %d, want the stand pat %d", got, static)
	}
	if w.nodes != 0 {
		t.Errorf("%d moves made, want none: the losing check is skipped", w.nodes)
	}
	// The same check that the knight does not cover is tried.
	w = qsWorker(t, "6k1/5ppp/8/1n6/8/8/8/R5K1 w - - 0 1")
	w.qsearch(-infinite, infinite, 1)
	if w.nodes == 0 {
		t.Error("no move made: the safe check Ra8+ was not tried")
	}
}

// TestUpcomingRepetitionDraws: a side that is behind but can repeat a
// position of the search scores at least the draw, in quiescence and in
// the main search alike.
func TestUpcomingRepetitionDraws(t *testing.T) {
	const fen = "4k1n1/8/8/8/8/8/8/R3K1N1 w - - 0 1"
	setup := func() *worker {
		w := qsWorker(t, fen)
		for _, s := range []string{"g1f3", "g8f6", "f3g1"} {
			m, err := movegen.ParseMove(w.pos, s, false)
			if err != nil {
				t.Fatal(err)
			}
			w.pos.Make(m)
		}
		return w // Black to move, a rook down; Nf6-g8 repeats the position 3 plies back
	}
	const ply = 4
	w := setup()
	if static := w.eval.Evaluate(w.pos); static > -300 {
		t.Fatalf("Black's static evaluation %d: the position is not lost enough to test", static)
	}
	if got := w.qsearch(-200, -150, ply); got < -1 {
		t.Errorf("qsearch at ply %d: %d, want at least the draw", ply, got)
	}
	w = setup()
	if got := w.qsearch(-200, -150, 3); got >= -150 {
		t.Errorf("qsearch at ply 3 (the earlier position is the root): %d, want a fail low", got)
	}
	w = setup()
	if got := w.negamax(-200, -150, 2, ply, false); got < -1 {
		t.Errorf("negamax at ply %d: %d, want at least the draw", ply, got)
	}
}
