package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// startFENs returns standard, Chess960 and DFRC start positions.
func startFENs(t testing.TB, r *rand.Rand, games int) []string {
	fens := []string{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}
	for i := 1; i < games; i++ {
		var fen string
		var err error
		if i%2 == 1 {
			fen, err = movegen.Chess960FEN(r.IntN(960))
		} else {
			fen, err = movegen.DFRCFEN(r.IntN(960), r.IntN(960))
		}
		if err != nil {
			t.Fatal(err)
		}
		fens = append(fens, fen)
	}
	return fens
}

// forRandomGames plays random games (castling, en passant and promotions
// are preferred when legal, so every kind of move occurs) and calls visit
// with each position and the move about to be played in it.
func forRandomGames(t testing.TB, games, plies int, seed uint64, visit func(pos *movegen.Position, m movegen.Move)) {
	r := rand.New(rand.NewPCG(seed, 3))
	var list movegen.MoveList
	for _, fen := range startFENs(t, r, games) {
		pos := movegen.NewPosition()
		if err := pos.SetFEN(fen); err != nil {
			t.Fatal(err)
		}
		for range plies {
			list.Clear()
			pos.GenerateLegal(&list)
			if list.Len() == 0 {
				break
			}
			m := list.At(r.IntN(list.Len()))
			for i := range list.Len() {
				if list.At(i).Kind() != movegen.Normal && r.IntN(2) == 0 {
					m = list.At(i)
				}
			}
			visit(pos, m)
			pos.Make(m)
		}
	}
}

// TestIncrementalMatchesRefresh plays random standard, Chess960 and DFRC
// games and checks after every move that the incrementally updated
// accumulator equals a full refresh, on both code paths (for a
// KingMirrored net, king moves and castlings across the d/e line included).
func TestIncrementalMatchesRefresh(t *testing.T) {
	forEachPath(t, func(name string, n *Net, simd bool) {
		acc := n.NewAccumulators(4)
		kinds := map[movegen.Move]int{}
		crossings, castlesAcross := 0, 0
		var last *movegen.Position
		var d Delta // reused, as the search reuses its per-ply Deltas
		forRandomGames(t, 60, 200, 5, func(pos *movegen.Position, m movegen.Move) {
			if pos != last { // a new game
				acc[0].Refresh(n, pos)
				last = pos
			}
			kinds[m.Kind()]++
			if n.Crosses(MoveDelta(pos, m)) {
				crossings++
				if m.IsCastling() {
					castlesAcross++
				}
			}
			acc[1].Update(n, &acc[0], pos, m)
			d.SetMove(pos, m)
			if d != MoveDelta(pos, m) {
				t.Fatalf("%v in %s: SetMove over the last move's Delta gives %+v, MoveDelta %+v", m, pos.FEN(true), d, MoveDelta(pos, m))
			}
			fen := pos.FEN(true)
			pos.Make(m)
			acc[2].Refresh(n, pos)
			acc[3].ApplyMade(n, &acc[0], d, pos)
			for _, a := range []*Accumulator{&acc[1], &acc[3]} {
				if !slices.Equal(a.v[0], acc[2].v[0]) || !slices.Equal(a.v[1], acc[2].v[1]) || a.mirror != acc[2].mirror || a.base != acc[2].base {
					t.Fatalf("%s simd=%v: after %v in %s Update or ApplyMade differs from a refresh", name, simd, m, fen)
				}
			}
			if a, b := n.Evaluate(&acc[1], pos.SideToMove()), n.Evaluate(&acc[2], pos.SideToMove()); a != b {
				t.Fatalf("%s: scores %d and %d", name, a, b)
			}
			pos.Unmake()
			acc[0].CopyFrom(&acc[1])
		})
		for _, k := range []movegen.Move{movegen.Normal, movegen.Castling, movegen.EnPassant, movegen.Promotion} {
			if kinds[k] < 5 {
				t.Fatalf("%s: only %d moves of kind %#x in the random games", name, kinds[k], k)
			}
		}
		if n.Layout != Plain && (crossings < 100 || castlesAcross < 5) {
			t.Fatalf("%s: only %d moves across the d/e line, %d of them castlings", name, crossings, castlesAcross)
		}
	})
}

