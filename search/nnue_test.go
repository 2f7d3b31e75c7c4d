package search

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// TestWorkerAccumulatorsFollowMoves walks random lines with the worker's own
// makeMove and makeNull from standard, Chess960 and DFRC starts, going down
// and back up as a search does, and checks at a random half of the plies
// (the others are left unevaluated, so the lazy updates span several plies
// and siblings) that evaluate gives the network's score of the position and
// leaves the worker's incrementally kept accumulator equal to a refresh.
func TestWorkerAccumulatorsFollowMoves(t *testing.T) {
	net := nnue.Default()
	w := newWorker(0, NewPool(tt.New(1)))
	fresh := net.NewAccumulators(1)
	r := rand.New(rand.NewPCG(3, 4))
	var list movegen.MoveList
	for game := range 30 {
		var fen string
		switch game % 3 {
		case 0:
			fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
		case 1:
			fen, _ = movegen.Chess960FEN(r.IntN(960))
		default:
			fen, _ = movegen.DFRCFEN(r.IntN(960), r.IntN(960))
		}
		w.pos = mustPos(t, fen)
		w.setNet(net)
		ply := 0
		for range 300 {
			if r.IntN(2) == 0 {
				if got, want := w.evaluate(ply), net.EvaluatePosition(w.pos); got != want {
					t.Fatalf("%s: evaluate %d, want %d", w.pos.FEN(true), got, want)
				}
				fresh[0].Refresh(net, w.pos)
				for c := movegen.White; c <= movegen.Black; c++ {
					if !slices.Equal(w.accs[ply].Values(c), fresh[0].Values(c)) {
						t.Fatalf("%s, ply %d: accumulator differs from a refresh", w.pos.FEN(true), ply)
					}
				}
			}
			list.Clear()
			w.pos.GenerateLegal(&list)
			switch {
			case ply > 0 && (list.Len() == 0 || ply >= 40 || r.IntN(4) == 0):
				if w.stack[ply-1+stackOffset].move == movegen.NullMove {
					w.pos.UnmakeNull()
				} else {
					w.pos.Unmake()
				}
				ply--
			case list.Len() == 0:
			case !w.pos.InCheck() && r.IntN(10) == 0:
				w.makeNull(ply)
				ply++
			default:
				m := list.At(r.IntN(list.Len()))
				for i := range list.Len() { // favour castling, en passant, promotions
					if list.At(i).Kind() != movegen.Normal && r.IntN(2) == 0 {
						m = list.At(i)
					}
				}
				w.makeMove(m, ply, false)
				ply++
			}
		}
	}
}

// TestSearchWithNet searches with the network: the result is legal, the
// search deterministic, and the network changes what is searched.
func TestSearchWithNet(t *testing.T) {
	const fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
	net := nnue.Default()
	a, _ := run(t, fen, Limits{Depth: 8}, Options{Threads: 1, MultiPV: 1, Net: net})
	b, _ := run(t, fen, Limits{Depth: 8}, Options{Threads: 1, MultiPV: 1, Net: net})
	hce, _ := run(t, fen, Limits{Depth: 8}, Options{Threads: 1, MultiPV: 1})
	if a.BestMove == movegen.NoMove || !mustPos(t, fen).IsLegal(a.BestMove) {
		t.Fatalf("bestmove %v is not legal", a.BestMove)
	}
	if a.Nodes != b.Nodes || a.BestMove != b.BestMove || a.Score != b.Score {
		t.Fatalf("not deterministic: %+v vs %+v", a, b)
	}
	if a.Nodes == hce.Nodes && a.Score == hce.Score {
		t.Fatalf("the network search looks like the hand-written one: %+v", a)
	}
}
