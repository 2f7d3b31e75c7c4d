package search

import (
	"math/rand/v2"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// threats must hold exactly the squares the side not to move attacks, as
// Position.Attacked tells them square by square, along random games from
// standard, Chess960 and tactical starts.
func TestThreatsMatchAttacked(t *testing.T) {
	starts := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var list movegen.MoveList
	checked := 0
	for _, fen := range starts {
		pos := mustPos(t, fen)
		for ply := 0; ply < 60; ply++ {
			att := threats(pos)
			them := pos.SideToMove().Other()
			for s := movegen.Square(0); s < 64; s++ {
				if want := pos.Attacked(s, them, pos.Occupied()); att.Has(s) != want {
					t.Fatalf("%s: square %v attacked by the side not to move: threats says %v, Attacked %v",
						pos.FEN(true), s, att.Has(s), want)
				}
				checked++
			}
			list.N = 0
			pos.GenerateLegal(&list)
			if list.N == 0 {
				break
			}
			pos.Make(list.Moves[rng.IntN(list.N)].Move)
		}
	}
	if checked < 64*100 {
		t.Fatalf("only %d squares checked", checked)
	}
}

// The correction history moves an entry towards the search's error by a
// weight that grows with the depth, keeps it within ±corrMax, and never
// pushes the corrected evaluation past ±corrEvalLimit.
func TestCorrectionHistory(t *testing.T) {
	p := NewPool(nil)
	w := newWorker(0, p)
	w.pos = mustPos(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if got := w.correction(37); got != 37 {
		t.Fatalf("an empty entry corrects 37 to %d", got)
	}
	w.updateCorrection(3, 100)
	first := w.correction(0)
	if first <= 0 || first >= 100 {
		t.Fatalf("after one update towards +100 the correction is %d, want between 0 and 100", first)
	}
	deep := newWorker(1, p)
	deep.pos = w.pos
	deep.updateCorrection(12, 100)
	if d := deep.correction(0); d <= first {
		t.Fatalf("a depth-12 update moved the entry %d, no more than a depth-3 one (%d)", d, first)
	}
	for range 2000 {
		w.updateCorrection(20, 5000)
	}
	if got := w.correction(0); got > corrMax/corrGrain || got < corrMax/corrGrain-1 {
		t.Fatalf("after many updates towards +5000 the correction is %d, want the cap %d (or one below it)", got, corrMax/corrGrain)
	}
	for range 2000 {
		w.updateCorrection(20, -5000)
	}
	if got := w.correction(0); got < -corrMax/corrGrain || got > -corrMax/corrGrain+1 {
		t.Fatalf("after many updates towards -5000 the correction is %d, want the cap %d (or one above it)", got, -corrMax/corrGrain)
	}
	if got := w.correction(-corrEvalLimit + 10); got != -corrEvalLimit {
		t.Fatalf("corrected evaluation %d, want it held at %d", got, corrEvalLimit)
	}
	// The other side to move and another pawn structure have their own entries.
	w.pos = mustPos(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")
	if got := w.correction(0); got != 0 {
		t.Fatalf("White to move reads Black's entry: %d", got)
	}
	w.pos = mustPos(t, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
	if got := w.correction(0); got != 0 {
		t.Fatalf("another pawn structure reads the entry: %d", got)
	}
}
