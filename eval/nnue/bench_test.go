package nnue

import (
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// The benchmarks run the embedded net, random nets of width 128 and 256, and
// the same net of width 256 in the KingMirrored layout on each path: go
// test -bench . for the plain Go path only, GOEXPERIMENT=simd go test
// -bench . for the others too: AVX2 (simd) and, where the CPU has it,
// AVX-512 (simd512).

func paths(b *testing.B, run func(b *testing.B, n *Net)) {
	nets := []struct {
		name string
		net  func() *Net
	}{
		{"default", Default},
		{"H128", func() *Net { return randomNet(128, SCReLU, 1) }},
		{"H256", func() *Net { return randomNet(256, SCReLU, 1) }},
		{"H256mirrored", func() *Net { return mirroredNet(256, SCReLU, 1, 1) }},
	}
	defer func(w bool) { wide = w }(wide)
	for _, nn := range nets {
		for _, path := range []string{"plain", "simd", "simd512"} {
			b.Run(nn.name+"/"+path, func(b *testing.B) {
				n := nn.net()
				if path != "plain" && !n.simdOK {
					b.Skip("no SIMD path in this build or on this CPU")
				}
				if path == "simd512" && !wideOK {
					b.Skip("no AVX-512 on this CPU")
				}
				n.forceNoSIM = path == "plain"
				wide = path == "simd512" // "simd": the AVX2 kernels
				b.ReportAllocs()
				run(b, n)
			})
		}
	}
}

const benchFEN = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"

func BenchmarkRefresh(b *testing.B) {
	paths(b, func(b *testing.B, n *Net) {
		pos := mustPos(b, benchFEN)
		acc := n.NewAccumulators(1)
		for b.Loop() {
			acc[0].Refresh(n, pos)
		}
	})
}

// BenchmarkUpdate: one quiet move or capture, both perspectives (in a
// KingMirrored net, one move of the 37, Kd2, takes the king across the d/e
// line: a refresh of White's perspective).
func BenchmarkUpdate(b *testing.B) {
	paths(b, func(b *testing.B, n *Net) {
		pos := mustPos(b, benchFEN)
		var list movegen.MoveList
		pos.GenerateLegal(&list)
		acc := n.NewAccumulators(2)
		acc[0].Refresh(n, pos)
		i := 0
		for b.Loop() {
			acc[1].Update(n, &acc[0], pos, list.At(i))
			if i++; i == list.Len() {
				i = 0
			}
		}
	})
}

func BenchmarkEvaluate(b *testing.B) {
	paths(b, func(b *testing.B, n *Net) {
		pos := mustPos(b, benchFEN)
		acc := n.NewAccumulators(1)
		acc[0].Refresh(n, pos)
		s := 0
		for b.Loop() {
			s += n.Evaluate(&acc[0], movegen.White)
		}
		_ = s
	})
}
