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

// The correction histories move their entries towards the search's error
// by a step that grows with the depth, keep them within ±corrMax, never push
// the corrected evaluation past ±corrEvalLimit, and learn the error left
// over by the correction: repeated updates settle on the true error.
func TestCorrectionHistory(t *testing.T) {
	p := NewPool(nil)
	w := newWorker(0, p)
	const start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	w.pos = mustPos(t, start)
	if got := w.correction(37, 0); got != 37 {
		t.Fatalf("empty entries correct 37 to %d", got)
	}
	w.updateCorrection(0, 3, 20)
	first := w.correction(0, 0)
	if first <= 0 || first >= 20 {
		t.Fatalf("after one update towards +20 the correction is %d, want between 0 and 20", first)
	}
	deep := newWorker(1, p)
	deep.pos = w.pos
	deep.updateCorrection(0, 12, 20)
	if d := deep.correction(0, 0); d <= first {
		t.Fatalf("a depth-12 update moved the correction %d, no more than a depth-3 one (%d)", d, first)
	}
	settle := newWorker(2, p)
	settle.pos = w.pos
	for range 300 {
		settle.updateCorrection(0, 8, 50-settle.correction(0, 0))
	}
	if got := settle.correction(0, 0); got < 48 || got > 52 {
		t.Fatalf("updates by the error left over settle on %d, want 50", got)
	}
	for range 2000 {
		w.updateCorrection(0, 20, 5000)
	}
	limit := (corrPawnWeight + 2*corrNonPawnWeight) * corrMax / (corrGrain * corrWeightDen)
	if got := w.correction(0, 0); got > limit || got < limit-2 {
		t.Fatalf("after many updates towards +5000 the correction is %d, want the cap %d", got, limit)
	}
	// Another pawn structure shares the non-pawn entries only; another
	// placement of the pieces shares the pawn entry only.
	w.pos = mustPos(t, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
	if got := w.correction(0, 0); got <= 0 || got >= limit-2 {
		t.Fatalf("another pawn structure: correction %d, want the non-pawn entries' part of %d", got, limit)
	}
	w.pos = mustPos(t, "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 1")
	if got := w.correction(0, 0); got <= 0 || got >= limit-2 {
		t.Fatalf("another piece placement: correction %d, want the pawn and Black's entries' part of %d", got, limit)
	}
	w.pos = mustPos(t, start)
	for range 2000 {
		w.updateCorrection(0, 20, -5000)
	}
	if got := w.correction(0, 0); got < -limit || got > -limit+2 {
		t.Fatalf("after many updates towards -5000 the correction is %d, want the cap %d", got, -limit)
	}
	if got := w.correction(-corrEvalLimit+10, 0); got != -corrEvalLimit {
		t.Fatalf("corrected evaluation %d, want it held at %d", got, -corrEvalLimit)
	}
	// The other side to move has its own entries.
	w.pos = mustPos(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")
	if got := w.correction(0, 0); got != 0 {
		t.Fatalf("White to move reads Black's entries: %d", got)
	}
}

// The continuation correction keys on the last move after the moves two and
// three plies back, and a null move two plies back leaves it out.
func TestContinuationCorrection(t *testing.T) {
	p := NewPool(nil)
	w := newWorker(0, p)
	w.pos = mustPos(t, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
	const ply = 3
	set := func(back int, pc movegen.Piece, m movegen.Move) {
		f := &w.stack[ply+stackOffset-back]
		f.move, f.piece, f.contCorr = m, pc, &w.hist.contCorr[pc][m.To()]
	}
	sq := func(name string) movegen.Square { return movegen.Square(int(name[0]-'a') + 8*int(name[1]-'1')) }
	mv := func(from, to string) movegen.Move { return movegen.NewMove(sq(from), sq(to)) }
	e2e4, e7e5, g1f3 := mv("e2", "e4"), mv("e7", "e5"), mv("g1", "f3")
	set(3, movegen.WhitePawn, e2e4)
	set(2, movegen.BlackPawn, e7e5)
	set(1, movegen.WhiteKnight, g1f3)
	for range 2000 {
		w.updateCorrection(ply, 20, 5000)
	}
	all := w.correction(0, ply)
	limit := (corrPawnWeight + 2*corrNonPawnWeight + corrCont2Weight + corrCont3Weight) * corrMax / (corrGrain * corrWeightDen)
	if all > limit || all < limit-2 {
		t.Fatalf("with both continuation entries the correction is %d, want %d", all, limit)
	}
	w.stack[ply+stackOffset-2].contCorr = nil // a null move two plies back
	if got := w.correction(0, ply); got >= all || got <= 0 {
		t.Fatalf("without the ply-2 continuation entry the correction is %d, want less than %d", got, all)
	}
	set(2, movegen.BlackPawn, mv("d7", "d5"))
	w.stack[ply+stackOffset-3].contCorr = nil
	if got := w.correction(0, ply); got >= all || got <= 0 {
		t.Fatalf("another move two plies back reads the entry: correction %d, want less than %d", got, all)
	}
}
