package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kingrook/kingrook/eval"
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
	followMoves(t, nnue.Default(), randomStarts(3, 30), 300, 3)
}

// TestWorkerMirroredAccumulators is TestWorkerAccumulatorsFollowMoves with
// a random king-mirrored net, whose accumulators makeMove refreshes at once
// for a king crossing the d/e line (the other moves stay lazy), from random
// starts and from positions with every castling form: king and rook both
// moving, swapping, one of them staying put, and the king crossing the d/e
// line by castling (b1 to g1, f1 to c1, d1 to g1, e1 to c1).
func TestWorkerMirroredAccumulators(t *testing.T) {
	for _, layout := range []nnue.Layout{nnue.KingMirrored, nnue.KingBuckets} {
		testWorkerMirroredAccumulators(t, randomLayoutNet(t, 64, 4, layout))
	}
}

func testWorkerMirroredAccumulators(t *testing.T, net *nnue.Net) {
	starts := append(randomStarts(5, 60),
		"1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
		"rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w FAfa - 0 1",
		"2rk4/pppppppp/8/8/8/8/PPPPPPPP/2RK4 w Cc - 0 1",
		"3rk3/pppppppp/8/8/8/8/PPPPPPPP/3RK3 w D - 0 1",
		"r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1",
		"3kr3/pppppppp/8/8/8/8/PPPPPPPP/3KR3 w Ee - 0 1",
		"1rk5/pppppppp/8/8/8/8/PPPPPPPP/1RK5 w Bb - 0 1",
		"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
	)
	crossings, castles := followMoves(t, net, starts, 400, 6)
	if crossings < 200 || castles < 20 {
		t.Fatalf("%s layout: only %d moves across the d/e line or a king bucket's edge, %d of them castlings", net.Layout, crossings, castles)
	}
}

// randomStarts returns n start positions, standard, Chess960 and DFRC in turn.
func randomStarts(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, 4))
	var fens []string
	for game := range n {
		var fen string
		switch game % 3 {
		case 0:
			fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
		case 1:
			fen, _ = movegen.Chess960FEN(r.IntN(960))
		default:
			fen, _ = movegen.DFRCFEN(r.IntN(960), r.IntN(960))
		}
		fens = append(fens, fen)
	}
	return fens
}

// randomLayoutNet returns a random net of width h with 8 output buckets in
// a mirrored layout (KingBuckets: four king buckets, on the first rank
// files e-f and g-h, the second rank, the rest), read back from its file as
// an EvalFile would be.
func randomLayoutNet(t *testing.T, h int, seed uint64, layout nnue.Layout) *nnue.Net {
	r := rand.New(rand.NewPCG(seed, 5))
	n := &nnue.Net{H: h, Act: nnue.SCReLU, QA: 255, QB: 64, Scale: 400, Layout: layout,
		FeatureB: make([]int16, h), OutputW: make([]int16, 8*2*h), OutputB: make([]int32, 8)}
	if layout == nnue.KingBuckets {
		for i := range n.KingBucket {
			n.KingBucket[i] = 3
		}
		n.KingBucket[0], n.KingBucket[1], n.KingBucket[2], n.KingBucket[3] = 0, 0, 1, 1
		for i := 4; i < 8; i++ {
			n.KingBucket[i] = 2
		}
	}
	n.FeatureW = make([]int16, n.InputRows()*h)
	for _, w := range [][]int16{n.FeatureW, n.FeatureB, n.OutputW} {
		for i := range w {
			w[i] = int16(r.IntN(201) - 100)
		}
	}
	var buf bytes.Buffer
	if err := n.Write(&buf); err != nil {
		t.Fatal(err)
	}
	n, err := nnue.Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// followMoves walks random lines of plies steps from each start (see
// TestWorkerAccumulatorsFollowMoves) and returns how many moves made took a
// king across the d/e line, and how many of those were castlings.
func followMoves(t *testing.T, net *nnue.Net, starts []string, plies int, seed uint64) (crossings, castles int) {
	w := newWorker(0, NewPool(tt.New(1)))
	fresh := net.NewAccumulators(1)
	r := rand.New(rand.NewPCG(seed, 4))
	var list movegen.MoveList
	for _, fen := range starts {
		w.pos = mustPos(t, fen)
		w.setNet(net)
		ply := 0
		for range plies {
			if r.IntN(2) == 0 {
				// The search fades the network's score with the 50-move counter.
				want := net.EvaluatePosition(w.pos) * (netFadeBase - min(w.pos.Rule50(), rule50Plies)) / netFadeBase
				if got := w.evaluate(ply); got != want {
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
				if net.Crosses(nnue.MoveDelta(w.pos, m)) {
					crossings++
					if m.IsCastling() {
						castles++
					}
				}
				w.makeMove(m, ply)
				ply++
			}
		}
	}
	return crossings, castles
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

// TestNetFade: the network's evaluation fades toward zero as the fifty-move
// counter grows, to half its size at 100 plies; the bare-king term, which
// this position has, is added whole at every count.
func TestNetFade(t *testing.T) {
	net := nnue.Default()
	w := newWorker(0, NewPool(tt.New(1)))
	const fen = "4k3/8/8/8/8/8/3QP3/4K3 w - - %d 80"
	w.pos = mustPos(t, fmt.Sprintf(fen, 0))
	mop := eval.MopUp(w.pos)
	if mop <= 0 {
		t.Fatalf("the bare-king term is %d on K+Q+P v K, want > 0", mop)
	}
	w.setNet(net)
	full := w.evaluate(0) - mop
	if full == 0 {
		t.Skip("the test net scores the position 0")
	}
	for _, r50 := range []int{1, 40, 99} {
		w.pos = mustPos(t, fmt.Sprintf(fen, r50))
		w.setNet(net)
		if got, want := w.evaluate(0), full*(netFadeBase-r50)/netFadeBase+mop; got != want {
			t.Errorf("50-move counter %d: evaluate %d, want %d (%d at 0, bare-king term %d)", r50, got, want, full, mop)
		}
	}
}
