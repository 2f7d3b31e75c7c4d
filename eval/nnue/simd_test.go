package nnue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// TestSIMDMatchesGeneric checks that the SIMD kernels give exactly the plain
// Go results, on random data including values that wrap around and clamp.
func TestSIMDMatchesGeneric(t *testing.T) {
	if !simdBuilt {
		t.Skip("this build has no SIMD path (build with GOEXPERIMENT=simd on amd64 to test it)")
	}
	if !simdAvailable(16) {
		t.Skip("this CPU lacks AVX2: the SIMD path cannot run")
	}
	r := rand.New(rand.NewPCG(1, 2))
	vec := func(h int, lo, hi int) []int16 {
		v := make([]int16, h)
		for i := range v {
			v[i] = int16(lo + r.IntN(hi-lo+1))
		}
		return v
	}
	// The AVX2 kernels, then the AVX-512 ones where the CPU has them (H = 16
	// runs AVX2 in both rounds).
	defer func(w bool) { wide = w }(wide)
	for _, w := range []bool{false, true} {
		if w && !wideOK {
			t.Log("this CPU lacks AVX-512: its kernels are not tested here")
			continue
		}
		wide = w
		for _, h := range []int{16, 32, 128, 256, 1024} {
			for range 50 {
				src, a0, a1, s0, s1 := vec(h, -32768, 32767), vec(h, -32768, 32767), vec(h, -600, 600), vec(h, -32768, 32767), vec(h, -600, 600)
				d1, d2 := make([]int16, h), make([]int16, h)
				addSubGeneric(d1, src, a0, s0)
				addSubSIMD(d2, src, a0, s0)
				if !slices.Equal(d1, d2) {
					t.Fatalf("wide %v, H=%d: addSub differs", wide, h)
				}
				addSubSubGeneric(d1, src, a0, s0, s1)
				addSubSubSIMD(d2, src, a0, s0, s1)
				if !slices.Equal(d1, d2) {
					t.Fatalf("wide %v, H=%d: addSubSub differs", wide, h)
				}
				addAddSubSubGeneric(d1, src, a0, a1, s0, s1)
				addAddSubSubSIMD(d2, src, a0, a1, s0, s1)
				if !slices.Equal(d1, d2) {
					t.Fatalf("wide %v, H=%d: addAddSubSub differs", wide, h)
				}
				copy(d1, src)
				copy(d2, src)
				addGeneric(d1, a0)
				addSIMD(d2, a0)
				if !slices.Equal(d1, d2) {
					t.Fatalf("wide %v, H=%d: add differs", wide, h)
				}
				subGeneric(d1, s0)
				subSIMD(d2, s0)
				if !slices.Equal(d1, d2) {
					t.Fatalf("wide %v, H=%d: sub differs", wide, h)
				}
				for _, act := range []Activation{CReLU, SCReLU} {
					n := randomBucketNet(h, act, 4, r.Uint64())
					if act == CReLU {
						n.OutputW = vec(4*2*h, -32768, 32767)
					}
					us, them := vec(h, -400, 400), vec(h, -400, 400)
					for b := range 4 {
						w := n.OutputW[b*2*h : (b+1)*2*h]
						if g, s := outputGeneric(n, us, them, w), outputSIMD(n, us, them, w); g != s {
							t.Fatalf("wide %v, H=%d %v bucket %d: output %d plain, %d SIMD", wide, h, act, b, g, s)
						}
					}
				}
			}
		}
	}
}

// TestPathsAgreeAlongGames evaluates random games with both paths.
func TestPathsAgreeAlongGames(t *testing.T) {
	if !simdBuilt || !simdAvailable(16) {
		t.Skip("no SIMD path in this build or on this CPU (GOEXPERIMENT=simd, amd64 with AVX2)")
	}
	for name, n := range testNets(t) {
		acc := n.NewAccumulators(2)
		forRandomGames(t, 10, 100, 9, func(pos *movegen.Position, m movegen.Move) {
			n.forceNoSIM = true
			acc[0].Refresh(n, pos)
			a := n.Evaluate(&acc[0], pos.SideToMove())
			n.forceNoSIM = false
			acc[1].Refresh(n, pos)
			b := n.Evaluate(&acc[1], pos.SideToMove())
			if a != b || !slices.Equal(acc[0].v[0], acc[1].v[0]) || !slices.Equal(acc[0].v[1], acc[1].v[1]) {
				t.Fatalf("%s: %s: plain %d, SIMD %d", name, pos.FEN(true), a, b)
			}
		})
	}
}

// TestGenericMatchesScalar checks the SWAR kernels of the plain path
// against one int16 at a time, with values that wrap.
func TestGenericMatchesScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, h := range []int{16, 256} {
		for range 100 {
			var v [5][]int16
			for k := range v {
				v[k] = make([]int16, h)
				for i := range v[k] {
					v[k][i] = int16(r.Uint32())
				}
			}
			src, a0, a1, s0, s1 := v[0], v[1], v[2], v[3], v[4]
			want, got := make([]int16, h), make([]int16, h)
			for i := range want {
				want[i] = src[i] + a0[i] + a1[i] - s0[i] - s1[i]
			}
			addAddSubSubGeneric(got, src, a0, a1, s0, s1)
			if !slices.Equal(got, want) {
				t.Fatalf("H=%d: addAddSubSub %v, want %v", h, got[:8], want[:8])
			}
			for i := range want {
				want[i] = src[i] + a0[i] - s0[i] - s1[i]
			}
			addSubSubGeneric(got, src, a0, s0, s1)
			if !slices.Equal(got, want) {
				t.Fatalf("H=%d: addSubSub differs", h)
			}
			for i := range want {
				want[i] = src[i] + a0[i] - s0[i]
			}
			addSubGeneric(got, src, a0, s0)
			if !slices.Equal(got, want) {
				t.Fatalf("H=%d: addSub differs", h)
			}
			for i := range want {
				want[i] = src[i] + a1[i]
			}
			copy(got, src)
			addGeneric(got, a1)
			if !slices.Equal(got, want) {
				t.Fatalf("H=%d: add differs", h)
			}
			for i := range want {
				want[i] = src[i] - s1[i]
			}
			copy(got, src)
			subGeneric(got, s1)
			if !slices.Equal(got, want) {
				t.Fatalf("H=%d: sub differs", h)
			}
		}
	}
}
