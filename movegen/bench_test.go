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
