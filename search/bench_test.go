package search

import (
	"context"
	"testing"

	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// BenchmarkSearch measures fixed-depth searches of three positions
// (standard, Kiwipete, Chess960) with one thread. The table and the pool
// are made, and each position searched once to set up the workers' buffers,
// before the timed loop; each search starts from a cleared table (not
// timed) and fresh histories, so every iteration searches the same tree.
// allocs/op counts the allocations of the three searches together (0 once
// set up).
func BenchmarkSearch(b *testing.B) {
	fens := []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	}
	positions := make([]*movegen.Position, len(fens))
	for i, f := range fens {
		positions[i] = mustPos(b, f)
	}
	table := tt.New(16)
	p := NewPool(table)
	ctx := context.Background()
	lim, opt := Limits{Depth: 11}, Options{Threads: 1}
	for _, pos := range positions {
		p.Search(ctx, pos, lim, opt, nil)
	}
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		for _, pos := range positions {
			b.StopTimer()
			table.Clear()
			p.NewGame()
			b.StartTimer()
			nodes += p.Search(ctx, pos, lim, opt, nil).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
