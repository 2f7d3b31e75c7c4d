package search

import (
	"context"
	"testing"

	"github.com/kingrook/kingrook/tt"
)

func BenchmarkSearch(b *testing.B) {
	b.ReportAllocs()
	fens := []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	}
	var nodes uint64
	for i := 0; i < b.N; i++ {
		for _, f := range fens {
			p := NewPool(tt.New(16))
			res := p.Search(context.Background(), mustPos(b, f), Limits{Depth: 11}, Options{Threads: 1}, nil)
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