// TestCastlingForms checks every legal move (castling included) of
// positions where the king or the rook stays put or they swap squares, or
// the king crosses the d/e line (a refresh in a KingMirrored net).
func TestCastlingForms(t *testing.T) {
	// The pawns keep each side's rooks from attacking the other's castling
	// squares, so that every castling form is legal.
	fens := []string{
		"1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1", // king on g1: kingside castling leaves the king put; queenside crosses to c1
		"rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w FAfa - 0 1", // king b1, rook a1: queenside, the king lands on c1 and rook d1; kingside crosses to g1
		"2rk4/pppppppp/8/8/8/8/PPPPPPPP/2RK4 w Cc - 0 1",     // king d1, rook c1: they swap squares
		"4k3/pppppppp/8/8/8/8/PPPPPPPP/4KR2 w F - 0 1",       // king e1, rook f1: kingside, the rook stays put
		"3rk3/pppppppp/8/8/8/8/PPPPPPPP/3RK3 w D - 0 1",      // king e1, rook d1: queenside, the rook stays put, the king crosses
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",               // standard castling: queenside crosses
		"r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1", // king f1: queenside crosses to c1, kingside stays on the e-h side
		"3kr3/pppppppp/8/8/8/8/PPPPPPPP/3KR3 w Ee - 0 1",     // king d1, rook e1: kingside crosses to g1, the rook to f1
		"1rk5/pppppppp/8/8/8/8/PPPPPPPP/1RK5 w Bb - 0 1",     // king c1, rook b1: queenside, the king stays put
		"r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",       // en passant and promotions with capture
	}
	var list movegen.MoveList
	forEachPath(t, func(name string, n *Net, simd bool) {
		acc := n.NewAccumulators(4)
		castles, crossings := 0, 0
		for _, fen := range fens {
			for _, stm := range []string{"w", "b"} {
				f := fen
				if stm == "b" {
					f = mirrorFEN(t, fen)
				}
				pos := mustPos(t, f)
				list.Clear()
				pos.GenerateLegal(&list)
				acc[0].Refresh(n, pos)
				for i := range list.Len() {
					m := list.At(i)
					if m.IsCastling() {
						castles++
						if n.Crosses(MoveDelta(pos, m)) {
							crossings++
						}
					}
					acc[1].Update(n, &acc[0], pos, m)
					d := MoveDelta(pos, m)
					pos.Make(m)
					acc[2].Refresh(n, pos)
					acc[3].ApplyMade(n, &acc[0], d, pos)
					for _, a := range []*Accumulator{&acc[1], &acc[3]} {
						if !slices.Equal(a.v[0], acc[2].v[0]) || !slices.Equal(a.v[1], acc[2].v[1]) || a.mirror != acc[2].mirror || a.base != acc[2].base {
							t.Fatalf("%s simd=%v: %s, move %v: Update or ApplyMade differs from refresh", name, simd, f, m)
						}
					}
					if acc[1].Pieces() != pos.Occupied().Count() {
						t.Fatalf("%s: %s, move %v: %d pieces counted, %d on the board", name, f, m, acc[1].Pieces(), pos.Occupied().Count())
					}
					pos.Unmake()
				}
			}
		}
		if castles < 12 {
			t.Fatalf("only %d castling moves generated", castles)
		}
		if n.Layout == KingMirrored && crossings != 14 {
			t.Fatalf("%s: %d castlings across the d/e line, want 14", name, crossings)
		}
	})
}

