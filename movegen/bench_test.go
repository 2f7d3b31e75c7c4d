package movegen

import (
	"testing"
)

// Benchmark positions for perft speed: the standard start, Kiwipete, and a
// Chess960 middlegame with castling rights on both sides.
const (
	kiwipeteFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	frcBenchFEN = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
)

// BenchmarkPerft reports perft speed in nodes per second (bulk counting at
// the last ply, as Stockfish's go perft does). It must not allocate.
func BenchmarkPerft(b *testing.B) {
	for _, c := range []struct {
		name  string
		fen   string
		depth int
	}{
		{"startpos-d5", StartFEN, 5},
		{"startpos-d6", StartFEN, 6},
		{"kiwipete-d5", kiwipeteFEN, 5},
		{"frc-d5", frcBenchFEN, 5},
	} {
		b.Run(c.name, func(b *testing.B) {
			var p Position
			if err := p.SetFEN(c.fen); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += p.Perft(c.depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// benchPositions are middlegame positions for the generation and
// make/unmake benchmarks.
var benchPositions = []string{StartFEN, kiwipeteFEN, frcBenchFEN,
	"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}

// BenchmarkGenerate measures full legal generation (as search uses it).
func BenchmarkGenerate(b *testing.B) {
	var ps []*Position
	for _, f := range benchPositions {
		ps = append(ps, mustPos(b, f))
	}
	b.ReportAllocs()
	var l MoveList
	for b.Loop() {
		for _, p := range ps {
			l.Clear()
			p.GenerateLegal(&l)
		}
	}
}

// BenchmarkMakeUnmake measures Make plus Unmake of every legal move.
func BenchmarkMakeUnmake(b *testing.B) {
	var ps []*Position
	var lists []MoveList
	for _, f := range benchPositions {
		p := mustPos(b, f)
		var l MoveList
		p.GenerateLegal(&l)
		ps = append(ps, p)
		lists = append(lists, l)
	}
	b.ReportAllocs()
	moves := 0
	for b.Loop() {
		for i, p := range ps {
			l := &lists[i]
			for j := 0; j < l.N; j++ {
				p.Make(l.Moves[j].Move)
				p.Unmake()
			}
			moves += l.N
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkIsLegal measures validating every legal move plus as
// many arbitrary values.
func BenchmarkIsLegal(b *testing.B) {
	p := mustPos(b, kiwipeteFEN)
	var l MoveList
	p.GenerateLegal(&l)
	b.ReportAllocs()
	for b.Loop() {
		for j := 0; j < l.N; j++ {
			p.IsLegal(l.Moves[j].Move)
			p.IsLegal(l.Moves[j].Move ^ 0x0FC0)
		}
	}
}