// TestNoAllocations: updates, refreshes (through the refresh cache too:
// the king's moves and both castlings cross the d/e line or change its
// bucket) and evaluations allocate nothing, on every net and path.
func TestNoAllocations(t *testing.T) {
	pos := mustPos(t, "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1")
	var list movegen.MoveList
	pos.GenerateLegal(&list)
	forEachPath(t, func(name string, n *Net, simd bool) {
		acc := n.NewAccumulators(2)
		acc[0].Refresh(n, pos)
		crossing := 0
		for i := range list.Len() {
			if n.Crosses(MoveDelta(pos, list.At(i))) {
				crossing++
			}
		}
		if n.Layout != Plain && crossing < 3 {
			t.Fatalf("%s: only %d moves refresh through the cache", name, crossing)
		}
		allocs := testing.AllocsPerRun(100, func() {
			for i := range list.Len() {
				acc[1].Update(n, &acc[0], pos, list.At(i))
				_ = n.Evaluate(&acc[1], movegen.Black)
			}
			acc[0].Refresh(n, pos)
		})
		if allocs != 0 {
			t.Fatalf("%s simd=%v: %v allocations per run", name, simd, allocs)
		}
	})
}

// TestCacheOfAnotherNet: a stack of accumulators made for one net, given
// another (same width and layout), computes that net's values: its refresh
// cache holds the first net's.
func TestCacheOfAnotherNet(t *testing.T) {
	a, b := kingBucketNet(32, SCReLU, 1, testKingBuckets, 21), kingBucketNet(32, SCReLU, 1, testKingBuckets, 22)
	accA, accB := a.NewAccumulators(2), b.NewAccumulators(2)
	forRandomGames(t, 6, 80, 23, func(pos *movegen.Position, m movegen.Move) {
		for _, n := range []*Net{a, b} {
			accA[0].Refresh(n, pos)
			accA[1].Update(n, &accA[0], pos, m) // accA's cache is a's
			accB[0].Refresh(n, pos)
			accB[1].Update(n, &accB[0], pos, m) // accB's is b's
			if !slices.Equal(accA[1].v[0], accB[1].v[0]) || !slices.Equal(accA[1].v[1], accB[1].v[1]) {
				t.Fatalf("after %v in %s: two stacks differ with the same net", m, pos.FEN(true))
			}
		}
	})
}

// TestApplyEvaluateMatches: ApplyEvaluate leaves the same accumulator and
// gives the same score as Apply then Evaluate, for every test net on both
// paths, for each side to move, along random games (quiet moves, captures,
// promotions, en passant and castling; moves that cross the d/e line in a
// king-mirrored net are Update's, not Apply's, and are left out).
func TestApplyEvaluateMatches(t *testing.T) {
	forEachPath(t, func(name string, n *Net, simd bool) {
		accs := n.NewAccumulators(3)
		moves := 0
		forRandomGames(t, 12, 60, 11, func(pos *movegen.Position, m movegen.Move) {
			d := MoveDelta(pos, m)
			if n.Crosses(d) {
				return
			}
			accs[0].Refresh(n, pos)
			for _, stm := range []movegen.Color{movegen.White, movegen.Black} {
				accs[1].Apply(n, &accs[0], d)
				want := n.Evaluate(&accs[1], stm)
				got := accs[2].ApplyEvaluate(n, &accs[0], d, stm)
				if got != want {
					t.Fatalf("%s (simd %v), %s %s, side %v: ApplyEvaluate %d, want %d", name, simd, pos.FEN(true), m.UCI(true), stm, got, want)
				}
				for c := movegen.White; c <= movegen.Black; c++ {
					if !slices.Equal(accs[1].Values(c), accs[2].Values(c)) || accs[1].Pieces() != accs[2].Pieces() {
						t.Fatalf("%s (simd %v), %s %s: the accumulators differ", name, simd, pos.FEN(true), m.UCI(true))
					}
				}
			}
			moves++
		})
		if moves < 500 {
			t.Fatalf("%s: %d moves checked", name, moves)
		}
	})
}
